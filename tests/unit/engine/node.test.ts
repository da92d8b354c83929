// Reading declarations from disk: providers, countries, translations, overlays and provider cases.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { listProviders, providerCountry, readBaseDeclarations, readProviderCases, readProviderOverlays, readTranslations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'decl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const write = (path: string, text: string) => {
  mkdirSync(join(tmp, path, '..'), { recursive: true });
  writeFileSync(join(tmp, path), text);
};

describe('node helpers', () => {
  it('lists providers and reads their country', () => {
    expect(listProviders(root)).toEqual(expect.arrayContaining(['brightpath', 'northridge']));
    expect(providerCountry(root, 'northridge')).toBe('CA');
    expect(providerCountry(root, 'brightpath')).toBe('US');
    expect(providerCountry(root, 'nobody')).toBe('US');
  });
  it('reads every language and namespace', () => {
    const t = readTranslations(root);
    expect(Object.keys(t).sort()).toEqual(expect.arrayContaining(['en', 'es', 'pt', 'vi']));
    expect((t.en.errors as { pageLevel: string }).pageLevel).toBe('Please correct the error(s) for the field(s) marked red.');
    expect((t.vi.fields as { contact: { cellPhone: string } }).contact.cellPhone).toBe('Điện thoại di động');
  });
  it('provider cases are read beside rule overlays, not as overlays', () => {
    expect(readProviderCases(root, 'northridge').map((f) => f.file).sort()).toEqual(['providers/northridge/overlays/rules/contact.cases.json', 'providers/northridge/overlays/rules/medical.cases.json']);
    expect(readProviderOverlays(root, 'northridge').some((o) => o.file.endsWith('.cases.json'))).toBe(false);
  });
  it('an empty tree reads as empty declarations', () => {
    expect(readBaseDeclarations(join(tmp, 'nothing'))).toEqual({ schemas: {}, api: {}, rules: {}, cases: {}, screens: {}, screenSources: {}, fragments: {}, fragmentErrors: [], meta: {} });
    expect(listProviders(join(tmp, 'nothing'))).toEqual([]);
  });
  it('invalid JSON names the file', () => {
    write('bad/schemas/x.json', '{ "$id": "x", ');
    expect(() => readBaseDeclarations(join(tmp, 'bad'))).toThrow(/^schemas\/x\.json: invalid JSON/);
  });
  it('reads the runtime component kinds from the section meta-schema when it exists', () => {
    write('kinds/schemas/meta/section.schema.json', '{"$id": "meta/section", "x-kinds": ["form", "cardList"]}');
    expect(readBaseDeclarations(join(tmp, 'kinds')).kinds).toEqual(['form', 'cardList']);
    write('kinds2/schemas/meta/screen.schema.json', '{"$id": "meta/screen"}');
    expect(readBaseDeclarations(join(tmp, 'kinds2')).kinds).toBeUndefined();
  });
});
