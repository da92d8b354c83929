// The first screen's code and texts start loading with the page's own scripts. Waiting until the
// shell has drawn and matched its route put each of them one round trip later on a slow network:
// sign-in's form and texts were fetched only after the provider's entry had been drawn, Home's card
// lists only after its first render. The target is the screen the page will show: the route itself,
// or for a provider's entry link the page it continues to (as ProviderEntry decides).
import { loadNamespaces } from '../../runtime/texts';
import { matchRoute } from '../../engine/screen';
import type { ScreenDecl } from '../../engine/types';
import { loadSections } from '../../runtime/registry';
import { entryContinuesTo } from '../pages/ProviderEntry';
import { BASE_SCREENS, PRODUCT_BASE } from '../routing/screens';

type EntrySession = { token?: string | null; appName?: string | null };

/** The screen this page load will show (before the shell's own redirects). */
export function firstScreen(path: string, search: string, session: EntrySession): ScreenDecl | undefined {
  const match = matchRoute({ screens: BASE_SCREENS }, path);
  if (match?.screen.shellPart !== 'providerEntry') return match?.screen;
  const next = entryContinuesTo((match.params.appName ?? '').trim().toLowerCase(), search, session);
  return matchRoute({ screens: BASE_SCREENS }, next.split('?')[0])?.screen;
}

/** Starts loading the code and the texts of the first screen's sections now. */
export function warmFirstScreen(session: EntrySession): void {
  const path = window.location.pathname.slice(PRODUCT_BASE.length) || '/';
  const screen = firstScreen(path.startsWith('/') ? path : `/${path}`, window.location.search, session);
  if (!screen) return;
  void loadSections(screen.sections);
  const texts = (screen as { texts?: string[] }).texts;
  // beside the start texts, not after them: the language is set as i18n starts
  if (texts?.length) void loadNamespaces(texts).catch(() => undefined);
}
