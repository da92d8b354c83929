// Prints the first-load JavaScript (gzip) of the sign-in route and of Home, measured in a real
// browser against the built portal: every script the page fetches until the network is idle.
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser, startServer } from '../tests/e2e/harness';

const APP = process.env.BENCH_APP ?? 'brightpath';
const EMAIL = process.env.BENCH_EMAIL ?? 'maria.garcia@example.com';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'Sunshine#2026';

function collect(page: Page) {
  const scripts = new Map<string, { raw: number; gzip: number }>();
  page.on('response', async (res) => {
    const type = res.request().resourceType();
    if (type !== 'script') return;
    try {
      const body = await res.body();
      scripts.set(res.url(), { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length });
    } catch {
      /* redirected or aborted */
    }
  });
  return scripts;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function report(label: string, scripts: Map<string, { raw: number; gzip: number }>) {
  let raw = 0;
  let gzip = 0;
  for (const s of scripts.values()) {
    raw += s.raw;
    gzip += s.gzip;
  }
  console.log(`${label}: ${kb(gzip)} gzip (${kb(raw)} raw) in ${scripts.size} scripts`);
  for (const [url, s] of [...scripts].sort((a, b) => b[1].gzip - a[1].gzip)) {
    console.log(`    ${kb(s.gzip).padStart(10)}  ${new URL(url).pathname}`);
  }
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const signInContext = await browser.newContext();
  const signInPage = await signInContext.newPage();
  const signInScripts = collect(signInPage);
  await signInPage.goto(`${server.url}/parentportal/${APP}/parent`, { waitUntil: 'networkidle' });
  report('sign-in route', signInScripts);

  // Sign in through the API, then load Home cold in a new context holding the same stored session.
  await signInPage.getByLabel(/e-?mail/i).first().fill(EMAIL);
  await signInPage.getByLabel(/password/i).first().fill(PASSWORD);
  await signInPage.getByRole('button', { name: /sign in/i }).first().click();
  await signInPage.waitForURL(/\/home/, { timeout: 30_000 });
  const state = await signInContext.storageState();
  const homeContext = await browser.newContext({ storageState: state });
  const homePage = await homeContext.newPage();
  const homeScripts = collect(homePage);
  await homePage.goto(`${server.url}/parentportal/home`, { waitUntil: 'networkidle' });
  report('home route', homeScripts);
} finally {
  await browser.close();
  await server.stop();
}
