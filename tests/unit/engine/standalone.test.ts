// The browser's validators: ajv standalone code imported as a module validates like ajv in process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDeclarationSet, compileStandaloneModule, createAjv, createFormEngine, type Country, type DeclarationSet } from '../../../src/engine/index';
import { readBaseDeclarations, readProviderOverlays } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const built = buildDeclarationSet(readBaseDeclarations(root), readProviderOverlays(root, 'brightpath'), { appName: 'brightpath' });
if (!built.ok) throw new Error('build failed');
const set: DeclarationSet = built.set;
let dir: string;
const modules: Partial<Record<Country, Record<string, (d: unknown) => boolean>>> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'validators-'));
  for (const country of ['US', 'CA'] as Country[]) {
    const file = join(dir, `${country}.mjs`);
    writeFileSync(file, compileStandaloneModule(set, country));
    modules[country] = (await import(pathToFileURL(file).href)).default;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const samples: [string, unknown][] = [
  ['contact', { accountHolder: 1, firstName: 'Maria', lastName: 'Lopez', zip: '62701-1234', cellPhone: '2175550101', email: 'maria@example.com' }],
  ['contact', { accountHolder: 1, firstName: 'M<', zip: 'K2W1A1', cellPhone: '217', cellPhoneExt: '0', email: 'x@', middleInitial: 'ABC' }],
  ['contact', { relationships: [{ childID: 3, relationshipId: 99, otherRelationship: 'y'.repeat(60) }, { childID: 'x' }] }],
  ['contact', { householdSize: 0, doNotRelease: 2, genderCode: 'Q' }],
  ['contact', { firstName: '😀'.repeat(50) }],
  ['contact', { firstName: '😀'.repeat(51) }],
  ['absence', { childIDs: [1, 1], startDate: '02/29/2023', endDate: '02/29/2024', timeOffered: 'lunch' }],
  ['medical', { primaryInsurance: { provider: 'A^' }, questions: [{ fieldID: 0, answer: 'yes', standardValues: [1, 1] }] }],
  ['payer', { paidByFamilyMemberID: -1, frequency: 'X', homecellphone: '0000000000', zip: 'T2Z 1A1' }],
  ['pin', { pin: '12', adultIDs: [0] }],
  ['password', { newPassword: 5 }],
  ['signin', 'not an object'],
];

describe('compileStandaloneModule', () => {
  it('is an ES module without eval or require, with one export per schema', () => {
    const src = compileStandaloneModule(set, 'US');
    expect(src).not.toMatch(/\brequire\(/);
    expect(src).not.toMatch(/new Function|\beval\(/);
    for (const id of Object.keys(set.schemas)) expect(src).toMatch(new RegExp(`export const ${id} = `));
    expect(Object.keys(modules.US!).sort()).toEqual(Object.keys(set.schemas).sort());
  });

  it.each(['US', 'CA'] as Country[])('validates like ajv in process (%s)', (country) => {
    const ajv = createAjv({ country });
    for (const s of Object.values(set.schemas)) ajv.addSchema(s);
    for (const [id, data] of samples) {
      const inProcess = ajv.getSchema(id)!;
      const standalone = modules[country]![id] as ((d: unknown) => boolean) & { errors?: unknown };
      expect(standalone(data), `${id} ${JSON.stringify(data)}`).toBe(inProcess(data));
      expect(standalone.errors ?? null).toEqual(inProcess.errors ?? null);
    }
  });

  it('zip follows the country compiled in', () => {
    expect(modules.US!.contact({ zip: '62701' })).toBe(true);
    expect(modules.US!.contact({ zip: 'K2W1A1' })).toBe(false);
    expect(modules.CA!.contact({ zip: 'K2W1A1' })).toBe(true);
    expect(modules.CA!.contact({ zip: '62701' })).toBe(false);
  });

  it.each(['US', 'CA'] as Country[])('a form engine on the compiled validators gives the same results (%s)', (country) => {
    const inProcess = createFormEngine(set, { country });
    const compiled = createFormEngine(set, { country, compiled: modules[country] });
    const ctx = { today: '03/10/2026', data: { paymentOptions: { zipCodeRequiredForPayment: true } } };
    for (const [id, data] of samples) expect(compiled.validate(id, data, ctx)).toEqual(inProcess.validate(id, data, ctx));
  });
});
