// What every browser test file shares: its server and browser (started before its tests, stopped
// after), the portal's addresses, signing in as a demo parent (README.md's table) or anyone else,
// the portal's texts read from locales/, and the harness's axe check, screenshots and outbox.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, shot, startServer, type RunningServer } from './harness';

export * from './harness';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The portal's address of a path of the portal (`/home`, `/brightpath/parent`). */
export const portalUrl = (server: RunningServer, path: string): string => `${server.url}/parentportal${path}`;
/** The parent application's address of a path of it (`/confirmation?key=...`). */
export const applicationUrl = (server: RunningServer, path: string): string => `${server.url}/parentapplication${path}`;

export interface E2E {
  /** the file's server (throws before the file's beforeAll ran) */
  readonly server: RunningServer;
  /** the file's browser (throws before the file's beforeAll ran, or when the file asked for none) */
  readonly browser: Browser;
  /** portalUrl on the file's server */
  portal(path: string): string;
  /** applicationUrl on the file's server */
  application(path: string): string;
}

type Env = Record<string, string>;

/**
 * Starts a server (with `env` over the harness's defaults; a function is called in beforeAll, for
 * settings only known then) and a browser before the file's (or describe block's) tests, and stops
 * both after them. The answer's getters read them once started.
 */
export function withServerAndBrowser(env: Env | (() => Env | Promise<Env>) = {}, opts: { browser?: boolean } = {}): E2E {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer(typeof env === 'function' ? await env() : env);
    if (opts.browser !== false) browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  const e2e: E2E = {
    get server() {
      if (!server) throw new Error('the server is not started: use it inside a test or a later hook');
      return server;
    },
    get browser() {
      if (!browser) throw new Error(opts.browser === false ? 'this file asked for no browser' : 'the browser is not started: use it inside a test or a later hook');
      return browser;
    },
    portal: (path) => portalUrl(e2e.server, path),
    application: (path) => applicationUrl(e2e.server, path),
  };
  return e2e;
}

/** The server alone (tests of the API over HTTP). */
export const withServer = (env: Env | (() => Env | Promise<Env>) = {}): E2E => withServerAndBrowser(env, { browser: false });

/** A browser alone, for files that start their servers in their tests. */
export function withBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser() {
      if (!browser) throw new Error('the browser is not started: use it inside a test or a later hook');
      return browser;
    },
  };
}

export interface Login {
  app: string;
  email: string;
  password: string;
}

/** The demo parents of README.md, by first name. */
export const PARENTS = {
  maria: { app: 'brightpath', email: 'maria.garcia@example.com', password: 'Sunshine#2026' },
  david: { app: 'brightpath', email: 'david.garcia@example.com', password: 'Sunshine#2026' },
  ana: { app: 'brightpath', email: 'ana.silva@example.com', password: 'Sunshine#2026' },
  priya: { app: 'brightpath', email: 'priya.patel@example.com', password: 'Sunshine#2026' },
  linh: { app: 'northridge', email: 'linh.nguyen@example.ca', password: 'Maple#Leaf2026' },
  amara: { app: 'brightpath', email: 'amara.mensah@example.com', password: 'Sunshine#2026' },
  karen: { app: 'brightpath', email: 'karen.johnson@example.com', password: 'Sunshine#2026' },
} as const satisfies Record<string, Login>;
export type Parent = keyof typeof PARENTS;

/** A demo parent by name, or any login (its provider brightpath unless given). */
export type Who = Parent | { app?: string; email: string; password: string };

export function login(who: Who): Login {
  if (typeof who === 'string') {
    const known = PARENTS[who];
    if (!known) throw new Error(`no demo parent ${who}`);
    return known;
  }
  return { app: who.app ?? 'brightpath', email: who.email, password: who.password };
}

/** Opens the provider's sign-in page and waits for its form. */
export async function openSignIn(page: Page, server: RunningServer, app = 'brightpath', opts: { timeout?: number; failShot?: string } = {}): Promise<void> {
  await page.goto(portalUrl(server, `/${app}/parent`));
  try {
    // a minute: the first page of a server just started, on a machine running two test files at once
    await page.waitForSelector('[data-testid=signin-form]', { timeout: opts.timeout ?? 60_000 });
  } catch (err) {
    await shot(page, opts.failShot ?? `signin-form-missing-${app}`);
    throw err;
  }
}

