// The translation namespaces are the files of locales/en: a feature adds its own file
// (locales/<lang>/<feature>.json) and its keys "<feature>.<key>" resolve with no code change.
import { productOfPath } from '../engine/screen';
import { NAMESPACES } from 'virtual:locale-namespaces';
import { namespacesOfScreen, PRODUCT_NAMESPACES, START_NAMESPACES } from './textNamespaces';

export { NAMESPACES, PRODUCT_NAMESPACES };

/**
 * Namespaces fetched with the first screen that uses them, not at start: every namespace but the
 * start ones (textNamespaces.ts); a product's own (PRODUCT_NAMESPACES) is in already on its pages.
 * Sign-in fetches its own (auth, fields), Home its own (programs, communication, account); the server's texts (server) are the server's alone, so
 * the portal never fetches them. Each is a file of its own (vite.config.ts localeTexts).
 */
export const LAZY_NAMESPACES: readonly string[] = NAMESPACES.filter((ns) => !START_NAMESPACES.includes(ns));

/** The namespaces a product loads at start. */
export function namespacesOf(product: string): string[] {
  return NAMESPACES.filter((ns) => START_NAMESPACES.includes(ns) || (PRODUCT_NAMESPACES[ns] ?? []).some((p) => p === product));
}

/**
 * The lazy namespaces a screen uses: a key "<namespace>.<key>" anywhere in its declaration or in the
 * form schemas it names (not a rule's name); the field labels for any screen with a form schema.
 */
export function lazyNamespacesOf(screen: unknown, schemas: Record<string, unknown> = {}, rules: Record<string, unknown> = {}): string[] {
  return namespacesOfScreen(LAZY_NAMESPACES, screen, schemas, (name) => Object.prototype.hasOwnProperty.call(rules, name));
}

/** The namespaces of the product this page is (the address says which). */
export const PAGE_NAMESPACES: readonly string[] = namespacesOf(typeof location === 'undefined' ? 'parentportal' : productOfPath(location.pathname));
