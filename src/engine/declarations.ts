// Reading the declaration files into one effective set per provider: base declarations plus the
// provider's JSON Merge Patch overlays, checked, with a content version.
import type { DeclarationSet, JsonSchema, ScreenDecl, ServiceDecl } from './types';
import { structuralErrors } from './check';
import { ruleTable, type BaseDeclarations, type DeclError, type DeclFile } from './declFiles';
import { resolveScreens } from './fragments';
import { cloneJson as structuredCloneJson, mergePatchValue } from './mergePatch';

export { ruleTable };
export type { BaseDeclarations, DeclError, DeclFile, PlannedRoutes } from './declFiles';

export type OverlayKind = 'schemas' | 'rules' | 'screens' | 'fragments';

/** providers/<appName>/overlays/<kind>/<id>.json — a JSON Merge Patch over one base declaration. */
export interface Overlay {
  kind: OverlayKind;
  /** schema $id, rule area, screen id or fragment id */
  id: string;
  file: string;
  patch: unknown;
}

export type BuildResult =
  | { ok: true; set: DeclarationSet; warnings: DeclError[] }
  | { ok: false; errors: DeclError[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 JSON Merge Patch: objects merge key by key, null deletes, anything else replaces. */
export const mergePatch = mergePatchValue;

/** JSON with object keys sorted, so that equal content gives an equal version. */
export function stableStringify(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableStringify).join(',')}]`;
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => v[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableStringify(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Short content hash (two FNV-1a 32-bit lanes, 12 hex characters); browser-safe, not cryptographic. */
export function contentHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (i & 0xff), 0x01000193) >>> 0;
  }
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).slice(0, 12);
}

/** Base declarations with the overlays applied, still as files (for checks and messages). */
export function applyOverlays(
  base: BaseDeclarations,
  overlays: Overlay[],
): { merged: BaseDeclarations; errors: DeclError[]; origin: Map<string, string> } {
  const errors: DeclError[] = [];
  const merged: BaseDeclarations = {
    ...base,
    schemas: { ...base.schemas },
    rules: { ...base.rules },
    screens: { ...base.screens },
    fragments: { ...base.fragments },
  };
  // which overlay file produced a merged declaration ("kind/id" -> overlay file), to name it in errors
  const origin = new Map<string, string>();

  const apply = (o: Overlay) => {
    if (!isObject(o.patch)) return void errors.push({ file: o.file, path: '', message: 'an overlay must be a JSON object (a JSON Merge Patch)' });
    const table = (merged[o.kind] ?? {}) as Record<string, DeclFile<unknown>>;
    const target = table[o.id];
    if (!target) return void errors.push({ file: o.file, path: '', message: `no base declaration ${o.kind}/${o.id} to patch` });
    // identity fields cannot move: the overlay would silently describe another declaration
    const identity = o.kind === 'schemas' ? '$id' : o.kind === 'rules' ? 'area' : 'id';
    if (identity in o.patch && o.patch[identity] !== (target.json as Record<string, unknown>)[identity]) {
      return void errors.push({ file: o.file, path: `/${identity.replace(/\//g, '~1')}`, message: `an overlay cannot change ${identity}` });
    }
    if (o.kind === 'rules' && isObject(o.patch.rules)) {
      for (const id of Object.keys(o.patch.rules)) {
        if (!id.startsWith(`${o.id}.`)) {
          errors.push({ file: o.file, path: `/rules/${id.replace(/~/g, '~0').replace(/\//g, '~1')}`, message: `rule id must start with "${o.id}."` });
        }
      }
    }
    let patched = mergePatch(target.json, o.patch) as Record<string, unknown>;
    if (o.kind === 'rules' && isObject(o.patch.rules)) {
      // a rule's logic is replaced as a whole: merging two operations into one object would make
      // neither run (json-logic reads a many-key object as data)
      const rules = { ...(patched.rules as Record<string, Record<string, unknown>>) };
      for (const [id, def] of Object.entries(o.patch.rules)) {
        if (isObject(def) && 'logic' in def && def.logic !== null) rules[id] = { ...rules[id], logic: structuredCloneJson(def.logic) };
      }
      patched = { ...patched, rules };
    }
    table[o.id] = { file: o.file, json: patched };
    origin.set(`${o.kind}/${o.id}`, o.file);
  };

  // a provider's fragment overlays first; the screens are resolved again with them, and only then
  // do the screen overlays apply, to the resolved screens
  const fragmentOverlays = overlays.filter((o) => o.kind === 'fragments');
  fragmentOverlays.forEach(apply);
  if (fragmentOverlays.length && base.screenSources) {
    const resolved = resolveScreens(base.screenSources, merged.fragments ?? {});
    errors.push(...resolved.errors);
    merged.screens = resolved.screens;
  }
  overlays.filter((o) => o.kind !== 'fragments').forEach(apply);
  return { merged, errors, origin };
}

/**
 * Merge a provider's overlays into the base declarations and check the result (meta-schemas, $refs,
 * rule ids, API operations, schema compilation). Errors name the file (the overlay file when the
 * declaration was patched) and a JSON pointer.
 */
export function buildDeclarationSet(base: BaseDeclarations, overlays: Overlay[] = [], opts: { appName?: string } = {}): BuildResult {
  const { merged, errors } = applyOverlays(base, overlays);
  if (errors.length) return { ok: false, errors };
  const { errors: checkErrors, warnings } = structuralErrors(merged);
  if (checkErrors.length) return { ok: false, errors: checkErrors };
  const schemas: Record<string, JsonSchema> = {};
  for (const [id, f] of Object.entries(merged.schemas)) schemas[id] = f.json;
  const screens: Record<string, ScreenDecl> = {};
  for (const [id, f] of Object.entries(merged.screens)) screens[id] = f.json;
  const api: Record<string, ServiceDecl> = {};
  for (const [id, f] of Object.entries(merged.api)) api[id] = f.json;
  const rules = ruleTable(merged.rules);
  const content = { appName: opts.appName ?? null, schemas, rules, screens, api };
  return { ok: true, set: { version: contentHash(stableStringify(content)), schemas, rules, screens, api }, warnings };
}
