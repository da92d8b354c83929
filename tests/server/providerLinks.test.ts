// Spec 2.4 User Guide and 2.5 privacy policy: provider pages from provider.json (https only, per
// language, the default language required), answered by Customer.program in the request's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestApp, type TestApp } from './helpers';
import { readProviderRecords } from '../../server/providers';

describe('userGuideUrl and privacyPolicyUrl in provider.json', () => {
  const base = JSON.parse(readFileSync(join(__dirname, '../../providers/brightpath/provider.json'), 'utf8'));
  const read = (over: Record<string, unknown>) => {
    const root = mkdtempSync(join(tmpdir(), 'pp-links-'));
    try {
      mkdirSync(join(root, 'providers', 'brightpath'), { recursive: true });
      writeFileSync(join(root, 'providers', 'brightpath', 'provider.json'), JSON.stringify({ ...base, ...over }));
      return readProviderRecords(root)[0];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };

  it('reads the addresses by language and refuses what a parent should not be sent to', () => {
    expect(read({}).userGuideUrl?.es).toBe('https://brightpath.example.org/es/familias/guia-del-usuario');
    expect(read({ userGuideUrl: undefined }).userGuideUrl).toBeUndefined();
    const where = 'providers/brightpath/provider.json: ';
    expect(() => read({ userGuideUrl: 'https://brightpath.example.org/guide' })).toThrow(`${where}/userGuideUrl: must be object`);
    expect(() => read({ privacyPolicyUrl: { en: 'http://brightpath.example.org/privacy' } })).toThrow(`${where}/privacyPolicyUrl/en: must be an https address`);
    expect(() => read({ privacyPolicyUrl: { en: 'javascript:alert(1)' } })).toThrow(`${where}/privacyPolicyUrl/en: must be an https address`);
    expect(() => read({ privacyPolicyUrl: { en: 'https://brightpath.example.org@evil.example/' } })).toThrow(`${where}/privacyPolicyUrl/en: must be an https address`);
    expect(() => read({ privacyPolicyUrl: { en: ' https://brightpath.example.org/privacy' } })).toThrow(`${where}/privacyPolicyUrl/en: must be an https address`);
    expect(() => read({ userGuideUrl: { en: 'https://brightpath.example.org/g', fr: 'https://brightpath.example.org/fr' } })).toThrow(`${where}/userGuideUrl/fr: unknown property (en, es, pt, vi)`);
    // the other languages fall back to the default language's page, so it must exist
    expect(() => read({ userGuideUrl: { es: 'https://brightpath.example.org/es/guia' } })).toThrow(`${where}/userGuideUrl: needs an address in the default language "en"`);
  });
});

describe.each(BACKENDS)('Customer.program provider pages on %s', (backend) => {
  let t: TestApp;
  const program = async (appName: string, lang: string) => {
    const r = await t.app.inject({ method: 'GET', url: `/api/Customer/program?appName=${appName}`, headers: { 'accept-language': lang } });
    expect(r.statusCode).toBe(200);
    return r.json() as { userGuideUrl?: string; privacyPolicyUrl?: string };
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the pages in the parent’s language, else in the provider’s default language', async () => {
    expect(await program('brightpath', 'es')).toMatchObject({
      userGuideUrl: 'https://brightpath.example.org/es/familias/guia-del-usuario',
      privacyPolicyUrl: 'https://brightpath.example.org/es/privacidad',
    });
    // brightpath has no Vietnamese guide: the English one
    expect((await program('brightpath', 'vi')).userGuideUrl).toBe('https://brightpath.example.org/parents/user-guide');
    expect((await program('brightpath', 'vi')).privacyPolicyUrl).toBe('https://brightpath.example.org/vi/quyen-rieng-tu');
  });

  it('leaves out a page the provider does not have', async () => {
    const northridge = await program('northridge', 'vi');
    expect(northridge).not.toHaveProperty('userGuideUrl');
    expect(northridge.privacyPolicyUrl).toBe('https://northridge-sd.example.org/privacy');
  });
});
