// Every text of every namespace in every language, as i18next (the one translator, in the browser and
// on the server) reads it, with each of its values filled in and, for plural texts, several counts:
// a text never shows a placeholder, a nesting left unresolved, or its own key.
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { readTranslations } from '../../../src/engine/node';
import { LANGUAGES } from '../../../src/engine/languages';
import type { TextTree } from '../../../src/engine/textTree';

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

describe('every text reads whole through i18next', () => {
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
            const read = t(`${ns}:${key}`, options);
            const where = `${language} ${ns}:${key} ${JSON.stringify(options)}`;
            if (text !== key) expect(read, where).not.toBe(key);
            expect(read, where).not.toContain('$t(');
            if (options !== variants[variants.length - 1] || PLURAL.test(rawKey)) expect(read, where).not.toMatch(/\{\{/);
            compared += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(1000);
    });
  }

  it('a missing key answers its path, or the default value', async () => {
    const t = (await i18nextFor('en')).getFixedT('en', 'common');
    expect(t('common:no.such.key')).toBe('no.such.key');
    expect(t('no.such.key')).toBe('no.such.key');
    expect(t('common:no.such.key', { defaultValue: 'Fallback {{x}}', x: 1 } as never)).toBe('Fallback 1');
  });
});
