// The translation keys of the server's errors: every literal key given to httpError / fail
// (server/errors.ts), and every "<namespace>.errors.<path>" literal in server/ (keys held in tables
// before they reach the helper), must be a text of locales/en/<namespace>.json.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DeclError } from '../../src/engine/index';

const HELPER_KEY = /\b(?:httpError|fail)\((?:\{[^{}]*\}|[\w.]+), [^,]+?, '([^']+)'/g;
const ERRORS_KEY = /'([a-z][A-Za-z]*\.errors\.[A-Za-z0-9_.]+)'/g;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The server's code is this repository's, wherever the declarations being checked are. */
const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `root`: where the translations are (the declarations' root); the keys are read from this repository's server/. */
export function serverErrorKeyErrors(root: string, code = REPOSITORY): DeclError[] {
  const en = join(root, 'locales', 'en');
  const namespaces = new Map<string, unknown>();
  for (const f of readdirSync(en)) if (f.endsWith('.json')) namespaces.set(f.slice(0, -5), JSON.parse(readFileSync(join(en, f), 'utf8')));
  const exists = (key: string) => {
    const [ns, ...path] = key.split('.');
    let node: unknown = namespaces.get(ns);
    for (const [i, part] of path.entries()) {
      if (typeof node !== 'object' || node === null) return false;
      const o = node as Record<string, unknown>;
      node = i === path.length - 1 && o[part] === undefined ? o[`${part}_other`] : o[part];
    }
    return typeof node === 'string';
  };
  const errors: DeclError[] = [];
  for (const file of tsFiles(join(code, 'server'))) {
    const text = readFileSync(file, 'utf8');
    const seen = new Set<string>();
    for (const re of [HELPER_KEY, ERRORS_KEY]) for (const m of text.matchAll(re)) seen.add(m[1]);
    for (const key of seen) {
      if (!exists(key)) errors.push({ file: relative(code, file), path: '', message: `error key ${key} is not a text of locales/en (keys are "<namespace>.<path>", the namespace a file of locales/en)` });
    }
  }
  return errors;
}
