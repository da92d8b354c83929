// Provider records live in providers/<appName>/provider.json (reviewed like code); on start they are
// written into the providers table, which the services read.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from './db/index';
import { providers, type NativeApps, type ProgramOptions } from './db/schema';
import { settingsOf, type AccountLimits, type SignInSettings } from './providerSettings';

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
  /** sign-in lock (server/providerSettings.ts) */
  signIn?: Partial<SignInSettings>;
  /** contacts, absence notices and messages per account (server/providerSettings.ts) */
  limits?: Partial<AccountLimits>;
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
    settingsOf(d.name, rec);
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

export async function syncProviders(db: Db, records: ProviderRecord[]): Promise<void> {
  for (const r of records) {
    const values = { ...r, fieldOptions: r.fieldOptions ?? {}, nativeApps: r.nativeApps ?? {} };
    await db
      .insert(providers)
      .values(values)
      .onConflictDoUpdate({ target: providers.appName, set: values });
  }
}
