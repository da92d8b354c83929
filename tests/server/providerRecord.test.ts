// providers/<appName>/provider.json is checked in one place against schemas/meta/provider.schema.json
// (server/providerRecord.ts): `npm run check` and the server's start refuse a broken record with the
// same messages, each naming the file and the JSON path; a valid record gives the same settings.
import { calendarSettingsOf } from '../../server/calendarSettings';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb, FAST_ARGON2 } from './helpers';
import { buildApp, ROOT } from '../../server/app';
import { providerRecordErrors } from '../../server/providerRecord';
import { readProviderRecords } from '../../server/providers';
import { settingsOf } from '../../server/providerSettings';
import { productsOf } from '../../server/products';
import { rollupOf } from '../../server/gradeRollup';

const tmp = mkdtempSync(join(tmpdir(), 'pp-provider-record-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** a copy of the repository's declarations with brightpath's provider.json changed by `edit` */
function brokenCopy(edit: (rec: { payments: Record<string, unknown>; privacyPolicyUrl: Record<string, string>; customerID: unknown }) => void): string {
  const copy = mkdtempSync(join(tmp, 'repo-'));
  for (const dir of ['schemas', 'rules', 'locales', 'providers', 'screens']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(copy, 'package.json'));
  const file = join(copy, 'providers', 'brightpath', 'provider.json');
  const rec = JSON.parse(readFileSync(file, 'utf8'));
  edit(rec);
  writeFileSync(file, JSON.stringify(rec, null, 2));
  return copy;
}

const BROKEN = [
  // payments may hold more than 12 options: the message names the key without listing them
  'providers/brightpath/provider.json: /payments/seatHoldMinute: unknown property',
  'providers/brightpath/provider.json: /customerID: must be integer',
  'providers/brightpath/provider.json: /privacyPolicyUrl/es: must be an https address (a host name, no user:password@ part, no spaces)',
];

describe('a broken provider.json', () => {
  const copy = brokenCopy((rec) => {
    rec.payments.seatHoldMinute = 20; // typo of seatHoldMinutes: would be silently ignored
    rec.customerID = '1001';
    rec.privacyPolicyUrl.es = 'http://brightpath.example.org/es/privacidad';
  });

  it('fails npm run check, naming the file and the path', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'check.ts')], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DECLARATIONS_ROOT: copy },
    });
    expect(r.status).toBe(1);
    for (const line of BROKEN) expect(r.stderr).toContain(line);
  });

  it('stops the server start with the same messages', async () => {
    const db = await createTestDb('pglite');
    try {
      const start = buildApp({ db: db.handle.db, root: copy, argon2: FAST_ARGON2, releaseVersion: '9.9.9', production: false });
      const err = await start.then(
        () => null,
        (e: Error) => e,
      );
      expect(err?.message.split('\n').sort()).toEqual([...BROKEN].sort());
    } finally {
      await db.dispose();
    }
  });

  it('a missing field, an unknown value and a link without the default language', () => {
    const base = JSON.parse(readFileSync(join(ROOT, 'providers', 'brightpath', 'provider.json'), 'utf8'));
    const { city: _city, ...noCity } = base;
    expect(providerRecordErrors('brightpath', noCity)).toEqual([{ file: 'providers/brightpath/provider.json', path: '', message: "must have required property 'city'" }]);
    expect(providerRecordErrors('brightpath', { ...base, countryCode: 'MX', fieldOptions: { employer: 'X' } }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/countryCode: must be equal to one of the allowed values (US, CA)',
      '/fieldOptions/employer: must be equal to one of the allowed values (M, R, O, H)',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, yearEndGradeRollup: { from: '11-15', to: '12-32' } }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/yearEndGradeRollup/to: must be a day of the year as MM-DD',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, payments: { ...base.payments, processingFee: { CCD: { percent: 12 } } } }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/payments/processingFee/CCD/percent: must be <= 10',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, products: { calendar: { path: 'calendar' } } }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/products/calendar/path: must look like /name/',
    ]);
    // rules the schema cannot say
    // a product on this deployment is served at its own base path: the calendar product never takes the portal's /calendar
    expect(providerRecordErrors('brightpath', { ...base, products: { calendar: { path: '/calendar/' }, punchpass: { path: '/onetimeenrollment/' } } }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/products/calendar/path: must be "/flexcalendar/" on this deployment (or give the product\'s host)',
      '/products/punchpass/path: must be "/punchpass/" on this deployment (or give the product\'s host)',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, products: { calendar: { path: '/calendar/', host: 'https://apps.example.org' } } })).toEqual([]);
    expect(providerRecordErrors('other', base).map((e) => `${e.path}: ${e.message}`)).toEqual([`/appName: must be "other", the name of the provider's folder`]);
    expect(providerRecordErrors('brightpath', { ...base, languages: [...base.languages, base.languages[1]] }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/languages: must NOT have more than 4 items',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, languages: [base.languages[1], base.languages[1]] }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/languages/1/code: "es" is listed twice',
    ]);
    expect(providerRecordErrors('brightpath', { ...base, languages: [base.languages[3]] }).map((e) => `${e.path}: ${e.message}`)).toEqual([
      '/userGuideUrl: needs an address in the default language "vi"',
    ]);
  });
});

describe('the repository\u2019s provider records', () => {
  it('pass, and give the settings the services use', () => {
    const [brightpath, northridge] = readProviderRecords(ROOT);
    expect(settingsOf(brightpath).payments).toMatchObject({
      gateways: { CCD: 1, ECH: 2 },
      processingFee: { CCD: { percent: 2.95, fixedCents: 0, minimumCents: 100 }, ECH: { percent: 0, fixedCents: 50, minimumCents: 0 } },
      telephoneRequiredForPayment: true,
      maxPaymentCents: 9_999_999,
    });
    expect(settingsOf(northridge).payments.processingFee).toEqual({ CCD: { percent: 0, fixedCents: 0, minimumCents: 0 }, ECH: { percent: 0, fixedCents: 0, minimumCents: 0 } });
    expect(productsOf(brightpath.products)).toEqual({ parentportal: { path: '/parentportal/' }, parentapplication: { path: '/parentapplication/' }, onetimeenrollment: { path: '/onetimeenrollment/' }, calendar: { path: '/flexcalendar/' }, punchpass: { path: '/punchpass/' } });
    expect(calendarSettingsOf(brightpath.calendar)).toEqual({ cancellationWindowDays: 2 });
    expect(calendarSettingsOf(northridge.calendar)).toEqual({ cancellationWindowDays: null });
    expect(rollupOf(brightpath.yearEndGradeRollup)).toEqual({ from: '11-15', to: '12-15' });
    expect(rollupOf(northridge.yearEndGradeRollup)).toBeNull();
  });
});
