// What each library patch of build/patches/ gains: the portal is built once with every patch and once
// without each one, and for each build the first load of sign-in and Home is measured in a real
// browser: the JavaScript fetched (gzip) and, at 4x CPU slowdown, the main thread's blocking time
// until Home, and a page with a full form (Contact us), is drawn (the sum of each long task's time over 50 ms), median of RUNS. It builds into
// dist/ and leaves the full build there at the end. PATCH_ONLY (names, comma-separated) measures some.
import { spawnSync } from 'node:child_process';
import type { Browser } from 'playwright-core';
import { PATCHES } from '../build/patches';
import { launchBrowser, startServer } from '../tests/e2e/harness';
import { DEMO, measureFirstLoad } from '../tests/e2e/firstLoad';

const RUNS = Number(process.env.PATCH_RUNS || 3);
const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function build(without: string) {
  const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { stdio: 'inherit', env: { ...process.env, BUILD_WITHOUT_PATCHES: without } });
  if (r.status !== 0) throw new Error(`build without ${without || 'nothing'} failed`);
}

/** Blocking time (ms over 50 per long task) of loading a page signed in, at 4x CPU slowdown. */
async function blockingOf(route: string, ready: string, browser: Browser, baseUrl: string, state: Awaited<ReturnType<import('playwright-core').BrowserContext['storageState']>>): Promise<number> {
  const ctx = await browser.newContext({ storageState: state });
  const page = await ctx.newPage();
  await page.addInitScript(() => {
    (window as unknown as { __blocking: number }).__blocking = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) (window as unknown as { __blocking: number }).__blocking += Math.max(0, e.duration - 50);
    }).observe({ type: 'longtask', buffered: true });
  });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${baseUrl}/parentportal${route}`);
  await page.locator(ready).first().waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  const blocking = await page.evaluate(() => (window as unknown as { __blocking: number }).__blocking);
  await ctx.close();
  return blocking;
}

async function measure(label: string) {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const [signIn, home] = await measureFirstLoad(browser, server.url);
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${server.url}/parentportal/${DEMO.app}/parent`);
    await page.getByLabel(/e-?mail/i).first().fill(DEMO.email);
    await page.getByLabel(/password/i).first().fill(DEMO.password);
    await page.getByRole('button', { name: /sign in/i }).first().click();
    await page.waitForURL(/\/home/, { timeout: 30_000 });
    const state = await ctx.storageState();
    await ctx.close();
    const blocking: number[] = [];
    const form: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      blocking.push(await blockingOf('/home', '[data-section]', browser, server.url, state));
      // a page with a full form (the form runtime, @rjsf and its Chakra theme)
      form.push(await blockingOf('/contactus', 'section[data-section=contact] form :is(input, textarea)', browser, server.url, state));
    }
    const row = { label, signIn: signIn.gzip, home: home.gzip, blocking: median(blocking), form: median(form) };
    console.log(
      `${label.padEnd(26)} sign-in ${kb(row.signIn).padStart(9)}  home ${kb(row.home).padStart(9)}  blocking at 4x: home ${String(Math.round(row.blocking)).padStart(5)} ms, contact us ${String(Math.round(row.form)).padStart(5)} ms`,
    );
    return row;
  } finally {
    await browser.close();
    await server.stop();
  }
}

const only = (process.env.PATCH_ONLY ?? '').split(',').filter(Boolean);
const names = [...new Set(PATCHES.map((p) => p.name))].filter((n) => !only.length || only.includes(n));
build('');
const all = await measure('every patch');
for (const name of names) {
  const required = PATCHES.find((p) => p.name === name && p.required)?.required;
  if (required) {
    console.log(`${name}: not measured, the build needs it (${required})`);
    continue;
  }
  build(name);
  const r = await measure(`without ${name}`);
  console.log(`  ${name} gains: sign-in ${kb(r.signIn - all.signIn)}, home ${kb(r.home - all.home)}, blocking home ${Math.round(r.blocking - all.blocking)} ms, contact us ${Math.round(r.form - all.form)} ms`);
}
build('');
