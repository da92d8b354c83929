// Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) against the built portal served as in
// production, with Debian's chromium, on a fresh database: every parent route group, each loaded cold
// (the browser's HTTP cache is emptied before every run, as every parent meets it after a release)
// while the browser's storage keeps the signed-in session. Prints each run, then per route the median
// score, FCP, LCP, CLS and TBT, and proves each run cold: the entry script came over the network.
//   Sign-in (signed out), Home, /myaccount, /editcontact, /programlist, /viewenrollment, the parent
//   application's steps (children, enrollment, fee, review: entered from the programs list's Register),
//   /paynow, /payerinformation, /paymentreceipt, /communication, /attendance, /calendar.
//   npm run build && npm run bench:lighthouse        RUNS=5 for more runs (3 by default)
//   BENCH_ROUTES=home,paynow,'app fee' measures those only (the table's labels, lower case, no leading slash)
//   BENCH_TRACE_DIR=/tmp/traces keeps every run's trace
//   BENCH_SERVER_LOG=/tmp/server.log keeps the server's log
//   BENCH_DETAILS=1 also prints, per page, what shifted and the scripts' main-thread time (last run)
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, escapeRegExp, openSignIn, portalUrl, startServer, submitSignIn, text, type Login, type RunningServer } from '../tests/e2e/kit';
import { continueButton } from '../tests/e2e/applicationSteps';

const RUNS = Math.max(1, Number(process.env.RUNS || process.env.BENCH_RUNS || 3));
const DETAILS = process.env.BENCH_DETAILS === '1';
const ONLY = process.env.BENCH_ROUTES?.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
const WHO: Login = {
  app: process.env.BENCH_APP ?? 'brightpath',
  email: process.env.BENCH_EMAIL ?? 'maria.garcia@example.com',
  password: process.env.BENCH_PASSWORD ?? 'Sunshine#2026',
};
/** how long the browser steps between runs wait for a state (sign-in, a page's content) on a loaded machine */
const SLOW = Number(process.env.BENCH_STEP_TIMEOUT_MS || 180_000);
/** what Lighthouse empties besides the HTTP cache: not local storage, IndexedDB or cookies (the session) */
const CLEAR_STORAGE_TYPES = ['file_systems', 'shader_cache', 'service_workers', 'cache_storage'] as const;

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** bytes of the entry script over the network (0: from the cache or not found) */
  entryBytes: number;
  /** same-origin scripts over the network, and all of them */
  scriptsOverNetwork: number;
  scripts: number;
  /** what went wrong with the run (a Lighthouse error, a redirect, a warm load) */
  problem?: string;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
interface DetailItems {
  items?: Array<Record<string, unknown>>;
}
const details: Array<[string, string[]]> = [];

