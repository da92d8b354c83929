// The first screen's code and texts start loading with the page's own scripts. Waiting until the
// shell has drawn and matched its route put each of them one round trip later on a slow network:
// sign-in's form and texts were fetched only after the provider's entry had been drawn, Home's card
// lists only after its first render. The target is the screen the page will show: the route itself,
// or for a provider's entry link the page it continues to (as ProviderEntry decides).
import i18next from 'i18next';
import { matchRoute } from '../engine/screen';
import { loadSections } from '../runtime/registry';
import { continueTo } from './pages/ProviderEntry';
import { BASE_SCREENS, PRODUCT_BASE } from './screens';

/** The screen path this page load will show (before the shell's own redirects). */
export function firstScreenPath(path: string, search: string, session: { token?: string | null; appName?: string | null }): string {
  const entry = /^\/([A-Za-z0-9_-]+)\/parent\/?$/.exec(path);
  if (!entry) return path;
  const signedIn = Boolean(session.token) && session.appName === entry[1].toLowerCase();
  return signedIn ? '/home' : (continueTo(search) ?? '/');
}

/** Starts loading the code of the first screen's sections now, and its texts once i18n is up. */
export function warmFirstScreen(i18nReady: Promise<unknown>, session: { token?: string | null; appName?: string | null }): void {
  const path = window.location.pathname.slice(PRODUCT_BASE.length) || '/';
  const target = firstScreenPath(path.startsWith('/') ? path : `/${path}`, window.location.search, session).split('?')[0];
  const match = matchRoute({ screens: BASE_SCREENS }, target);
  if (!match) return;
  void loadSections(match.screen.sections);
  const texts = (match.screen as { texts?: string[] }).texts;
  if (texts?.length) void i18nReady.then(() => i18next.loadNamespaces(texts)).catch(() => undefined);
}
