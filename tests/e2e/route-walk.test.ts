// A walk of every route of screens/ as a signed-in parent (Maria Garcia, Bright Path) with its query
// missing and with foreign or garbage values: another account's ids (Linh Nguyen of Northridge, Karen
// Johnson of Bright Path), unknown ids, text where a number is expected, an unknown flow key. Each
// page, once settled, must show no raw translation key (nor '{{'), no spinner or skeleton that never
// ends (a page that legitimately waits must say so within a bounded time) and no success text above
// an error. The parent application's routes are walked under /parentapplication/ with a session of
// its own, entered from the programs list as a parent does; the one-time enrolment's, the calendar's
// and the punch pass's under their own base paths, each entered by the portal's hand-off. One browser context, one page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { apiToken, newContext, shot, signIn, text, withServerAndBrowser } from './kit';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface QueryDecl {
  type?: string;
  required?: boolean;
}
interface Screen {
  id: string;
  path: string;
  access?: string;
  query?: Record<string, QueryDecl>;
  shellPart?: string;
  product?: string;
}

const SCREENS: Screen[] = fs
  .readdirSync(path.join(ROOT, 'screens'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(ROOT, 'screens', f), 'utf8')) as Screen)
  .filter((s) => typeof s.path === 'string');

const isApplication = (s: Screen) => s.id.startsWith('parentapplication-');

/** Every translation key of the English locales, with and without its namespace, and their first parts. */
function localeKeys(): { keys: Set<string>; heads: Set<string> } {
  const keys = new Set<string>();
  const heads = new Set<string>();
  const dir = path.join(ROOT, 'locales', 'en');
  for (const f of fs.readdirSync(dir)) {
    const ns = f.replace(/\.json$/, '');
    const walk = (v: unknown, prefix: string) => {
      if (v && typeof v === 'object') for (const [k, c] of Object.entries(v)) walk(c, prefix ? `${prefix}.${k}` : k);
      else {
        keys.add(prefix);
        keys.add(`${ns}:${prefix}`);
        heads.add(prefix.split('.')[0]);
      }
    };
    walk(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')), '');
  }
  return { keys, heads };
}
const { keys: KEYS, heads: HEADS } = localeKeys();

/** Words of the page that look like a translation key the page failed to translate. */
function rawKeys(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/\S*\{\{[^}]*\}\}\S*/g)) found.add(m[0]);
  for (const m of text.matchAll(/(?<![@\w./-])([a-z][a-zA-Z0-9]*(?::[a-zA-Z0-9]+)?(?:\.[a-zA-Z0-9_{}]+)+)(?![@\w/-])/g)) {
    const word = m[1].replace(/\.$/, '');
    if (!word.includes('.')) continue;
    const bare = word.replace(/^[a-zA-Z0-9]+:/, '');
    if (KEYS.has(word) || KEYS.has(bare) || (HEADS.has(bare.split('.')[0]) && bare.split('.').length >= 2 && !/^\d/.test(bare.split('.')[1]))) found.add(word);
  }
  return [...found];
}

const e2e = withServerAndBrowser();
let ctx: BrowserContext;
let page: Page;

/** Ids of other accounts, read through the API as their own parents. */
interface Foreign {
  adult: number[];
  child: number[];
  payment: number[];
  programPeriod: number[];
  bulletin: number[];
}