/** The layout shifts (element and score) and the scripts by main-thread time of one report. */
function describe(lhr: Lhr): string[] {
  const lines: string[] = [];
  const items = (id: string) => ((lhr.audits[id]?.details ?? {}) as DetailItems).items ?? [];
  for (const shift of items('layout-shifts')) {
    const node = shift.node as { snippet?: string; selector?: string } | undefined;
    lines.push(`shift ${Number(shift.score).toFixed(3)}  ${node?.selector ?? ''}  ${node?.snippet?.slice(0, 100) ?? ''}`);
  }
  // the LCP element and, for an image, its phases (time to first byte, load delay, load time, render delay)
  for (const part of items('largest-contentful-paint-element')) {
    const inner = (part as DetailItems).items ?? [];
    for (const row of inner) {
      const node = row.node as { snippet?: string; selector?: string } | undefined;
      if (node) lines.push(`lcp element  ${node.selector ?? ''}  ${node.snippet?.slice(0, 100) ?? ''}`);
      else if (row.phase) lines.push(`lcp phase ${String(row.phase).padEnd(12)} ${Number(row.timing).toFixed(0)} ms`);
    }
  }
  for (const script of items('bootup-time').slice(0, 6)) {
    lines.push(`cpu ${Number(script.total).toFixed(0).padStart(5)} ms (script ${Number(script.scripting).toFixed(0)})  ${String(script.url).replace(/^https?:\/\/[^/]+/, '')}`);
  }
  for (const group of items('mainthread-work-breakdown')) {
    lines.push(`work ${Number(group.duration).toFixed(0).padStart(5)} ms  ${String(group.groupLabel ?? group.group)}`);
  }
  for (const task of items('long-tasks').slice(0, 6)) {
    lines.push(`long task ${Number(task.duration).toFixed(0)} ms at ${Number(task.startTime).toFixed(0)}  ${String(task.url).replace(/^https?:\/\/[^/]+/, '')}`);
  }
  return lines;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');

/** The entry script the page's HTML names (its `<script type="module" src>`), as an absolute URL. */
const entries = new Map<string, string>();
async function entryScript(url: string): Promise<string> {
  const known = entries.get(url);
  if (known) return known;
  const html = await (await fetch(url)).text();
  // a page with a first paint names its module scripts on the early script (server/boot.ts scriptsAfterPaint)
  const src = /<script\b[^>]*type="module"[^>]*\bsrc="([^"]+)"/.exec(html)?.[1] ?? /\bdata-after-paint="([^" ]+)/.exec(html)?.[1];
  if (!src) throw new Error(`no entry script in the HTML of ${url}`);
  const abs = new URL(src, url).toString();
  entries.set(url, abs);
  return abs;
}

/**
 * One Lighthouse run. Lighthouse empties the HTTP cache (Network.clearBrowserCache) and the origin's
 * service workers and cache storage before it loads the page, but not local storage or cookies: the
 * parent stays signed in. The network-requests audit then shows whether the scripts really came over
 * the network (transferSize > 0) rather than from a cache.
 */
async function audit(url: string, port: number, expectPath: string | null): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    disableStorageReset: false,
    clearStorageTypes: [...CLEAR_STORAGE_TYPES],
    // a loaded machine: allow more than the defaults (30 s to the first paint, 45 s to load)
    maxWaitForFcp: 90_000,
    maxWaitForLoad: 120_000,
  });
  const lhr = result!.lhr;
  const problems: string[] = [];
  // a run Lighthouse could not complete scores 0: say why rather than hide it in the median
  if (lhr.runtimeError) problems.push(`${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const landed = new URL(lhr.finalDisplayedUrl || url);
  if (expectPath && landed.pathname !== expectPath) problems.push(`ended on ${short(landed.toString())}, not ${expectPath} (signed out? a guard?)`);
  if (DETAILS) details.push([url, describe(lhr)]);
  // BENCH_TRACE_DIR=dir keeps each run's trace (open it in Chrome's performance panel)
  if (process.env.BENCH_TRACE_DIR) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`;
    fs.mkdirSync(process.env.BENCH_TRACE_DIR, { recursive: true });
    fs.writeFileSync(path.join(process.env.BENCH_TRACE_DIR, name), JSON.stringify((result!.artifacts as { Trace?: unknown }).Trace ?? {}));
  }
  // the cold case: the entry script and the other same-origin scripts came over the network
  const entry = await entryScript(url);
  const requests = ((lhr.audits['network-requests']?.details ?? {}) as DetailItems).items ?? [];
  const origin = new URL(url).origin;
  const scripts = requests.filter((r) => r.resourceType === 'Script' && String(r.url).startsWith(origin));
  const entryRow = scripts.find((r) => r.url === entry);
  const entryBytes = entryRow && Number(entryRow.statusCode) === 200 ? Number(entryRow.transferSize) || 0 : 0;
  if (!entryRow) problems.push(`the entry script ${short(entry)} is not among the page's requests`);
  else if (entryBytes === 0) problems.push(`WARM: the entry script ${short(entry)} came from a cache (status ${String(entryRow.statusCode)}, transferSize ${String(entryRow.transferSize)})`);
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
    entryBytes,
    scriptsOverNetwork: scripts.filter((r) => Number(r.transferSize) > 0).length,
    scripts: scripts.length,
    problem: problems.length ? problems.join('; ') : undefined,
  };
}

// ---- the browser steps between runs: sign in, and find the routes' real ids ----

/** The first visible error the page shows (a banner, a form's message), or null. */
const visibleError = (page: Page) =>
  page.evaluate(() => {
    const el = [...document.querySelectorAll('[data-status=error], [data-page-error], [data-testid=error-banner], [role=alert]')].find(
      (e) => (e as HTMLElement).getClientRects().length > 0 && (e as HTMLElement).innerText.trim(),
    );
    return el ? (el as HTMLElement).innerText.trim().slice(0, 200) : null;
  });