/** Fills the sign-in form shown on the page and submits it. */
export async function submitSignIn(page: Page, who: Who): Promise<void> {
  const { email, password } = login(who);
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', password);
  await page.click('[data-testid=signin-submit]');
}

export interface SignInOptions {
  /** wait for Home (true, the default), or return once the form is submitted */
  home?: boolean;
  /** how long to wait for the sign-in form (a minute unless given) */
  formTimeout?: number;
  /** a screenshot by this name when the form or Home does not come */
  failShot?: string;
}

/** Signs in on the provider's sign-in page and (unless `home: false`) waits for Home. */
export async function signIn(page: Page, server: RunningServer, who: Who, opts: SignInOptions = {}): Promise<void> {
  const l = login(who);
  await openSignIn(page, server, l.app, { timeout: opts.formTimeout, failShot: opts.failShot });
  await submitSignIn(page, l);
  if (opts.home === false) return;
  try {
    await page.waitForURL(/\/home$/);
  } catch (err) {
    if (opts.failShot) await shot(page, opts.failShot);
    throw err;
  }
}

/** A session token through the API's login (no browser). */
export async function apiToken(server: RunningServer | string, who: Who): Promise<string> {
  const { app, email, password } = login(who);
  const url = typeof server === 'string' ? server : server.url;
  const res = await fetch(`${url}/api/Authentication/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ appName: app, email, password }),
  });
  if (!res.ok) throw new Error(`sign-in: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}

export type Lang = 'en' | 'es' | 'pt' | 'vi';
export const LOCALES: Record<Lang, string> = { en: 'en-US', es: 'es-ES', pt: 'pt-BR', vi: 'vi-VN' };

/**
 * A text of the portal in a language, read from its locale files (the tests follow the
 * translations); `{{name}}` takes params.name, or nothing when not given.
 */
export function text(lang: Lang, ns: string, key: string, params: Record<string, string | number> = {}): string {
  return rawText(lang, ns, key).replace(/\{\{(\w+)\}\}/g, (_, k) => String(params[k] ?? ''));
}

/** A text as its locale file has it, `{{placeholders}}` and all. */
export function rawText(lang: Lang, ns: string, key: string): string {
  let v: unknown = JSON.parse(readFileSync(join(ROOT, 'locales', lang, `${ns}.json`), 'utf8'));
  for (const part of key.split('.')) v = (v as Record<string, unknown>)[part];
  if (typeof v !== 'string') throw new Error(`no text ${lang}/${ns}:${key}`);
  return v;
}

/** `s` matched literally inside a RegExp. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Waits until the lists of a section hold every item: a long list draws its first items with the
 * page and the rest just after (src/runtime/progressive.ts), marked `data-partial` until then.
 */
export async function wholeLists(page: Page, section: string): Promise<void> {
  await page.waitForSelector(`[data-section=${section}] [data-partial]`, { state: 'detached' });
}

/** The sandbox gateway's test card that is approved (4000 0000 0000 0002 is declined). */
export const SANDBOX_CARD = '4111 1111 1111 1111';

/** Types a card on the sandbox gateway's hosted page (the page must be open) and submits it. */
export async function submitSandboxCard(page: Page, number = SANDBOX_CARD): Promise<void> {
  await page.fill('input[name=number]', number);
  await page.fill('input[name=expiry]', '12/30');
  await page.fill('input[name=cvv]', '123');
  await page.click('button[type=submit]');
}

/**
 * On a payer page: chooses the payer (an adult by the list's label, or by index), waits for the form to
 * take the adult's address on file, presses Pay, and pays by card on the sandbox gateway's hosted page.
 */
export async function payAsPayer(page: Page, payer: { label: string } | { index: number }, number = SANDBOX_CARD): Promise<void> {
  await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
  await page.selectOption('#payer_paidByFamilyMemberID', payer);
  await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
  await page.click('[data-action=pay]');
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
  await submitSandboxCard(page, number);
}

/** On a payment step: chooses the card tile among the methods (English or Spanish). */
export async function chooseCard(page: Page): Promise<void> {
  await page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card|tarjeta/i }).first().locator('[data-action=choose]').click();
}