async function api<T>(token: string, p: string): Promise<T> {
  const res = await fetch(`${e2e.server.url}/api/${p}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!res.ok) throw new Error(`${p}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function foreignIds(): Promise<Foreign> {
  const out: Foreign = { adult: [], child: [], payment: [], programPeriod: [], bulletin: [] };
  for (const who of ['linh', 'karen'] as const) {
    const token = await apiToken(e2e.server, who);
    out.adult.push(...(await api<Array<{ adultID: number }>>(token, 'Demographics/adults')).map((a) => a.adultID));
    out.child.push(...(await api<Array<{ childID: number }>>(token, 'Demographics/children')).map((c) => c.childID));
    out.payment.push(...(await api<Array<{ accountPaymentID: number }>>(token, 'Billing/payments-received')).map((p) => p.accountPaymentID));
    out.programPeriod.push(...(await api<Array<{ programPeriodID: number }>>(token, 'Registration/programperiods/list')).map((p) => p.programPeriodID));
    out.bulletin.push(...(await api<Array<{ bulletinID: number }>>(token, 'Communication/bulletin')).map((b) => b.bulletinID));
  }
  for (const [k, v] of Object.entries(out)) if (v.length === 0) throw new Error(`no foreign ${k} ids to try`);
  return out;
}

/** The values to try for a query parameter: another account's, unknown, and garbage. */
function variants(name: string, decl: QueryDecl, foreign: Foreign): string[] {
  const id = (ids: number[]) => [String(ids[0]), '987654321', 'abc'];
  switch (name) {
    case 'adultID':
      return id(foreign.adult);
    case 'ChildID':
      return id(foreign.child);
    case 'id':
      return decl.type === 'integer' ? id([...foreign.child, ...foreign.bulletin]) : ['abc'];
    case 'accountPaymentID':
      return id(foreign.payment);
    case 'programPeriodID':
    case 'calendarProgramPeriodID':
      return id(foreign.programPeriod);
    case 'key':
      return ['0123456789abcdef0123456789abcdef', 'abc'];
    default:
      if (decl.type === 'integer') return ['987654321', 'abc'];
      if (decl.type === 'boolean') return ['maybe'];
      return ['garbage'];
  }
}

/** The query strings to open a screen with: none, then each variant set (all parameters at once). */
function queries(s: Screen, foreign: Foreign): string[] {
  const entries = Object.entries(s.query ?? {});
  if (entries.length === 0) return [''];
  const lists = entries.map(([k, d]) => [k, variants(k, d, foreign)] as const);
  const rounds = Math.max(...lists.map(([, v]) => v.length));
  const out = [''];
  for (let i = 0; i < rounds; i++) {
    const q = new URLSearchParams();
    for (const [k, v] of lists) q.set(k, v[Math.min(i, v.length - 1)]);
    out.push(`?${q}`);
  }
  // a bare receipt or flow id alongside parameters of the right shape: the page decides by the id alone
  return out;
}

/** Maria signs in; a slow first page of the walk may take a minute. */
const signInAsMaria = (p: Page) => signIn(p, e2e.server, 'maria', { formTimeout: 60_000, failShot: 'route-walk-signin-failed' });

const SPINNERS = '.chakra-spinner, [data-state=loading], [data-testid=payment-loader]';

/**
 * Waits for the page to settle: no spinner or skeleton for half a second running (a page that turns to
 * another after its answer settles again there), at most `bound` ms. False when one still shows.
 */
async function settle(p: Page, bound = 8000): Promise<boolean> {
  await p.waitForLoadState('load').catch(() => undefined);
  try {
    await p.waitForFunction(
      (sel) => {
        const w = window as unknown as { __quietSince?: number; __quietUrl?: string };
        const busy = [...document.querySelectorAll(sel)].some((e) => (e as HTMLElement).getClientRects().length > 0) || !document.querySelector('h1, [data-testid=signin-form]');
        if (busy || w.__quietUrl !== location.href) {
          w.__quietSince = busy ? undefined : Date.now();
          w.__quietUrl = location.href;
          return false;
        }
        w.__quietSince ??= Date.now();
        return Date.now() - w.__quietSince >= 500;
      },
      SPINNERS,
      { timeout: bound, polling: 100 },
    );
    return true;
  } catch {
    return false;
  }
}

interface Finding {
  url: string;
  problem: string;
}

async function inspect(p: Page, url: string, settled: boolean): Promise<Finding[]> {
  const findings: Finding[] = [];
  const state = await p.evaluate((sel) => {
    const visible = (e: Element) => (e as HTMLElement).getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
    const spinners = [...document.querySelectorAll(sel)].filter(visible);
    const texts = (q: string) => [...document.querySelectorAll(q)].filter(visible).map((a) => (a as HTMLElement).innerText.trim());
    // an alert or notice section says its status; the page-level message, the error banner, a
    // section's retry panel and a rule's error are errors
    const success = texts('[data-status=success]');
    const errors = texts('[data-status=error], [data-state=error], [data-page-error], [data-rule-error], [data-testid=error-banner], [data-testid=application-entry-error]');
    return {
      text: document.body.innerText,
      spinners: spinners.length,
      success,
      errors,
    };
  }, SPINNERS);
  for (const k of rawKeys(state.text)) findings.push({ url, problem: `raw key on the page: ${k}` });
  if (!settled && state.spinners > 0) findings.push({ url, problem: `a spinner or skeleton still shows after the page settled (${state.spinners})` });
  if (state.success.length > 0 && state.errors.length > 0) findings.push({ url, problem: `success text "${state.success[0].slice(0, 60)}" shown with error "${state.errors[0].slice(0, 60)}"` });
  return findings;
}

/** Maria's portal session is still there (a page may sign out, e.g. the session-ended page): else sign in again. */
async function ensureSignedIn(p: Page) {
  // the portal's session is read on a portal page (the parent application keeps its own)
  if (!p.url().startsWith(e2e.portal('/'))) await p.goto(e2e.portal('/home'));
  const signedIn = await p.evaluate(() => {
    const raw = localStorage.getItem('pp.session');
    return !!raw && raw.includes('"token"') && !raw.includes('"token":""') && !raw.includes('"sessionExpired":true');
  });
  if (!signedIn) await signInAsMaria(p);
}

beforeAll(async () => {
  ctx = await newContext(e2e.browser, 1280);
  page = await ctx.newPage();
});
afterAll(async () => {
  await ctx?.close();
});

/** Screens that end or change the session go last, so that the others are walked signed in. */
const LAST = new Set(['sessionexpired', 'postloginerror', 'invalidurl', 'configurationerror', 'error', 'notfound', 'loginalert', 'postlogin']);

describe('route walk', () => {
  it('opens every route with missing, foreign and garbage parameters: no raw key, no endless spinner, no success above an error', async () => {
    const foreign = await foreignIds();
    await signInAsMaria(page);
    const findings: Finding[] = [];
    const portalScreens = SCREENS.filter((s) => (s.product ?? 'parentportal') === 'parentportal' && !s.path.includes(':')).sort((a, b) => Number(LAST.has(a.id)) - Number(LAST.has(b.id)));
    for (const s of portalScreens) {
      for (const q of queries(s, foreign)) {
        await ensureSignedIn(page);
        const url = `/parentportal${s.path === '/' ? '/' : s.path}${q}`;
        await page.goto(`${e2e.server.url}${url}`);
        const settled = await settle(page);
        const f = await inspect(page, url, settled);
        if (f.length > 0) await shot(page, `route-walk-${s.id}${q ? '-q' : ''}`);
        for (const x of f) console.log(`FINDING ${x.url}: ${x.problem}`);
        findings.push(...f);
      }
    }
    // what the fixed pages show now, at both widths, for people to look at
    for (const [name, url] of [
      ['bad-link', `/editchild?ChildID=abc`],
      ['gateway-return-bare', '/bluepayresponse'],
      ['receipt-foreign', `/paymentreceipt?accountPaymentID=${foreign.payment[0]}`],
      ['failed-no-reason', '/paymentfailed'],
    ] as const) {
      for (const width of [375, 1280]) {
        await ensureSignedIn(page);
        await page.setViewportSize({ width, height: width < 500 ? 780 : 900 });
        await page.goto(e2e.portal(url));
        await settle(page);
        await shot(page, `route-walk-${name}-${width}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    // the parent application, with a session of its own: the portal's hand-off to it for one of Maria's programs
    await ensureSignedIn(page);
    const handOff = await page.evaluate(async () => {
      const session = JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token: string; accountID: number; appName: string; userName: string };
      const headers = { Authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
      type Period = { programPeriodID: number; category: string; isAvailableToRegisterToday: boolean; childrenToRegister: number };
      const periods = (await (await fetch('/api/Registration/programperiods/list', { headers })).json()) as Period[];
      const open = periods.filter((p) => p.isAvailableToRegisterToday && p.childrenToRegister > 0);
      const programPeriodID = (open.find((p) => p.category === 'summerCamp') ?? open[0]).programPeriodID;
      const post = async (p: string, body: unknown) => (await fetch(`/api/${p}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
      const common = { programPeriodID, accountID: session.accountID };
      const { parentApplicationUrl } = (await post('Registration/program/redirection-url', { ...common, user: session.userName, userType: 'PARENT', source: 'PROGRAMLIST', destination: 'INSTRUCTION', applicationName: session.appName })) as { parentApplicationUrl: string };
      const tokenString = JSON.stringify({ applicationName: session.appName, locale: 'en', programPeriodID, accessibilityTheme: 'default', fontSize: 'default', returnUrl: `${location.origin}/parentportal/programlist`, menu: '/programlist', userName: session.userName, version: '', accountID: session.accountID });
      const { keyelement } = (await post('Registration/program/application-token', { ...common, product: 'parentapplication', ApplicationTokenString: tokenString })) as { keyelement: string };
      const url = new URL(parentApplicationUrl.replace('{{applicationHost}}', location.origin));
      url.searchParams.set('keyelement', keyelement);
      return url.toString();
    });
    await page.goto(handOff);
    await page.waitForURL(/\/parentapplication\/(children|enrollment|fee|review)\?key=/, { timeout: 60_000 });
    for (const s of SCREENS.filter(isApplication)) {
      for (const q of queries(s, foreign)) {
        const url = `/parentapplication${s.path}${q}`;
        await page.goto(`${e2e.server.url}${url}`);
        const settled = await settle(page);
        const f = await inspect(page, url, settled);
        if (f.length > 0) await shot(page, `route-walk-${s.id}${q ? '-q' : ''}`);
        for (const x of f) console.log(`FINDING ${x.url}: ${x.problem}`);
        findings.push(...f);
      }
    }
    // the one-time enrolment, the calendar and the punch pass, each with a session of its own: the
    // portal's hand-off to it for one of Maria's programs (the school year, the option C program with
    // flex days, the punch pass program), then every route of the product
    for (const [product, base, landing] of [
      ['onetimeenrollment', '/onetimeenrollment', /\/onetimeenrollment\/summary\?key=/],
      ['calendar', '/flexcalendar', /\/flexcalendar\/dates\?programPeriodID=\d+$/],
      ['punchpass', '/punchpass', /\/punchpass\/passes$/],
    ] as const) {
      await page.goto(e2e.portal('/home'));
      await ensureSignedIn(page);
      const entry = await page.evaluate(
        async ({ product, base }) => {
          const session = JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token: string; accountID: number; appName: string; userName: string };
          const headers = { Authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
          const periods = (await (await fetch('/api/Registration/programperiods/list', { headers })).json()) as { programPeriodID: number; category: string; enrollmentOption: string; isPunchPass: boolean }[];
          const program = product === 'onetimeenrollment' ? periods.find((p) => p.category === 'schoolYear') : product === 'calendar' ? periods.find((p) => p.enrollmentOption === 'C') : periods.find((p) => p.isPunchPass);
          const programPeriodID = program!.programPeriodID;
          const tokenString = JSON.stringify({ applicationName: session.appName, locale: 'en', programPeriodID, menu: '/programlist', userName: session.userName, accountID: session.accountID });
          const res = await fetch('/api/Registration/program/application-token', { method: 'POST', headers, body: JSON.stringify({ programPeriodID, accountID: session.accountID, product, ApplicationTokenString: tokenString }) });
          const { keyelement } = (await res.json()) as { keyelement: string };
          return `${base}/?appName=${session.appName}&programPeriodID=${programPeriodID}&lang=en&keyelement=${keyelement}`;
        },
        { product, base },
      );
      await page.goto(`${e2e.server.url}${entry}`);
      await page.waitForURL(landing, { timeout: 60_000 });
      for (const s of SCREENS.filter((x) => x.product === product)) {
        for (const q of queries(s, foreign)) {
          const url = `${base}${s.path}${q}`;
          await page.goto(`${e2e.server.url}${url}`);
          const settled = await settle(page);
          const f = await inspect(page, url, settled);
          if (f.length > 0) await shot(page, `route-walk-${s.id}${q ? '-q' : ''}`);
          for (const x of f) console.log(`FINDING ${x.url}: ${x.problem}`);
          findings.push(...f);
        }
      }
    }
    expect(findings.map((f) => `${f.url}: ${f.problem}`)).toEqual([]);
  }, 900_000);
});

describe('pay now, found on the walk', () => {
  it('refuses "-5", warns above the balance, keeps Tab on the methods, says a cancel charged nothing and keeps the payer on Back', async () => {
    await ensureSignedIn(page);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: width < 500 ? 780 : 900 });
      await page.goto(e2e.portal('/paynow'));
      await page.waitForSelector('section[data-section=summary] dl');
      const balance = (await page.locator('section[data-section=summary] dd').first().innerText()).trim();
      await page.check('#amount_amountChoice-1');
      // "-5" stays "-5" and is refused on the field
      await page.fill('#amount_otherAmount', '-5');
      await page.locator('#amount_otherAmount').blur();
      expect(await page.inputValue('#amount_otherAmount')).toBe('-5');
      await page.getByText(text('en', 'errors', 'payment.amount')).first().waitFor();
      await expect.poll(() => page.locator('section[data-section=methods] [data-action=choose]').count()).toBe(0);
      await shot(page, `route-walk-paynow-negative-${width}`);
      // above the balance: allowed, and said in the form
      await page.fill('#amount_otherAmount', '99999');
      await page.getByText(text('en', 'payment', 'paynow.aboveBalance', { balance })).waitFor();
      await page.waitForSelector('section[data-section=methods]:not([aria-busy]) [data-action=choose]');
      await shot(page, `route-walk-paynow-above-balance-${width}`);
    }
    // typed, then Tab at once: the focus lands on the first method once the methods are in (Maria's
    // saved cards, kept for autopay only, come first, then the new-method tiles)
    await page.fill('#amount_otherAmount', '');
    await page.locator('#amount_otherAmount').focus();
    await page.keyboard.type('20');
    await page.keyboard.press('Tab');
    await expect
      .poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('section[data-section=saved], section[data-section=methods]'))), { timeout: 10_000 })
      .toBe(true);

    // cancelled on the gateway's page: back on Pay now, told nothing was charged
    const toGateway = async () => {
      await page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card/i }).first().locator('[data-action=choose]').click();
      await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
      await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(3)', { state: 'attached' });
      await page.selectOption('#payer_paidByFamilyMemberID', { label: 'Maria Garcia' });
      await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
      await page.click('[data-action=pay]');
      await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
    };
    await toGateway();
    await page.locator('a.cancel').first().click();
    await page.waitForURL(/\/parentportal\/paynow\?payment=cancelled/);
    await page.getByText(text('en', 'payment', 'cancelled')).waitFor();
    await shot(page, 'route-walk-paynow-cancelled-1280');
    await page.setViewportSize({ width: 375, height: 780 });
    await shot(page, 'route-walk-paynow-cancelled-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Back from the gateway's page: the payer chosen is still chosen
    await page.waitForSelector('section[data-section=methods] [data-action=choose]');
    await toGateway();
    const chosen = await page.goBack().then(() => page.waitForURL(/\/payerinformation\?key=/)).then(async () => {
      await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(3)', { state: 'attached' });
      return page.locator('#payer_paidByFamilyMemberID option:checked').innerText();
    });
    expect(chosen.trim()).toBe('Maria Garcia');
    expect(await page.inputValue('#payer_streetAddress')).not.toBe('');
    await shot(page, 'route-walk-payer-after-back-1280');
  }, 180_000);
});