/**
 * Signs in through the form, waiting for states rather than a fixed time: the form is drawn (the app
 * has started), then Home, or an error the page shows (which ends the attempt at once). One retry.
 */
async function signIn(page: Page, server: RunningServer): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await openSignIn(page, server, WHO.app, { timeout: SLOW });
      await submitSignIn(page, WHO);
      const deadline = Date.now() + SLOW;
      for (;;) {
        if (/\/home$/.test(new URL(page.url()).pathname)) return;
        const error = await visibleError(page).catch(() => null);
        if (error) throw new Error(`the page says: ${error}`);
        if (Date.now() > deadline) throw new Error(`no Home within ${SLOW / 1000} s (at ${short(page.url())})`);
        await page.waitForURL(/\/home$/, { timeout: 2_000 }).catch(() => undefined);
      }
    } catch (err) {
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      if (attempt >= 2) throw new Error(`sign-in as ${WHO.email} failed twice; last: ${why}`);
      console.log(`sign-in as ${WHO.email} failed (${why}); trying once more`);
    }
  }
}

/** GET /api/<p> with the session the page is signed in with. */
const api = <T>(page: Page, p: string): Promise<T> =>
  page.evaluate(async (p) => {
    const session = JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token?: string };
    const res = await fetch(`/api/${p}`, { headers: { Authorization: `Bearer ${session.token ?? ''}` } });
    if (!res.ok) throw new Error(`${p}: ${res.status}`);
    return (await res.json()) as T;
  }, p);

interface Route {
  label: string;
  url: string;
  /** the path the page must end on (null: wherever it goes, e.g. sign-in) */
  path: string | null;
}

const route = (label: string, url: string, expectPath = true): Route => ({ label, url, path: expectPath ? new URL(url).pathname : null });

/** Runs `find` for a route found by clicking through; a route it cannot find is reported, not measured. */
const skipped: Array<[string, string]> = [];
async function find(label: string, how: () => Promise<Route[]>): Promise<Route[]> {
  try {
    return await how();
  } catch (err) {
    skipped.push([label, err instanceof Error ? err.message.split('\n')[0] : String(err)]);
    console.log(`${label}: not measured (${skipped.at(-1)![1]})`);
    return [];
  }
}

/**
 * Register (or Add child) on the programs list, through the grade roll-up when it asks, into the parent
 * application: the first program that offers it (BENCH_PROGRAM=<title> for another). The demo camp
 * of tests/e2e/applicationSteps.ts offers neither to the demo parent, whose children it does not take.
 */
