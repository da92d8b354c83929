// A provider's entry page carries its first screen's data (server/boot.ts): the provider's record in
// the browser's language and its declaration set, as JSON that no text in it can break out of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './helpers';
import { scriptsAfterPaint, withBootData, type BootData } from '../../server/boot';

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

  it('another page of the provider the browser chose last (the pp_app cookie): its header drawn ahead, the provider and declarations carried, in the language chosen', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/parentportal/home', headers: { cookie: 'Language=pt; pp_app=Northridge', 'accept-language': 'en-US' } });
    expect(page.headers.vary).toMatch(/cookie/i);
    const boot = bootOf(page.body);
    expect(boot?.appName).toBe('northridge');
    expect(boot?.lang).toBe('pt');
    expect(boot?.loads).toBeUndefined();
    // the header only: the sign-in form is the entry's
    expect(page.body).toContain('data-first-paint="chrome"');
    expect(page.body).not.toContain('<form');
    const decl = (await t.app.inject({ method: 'GET', url: '/api/Customer/declarations?appName=northridge' })).json();
    expect(boot!.declarations).toEqual(decl);
    // a provider this server does not serve, or none: the page as built
    for (const cookie of ['pp_app=nosuchprovider', 'pp_app=', 'other=brightpath']) {
      const plain = await t.app.inject({ method: 'GET', url: '/parentportal/home', headers: { cookie } });
      expect(bootOf(plain.body)).toBeNull();
      expect(plain.body).toContain('<div id="root"></div>');
    }
  });

  it('a page with a first paint asks for its module scripts after it (the early script names them); one without keeps them', () => {
    const built =
      '<head><script type="module" crossorigin src="/parentportal/assets/react-1.js"></script>\n    <script type="module" crossorigin src="/parentportal/assets/app-2.js"></script>\n    <link rel="stylesheet" href="/parentportal/assets/app.css">\n    <script async src="/parentportal/assets/first-paint-3.js"></script></head>';
    const after = scriptsAfterPaint(built);
    expect(after).not.toContain('type="module"');
    expect(after).toContain('<script async src="/parentportal/assets/first-paint-3.js" data-after-paint="/parentportal/assets/react-1.js /parentportal/assets/app-2.js"></script>');
    expect(after).toContain('app.css');
    // no early script to ask for them: nothing is removed
    const withoutEarly = built.replace(/<script async[^>]*><\/script>/, '');
    expect(scriptsAfterPaint(withoutEarly)).toBe(withoutEarly);
    // the page drawn ahead moves them; a page the scripts draw keeps them
    const data = { appName: 'x', lang: 'en', program: { programName: 'X' } as unknown as BootData['program'], declarations: {} };
    expect(withBootData(`<html>${built}<body><div id="root"></div></body></html>`, data, { signIn: false })).toContain('data-after-paint=');
  });

  it("a signed-in page of the portal or the application gets the early script of a signed-in page, with its provider and the product's session key; the entry and the other products keep the entry's", () => {
    const built =
      '<head><script type="module" crossorigin src="/parentportal/assets/app-2.js"></script>\n    <script async src="/parentportal/assets/first-paint-3.js" data-page-script="/parentportal/assets/first-paint-page-4.js"></script></head>';
    const data = { appName: 'x', lang: 'en', program: { programName: 'X' } as unknown as BootData['program'], declarations: {} };
    const page = withBootData(`<html>${built}<body><div id="root"></div></body></html>`, data, { signIn: false, path: '/parentportal/paynow' });
    expect(page).toContain('<script async src="/parentportal/assets/first-paint-page-4.js" data-app="x" data-session-key="pp.session" data-after-paint="/parentportal/assets/app-2.js"></script>');
    expect(page).not.toContain('first-paint-3.js');
    const application = withBootData(`<html>${built}<body><div id="root"></div></body></html>`, data, { signIn: false, path: '/parentapplication/fee' });
    expect(application).toContain('<script async src="/parentportal/assets/first-paint-page-4.js" data-app="x" data-session-key="pa.session" data-after-paint="/parentportal/assets/app-2.js"></script>');
    const oneTime = withBootData(`<html>${built}<body><div id="root"></div></body></html>`, data, { signIn: false, path: '/onetimeenrollment/summary' });
    expect(oneTime).toContain('<script async src="/parentportal/assets/first-paint-3.js" data-page-script="/parentportal/assets/first-paint-page-4.js" data-after-paint="/parentportal/assets/app-2.js"></script>');
    const entry = withBootData(`<html>${built}<body><div id="root"></div></body></html>`, data, { signIn: true, path: '/parentportal/x/parent' });
    expect(entry).toContain('<script async src="/parentportal/assets/first-paint-3.js" data-page-script="/parentportal/assets/first-paint-page-4.js" data-after-paint="/parentportal/assets/app-2.js"></script>');
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
