// Spec 7.3 native version check: the provider record's minimum and latest app versions per OS decide
// whether the update is required (no skip), offered (skip) or not needed; CA providers have no apps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, createTestApp, tokenFor, MARIA, LINH, type TestApp } from './helpers';
import { compareVersions } from '../../server/providerRecord';
import { readProviderRecords } from '../../server/providers';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('nativeApps in provider.json', () => {
  const base = JSON.parse(readFileSync(join(__dirname, '../../providers/brightpath/provider.json'), 'utf8'));
  const read = (nativeApps: unknown) => {
    const root = mkdtempSync(join(tmpdir(), 'pp-native-'));
    try {
      mkdirSync(join(root, 'providers', 'brightpath'), { recursive: true });
      writeFileSync(join(root, 'providers', 'brightpath', 'provider.json'), JSON.stringify({ ...base, nativeApps }));
      return readProviderRecords(root)[0].nativeApps;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  it('reads the versions per OS and refuses a mistyped one', () => {
    expect(read(base.nativeApps)?.ios?.latestVersion).toBe('1.10.0');
    const where = 'providers/brightpath/provider.json: /nativeApps';
    expect(() => read({ ios: { minimumVersion: '1.8', latestVersion: 'v1.10' } })).toThrow(`${where}/ios/latestVersion: must be a version like 2.1.0`);
    expect(() => read({ windows: { minimumVersion: '1.0', latestVersion: '1.0' } })).toThrow(`${where}/windows: unknown property (android, ios)`);
    expect(() => read({ android: { minimumVersion: '1.0', latestVersion: '1.1', storeUrl: 'http://example.com' } })).toThrow(`${where}/android/storeUrl: must be an https address`);
    // numerically: 1.10 is above 1.9, so a minimum of 1.10 over a latest of 1.9.3 is refused
    expect(() => read({ ios: { minimumVersion: '1.10', latestVersion: '1.9.3' } })).toThrow(`${where}/ios/minimumVersion: must not be above latestVersion (1.9.3)`);
    expect(read({ ios: { minimumVersion: '1.9.3', latestVersion: '1.10' } })?.ios?.minimumVersion).toBe('1.9.3');
  });
});

describe.each(BACKENDS)('native version check on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let linh: string;
  const check = (qs: string, token?: string) =>
    t.app.inject({ method: 'GET', url: `/api/Customer/native-version?${qs}`, headers: token ? { authorization: `Bearer ${token}` } : {} });

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    linh = await tokenFor(t.app, ...LINH);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('compares dotted versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareVersions('2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.2.0', '1.10.0')).toBe(-1);
  });

  it('US provider, iOS (minimum 1.8.0, latest 1.10.0): required below the minimum, offered below the latest, none at the latest', async () => {
    const old = await check('CurrentVersion=1.2.0&OS=ios', maria);
    expect(old.statusCode).toBe(200);
    expect(old.json()).toEqual({ updateRequired: true, required: true, latestVersion: '1.10.0', storeUrl: expect.stringMatching(/^https:\/\/apps\.apple\.com\//) });
    expect((await check('CurrentVersion=1.9.3&OS=ios', maria)).json()).toMatchObject({ updateRequired: true, required: false, latestVersion: '1.10.0' });
    expect((await check('CurrentVersion=1.10.0&OS=ios', maria)).json()).toMatchObject({ updateRequired: false, required: false });
  });

  it('US provider, Android (minimum 2.0.0, latest 2.1.0), before sign-in by appName', async () => {
    expect((await check('appName=brightpath&CurrentVersion=1.9.9&OS=android')).json()).toMatchObject({ updateRequired: true, required: true, latestVersion: '2.1.0', storeUrl: expect.stringMatching(/^https:\/\/play\.google\.com\//) });
    expect((await check('appName=brightpath&CurrentVersion=2.0.5&OS=android')).json()).toMatchObject({ updateRequired: true, required: false });
    expect((await check('appName=brightpath&CurrentVersion=3.0&OS=android')).json()).toMatchObject({ updateRequired: false, required: false });
  });

  it('a CA provider has no native apps: never an update', async () => {
    expect((await check('CurrentVersion=0.1.0&OS=ios', linh)).json()).toMatchObject({ updateRequired: false, required: false });
    expect((await check('appName=northridge&CurrentVersion=0.1.0&OS=android')).json()).toMatchObject({ updateRequired: false, required: false });
  });

  it('the session decides the provider, not the query', async () => {
    // a CA session naming a US provider still answers for its own provider
    expect((await check('appName=brightpath&CurrentVersion=0.1.0&OS=ios', linh)).json()).toMatchObject({ updateRequired: false });
  });

  it('validates the query', async () => {
    expect((await check('CurrentVersion=1.0.0&OS=windows', maria)).statusCode).toBe(400);
    expect((await check('CurrentVersion=latest&OS=ios', maria)).statusCode).toBe(400);
    expect((await check('OS=ios', maria)).statusCode).toBe(400);
    expect((await check('CurrentVersion=1.0.0&OS=ios')).statusCode).toBe(400);
    expect((await check('appName=sunnyvale&CurrentVersion=1.0.0&OS=ios')).statusCode).toBe(404);
  });
});