async function registerOnList(page: Page, server: RunningServer): Promise<void> {
  await page.goto(portalUrl(server, '/programlist'));
  const name = new RegExp(`^(${escapeRegExp(text('en', 'programs', 'button.register'))}|${escapeRegExp(text('en', 'programs', 'button.addChild'))})$`);
  let cards = page.locator('section[data-section=programs] article').filter({ has: page.getByRole('button', { name }) });
  if (process.env.BENCH_PROGRAM) cards = cards.filter({ has: page.getByRole('heading', { name: process.env.BENCH_PROGRAM }) });
  const card = cards.first();
  await card.waitFor();
  console.log(`the parent application: Register on '${(await card.getByRole('heading').first().innerText()).trim()}'`);
  await card.getByRole('button', { name }).first().click();
  const rollup = page.getByRole('alertdialog', { name: text('en', 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: text('en', 'programs', 'rollup.continue') });
  const deadline = Date.now() + SLOW;
  while (!/\/parentapplication\//.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${short(page.url())})`);
    if ((await rollup.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 5_000 }).catch(() => undefined);
    await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
  }
  await page.waitForURL(/\/parentapplication\/(children|enrollment|fee|review)\?key=/);
}

/** The parent application as a parent enters it (Register on the programs list), and its later steps. */
async function applicationRoutes(page: Page, server: RunningServer): Promise<Route[]> {
  // a busy machine may drop a click on the way: once more from the programs list
  await registerOnList(page, server).catch(async (err: unknown) => {
    console.log(`Register did not reach the parent application (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); trying once more`);
    await registerOnList(page, server);
  });
  const routes: Route[] = [];
  const here = () => {
    const u = new URL(page.url());
    return route(`app ${u.pathname.split('/').pop()}`, u.toString());
  };
  routes.push(here());
  // on through the steps, so that each is opened directly with the flow key as it stands there
  try {
    if (/\/children$/.test(new URL(page.url()).pathname)) {
      await page.getByRole('heading', { level: 1, name: text('en', 'application', 'children.title') }).waitFor();
      await page.getByRole('checkbox', { disabled: false }).first().check();
      await continueButton(page, 'en').click();
      await page.waitForURL(/\/parentapplication\/enrollment\?key=/);
      routes.push(here());
    }
    if (/\/enrollment$/.test(new URL(page.url()).pathname)) {
      const picker = page.locator('[data-testid^=activity-picker-]').first();
      await picker.waitFor();
      await picker.getByRole('checkbox', { disabled: false }).first().check();
      const waitlist = page.getByRole('radio', { name: text('en', 'application', 'enrollment.optionY') });
      if (await waitlist.count()) await waitlist.check();
      await continueButton(page, 'en').click();
      await page.waitForURL(/\/parentapplication\/(fee|review)\?key=/);
      routes.push(here());
    }
    if (/\/fee$/.test(new URL(page.url()).pathname)) {
      await page.getByRole('heading', { level: 1, name: text('en', 'application', 'fee.title') }).waitFor();
      await continueButton(page, 'en').click();
      await page.waitForURL(/\/parentapplication\/review\?key=/);
      routes.push(here());
    }
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    skipped.push([`app steps after ${routes.at(-1)!.label}`, why]);
    console.log(`the application's steps after ${routes.at(-1)!.label}: not reached (${why})`);
  }
  return routes;
}

// ---- the run ----

const server = await startServer({
  NODE_ENV: 'production',
  // the sandbox gateway beside the portal (off by default in production): Pay now offers methods
  SANDBOX_GATEWAY_ENABLED: '1',
});
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic'],
});
const results: Array<[Route, Figures[]]> = [];
const portal = (p: string) => portalUrl(server, p);
const wanted = (r: Route) => !ONLY || ONLY.includes(r.label.toLowerCase().replace(/^\//, ''));

async function measure(r: Route) {
  if (!wanted(r)) return;
  const figures: Figures[] = [];
  for (let i = 0; i < RUNS; i++) {
    let f = await audit(r.url, chrome.port, r.path);
    // a run Lighthouse could not complete (score 0 from a hung page on a loaded machine): once more
    if (f.problem && f.score === 0) {
      console.log(`${r.label} run ${i + 1}: ${f.problem}; running it again`);
      f = await audit(r.url, chrome.port, r.path);
    }
    figures.push(f);
    console.log(
      `${r.label.padEnd(18)} run ${i + 1}/${RUNS}: score ${f.score}, FCP ${(f.fcp / 1000).toFixed(1)} s, LCP ${(f.lcp / 1000).toFixed(1)} s, CLS ${f.cls.toFixed(3)}, TBT ${f.tbt.toFixed(0)} ms; ` +
        `cold: entry script ${f.entryBytes > 0 ? `${kb(f.entryBytes)} over the network` : 'NOT over the network'}, ${f.scriptsOverNetwork}/${f.scripts} scripts over the network` +
        (f.problem ? `  !! ${f.problem}` : ''),
    );
  }
  results.push([r, figures]);
}

try {
  // signed out first: the sign-in page as a parent meets it
  await measure(route('sign-in', portal(`/${WHO.app}/parent`), false));

  // sign in once in the same browser (its storage then holds the session Lighthouse's tabs use)
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page = await browser.contexts()[0].newPage();
  page.setDefaultTimeout(SLOW);
  page.setDefaultNavigationTimeout(SLOW);
  const routes: Route[] = [];
  try {
    await signIn(page, server);
    routes.push(route('Home', portal('/home')), route('/myaccount', portal('/myaccount')));
    // the holder's edit page, as My account opens it (a real adultID of the parent)
    routes.push(
      ...(await find('/editcontact', async () => {
        await page.goto(portal('/myaccount'));
        await page.locator('section[data-section=holders] [data-action=editHolder]').first().click();
        await page.waitForURL(/\/editcontact\?adultID=\d+$/);
        return [route('/editcontact', page.url())];
      })),
    );
    routes.push(route('/programlist', portal('/programlist')));
    // an enrolment, as the programs list's View or enrol opens it (its real ids)
    routes.push(
      ...(await find('/viewenrollment', async () => {
        await page.goto(portal('/programlist'));
        await page.getByRole('button', { name: text('en', 'programs', 'button.view'), exact: true }).first().click();
        await page.waitForURL(/\/viewenrollment\?.*programPeriodID=\d+/);
        return [route('/viewenrollment', page.url())];
      })),
    );
    routes.push(...(await find('the parent application', () => applicationRoutes(page, server))));
    routes.push(route('/paynow', portal('/paynow')));
    // the payer page with the key of a method chosen on Pay now (the flow lives in the session)
    routes.push(
      ...(await find('/payerinformation', async () => {
        await page.goto(portal('/paynow'));
        await page.waitForSelector('section[data-section=summary] dl');
        const card = page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card/i }).first();
        await card.locator('[data-action=choose]').click();
        await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
        return [route('/payerinformation', page.url())];
      })),
    );
    // a receipt of the account's (the seed's payments)
    routes.push(
      ...(await find('/paymentreceipt', async () => {
        const payments = await api<Array<{ accountPaymentID: number }>>(page, 'Billing/payments-received');
        if (payments.length === 0) throw new Error('the account has no payment received');
        return [route('/paymentreceipt', portal(`/paymentreceipt?accountPaymentID=${payments[0].accountPaymentID}`))];
      })),
    );
    routes.push(route('/communication', portal('/communication')), route('/attendance', portal('/attendance')), route('/calendar', portal('/calendar')));
  } finally {
    await page.close();
    await browser.close();
  }
  console.log('\nthe signed-in routes:');
  for (const r of routes) console.log(`  ${r.label.padEnd(18)} ${short(r.url)}${wanted(r) ? '' : '  (not in BENCH_ROUTES)'}`);
  for (const r of routes) await measure(r);
} finally {
  chrome.kill();
  // BENCH_SERVER_LOG=file keeps what the server logged (a warning or error while measuring)
  if (process.env.BENCH_SERVER_LOG) fs.writeFileSync(process.env.BENCH_SERVER_LOG, server.log());
  await server.stop();
}

