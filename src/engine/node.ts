// Reading declarations from disk. The only engine file that uses node:fs/path; browser code never
// imports it (the server and the CLIs read files and hand the JSON to the engine).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { BaseDeclarations, DeclFile, Overlay, OverlayKind } from './declarations';
import type { Translations } from './check';
import type { Country } from './formats';
import type { CasesFile } from './types';
import { resolveScreens } from './fragments';

function readJson<T>(root: string, file: string): DeclFile<T> {
  const full = join(root, file);
  const text = readFileSync(full, 'utf8');
  try {
    return { file, json: JSON.parse(text) as T };
  } catch (e) {
    throw new Error(`${file}: invalid JSON: ${(e as Error).message}`);
  }
}

function list(root: string, dir: string, suffix: string): string[] {
  const full = join(root, dir);
  if (!existsSync(full)) return [];
  return readdirSync(full)
    .filter((f) => f.endsWith(suffix))
    .sort()
    .map((f) => `${dir}/${f}`);
}

/** The spec's routes not built yet (navigation targets the checks allow); not a screen. */
export const PLANNED_ROUTES = 'screens/planned-routes.json';

const base = (file: string, suffix: string) => file.slice(file.lastIndexOf('/') + 1, -suffix.length);

/**
 * schemas/*.json, schemas/api/*.api.json, schemas/meta/*.schema.json, rules/*.rules.json,
 * rules/*.cases.json, screens/*.json (each with its file path for messages), and the runtime's
 * component kinds (`x-kinds` of schemas/meta/section.schema.json, generated from the registry).
 */
export function readBaseDeclarations(root: string): BaseDeclarations {
  const d: BaseDeclarations = { schemas: {}, api: {}, rules: {}, cases: {}, screens: {}, meta: {} };
  for (const f of list(root, 'schemas', '.json')) d.schemas[base(f, '.json')] = readJson(root, f);
  for (const f of list(root, 'schemas/api', '.api.json')) d.api[base(f, '.api.json')] = readJson(root, f);
  for (const f of list(root, 'schemas/meta', '.schema.json')) d.meta[base(f, '.schema.json')] = readJson(root, f);
  for (const f of list(root, 'rules', '.rules.json')) d.rules[base(f, '.rules.json')] = readJson(root, f);
  for (const f of list(root, 'rules', '.cases.json')) d.cases[base(f, '.cases.json')] = readJson(root, f);
  for (const f of list(root, 'screens', '.json')) {
    if (f === PLANNED_ROUTES) d.plannedRoutes = readJson(root, f);
    else d.screens[base(f, '.json')] = readJson(root, f);
  }
  // shared pieces of screens (screens/fragments/): the screens are read resolved, and kept as written
  // for a provider's fragment overlays
  d.fragments = {};
  for (const f of list(root, 'screens/fragments', '.json')) d.fragments[base(f, '.json')] = readJson(root, f);
  d.screenSources = d.screens;
  const resolved = resolveScreens(d.screens, d.fragments);
  d.screens = resolved.screens;
  d.fragmentErrors = resolved.errors;
  // the runtime's component kinds, listed by the generated section part of the screen meta-schema
  const kinds = d.meta.section?.json['x-kinds'];
  if (Array.isArray(kinds)) d.kinds = kinds.map(String);
  return d;
}

/** providers/<appName>/overlays/{schemas,rules,screens,fragments}/<id>.json (rules overlays are named by area). */
export function readProviderOverlays(root: string, appName: string): Overlay[] {
  const out: Overlay[] = [];
  for (const kind of ['schemas', 'rules', 'screens', 'fragments'] as OverlayKind[]) {
    const dir = `providers/${appName}/overlays/${kind}`;
    for (const file of list(root, dir, '.json')) {
      // a provider's own cases for the rules it changes sit beside the overlay (<area>.cases.json)
      if (file.endsWith('.cases.json')) continue;
      let id = base(file, '.json');
      if (kind === 'rules') id = id.replace(/\.rules$/, '');
      const { json } = readJson<unknown>(root, file);
      out.push({ kind, id, file, patch: json });
    }
  }
  return out;
}

/** providers/<appName>/overlays/rules/<area>.cases.json: cases for the rules the provider changes. */
export function readProviderCases(root: string, appName: string): DeclFile<CasesFile>[] {
  return list(root, `providers/${appName}/overlays/rules`, '.cases.json').map((f) => readJson<CasesFile>(root, f));
}

/** Provider app names: folders of providers/ holding a provider.json or overlays. */
export function listProviders(root: string): string[] {
  const dir = join(root, 'providers');
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && (existsSync(join(dir, e.name, 'provider.json')) || existsSync(join(dir, e.name, 'overlays'))))
    .map((e) => e.name)
    .sort();
}

/** The provider's country from providers/<appName>/provider.json ("countryCode", default US). */
export function providerCountry(root: string, appName: string): Country {
  const file = join(root, 'providers', appName, 'provider.json');
  if (!existsSync(file)) return 'US';
  const json = JSON.parse(readFileSync(file, 'utf8')) as { countryCode?: string; country?: string };
  return (json.countryCode ?? json.country) === 'CA' ? 'CA' : 'US';
}

/** locales/<lang>/<namespace>.json for every language folder. */
export function readTranslations(root: string): Translations {
  const out: Translations = {};
  const dir = join(root, 'locales');
  if (!existsSync(dir)) return out;
  for (const lang of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    out[lang] = {};
    for (const f of list(root, `locales/${lang}`, '.json')) out[lang][base(f, '.json')] = readJson(root, f).json;
  }
  return out;
}

export function relativeTo(root: string, file: string): string {
  return relative(root, file);
}
