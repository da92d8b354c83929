// Browser entry: old hash links become clean paths, translations of the detected language load, then
// the portal renders. Failed lazy chunks reload the page (at most once per 60 s).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './shell/App';
import { installChunkReload } from './shell/chunkReload';
import { initI18n } from './shell/i18n';
import { detectLocale } from './shell/locale';
import { upgradeOldLink } from './shell/pages/BookmarkNotice';

installChunkReload();
upgradeOldLink();

/** The locale the user chose before (persisted session), if a session was ever stored. */
function storedLocale(): string | null {
  try {
    const raw = localStorage.getItem('pp.session');
    return raw ? ((JSON.parse(raw) as { locale?: string }).locale ?? null) : null;
  } catch {
    return null;
  }
}

const stored = storedLocale();
const locale = detectLocale({
  stored: stored,
  cookie: document.cookie,
  path: location.pathname.slice((import.meta.env.BASE_URL || '/parentportal/').length - 1),
  browser: navigator.languages,
});

// first visit: the detected language becomes the session's (the session is read from storage on start)
if (stored === null) {
  try {
    localStorage.setItem('pp.session', JSON.stringify({ locale }));
  } catch {
    /* private mode: the default applies */
  }
}

void initI18n(locale).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
