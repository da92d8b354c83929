// The one check of providers/<appName>/provider.json: schemas/meta/provider.schema.json (compiled once,
// ajv + ajv-formats), then the few rules a schema cannot say. The server runs it on start
// (readProviderRecords) and `npm run check` on every provider; each error names the file and the JSON
// path, e.g. "providers/brightpath/provider.json: /payments/seatHoldMinutes: must be <= 120".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ProviderRecord } from './providerRecord.gen';

export type { ProviderRecord } from './providerRecord.gen';

export const PROVIDER_SCHEMA_FILE = 'schemas/meta/provider.schema.json';

export interface ProviderRecordError {
  file: string;
  /** JSON pointer into the file ('' for the whole record) */
  path: string;
  message: string;
}

let compiled: ValidateFunction | undefined;
/** The compiled schema (read from this repository, whatever root the records come from). */
function validator(): ValidateFunction {
  if (!compiled) {
    const schema = JSON.parse(readFileSync(new URL(`../${PROVIDER_SCHEMA_FILE}`, import.meta.url), 'utf8')) as object;
    // verbose: an error carries its schema (a pattern's x-patternMessage, an object's known properties)
    const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true });
    addFormats(ajv);
    // annotation: the message of a pattern, in words rather than the expression
    ajv.addKeyword({ keyword: 'x-patternMessage', schemaType: 'string' });
    compiled = ajv.compile(schema);
  }
  return compiled;
}

function schemaError(file: string, e: ErrorObject): ProviderRecordError {
  if (e.keyword === 'additionalProperties') {
    // the unknown key is the place to point at; the message lists what the object may hold (unless
    // the list is as long as the record's own)
    const key = (e.params as { additionalProperty: string }).additionalProperty;
    const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const listed = known.length && known.length <= 12 ? ` (${known.join(', ')})` : '';
    return { file, path: `${e.instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `unknown property${listed}` };
  }
  const patternMessage = e.keyword === 'pattern' ? (e.parentSchema as { 'x-patternMessage'?: string } | undefined)?.['x-patternMessage'] : undefined;
  if (patternMessage) return { file, path: e.instancePath, message: patternMessage };
  const allowed = e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
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
  const file = `providers/${folder}/provider.json`;
  const validate = validator();
  if (!validate(json)) return (validate.errors ?? []).map((e) => schemaError(file, e));
  // what the schema cannot say
  const rec = json as ProviderRecord;
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
  const ids = (rec.socialSignIn ?? []).map((s) => s.id);
  ids.forEach((id, i) => ids.indexOf(id) < i && err(`/socialSignIn/${i}/id`, `"${id}" is listed twice`));
  return out;
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
      errors.push({ file: `providers/${d.name}/provider.json`, path: '', message: `not JSON: ${(e as Error).message}` });
      continue;
    }
    const found = providerRecordErrors(d.name, json);
    if (found.length) errors.push(...found);
    else records.push(json as ProviderRecord);
  }
  records.sort((a, b) => a.appName.localeCompare(b.appName));
  return { records, errors };
}
