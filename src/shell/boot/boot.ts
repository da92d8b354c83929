// Start-up work before the portal renders (main.tsx imports it first): an old hash link becomes a
// clean path before the router reads it, and the language is detected (stored choice, cookie, path,
// browser). A first visit's language is also stored as the session's. The server's fixed 'today', if any.
import { PRODUCT_SESSION_KEYS, productOfPath } from '../../engine/screen';
import { setFixedToday } from '../../engine/today';
import { detectLocale, toSupportedLocale, type Locale } from '../language/locale';
import { withOldLinkFlag } from './oldLink';

// each product keeps its own session (src/state: SESSION_STORAGE_KEY)
const SESSION_KEY = PRODUCT_SESSION_KEYS[productOfPath(location.pathname)];
const BASE = import.meta.env.BASE_URL || '/parentportal/';

/** Turns an old hash link (/parentportal/#/home) into the clean path and remembers it came from one. */
function upgradeOldLink(): void {
  if (!location.hash.startsWith('#/')) return;
  history.replaceState(withOldLinkFlag(history.state, true), '', `${BASE.replace(/\/$/, '')}${location.hash.slice(1)}`);
}

/** The locale the user chose before (persisted session), if a session was ever stored. */
function storedLocale(): string | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? ((JSON.parse(raw) as { locale?: string }).locale ?? null) : null;
  } catch {
    return null;
  }
}

upgradeOldLink();

// a server with a fixed day (PORTAL_TODAY) names it in the page: the calendar and the rules' today follow it
setFixedToday(document.querySelector<HTMLMetaElement>('meta[name=portal-today]')?.content || undefined);

const stored = storedLocale();

export const bootLocale: Locale = detectLocale({
  stored,
  // the cookie only counts without a stored choice (reading it asks the browser for the cookies)
  cookie: toSupportedLocale(stored) ? '' : document.cookie,
  path: location.pathname.slice(BASE.length - 1),
  browser: navigator.languages,
});

// first visit: the detected language becomes the session's
if (stored === null) {
  try {
    localStorage.setItem(SESSION_KEY, JSON.stringify({ locale: bootLocale }));
  } catch {
    /* private mode: the default applies */
  }
}