console.log(`\nLighthouse mobile (simulated slow 4G, 4x CPU), cold HTTP cache, signed in; median of ${RUNS} run${RUNS === 1 ? '' : 's'}\n`);
console.log('route              score   FCP s   LCP s    CLS   TBT ms   entry script     (scores of each run)');
let warm = 0;
let failed = 0;
for (const [r, figures] of results) {
  const m = (k: 'score' | 'fcp' | 'lcp' | 'tbt' | 'cls') => median(figures.map((f) => f[k]));
  const cold = figures.every((f) => f.entryBytes > 0);
  if (!cold) warm++;
  if (figures.some((f) => f.problem && !f.problem.startsWith('WARM'))) failed++;
  console.log(
    `${r.label.padEnd(18)} ${String(m('score')).padStart(5)}  ${(m('fcp') / 1000).toFixed(1).padStart(6)}  ${(m('lcp') / 1000).toFixed(1).padStart(6)}  ${m('cls').toFixed(3).padStart(5)}  ${m('tbt').toFixed(0).padStart(7)}   ${(cold ? `cold ${kb(median(figures.map((f) => f.entryBytes)))}` : 'NOT COLD').padEnd(15)}  (${figures.map((f) => f.score).join(', ')})`,
  );
}
for (const [label, why] of skipped) console.log(`not measured: ${label}: ${why}`);
console.log(
  warm === 0
    ? '\nEvery run was cold: each page\'s entry script came over the network (Lighthouse\'s network-requests audit, status 200, transferSize > 0).'
    : `\n${warm} route(s) had a run whose entry script did not come over the network: those figures are not the cold case.`,
);
if (DETAILS) {
  const last = new Map(details);
  for (const [url, lines] of last) {
    console.log(`\n${short(url)}`);
    for (const line of lines) console.log(`  ${line}`);
  }
}
if (warm > 0 || failed > 0 || skipped.length > 0) process.exitCode = 1;
