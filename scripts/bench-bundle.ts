// Prints the first-load JavaScript (gzip) of the sign-in route and of Home, measured in a real
// browser against the built portal: every script the page fetches until the network is idle.
import zlib from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser, startServer } from '../tests/e2e/harness';

const APP = process.env.BENCH_APP ?? 'brightpath';
const EMAIL = process.env.BENCH_EMAIL ?? 'maria.garcia@example.com';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'Sunshine#2026';

type Sizes = Map<string, { raw: number; gzip: number }>;

/** Every script response of the page; `done()` waits for the bodies still being read. */
function collect(page: Page) {
  const scripts: Sizes = new Map();
  const pending: Array<Promise<void>> = [];
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push(
      res.body().then(
        (body) => void scripts.set(res.url(), { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length }),
        () => undefined, // redirected or aborted
      ),
    );
  });
  return { scripts, done: async () => void (await Promise.all(pending)) };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;

function report(label: string, scripts: Sizes) {
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
  const signIn = collect(signInPage);
  await signInPage.goto(`${server.url}/parentportal/${APP}/parent`, { waitUntil: 'networkidle' });
  await signIn.done();
  report('sign-in route', signIn.scripts);

  // Sign in through the API, then load Home cold in a new context holding the same stored session.
  await signInPage.getByLabel(/e-?mail/i).first().fill(EMAIL);
  await signInPage.getByLabel(/password/i).first().fill(PASSWORD);
  await signInPage.getByRole('button', { name: /sign in/i }).first().click();
  await signInPage.waitForURL(/\/home/, { timeout: 30_000 });
  const state = await signInContext.storageState();
  const homeContext = await browser.newContext({ storageState: state });
  const homePage = await homeContext.newPage();
  const home = collect(homePage);
  await homePage.goto(`${server.url}/parentportal/home`, { waitUntil: 'networkidle' });
  await homePage.getByTestId('page-title').waitFor({ timeout: 30_000 });
  await home.done();
  report('home route', home.scripts);
} finally {
  await browser.close();
  await server.stop();
}
