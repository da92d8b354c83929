// The provider's products (spec 3 Product record, 4 redirect flows): where the parent application,
// calendar, one-time enrolment and punch pass are served. provider.json `products` names each
// configured product with its base path and, when it runs elsewhere, its host; a product it does not
// name has no host, and the portal shows the configuration error page instead of handing off.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { providerRecordOf, type ProviderRecord } from './providerRecord';
import { PRODUCT_PATHS } from '../src/engine/screen';

export const PRODUCTS = ['parentportal', 'parentapplication', 'calendar', 'onetimeenrollment', 'punchpass'] as const;
export type Product = (typeof PRODUCTS)[number];
const isProduct = (k: string): k is Product => PRODUCTS.some((p) => p === k);

export interface ProductConfig {
  /** the product's origin (https://host[:port]); without it the product runs on this deployment */
  host?: string;
  /** the application path, e.g. /parentapplication/ (iisName is it lowercased, without slashes) */
  path: string;
}

/** The products of a checked provider record's `products`; the parent portal is on this deployment unless it says otherwise. */
export function productsOf(given: ProviderRecord['products']): Partial<Record<Product, ProductConfig>> {
  const out: Partial<Record<Product, ProductConfig>> = { parentportal: { path: '/parentportal/' } };
  for (const [k, v] of Object.entries(given ?? {})) {
    if (v && isProduct(k)) out[k] = { path: v.path, ...(v.host ? { host: v.host } : {}) };
  }
  return out;
}

const cache = new Map<string, Partial<Record<Product, ProductConfig>>>();

/** The products of a provider by appName (provider.json, read once; the server checked it on start). */
export function providerProducts(root: string, appName: string): Partial<Record<Product, ProductConfig>> {
  const k = `${root}\u0000${appName}`;
  let found = cache.get(k);
  if (!found) {
    const file = join(root, 'providers', appName, 'provider.json');
    const rec = existsSync(file) ? providerRecordOf(appName, JSON.parse(readFileSync(file, 'utf8'))) : null;
    found = productsOf(rec?.products);
    cache.set(k, found);
  }
  return found;
}

/** The product's origin: its own host, this deployment's address, or null when it is not configured. */
export function productHost(config: ProductConfig | undefined, linkBase: string | null): string | null {
  if (!config) return null;
  return config.host ?? linkBase;
}

/** A product's base path on this deployment (/flexcalendar/ for the calendar: /calendar is the portal's events screen). */
export const productPath = (name: Product): string => `${PRODUCT_PATHS[name]}/`;

export const iisName = (config: ProductConfig): string => config.path.replace(/\//g, '').toLowerCase();
