// Browser entry: `boot` turns old links into clean paths and detects the language; the session takes
// that language (on a first visit the session store was created before boot could store it), the
// translations of that one language load, then the portal renders.
import { bootLocale } from './shell/boot';
import { getDefaultStore } from 'jotai';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { sessionAtom } from './state';
import { App } from './shell/App';
import { installChunkReload } from './shell/chunkReload';
import { initI18n } from './shell/i18n';
import { getPortalSystem, warmThemeOnFirstInput } from './shell/theme';
import { storeUpdatesAsTransitions } from './state/transitions';

installChunkReload();
storeUpdatesAsTransitions(getDefaultStore());
warmThemeOnFirstInput(window);
getDefaultStore().set(sessionAtom, (s) => (s.locale === bootLocale ? s : { ...s, locale: bootLocale }));
// the Chakra system is built in a task of its own while the first texts load: one long task less
setTimeout(getPortalSystem, 0);

void initI18n(bootLocale).then(() => {
  const root = createRoot(document.getElementById('root')!);
  // a transition: React renders the first page in slices, so a cheap phone answers input meanwhile
  startTransition(() =>
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
});
