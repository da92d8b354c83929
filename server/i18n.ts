// Server-side translations (locales/<lang>/server.json): e-mails and error messages, in the
// language of the request (Accept-Language) or of the recipient.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import i18next from 'i18next';
import { LANGUAGES, type Language } from '../src/engine/languages';
import type { TextTree } from '../src/engine/textTree';
import { isRecord } from './json';
export { LANGUAGES };
export type Lang = Language;

const isLanguage = (s: string): s is Lang => LANGUAGES.some((l) => l === s);

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
    const base = tag.split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/**
 * The server's translator, i18next like the browser's, over every locale file: "<key>" and
 * "server.<key>" are texts of server.json, and a feature's own namespace (locales/<lang>/<feature>.json)
 * answers "<feature>.<key>" keys the server file does not have. A text missing in the language is
 * the English one; a key with no text at all is a mistake in the code and throws. A value the caller
 * did not give is left empty: an e-mail never shows a placeholder.
 */
export function createTranslator(root: string): Translator {
  const resources: Record<string, Record<string, TextTree>> = {};
  for (const lang of LANGUAGES) {
    const dir = join(root, 'locales', lang);
    if (!existsSync(dir)) continue;
    resources[lang] = {};
    for (const f of readdirSync(dir)) {
      if (!f.endsWith('.json')) continue;
      const texts: unknown = JSON.parse(readFileSync(join(dir, f), 'utf8'));
      if (!isRecord(texts)) throw new Error(`locales/${lang}/${f}: not an object of texts`);
      resources[lang][f.slice(0, -5)] = texts;
    }
  }
  const i18n = i18next.createInstance({
    resources,
    // the fallback is chosen here, text by text (below), so that the language's feature text comes
    // before the English server text
    fallbackLng: false,
    defaultNS: 'server',
    interpolation: { escapeValue: false },
    missingInterpolationHandler: () => '',
    returnNull: false,
    initAsync: false,
  });
  void i18n.init();
  const has = (lng: string, ns: string, key: string) =>
    typeof i18n.getResource(lng, ns, key) === 'string' || typeof i18n.getResource(lng, ns, `${key}_other`) === 'string';
  return (lang, key, params = {}) => {
    const path = key.replace(/^server\./, '');
    const dot = path.indexOf('.');
    const places: Array<[string, string]> = [['server', path]];
    if (dot > 0) places.push([path.slice(0, dot), path.slice(dot + 1)]);
    for (const lng of [pickLang(lang), 'en']) {
      for (const [ns, k] of places) if (has(lng, ns, k)) return String(i18n.t(k, { ...params, lng, ns }));
    }
    throw new Error(`missing server translation ${key}`);
  };
}
