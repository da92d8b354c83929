// Typing speed of the full forms: the built portal on the real server (fresh embedded database,
// PORTAL_TODAY honoured, as the browser tests start it), Debian's chromium at 4x CPU slowdown, signed
// in as the demo parent. On /editcontact (the primary holder) and /childmedicalinformation it types
// into text fields one key at a time and measures each key from its keydown to the frame after the
// page handled it (the next animation frame, then a task: the paint that shows the character).
// Prints p50, p95 and the worst key per form, and the Event Timing p95 (keydown/input entries of
// 16 ms or more; keys under 16 ms leave none).
//   npm run build && npm run bench:typing        BENCH_ROUNDS=3 for more keys
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { CHROMIUM, startServer } from '../tests/e2e/harness';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 1);
const CPU = Number(process.env.BENCH_CPU || 4);
const APP = 'brightpath';
const EMAIL = 'maria.garcia@example.com';
const PASSWORD = 'Sunshine#2026';
// ~40 characters per form, into two text fields each
const TEXT = 'Maple Grove Avenue 12';

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/**
 * In the page: each keydown's latency to the frame after its input (rAF, then a task after the
 * paint). A string, as tsx would wrap named functions in a helper the page does not have.
 */
const INSTRUMENT = `(() => {
  const eventDurations = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'keydown' || e.name === 'input') eventDurations.push(e.duration);
  }).observe({ type: 'event', durationThreshold: 16 });
  const keys = [];
  let waiting = null;
  let started = 0;
  document.addEventListener('keydown', (e) => {
    started = e.timeStamp;
    requestAnimationFrame(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => {
        keys.push(performance.now() - started);
        if (waiting) waiting();
      };
      ch.port2.postMessage(0);
    });
  }, true);
  // the n-th key's latency, once measured
  window.__typing = {
    eventDurations,
    count: () => keys.length,
    key: (n) => new Promise((resolve) => {
      const check = () => (keys.length >= n ? resolve(keys[n - 1]) : (waiting = check));
      check();
    }),
  };
})()`;

async function instrument(page: Page) {
  await page.evaluate(INSTRUMENT);
}

async function typeInto(page: Page, selector: string, text: string): Promise<number[]> {
  const field = page.locator(selector).first();
  await field.waitFor();
  await field.click();
  await field.press('Control+A');
  await field.press('Delete');
  const times: number[] = [];
  // the clicks and clearing above were keys too
  let n = await page.evaluate<number>('new Promise((r) => setTimeout(r, 100)).then(() => window.__typing.count())');
  for (const ch of text) {
    await page.keyboard.press(ch === ' ' ? 'Space' : ch);
    times.push(await page.evaluate<number>(`window.__typing.key(${++n})`));
  }
  // every character reached the field
  const value = await field.inputValue();
  if (!value.endsWith(text)) throw new Error(`${selector} holds "${value}", expected it to end with "${text}"`);
  return times;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

/** CPU ms of the renderer's main thread: its top-level tasks' thread time. */
function mainThreadCpu(events: TraceEvent[]): number {
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return NaN;
  const micros = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'RunTask').reduce((sum, e) => sum + (e.tdur ?? 0), 0);
  return micros / 1000;
}

interface Figures {
  keys: number[];
  events: number[];
  cpuPerKey: number;
}

async function measure(page: Page, fields: string[]): Promise<Figures> {
  const cdp = await page.context().newCDPSession(page);
  await instrument(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU });
  const keys: number[] = [];
  // BENCH_PROFILE=dir writes a CPU profile of the typing per form (open it in DevTools)
  const profileDir = process.env.BENCH_PROFILE;
  if (profileDir) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // BENCH_TRACE=file.json writes a timeline trace (style, layout, paint) of the typing
  // the main thread's CPU time while typing, from a timeline trace: on a machine busy with other
  // work the wall-clock figures grow, this one much less (BENCH_TRACE=file writes the trace)
  const traceFile = process.env.BENCH_TRACE;
  const traceEvents: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => traceEvents.push(...(e.value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  try {
    for (let r = 0; r < ROUNDS; r++) for (const f of fields) keys.push(...(await typeInto(page, f, TEXT)));
    const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
    await cdp.send('Tracing.end');
    await done;
    if (traceFile) fs.writeFileSync(`${traceFile}.${new URL(page.url()).pathname.split('/').pop()}.json`, JSON.stringify({ traceEvents }));
    if (profileDir) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.mkdirSync(profileDir, { recursive: true });
      fs.writeFileSync(path.join(profileDir, `${new URL(page.url()).pathname.split('/').pop()}.cpuprofile`), JSON.stringify(profile));
    }
  } finally {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  const events = await page.evaluate<number[]>('window.__typing.eventDurations');
  return { keys, events, cpuPerKey: mainThreadCpu(traceEvents) / keys.length };
}

const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const results: Array<[string, Figures]> = [];
try {
  const portal = (p: string) => `${server.url}/parentportal${p}`;
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(portal(`/${APP}/parent`));
  await page.waitForSelector('[data-testid=signin-form]');
  await page.fill('input[name=email]', EMAIL);
  await page.fill('input[name=password]', PASSWORD);
  await page.click('[data-testid=signin-submit]');
  await page.waitForURL(/\/home$/, { timeout: 60_000 });

  // the primary holder's contact form, reached as a parent does (My Account, Edit)
  await page.goto(portal('/myaccount'));
  await page.locator('section[data-section=holders] [data-action=editHolder]').first().click();
  await page.waitForURL(/\/editcontact\?adultID=\d+$/, { timeout: 60_000 });
  await page.waitForSelector('input[id$=_streetAddress]');
  results.push(['/editcontact', await measure(page, ['input[id$=_streetAddress]', 'input[id$=_apartmentNo]'])]);

  await page.goto(portal('/myaccount'));
  await page.locator('section[data-section=children] article', { hasText: 'Sofia' }).locator('[data-action=medical]').click();
  await page.waitForURL(/\/childmedicalinformation\?/, { timeout: 60_000 });
  await page.waitForSelector('input[id$=_doctorName]');
  results.push(['/childmedicalinformation', await measure(page, ['input[id$=_doctorName]', 'input[id$=_preferredHospital]'])]);
} finally {
  await browser.close();
  await server.stop();
}

console.log(`\nKey to paint at ${CPU}x CPU slowdown (ms)\n`);
console.log('form                       keys    p50    p95    max   main-thread CPU ms/key   event-timing p95 (entries >= 16 ms)');
for (const [label, { keys, events, cpuPerKey }] of results) {
  const f = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(0)).padStart(6);
  console.log(`${label.padEnd(26)} ${String(keys.length).padStart(4)} ${f(pct(keys, 50))} ${f(pct(keys, 95))} ${f(Math.max(...keys))}   ${f(cpuPerKey)}                 ${f(pct(events, 95))} (${events.length})`);
}
console.log(`(load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores: wall-clock figures grow with other work on the machine)`);
