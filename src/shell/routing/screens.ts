// Which screens exist. The base screens ship with the portal (screens/*.json); once the provider is
// known its effective declaration set (with overlays) replaces them by id. Matching a URL to a screen
// and parsing its typed query are the engine's (matchRoute, parseQuery).
import type { ScreenDecl } from '../../engine/types';
import { PRODUCT_BASES, productOfPath, screensOfProduct, type ProductName } from '../../engine/screen';
// route, query, layout, access and title of the portal's screens; sections only by kind (vite.config.ts)
import portalScreens from 'virtual:base-screens/parentportal';

/**
 * The product this page is (the parent portal, or the parent application under its own base path):
 * fixed for the page's life, since moving between products is a full navigation (the hand-off).
 */
export const CURRENT_PRODUCT: ProductName = typeof window === 'undefined' ? 'parentportal' : productOfPath(window.location.pathname);
/** The router's base: the current product's base path. */
export const PRODUCT_BASE: string = PRODUCT_BASES[CURRENT_PRODUCT];

type Screens = Record<string, ScreenDecl>;
/**
 * The other products' screens, a chunk each: a parent reaches them by a hand-off, and the portal's
 * first load (sign-in, Home) does not carry them.
 */
const PRODUCT_SCREENS: Record<Exclude<ProductName, 'parentportal'>, () => Promise<{ default: Screens }>> = {
  parentapplication: () => import('virtual:base-screens/parentapplication'),
  onetimeenrollment: () => import('virtual:base-screens/onetimeenrollment'),
  calendar: () => import('virtual:base-screens/calendar'),
  punchpass: () => import('virtual:base-screens/punchpass'),
};

/** The screens shipped with the portal, by id (what the shell needs before the declaration set). */
export const BASE_SCREENS: Screens = CURRENT_PRODUCT === 'parentportal' ? portalScreens : (await PRODUCT_SCREENS[CURRENT_PRODUCT]()).default;

export function effectiveScreens(providerScreens: Record<string, ScreenDecl> | undefined): Record<string, ScreenDecl> {
  return providerScreens ? { ...BASE_SCREENS, ...screensOfProduct(providerScreens, CURRENT_PRODUCT) } : BASE_SCREENS;
}

/** True when some screen is declared at exactly this route (menu entries and home tiles use it). */
export function hasScreenAt(screens: Record<string, ScreenDecl>, path: string): boolean {
  return Object.values(screens).some((s) => s.path === path);
}

/** The screen shown when no declared route matches: the one the shell's not-found part draws. */
export function notFoundScreen(screens: Record<string, ScreenDecl>): ScreenDecl | undefined {
  return Object.values(screens).find((s) => s.shellPart === 'notFound');
}
