// Links in e-mails open screens by id: a provider overlay that moves a screen moves its links, and a
// linked screen that is not declared stops the start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, createTestDb, FAST_ARGON2, KAREN, freshIp, type TestApp } from './helpers';
import { ROOT, buildApp } from '../../server/app';
import { LINKED_SCREENS, linkedScreenPaths } from '../../server/links';
import { outbox } from '../../server/db/schema';

/** a copy of the declaration folders, so the test can change screens and overlays */
function copyRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-links-'));
  for (const part of ['schemas', 'rules', 'screens', 'providers', 'locales', 'package.json', 'src/runtime/kinds.json']) {
    if (existsSync(join(ROOT, part))) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  }
  return dir;
}

describe('linked screens', () => {
  const screens = Object.fromEntries(['provider-entry', ...LINKED_SCREENS].map((id) => [id, { path: id === 'provider-entry' ? '/:appName/parent' : `/${id}` }]));

  it('answers the paths of the entry and of every linked screen', () => {
    expect(linkedScreenPaths(screens, 'screens')).toEqual({
      entry: '/:appName/parent',
      pages: { resetpassword: '/resetpassword', createpassword: '/createpassword', sociallink: '/sociallink', socialsignin: '/socialsignin' },
    });
  });

  it('names a linked screen that is not declared, or one whose path cannot be linked', () => {
    const { resetpassword: _gone, ...withoutReset } = screens;
    expect(() => linkedScreenPaths(withoutReset, 'providers/brightpath')).toThrow('providers/brightpath: links in e-mails open screen "resetpassword", which is not declared');
    expect(() => linkedScreenPaths({ ...screens, sociallink: { path: '/sociallink/:ticket' } }, 'screens')).toThrow('screen "sociallink" is opened by links');
    expect(() => linkedScreenPaths({ ...screens, 'provider-entry': { path: '/parent' } }, 'screens')).toThrow('must take the provider in its path');
  });
});

describe.each(BACKENDS)('links in e-mails on %s', (backend) => {
  let root: string;
  let t: TestApp;
  beforeAll(async () => {
    root = copyRoot();
    // Bright Path moves the reset page and its entry; the e-mail's link must follow both
    const overlays = join(root, 'providers', 'brightpath', 'overlays', 'screens');
    mkdirSync(overlays, { recursive: true });
    writeFileSync(join(overlays, 'resetpassword.json'), JSON.stringify({ path: '/new-password' }));
    writeFileSync(join(overlays, 'provider-entry.json'), JSON.stringify({ path: '/:appName/start' }));
    t = await createTestApp(backend, { root });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a provider overlay that moves a screen moves the link in the e-mail', async () => {
    expect(t.app.declarations.get('brightpath')?.set.screens.resetpassword.path).toBe('/new-password');
    const res = await t.app.inject({ method: 'POST', url: '/api/Authentication/forgot-password', payload: { appName: 'brightpath', email: KAREN[1] }, remoteAddress: freshIp() });
    expect(res.statusCode).toBe(200);
    const [mail] = await t.db.handle.db.select().from(outbox).where(eq(outbox.toAddress, KAREN[1])).orderBy(desc(outbox.id)).limit(1);
    expect(mail.textBody).toMatch(/\/parentportal\/brightpath\/start\?next=%2Fnew-password&token=[A-Za-z0-9_-]+/);
    expect(mail.textBody).not.toContain('next=%2Fresetpassword');
  });

  it('a linked screen that is not declared stops the start, naming it', async () => {
    const broken = copyRoot();
    const db = await createTestDb(backend);
    try {
      rmSync(join(broken, 'screens', 'createpassword.json'));
      await expect(buildApp({ db: db.handle.db, root: broken, argon2: FAST_ARGON2, production: false })).rejects.toThrow(
        'links in e-mails open screen "createpassword", which is not declared',
      );
    } finally {
      await db.dispose();
      rmSync(broken, { recursive: true, force: true });
    }
  });
});
