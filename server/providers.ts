// Provider records live in providers/<appName>/provider.json (reviewed like code); on start they are
// written into the providers table, which the services read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db/index';
import { providers, type LinkByLanguage, type NativeApps, type ProgramOptions, type ProviderLinks } from './db/schema';
import { paymentsOf } from './payments/settings';
import { settingsOf, type AccountLimits, type SignInSettings } from './providerSettings';
import { productsOf } from './products';
import { rollupOf } from './gradeRollup';

export interface ProviderRecord {
  appName: string;
  customerID: number;
  programName: string;
  logoUrl: string;
  organisation: string;
  supportPhone: string;
  supportEmail: string;
  countryCode: 'US' | 'CA';
  city: string;
  stateCode: string;
  languages: { code: string; name: string }[];
  isSchoolDistrict: boolean;
  hasSmsLicense: boolean;
  attendanceAllowed: boolean;
  programOptions: ProgramOptions;
  features: Record<string, boolean>;
  /** field options of configurable fields (spec 5.1); a field not listed uses its declaration's default */
  fieldOptions?: Record<string, 'M' | 'R' | 'O' | 'H'>;
  /** native app versions per OS (US providers only; spec 1) */
  nativeApps?: NativeApps;
  /** the User Guide (side menu, spec 2.4) and privacy policy (footer, spec 2.5) pages, per language */
  userGuideUrl?: LinkByLanguage;
  privacyPolicyUrl?: LinkByLanguage;
  /** sign-in lock (server/providerSettings.ts) */
  signIn?: Partial<SignInSettings>;
  /** contacts, absence notices and messages per account (server/providerSettings.ts) */
  limits?: Partial<AccountLimits>;
  /** where the provider's other products are served (server/products.ts) */
  products?: unknown;
  /** the year-end grade roll-up window (server/gradeRollup.ts) */
  yearEndGradeRollup?: unknown;
  /** payment options, gateways, processing fees, seat hold (server/payments/settings.ts) */
  payments?: unknown;
}

const REQUIRED: (keyof ProviderRecord)[] = [
  'appName', 'customerID', 'programName', 'logoUrl', 'organisation', 'supportPhone', 'supportEmail', 'countryCode',
  'city', 'stateCode', 'languages', 'isSchoolDistrict', 'hasSmsLicense', 'attendanceAllowed', 'programOptions', 'features',
];

export function readProviderRecords(root: string): ProviderRecord[] {
  const dir = join(root, 'providers');
  if (!existsSync(dir)) return [];
  const out: ProviderRecord[] = [];
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, d.name, 'provider.json');
    if (!d.isDirectory() || !existsSync(file)) continue;
    const rec = JSON.parse(readFileSync(file, 'utf8')) as ProviderRecord;
    const missing = REQUIRED.filter((k) => rec[k] === undefined);
    if (missing.length) throw new Error(`providers/${d.name}/provider.json: missing ${missing.join(', ')}`);
    if (rec.appName !== d.name) throw new Error(`providers/${d.name}/provider.json: appName must be "${d.name}"`);
    if (!['US', 'CA'].includes(rec.countryCode)) throw new Error(`providers/${d.name}/provider.json: countryCode must be US or CA`);
    checkNativeApps(d.name, rec.nativeApps);
    for (const k of LINK_KEYS) checkLink(d.name, k, rec[k], rec.languages?.[0]?.code);
    settingsOf(d.name, rec);
    paymentsOf(d.name, rec.payments);
    productsOf(d.name, rec.products);
    rollupOf(d.name, rec.yearEndGradeRollup);
    out.push(rec);
  }
  return out.sort((a, b) => a.appName.localeCompare(b.appName));
}

const VERSION = /^[0-9]{1,6}(\.[0-9]{1,6}){0,3}$/;

/** A mistyped version would silently never (or always) ask for the update: refuse it on start. */
function checkNativeApps(name: string, apps: unknown): void {
  if (apps === undefined) return;
  const where = `providers/${name}/provider.json: nativeApps`;
  if (typeof apps !== 'object' || apps === null || Array.isArray(apps)) throw new Error(`${where} must be an object`);
  for (const [os, v] of Object.entries(apps as Record<string, unknown>)) {
    if (os !== 'android' && os !== 'ios') throw new Error(`${where}: unknown OS "${os}" (android or ios)`);
    const app = v as Record<string, unknown>;
    for (const k of ['minimumVersion', 'latestVersion'] as const) {
      if (typeof app?.[k] !== 'string' || !VERSION.test(app[k] as string)) throw new Error(`${where}.${os}.${k} must be a version like 2.1.0`);
    }
    if (app.storeUrl !== undefined && (typeof app.storeUrl !== 'string' || !/^https:\/\//.test(app.storeUrl))) {
      throw new Error(`${where}.${os}.storeUrl must be an https address`);
    }
  }
}

const LINK_KEYS = ['userGuideUrl', 'privacyPolicyUrl'] as const;
const LINK_LANGUAGES = ['en', 'es', 'pt', 'vi'];

/**
 * A provider page is opened from the portal: only https addresses, per portal language, and one in the
 * provider's default language, which the other languages fall back to.
 */
function checkLink(name: string, key: (typeof LINK_KEYS)[number], value: unknown, defaultLang: string | undefined): void {
  if (value === undefined) return;
  const where = `providers/${name}/provider.json: ${key}`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${where} must be an object of addresses by language (${LINK_LANGUAGES.join(', ')})`);
  for (const [lang, url] of Object.entries(value)) {
    if (!LINK_LANGUAGES.includes(lang)) throw new Error(`${where}: unknown language "${lang}" (${LINK_LANGUAGES.join(', ')})`);
    if (!isHttpsAddress(url)) throw new Error(`${where}.${lang} must be an https address`);
  }
  if (!defaultLang || !(defaultLang in value)) throw new Error(`${where} needs an address in the default language "${defaultLang}"`);
}

function isHttpsAddress(url: unknown): boolean {
  if (typeof url !== 'string' || url.length > 2000) return false;
  try {
    const u = new URL(url);
    // no user:password@ part: an address like https://provider.org@elsewhere.example misleads
    return u.protocol === 'https:' && u.hostname !== '' && !u.username && !u.password && url === url.trim();
  } catch {
    return false;
  }
}

/** The links column of a provider record. */
export function linksOf(rec: Pick<ProviderRecord, 'userGuideUrl' | 'privacyPolicyUrl'>): ProviderLinks {
  const out: ProviderLinks = {};
  for (const k of LINK_KEYS) if (rec[k]) out[k] = rec[k];
  return out;
}

export async function syncProviders(db: Db, records: ProviderRecord[]): Promise<void> {
  for (const r of records) {
    const values = { ...r, fieldOptions: r.fieldOptions ?? {}, nativeApps: r.nativeApps ?? {}, links: linksOf(r) };
    await db
      .insert(providers)
      .values(values)
      .onConflictDoUpdate({ target: providers.appName, set: values });
  }
}
