// The one check of providers/<appName>/provider.json: schemas/meta/provider.schema.json (compiled once,
// ajv + ajv-formats), then the few rules a schema cannot say. The server runs it on start
// (readProviderRecords) and `npm run check` on every provider; each error names the file and the JSON
// path, e.g. "providers/brightpath/provider.json: /payments/seatHoldMinutes: must be <= 120".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ProviderRecord } from './providerRecord.gen';
import { isRecord } from './json';
import { PRODUCT_PATHS } from '../src/engine/screen';

export type { ProviderRecord } from './providerRecord.gen';

export const PROVIDER_SCHEMA_FILE = 'schemas/meta/provider.schema.json';

export interface ProviderRecordError {
  file: string;
  /** JSON pointer into the file ('' for the whole record) */
  path: string;
  message: string;
}

let compiled: ValidateFunction<ProviderRecord> | undefined;
/** The compiled schema (read from this repository, whatever root the records come from). */
function validator(): ValidateFunction<ProviderRecord> {
  if (!compiled) {
    const schema: unknown = JSON.parse(readFileSync(new URL(`../${PROVIDER_SCHEMA_FILE}`, import.meta.url), 'utf8'));
    if (!isRecord(schema)) throw new Error(`${PROVIDER_SCHEMA_FILE}: not a JSON schema`);
    // verbose: an error carries its schema (a pattern's x-patternMessage, an object's known properties)
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
    addFormats(ajv);
    // annotation: the message of a pattern, in words rather than the expression
    ajv.addKeyword({ keyword: 'x-patternMessage', schemaType: 'string' });
    compiled = ajv.compile<ProviderRecord>(schema);
  }
  return compiled;
}

function schemaError(file: string, e: ErrorObject): ProviderRecordError {
  if (e.keyword === 'additionalProperties') {
    // the unknown key is the place to point at; the message lists what the object may hold (unless
    // that is more than 12 names, the record's own)
    const key = String(e.params.additionalProperty);
    const properties: unknown = e.parentSchema?.properties;
    const known = isRecord(properties) ? Object.keys(properties) : [];
    const listed = known.length && known.length <= 12 ? ` (${known.join(', ')})` : '';
    return { file, path: `${e.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `unknown property${listed}` };
  }
  const patternMessage: unknown = e.keyword === 'pattern' ? e.parentSchema?.['x-patternMessage'] : undefined;
  if (typeof patternMessage === 'string' && patternMessage) return { file, path: e.instancePath, message: patternMessage };
  const allowedValues: unknown = e.params.allowedValues;
  const allowed = e.keyword === 'enum' && Array.isArray(allowedValues) ? ` (${allowedValues.join(', ')})` : '';
  return { file, path: e.instancePath, message: `${e.message ?? 'invalid'}${allowed}` };
}

/** Compares dotted versions numerically: "1.10.0" > "1.9.3". */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** What is wrong with the record of providers/<folder>/provider.json (empty: nothing). */
export function providerRecordErrors(folder: string, json: unknown): ProviderRecordError[] {
  return checkedRecord(folder, json).errors;
}

/** The record of providers/<folder>/provider.json when nothing is wrong with it, else null. */
export function providerRecordOf(folder: string, json: unknown): ProviderRecord | null {
  return checkedRecord(folder, json).record;
}

/** The record once nothing is wrong with it, and what is wrong (empty: nothing). */
function checkedRecord(folder: string, json: unknown): { record: ProviderRecord | null; errors: ProviderRecordError[] } {
  const file = `providers/${folder}/provider.json`;
  const validate = validator();
  if (!validate(json)) return { record: null, errors: (validate.errors ?? []).map((e) => schemaError(file, e)) };
  // what the schema cannot say
  const rec = json;
  const out: ProviderRecordError[] = [];
  const err = (path: string, message: string) => out.push({ file, path, message });
  if (rec.appName !== folder) err('/appName', `must be "${folder}", the name of the provider's folder`);
  const codes = rec.languages.map((l) => l.code);
  codes.forEach((c, i) => codes.indexOf(c) < i && err(`/languages/${i}/code`, `"${c}" is listed twice`));
  // the other languages fall back to the default language's page, so it must exist
  for (const key of ['userGuideUrl', 'privacyPolicyUrl'] as const) {
    if (rec[key] && !rec[key][codes[0]]) err(`/${key}`, `needs an address in the default language "${codes[0]}"`);
  }
  // an update can be required only below a version that is offered
  for (const os of ['android', 'ios'] as const) {
    const app = rec.nativeApps?.[os];
    if (app && compareVersions(app.minimumVersion, app.latestVersion) > 0) {
      err(`/nativeApps/${os}/minimumVersion`, `must not be above latestVersion (${app.latestVersion})`);
    }
  }
  // a product on this deployment is served at its own base path, so no two share one and none takes
  // a path of another's (the calendar product is /flexcalendar/, never the portal's /calendar screen)
  for (const [name, product] of Object.entries(rec.products ?? {})) {
    const own = Object.entries(PRODUCT_PATHS).find(([k]) => k === name)?.[1];
    if (product && !product.host && own && product.path !== `${own}/`) err(`/products/${name}/path`, `must be "${own}/" on this deployment (or give the product's host)`);
  }
  const ids = (rec.socialSignIn ?? []).map((s) => s.id);
  ids.forEach((id, i) => ids.indexOf(id) < i && err(`/socialSignIn/${i}/id`, `"${id}" is listed twice`));
  return { record: out.length ? null : rec, errors: out };
}

export function formatProviderRecordError(e: ProviderRecordError): string {
  return `${e.file}: ${e.path || '/'}: ${e.message}`;
}

/** Every providers/<appName>/provider.json under root, checked; records sorted by appName. */
export function checkProviderFiles(root: string): { records: ProviderRecord[]; errors: ProviderRecordError[] } {
  const dir = join(root, 'providers');
  const records: ProviderRecord[] = [];
  const errors: ProviderRecordError[] = [];
  if (!existsSync(dir)) return { records, errors };
  for (const d of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, d.name, 'provider.json');
    if (!d.isDirectory() || !existsSync(file)) continue;
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      errors.push({ file: `providers/${d.name}/provider.json`, path: '', message: `not JSON: ${e instanceof Error ? e.message : String(e)}` });
      continue;
    }
    const { record, errors: found } = checkedRecord(d.name, json);
    if (record) records.push(record);
    else errors.push(...found);
  }
  records.sort((a, b) => a.appName.localeCompare(b.appName));
  return { records, errors };
}
