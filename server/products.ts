// The provider's products (spec 3 Product record, 4 redirect flows): where the parent application,
// calendar, one-time enrolment and punch pass are served. provider.json `products` names each
// configured product with its base path and, when it runs elsewhere, its host; a product it does not
// name has no host, and the portal shows the configuration error page instead of handing off.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export const PRODUCTS = ['parentportal', 'parentapplication', 'calendar', 'onetimeenrollment', 'punchpass'] as const;
export type Product = (typeof PRODUCTS)[number];

export interface ProductConfig {
  /** the product's origin (https://host[:port]); without it the product runs on this deployment */
  host?: string;
  /** the application path, e.g. /parentapplication/ (iisName is it lowercased, without slashes) */
  path: string;
}

/** Reads and checks provider.json `products`; a mistyped entry stops the start. */
export function productsOf(name: string, given: unknown): Partial<Record<Product, ProductConfig>> {
  const out: Partial<Record<Product, ProductConfig>> = { parentportal: { path: '/parentportal/' } };
  if (given === undefined) return out;
  const where = `providers/${name}/provider.json: products`;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error(`${where} must be an object`);
  for (const [k, v] of Object.entries(given as Record<string, unknown>)) {
    if (!(PRODUCTS as readonly string[]).includes(k)) throw new Error(`${where}: unknown product "${k}" (${PRODUCTS.join(', ')})`);
    if (typeof v !== 'object' || v === null) throw new Error(`${where}.${k} must be an object`);
    const { host, path } = v as { host?: unknown; path?: unknown };
    if (typeof path !== 'string' || !/^\/[A-Za-z0-9_-]+\/$/.test(path)) throw new Error(`${where}.${k}.path must look like /name/`);
    if (host !== undefined && (typeof host !== 'string' || !/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?$/.test(host))) throw new Error(`${where}.${k}.host must be an origin such as https://apps.example.org`);
    out[k as Product] = { path, ...(host ? { host: host as string } : {}) };
  }
  return out;
}

const cache = new Map<string, Partial<Record<Product, ProductConfig>>>();

/** The products of a provider by appName (provider.json, read once). */
export function providerProducts(root: string, appName: string): Partial<Record<Product, ProductConfig>> {
  const k = `${root}\u0000${appName}`;
  let found = cache.get(k);
  if (!found) {
    const file = join(root, 'providers', appName, 'provider.json');
    const rec = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { products?: unknown }) : {};
    found = productsOf(appName, rec.products);
    cache.set(k, found);
  }
  return found;
}

/** The product's origin: its own host, this deployment's address, or null when it is not configured. */
export function productHost(config: ProductConfig | undefined, linkBase: string | null): string | null {
  if (!config) return null;
  return config.host ?? linkBase;
}

export const iisName = (config: ProductConfig): string => config.path.replace(/\//g, '').toLowerCase();
