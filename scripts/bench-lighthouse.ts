// Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown) against the built portal served as
// in production, with Debian's chromium: sign-in, Home, /myaccount and /editcontact (signed in as
// the demo parent), three runs each; prints the median score, FCP, LCP, TBT and CLS of each page.
//   npm run build && npm run bench:lighthouse        BENCH_RUNS=5 for more runs
//   BENCH_TRACE_DIR=/tmp/traces keeps every run's trace
//   BENCH_DETAILS=1 also prints, per page, what shifted and the scripts' main-thread time (last run)
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM, startServer } from '../tests/e2e/harness';

const RUNS = Number(process.env.BENCH_RUNS || 3);
const DETAILS = process.env.BENCH_DETAILS === '1';
const details: Array<[string, string[]]> = [];
const APP = process.env.BENCH_APP ?? 'brightpath';
const EMAIL = process.env.BENCH_EMAIL ?? 'maria.garcia@example.com';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'Sunshine#2026';

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
interface DetailItems {
  items?: Array<Record<string, unknown>>;
}

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
  for (const task of items('long-tasks').slice(0, 6)) {
    lines.push(`long task ${Number(task.duration).toFixed(0)} ms at ${Number(task.startTime).toFixed(0)}  ${String(task.url).replace(/^https?:\/\/[^/]+/, '')}`);
  }
  return lines;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function audit(url: string, port: number): Promise<Figures> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    // the signed-in session lives in the browser's storage
    disableStorageReset: true,
  });
  const lhr = result!.lhr;
  // a run Lighthouse could not complete scores 0: say why rather than hide it in the median
  if (lhr.runtimeError) console.log(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  if (DETAILS) details.push([url, describe(lhr)]);
  // BENCH_TRACE_DIR=dir keeps each run's trace (open it in Chrome's performance panel)
  if (process.env.BENCH_TRACE_DIR) {
    const name = `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`;
    fs.writeFileSync(path.join(process.env.BENCH_TRACE_DIR, name), JSON.stringify((result!.artifacts as { Trace?: unknown }).Trace ?? {}));
  }
  const num = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: num('first-contentful-paint'),
    lcp: num('largest-contentful-paint'),
    tbt: num('total-blocking-time'),
    cls: num('cumulative-layout-shift'),
  };
}

const server = await startServer({ NODE_ENV: 'production', PUBLIC_URL: 'http://127.0.0.1' });
const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM,
  chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const results: Array<[string, Figures[]]> = [];
try {
  const portal = (p: string) => `${server.url}/parentportal${p}`;
  const signInUrl = portal(`/${APP}/parent`);
  const runs = async (label: string, url: string) => {
    const figures: Figures[] = [];
    for (let i = 0; i < RUNS; i++) figures.push(await audit(url, chrome.port));
    results.push([label, figures]);
  };
  await runs('sign-in', signInUrl);

  // sign in once in the same browser (its storage then holds the session) and find the holder's edit page
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page = await browser.contexts()[0].newPage();
  await page.goto(signInUrl);
  await page.getByLabel(/e-?mail/i).first().fill(EMAIL);
  await page.getByLabel(/password/i).first().fill(PASSWORD);
  await page.getByRole('button', { name: /sign in/i }).first().click();
  await page.waitForURL(/\/home/, { timeout: 60_000 });
  await page.goto(portal('/myaccount'));
  await page.locator('section[data-section=holders] [data-action=editHolder]').first().click();
  await page.waitForURL(/\/editcontact\?adultID=\d+$/, { timeout: 60_000 });
  const editContact = page.url();
  await page.close();
  await browser.close();

  await runs('Home', portal('/home'));
  await runs('/myaccount', portal('/myaccount'));
  await runs('/editcontact', editContact);
} finally {
  chrome.kill();
  await server.stop();
}

console.log(`\nLighthouse mobile (simulated slow 4G, 4x CPU), median of ${RUNS} runs\n`);
console.log('page           score   FCP s   LCP s   TBT ms    CLS   (scores of each run)');
for (const [label, figures] of results) {
  const m = (k: keyof Figures) => median(figures.map((f) => f[k]));
  console.log(
    `${label.padEnd(14)} ${String(m('score')).padStart(5)}  ${(m('fcp') / 1000).toFixed(1).padStart(6)}  ${(m('lcp') / 1000).toFixed(1).padStart(6)}  ${m('tbt').toFixed(0).padStart(7)}  ${m('cls').toFixed(3).padStart(5)}   (${figures.map((f) => f.score).join(', ')})`,
  );
}
if (DETAILS) {
  const last = new Map(details);
  for (const [url, lines] of last) {
    console.log(`\n${url.replace(/^https?:\/\/[^/]+/, '')}`);
    for (const line of lines) console.log(`  ${line}`);
  }
}
