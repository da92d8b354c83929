// The product's own translator (src/engine/texts.ts) against i18next: every text of every namespace
// in every language, with each of its values filled in and, for plural texts, several counts, reads
// the same from both. The browser draws its first page with the one and continues with the other, and
// the server translates with the first, so a text must never read differently between them.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { readTranslations } from '../../../src/engine/node';
import { LANGUAGES } from '../../../src/engine/languages';
import { interpolate, lookupText, translateText, type TextTree } from '../../../src/engine/texts';

const translations = readTranslations(resolve(__dirname, '../../..'));

/** Every key path of a tree that holds a string, plural forms reduced to their base key. */
function keysOf(tree: unknown, prefix = ''): Array<{ key: string; text: string }> {
  if (typeof tree === 'string') return [{ key: prefix, text: tree }];
  if (!tree || typeof tree !== 'object') return [];
  return Object.entries(tree).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

async function i18nextFor(language: string) {
  const i18n = i18next.createInstance();
  await i18n.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: translations[language] as never },
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18n;
}

describe('the product translator reads every text as i18next does', () => {
  for (const language of LANGUAGES) {
    it(`${language}: every key, with its values and plural counts`, async () => {
      const i18n = await i18nextFor(language);
      const bundles = translations[language] as Record<string, TextTree>;
      let compared = 0;
      for (const [ns, tree] of Object.entries(bundles)) {
        const t = i18n.getFixedT(language, ns);
        const seen = new Set<string>();
        for (const { key: rawKey, text } of keysOf(tree)) {
          const key = rawKey.replace(PLURAL, '');
          if (seen.has(key)) continue;
          seen.add(key);
          const names = [...text.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1].trim());
          const values: Record<string, unknown> = Object.fromEntries(names.map((n, i) => [n, n === 'code' ? 'card_declined' : `«${n}${i}»`]));
          const variants: Array<Record<string, unknown>> = PLURAL.test(rawKey)
            ? [0, 1, 2, 5, 21, 1.5].map((count) => ({ ...values, count }))
            : [values, {}];
          for (const options of variants) {
            for (const asKey of [`${ns}:${key}`, key]) {
              const ours = translateText(language, (n) => bundles[n], ns, asKey, options);
              expect(ours, `${language} ${ns}:${key} ${JSON.stringify(options)}`).toBe(t(asKey, options));
              compared += 1;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    });
  }

  it('a missing key answers its path, or the default value, as i18next does', async () => {
    const i18n = await i18nextFor('en');
    const bundles = translations.en as Record<string, TextTree>;
    for (const [key, options] of [
      ['common:no.such.key', {}],
      ['no.such.key', {}],
      ['common:no.such.key', { defaultValue: 'Fallback {{x}}', x: 1 }],
    ] as const) {
      const ours = translateText('en', (n) => bundles[n], 'common', key, options);
      expect(ours, key).toBe(i18n.getFixedT('en', 'common')(key, options as never));
    }
  });

  it('lookupText and interpolate', () => {
    expect(lookupText({ a: { b: 'x' } }, 'a.b')).toBe('x');
    expect(lookupText({ a: { b: 'x' } }, 'a')).toBeUndefined();
    expect(lookupText(undefined, 'a')).toBeUndefined();
    expect(interpolate('{{ a }} and {{b.c}} and {{missing}}.', { a: 1, b: { c: 'two' } })).toBe('1 and two and {{missing}}.');
    expect(interpolate('{{a}}/{{missing}}', { a: 0 }, () => '')).toBe('0/');
  });
});
