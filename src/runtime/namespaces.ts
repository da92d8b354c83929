// The translation namespaces are the files of locales/en: a feature adds its own file
// (locales/<lang>/<feature>.json) and its keys "<feature>.<key>" resolve with no code change.
import { productOfPath } from '../engine/screen';

const files = import.meta.glob('../../locales/en/*.json');

export const NAMESPACES: readonly string[] = Object.keys(files)
  .map((p) => p.slice(p.lastIndexOf('/') + 1, -'.json'.length))
  .sort();

/**
 * Namespaces only another product reads: the portal does not fetch the parent application's texts
 * (their files are chunks of their own, see vite.config.ts), and the application fetches everything.
 */
export const PRODUCT_NAMESPACES: Readonly<Record<string, 'parentapplication'>> = { application: 'parentapplication' };

/**
 * Namespaces fetched with the first screen that uses them, not at start (payments, the account's
 * pages, enrolment: sign-in never shows them, and the first load stays small). Their files are
 * chunks of their own (vite.config.ts).
 */
export const LAZY_NAMESPACES: readonly string[] = ['payment', 'account', 'enrollment'];

/** The namespaces a product loads at start. */
export function namespacesOf(product: string): string[] {
  return NAMESPACES.filter((ns) => !LAZY_NAMESPACES.includes(ns) && (!PRODUCT_NAMESPACES[ns] || PRODUCT_NAMESPACES[ns] === product));
}

/**
 * The lazy namespaces a screen uses: a key "<namespace>.<key>" anywhere in its declaration or in the
 * form schemas it names (a field's extra option label, a row's message).
 */
export function lazyNamespacesOf(screen: unknown, schemas: Record<string, unknown> = {}): string[] {
  const own = JSON.stringify(screen) ?? '';
  const named = [...own.matchAll(/"schema":"([^"]+)"/g)].map((m) => JSON.stringify(schemas[m[1]] ?? ''));
  const text = [own, ...named].join('');
  return LAZY_NAMESPACES.filter((ns) => text.includes(`"${ns}.`));
}

/** The namespaces of the product this page is (the address says which). */
export const PAGE_NAMESPACES: readonly string[] = namespacesOf(typeof location === 'undefined' ? 'parentportal' : productOfPath(location.pathname));
