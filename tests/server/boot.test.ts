// A provider's entry page carries its first screen's data (server/boot.ts): the provider's record in
// the browser's language and its declaration set, as JSON that no text in it can break out of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './helpers';
import { withBootData, type BootData } from '../../server/boot';

const bootOf = (html: string): BootData | null => {
  const m = /<script type="application\/json" id="pp-boot">([\s\S]*?)<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]) as BootData) : null;
};

describe('the entry page carries the provider and its declarations', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'pp-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>');
    t = await createTestApp('pglite', { distDir: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('the same record and set as Customer.program and Customer.declarations, in the browser language', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/parentportal/brightpath/parent', headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers.vary).toMatch(/accept-language/i);
    const boot = bootOf(page.body);
    expect(boot).not.toBeNull();
    expect(boot!.appName).toBe('brightpath');
    expect(boot!.lang).toBe('es');
    const program = (await t.app.inject({ method: 'GET', url: '/api/Customer/program?appName=brightpath', headers: { 'accept-language': 'es' } })).json();
    expect(boot!.program).toEqual(program);
    const decl = (await t.app.inject({ method: 'GET', url: '/api/Customer/declarations?appName=brightpath' })).json();
    expect(boot!.declarations).toEqual(decl);
  });

  it("with sign-in's public data loads answered as the API answers them, in the browser language", async () => {
    const boot = bootOf((await t.app.inject({ method: 'GET', url: '/parentportal/brightpath/parent', headers: { 'accept-language': 'es' } })).body)!;
    const byOp = Object.fromEntries((boot.loads ?? []).map((l) => [l.op, l]));
    expect(Object.keys(byOp).sort()).toEqual(['Authentication.socialOptions', 'Communication.alertsLogin']);
    expect(byOp['Communication.alertsLogin'].params).toEqual({ appName: 'brightpath' });
    const alerts = (await t.app.inject({ method: 'GET', url: '/api/Communication/PARENT/alerts/login?appName=brightpath', headers: { 'accept-language': 'es' } })).json();
    expect(byOp['Communication.alertsLogin'].answer).toEqual(alerts);
    const social = (await t.app.inject({ method: 'GET', url: '/api/Authentication/social/options?appName=brightpath' })).json();
    expect(byOp['Authentication.socialOptions'].answer).toEqual(social);
  });

  it('another provider gets its own; a page that names no provider, or an unknown one, gets none', async () => {
    const northridge = bootOf((await t.app.inject({ method: 'GET', url: '/parentportal/northridge/parent' })).body);
    expect(northridge?.appName).toBe('northridge');
    expect(bootOf((await t.app.inject({ method: 'GET', url: '/parentportal/home' })).body)).toBeNull();
    expect(bootOf((await t.app.inject({ method: 'GET', url: '/parentportal/nosuchprovider/parent' })).body)).toBeNull();
    // only the entry is drawn ahead: another path under the provider's name is no page of the shell's
    for (const other of ['/parentportal/brightpath/signin', '/parentportal/brightpath', '/parentportal/brightpath/parent/more']) {
      expect(bootOf((await t.app.inject({ method: 'GET', url: other })).body)).toBeNull();
    }
    expect(bootOf((await t.app.inject({ method: 'GET', url: '/parentportal/brightpath/parent?lang=es' })).body)).not.toBeNull();
  });

  it("no text in the data can close the script element ('<' is escaped)", () => {
    const html = withBootData('<html><body></body></html>', {
      appName: 'x',
      lang: 'en',
      program: { programName: '</script><script>alert(1)</script>' } as unknown as BootData['program'],
      declarations: {},
    });
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(bootOf(html)?.program).toEqual({ programName: '</script><script>alert(1)</script>' });
  });
});
