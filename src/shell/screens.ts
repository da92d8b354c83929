// Which screens exist. The base screens ship with the portal (screens/*.json); once the provider is
// known its effective declaration set (with overlays) replaces them by id. Matching a URL to a screen
// and parsing its typed query are the engine's (matchRoute, parseQuery).
import type { ScreenDecl } from '../engine/types';
// route, query, layout, access and title of every screen; sections only by kind (vite.config.ts)
import bundled from 'virtual:base-screens';

/** The screens shipped with the portal, by id (what the shell needs before the declaration set). */
export const BASE_SCREENS: Record<string, ScreenDecl> = bundled;

export function effectiveScreens(providerScreens: Record<string, ScreenDecl> | undefined): Record<string, ScreenDecl> {
  return providerScreens ? { ...BASE_SCREENS, ...providerScreens } : BASE_SCREENS;
}

/** True when some screen is declared at exactly this route (menu entries and home tiles use it). */
export function hasScreenAt(screens: Record<string, ScreenDecl>, path: string): boolean {
  return Object.values(screens).some((s) => s.path === path);
}

/** The screen shown when no declared route matches: the one the shell's not-found part draws. */
export function notFoundScreen(screens: Record<string, ScreenDecl>): ScreenDecl | undefined {
  return Object.values(screens).find((s) => s.shellPart === 'notFound');
}
