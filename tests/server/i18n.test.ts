// The server's language of a request (Accept-Language) and its texts.
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createTranslator, pickLang } from '../../server/i18n';

describe('pickLang', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['vi-VN,vi;q=0.9,en;q=0.8', 'vi'],
    ['fr-CA,fr;q=0.9,pt-BR;q=0.8,en;q=0.5', 'pt'],
    ['en;q=0.4, es-MX;q=0.9', 'es'],
    ['de, fr', 'en'],
    ['ES', 'es'],
  ])('%s -> %s (and the same when asked again)', (header, lang) => {
    expect(pickLang(header)).toBe(lang);
    expect(pickLang(header)).toBe(lang);
  });
});

describe('createTranslator', () => {
  const t = createTranslator(fileURLToPath(new URL('../..', import.meta.url)));
  it('answers in the request language', () => {
    const en = t('en', 'server.errors.notFound');
    expect(en).toBeTypeOf('string');
    expect(t('es-ES,es;q=0.9', 'server.errors.notFound')).not.toBe(en);
  });
});
