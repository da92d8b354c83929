// A provider's entry page carries its first paint as HTML inside #root (server/boot.ts), so the page
// shows before the scripts: the header with the provider's name and logo and the sign-in form, in the
// browser's language, with every provider text escaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from './helpers';
import { firstPaintHtml, withBootData, type BootData } from '../../server/boot';

type Texts = Record<string, Record<string, string>>;
const texts = (lang: string, ns: string): Texts => JSON.parse(readFileSync(new URL(`../../locales/${lang}/${ns}.json`, import.meta.url), 'utf8')) as Texts;
const paintOf = (html: string): string | null => /<div id="root">(<div class="pp-fp[\s\S]*?)<\/div><script/.exec(html)?.[1] ?? null;
const decode = (s: string) => s.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

describe("the entry page's first paint", () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'pp-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>x</title></head><body><div id="root"></div><script type="module" src="/x.js"></script></body></html>');
    t = await createTestApp('pglite', { distDir: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  for (const [lang, header] of [
    ['en', 'en-US,en;q=0.9'],
    ['es', 'es-MX,es;q=0.9'],
    ['pt', 'pt-BR'],
    ['vi', 'vi-VN,vi;q=0.9,en;q=0.5'],
  ] as const) {
    it(`is the sign-in page in ${lang}: the provider's name and logo, the title, the form's fields and button, the welcome`, async () => {
      const page = await t.app.inject({ method: 'GET', url: '/parentportal/brightpath/parent', headers: { 'accept-language': header } });
      expect(page.statusCode).toBe(200);
      const paint = paintOf(page.body);
      expect(paint).not.toBeNull();
      const program = (await t.app.inject({ method: 'GET', url: '/api/Customer/program?appName=brightpath', headers: { 'accept-language': lang } })).json<{ programName: string; logoUrl?: string }>();
      const screens = texts(lang, 'screens');
      const fields = texts(lang, 'fields');
      const text = decode(paint!);
      expect(paint).toContain('data-first-paint="signin"');
      expect(text).toContain(`<span class="pp-fp-name">${program.programName}</span>`);
      if (program.logoUrl) expect(text).toContain(`src="${program.logoUrl}"`);
      expect(text).toContain(`<h1 class="pp-fp-title">${screens.signin.title}</h1>`);
      expect(text).toContain(`>${fields.signin.email}<span class="pp-fp-req" aria-hidden="true">*</span></label>`);
      expect(text).toContain(`>${fields.signin.password}<span class="pp-fp-req" aria-hidden="true">*</span></label>`);
      expect(paint).toMatch(/<input id="pp-fp-email" name="email" type="email" autocomplete="username" inputmode="email" required>/);
      expect(paint).toMatch(/<input id="pp-fp-password" name="password" type="password" autocomplete="current-password" required>/);
      expect(paint).toMatch(/<form class="pp-fp-form" method="dialog" novalidate aria-label="[^"]+">/);
      expect(text).toContain(`<button type="submit" class="pp-fp-submit">${screens.signin.signIn}</button>`);
      expect(text).toContain(screens.signin.welcome.replace('{{program}}', program.programName));
    });
  }

  it('a page that names no provider has none', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/parentportal/home' });
    expect(page.body).toContain('<div id="root"></div>');
  });

  it("escapes the provider's texts: its name and logo address cannot add markup or leave an attribute", () => {
    const evil = '<img src=x onerror=alert(1)>"\'&';
    const data = {
      appName: 'evil',
      lang: 'en',
      program: { appName: 'evil', programName: evil, logoUrl: 'https://x.example/a.png" onerror="alert(1)' } as unknown as BootData['program'],
      declarations: { version: 'x', schemas: {}, screens: {} },
    } satisfies BootData;
    const html = withBootData('<html><body><div id="root"></div></body></html>', data);
    const paint = firstPaintHtml(data);
    expect(html).toContain(paint);
    expect(paint).not.toContain('<img src=x');
    expect(paint).not.toContain('" onerror=');
    expect(paint).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;');
    expect(paint).toContain('src="https://x.example/a.png&quot; onerror=&quot;alert(1)"');
  });
});
