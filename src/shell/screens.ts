// Which screens exist. The base screens ship with the portal (screens/*.json); once the provider is
// known its effective declaration set (with overlays) replaces them by id. Matching a URL to a screen
// and parsing its typed query are the engine's (matchRoute, parseQuery).
import type { ScreenDecl } from '../engine/types';

const bundled = import.meta.glob<ScreenDecl>('../../screens/*.json', { eager: true, import: 'default' });

/** The screens shipped with the portal, by id. */
export const BASE_SCREENS: Record<string, ScreenDecl> = Object.fromEntries(
  Object.values(bundled)
    .filter((s): s is ScreenDecl => Boolean(s && typeof s === 'object' && (s as ScreenDecl).id && (s as ScreenDecl).path))
    .map((s) => [s.id, s]),
);

export function effectiveScreens(providerScreens: Record<string, ScreenDecl> | undefined): Record<string, ScreenDecl> {
  return providerScreens ? { ...BASE_SCREENS, ...providerScreens } : BASE_SCREENS;
}

/** True when some screen is declared at exactly this route (menu entries and home tiles use it). */
export function hasScreenAt(screens: Record<string, ScreenDecl>, path: string): boolean {
  return Object.values(screens).some((s) => s.path === path);
}

/** The screen shown when no declared route matches. */
export const NOT_FOUND_SCREEN = 'notfound';
