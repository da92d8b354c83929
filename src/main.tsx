// Browser entry: `boot` turns old links into clean paths and detects the language; the session takes
// that language (on a first visit the session store was created before boot could store it), the
// translations of that one language load, then the portal renders.
import { bootLocale } from './shell/boot/boot';
import { getDefaultStore } from 'jotai';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sessionAtom } from './state';
import { App } from './shell/App';
import { installChunkReload } from './shell/errors/chunkReload';
import { initI18n } from './shell/language/language';
import { getPortalSystem, warmThemeOnFirstInput } from './shell/theme/theme';
import { warmFirstScreen } from './shell/boot/warm';
import { firstPaintHost } from './shell/boot/firstPaint';
// Chakra's start-up CSS, built ahead (src/shell/theme/theme.ts says why)
import './shell/theme/chakraGlobal.gen.css';
// the rules of the first paint the server draws as HTML before the scripts (server/boot.ts)
import './shell/boot/firstPaint.css';

installChunkReload();
warmThemeOnFirstInput(window);
getDefaultStore().set(sessionAtom, (s) => (s.locale === bootLocale ? s : { ...s, locale: bootLocale }));
// the Chakra system is built in a task of its own while the first texts load: one long task less
setTimeout(getPortalSystem, 0);

const i18nReady = initI18n(bootLocale);
warmFirstScreen(getDefaultStore().get(sessionAtom));

void i18nReady.then(() => {
  // beside the server's first paint, if any, which stays until React's page is drawn
  const root = createRoot(firstPaintHost(document.getElementById('root')!));
  // a transition: React renders the first page in slices, so a cheap phone answers input meanwhile
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
