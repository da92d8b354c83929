// Server-side translations (locales/<lang>/server.json): e-mails and error messages, in the
// language of the request (Accept-Language) or of the recipient.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { LANGUAGES, type Language as Lang } from '../src/engine/languages';
import { interpolate, lookupText as lookup, type TextTree as Tree } from '../src/engine/texts';
export { LANGUAGES, type Lang };

export interface Translator {
  (lang: string | undefined, key: string, params?: Record<string, unknown>): string;
}

// the few Accept-Language values a server sees, each parsed once (every translated text asks)
const picked = new Map<string, Lang>();

export function pickLang(value: string | undefined): Lang {
  if (!value) return 'en';
  let lang = picked.get(value);
  if (!lang) {
    if (picked.size >= 500) picked.clear();
    picked.set(value, (lang = parseAcceptLanguage(value)));
  }
  return lang;
}

function parseAcceptLanguage(value: string): Lang {
  // Accept-Language: "vi-VN,vi;q=0.9,en;q=0.8" — first supported language wins, in order given
  const tags = value
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .sort((a, b) => b.q - a.q);
  for (const { tag } of tags) {
    const base = tag.split('-')[0] as Lang;
    if ((LANGUAGES as readonly string[]).includes(base)) return base;
  }
  return 'en';
}

export function createTranslator(root: string): Translator {
  const trees = new Map<string, Tree>();
  // a feature's own namespace (locales/<lang>/<feature>.json) answers "<feature>.<key>" keys the
  // server file does not have
  const namespaces = new Map<string, Tree>();
  for (const lang of LANGUAGES) {
    const file = join(root, 'locales', lang, 'server.json');
    if (existsSync(file)) trees.set(lang, JSON.parse(readFileSync(file, 'utf8')) as Tree);
    const dir = join(root, 'locales', lang);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) {
      if (f.endsWith('.json') && f !== 'server.json') namespaces.set(`${lang}/${f.slice(0, -5)}`, JSON.parse(readFileSync(join(dir, f), 'utf8')) as Tree);
    }
  }
  const inNamespace = (lang: string, path: string) => {
    const dot = path.indexOf('.');
    return dot > 0 ? lookup(namespaces.get(`${lang}/${path.slice(0, dot)}`), path.slice(dot + 1)) : undefined;
  };
  // a value the caller did not give is left empty: an e-mail never shows a placeholder
  const empty = () => '';
  return (lang, key, params = {}) => {
    const path = key.replace(/^server\./, '');
    const l = pickLang(lang);
    const text = lookup(trees.get(l), path) ?? inNamespace(l, path) ?? lookup(trees.get('en'), path) ?? inNamespace('en', path);
    if (text === undefined) throw new Error(`missing server translation ${key}`);
    return interpolate(text, params, empty);
  };
}
