// Declarations: an invalid provider overlay is refused with a log naming file and JSON path, the
// last good set stays in force (also while watching files); a contract operation without a handler
// stops the start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestApp, createTestDb, FAST_ARGON2, type TestApp } from './helpers';
import { ROOT, buildApp } from '../../server/app';
import { DeclarationStore, servedDeclarations } from '../../server/declarations';
import { handlers } from '../../server/handlers/index';

/** a copy of the declaration folders, so the test can write overlays */
function copyRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-root-'));
  for (const part of ['schemas', 'rules', 'screens', 'providers', 'locales', 'package.json']) {
    if (existsSync(join(ROOT, part))) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  }
  return dir;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('declaration store', () => {
  let root: string;
  const logged: { obj: unknown; msg?: string }[] = [];
  const log = { info: () => undefined, error: (obj: unknown, msg?: string) => void logged.push({ obj, msg }) };
  beforeAll(() => {
    root = copyRoot();
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('sends the browser every rule and screen without the descriptions written for implementers', async () => {
    const store = new DeclarationStore(root, async () => ({ brightpath: 'US', northridge: 'CA' }), log);
    expect(await store.reload()).toEqual([]);
    const set = store.get('brightpath')!.set;
    const sent = servedDeclarations(set);
    expect(Object.keys(sent.rules)).toEqual(Object.keys(set.rules));
    expect(Object.keys(sent.screens)).toEqual(Object.keys(set.screens));
    expect(Object.values(set.rules).some((r) => r.description)).toBe(true);
    for (const [id, rule] of Object.entries(sent.rules)) expect(rule).toEqual({ logic: set.rules[id].logic });
    for (const [id, screen] of Object.entries(sent.screens)) {
      expect(screen).not.toHaveProperty('description');
      expect(screen).not.toHaveProperty('$schema');
      expect(screen.sections).toBe(set.screens[id].sections);
    }
    expect(sent.schemas).toBe(set.schemas);
    expect(sent.version).toBe(set.version);
    // smaller by what was left out, and the same object for the same set
    expect(JSON.stringify(sent).length).toBeLessThan(JSON.stringify({ version: set.version, schemas: set.schemas, rules: set.rules, screens: set.screens }).length * 0.9);
    expect(servedDeclarations(set)).toBe(sent);
  });

  it('refuses an invalid overlay, logs file and path, and keeps the last good set', async () => {
    const store = new DeclarationStore(root, async () => ({ brightpath: 'US', northridge: 'CA' }), log);
    expect(await store.reload()).toEqual([]);
    const good = store.get('brightpath')!.set.version;

    const overlayDir = join(root, 'providers', 'brightpath', 'overlays', 'schemas');
    mkdirSync(overlayDir, { recursive: true });
    try {
      // the show rule does not exist
      writeFileSync(join(overlayDir, 'signin.json'), JSON.stringify({ properties: { email: { 'x-show': 'nosuch.rule' } } }));
      expect(await store.reload()).toEqual(['brightpath']);
      expect(store.get('brightpath')!.set.version).toBe(good);
      const line = logged.find((l) => String(l.msg).includes('providers/brightpath/overlays/schemas/signin.json'));
      expect(line, JSON.stringify(logged)).toBeDefined();
      expect(String(line!.msg)).toContain('signin.json /properties/email/x-show');
      expect(line!.obj).toMatchObject({
        appName: 'brightpath',
        file: 'providers/brightpath/overlays/schemas/signin.json',
        path: '/properties/email/x-show',
      });
      // the other provider is unaffected
      expect(store.get('northridge')).toBeDefined();

      // a valid overlay is taken, with a new version
      writeFileSync(join(overlayDir, 'signin.json'), JSON.stringify({ properties: { email: { maxLength: 120 } } }));
      expect(await store.reload()).toEqual([]);
      const next = store.get('brightpath')!.set;
      expect(next.version).not.toBe(good);
      expect((next.schemas.signin.properties as Record<string, { maxLength?: number }>).email.maxLength).toBe(120);
    } finally {
      rmSync(join(root, 'providers', 'brightpath', 'overlays'), { recursive: true, force: true });
    }
  });

  it('rebuilds when a file changes while watching, keeping the last good set on a bad change', async () => {
    const store = new DeclarationStore(root, async () => ({ brightpath: 'US' }), log);
    await store.reload();
    const v0 = store.get('brightpath')!.set.version;
    store.watch();
    try {
      const overlayDir = join(root, 'providers', 'brightpath', 'overlays', 'schemas');
      mkdirSync(overlayDir, { recursive: true });
      writeFileSync(join(overlayDir, 'signin.json'), '{ "properties": { "email": { "maxLength": 99 } } }');
      let v1 = v0;
      for (let i = 0; i < 40 && v1 === v0; i++) {
        await sleep(100);
        v1 = store.get('brightpath')!.set.version;
      }
      expect(v1).not.toBe(v0);
      writeFileSync(join(overlayDir, 'signin.json'), '{ "properties": { "email": { "x-show": "nosuch.rule" } } }');
      await sleep(1200);
      expect(store.get('brightpath')!.set.version).toBe(v1);
    } finally {
      store.close();
      rmSync(join(root, 'providers', 'brightpath', 'overlays'), { recursive: true, force: true });
    }
  });
});

describe.each(BACKENDS)('server declarations on %s', (backend) => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = copyRoot();
    t = await createTestApp(backend, { root }, false);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('keeps serving the last good set when an overlay turns invalid', async () => {
    const before = (await t.app.inject({ method: 'GET', url: '/api/Customer/declarations?appName=brightpath' })).json();
    const dir = join(root, 'providers', 'brightpath', 'overlays', 'rules');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'common.json'), '{ "rules": { "common.broken": { "logic": { "no-such-operator": [1] } } } }');
    writeFileSync(join(root, 'providers', 'brightpath', 'overlays', 'rules', 'bad.json'), '{ not json');
    expect(await t.app.declarations.reload()).toContain('brightpath');
    const after = (await t.app.inject({ method: 'GET', url: '/api/Customer/declarations?appName=brightpath' })).json();
    expect(after.version).toBe(before.version);
    // the validators of the last good version are still served
    expect((await t.app.inject({ method: 'GET', url: `/parentportal/validators/brightpath/${before.version}.js` })).statusCode).toBe(200);
  });

  it('has no development outbox route in production, and sends HSTS there', async () => {
    const prod = await buildApp({ db: t.db.handle.db, root, argon2: { memoryCost: 1024, timeCost: 1, parallelism: 1 }, production: true });
    try {
      const res = await prod.inject({ method: 'GET', url: '/api/dev/outbox' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      expect((await t.app.inject({ method: 'GET', url: '/api/dev/outbox' })).statusCode).toBe(200);
    } finally {
      await prod.close();
    }
  });

  it('an answer that drifts from the contract fails loudly outside production', async () => {
    const db = await createTestDb(backend);
    try {
      const drifting = { ...handlers, 'Customer.version': { handler: async () => ({ version: 7 }) } };
      // the table's type refuses this answer; only a cast gets it past the compiler
      const app = await buildApp({ db: db.handle.db, argon2: FAST_ARGON2, handlers: drifting as unknown as typeof handlers });
      const res = await app.inject({ method: 'GET', url: '/api/Customer/version?sourceApp=parentportal' });
      expect(res.statusCode).toBe(500);
      await app.close();
    } finally {
      await db.dispose();
    }
  });

  it('refuses to start when a contract operation has no handler', async () => {
    const db = await createTestDb(backend);
    try {
      const partial: Partial<typeof handlers> = { ...handlers };
      delete partial['Billing.accountSummary'];
      // a table with a missing handler does not compile; at run time the registrar refuses it too
      await expect(buildApp({ db: db.handle.db, argon2: FAST_ARGON2, handlers: partial as typeof handlers })).rejects.toThrow(
        'contract operations without a handler: Billing.accountSummary',
      );
    } finally {
      await db.dispose();
    }
  });
});
