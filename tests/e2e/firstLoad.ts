// The first-load JavaScript of the sign-in route and of Home, measured in a real browser against the
// built portal: every script the page fetches until the page is drawn and the network is idle, each
// counted at its gzip size (level 9). `npm run bench:bundle` prints it; budget.test.ts holds it to
// the budget. The texts the page fetches (JSON data, not scripts) are counted beside it.
import zlib from 'node:zlib';
import type { Browser, Page } from 'playwright-core';

export const DEMO = {
  app: process.env.BENCH_APP ?? 'brightpath',
  email: process.env.BENCH_EMAIL ?? 'maria.garcia@example.com',
  password: process.env.BENCH_PASSWORD ?? 'Sunshine#2026',
};

export type Sizes = Map<string, { raw: number; gzip: number }>;

export interface FirstLoad {
  route: string;
  scripts: Sizes;
  gzip: number;
  raw: number;
  /** the text files (assets/texts-<version>/) fetched meanwhile, and their gzip total */
  texts: Sizes;
  textsGzip: number;
}

/** Every script and text response of the page; `done()` waits for the bodies still being read. */
function collect(page: Page) {
  const scripts: Sizes = new Map();
  const texts: Sizes = new Map();
  const pending: Array<Promise<void>> = [];
  let open = true;
  page.on('response', (res) => {
    const into = res.request().resourceType() === 'script' ? scripts : /\/assets\/texts-\w+\//.test(res.url()) ? texts : null;
    if (!open || !into) return;
    pending.push(
      res.body().then(
        (body) => void into.set(res.url(), { raw: body.length, gzip: zlib.gzipSync(body, { level: 9 }).length }),
        () => undefined, // redirected or aborted
      ),
    );
  });
  return {
    /** the scripts fetched so far; later ones (after the measurement) are not counted */
    done: async (): Promise<{ scripts: Sizes; texts: Sizes }> => {
      await Promise.all(pending);
      open = false;
      return { scripts: new Map(scripts), texts: new Map(texts) };
    },
  };
}

function total(route: string, { scripts, texts }: { scripts: Sizes; texts: Sizes }): FirstLoad {
  let raw = 0;
  let gzip = 0;
  for (const s of scripts.values()) {
    raw += s.raw;
    gzip += s.gzip;
  }
  const textsGzip = [...texts.values()].reduce((sum, s) => sum + s.gzip, 0);
  return { route, scripts, raw, gzip, texts, textsGzip };
}

/** Sign-in (through the provider's entry link) and Home, each in a fresh browser context. */
export async function measureFirstLoad(browser: Browser, baseUrl: string): Promise<FirstLoad[]> {
  const signInContext = await browser.newContext();
  const signInPage = await signInContext.newPage();
  const signIn = collect(signInPage);
  await signInPage.goto(`${baseUrl}/parentportal/${DEMO.app}/parent`);
  await signInPage.getByLabel(/e-?mail/i).first().waitFor({ timeout: 30_000 });
  await signInPage.waitForLoadState('networkidle');
  const results = [total('sign-in', await signIn.done())];

  // Sign in, then load Home cold in a new context holding the same stored session.
  await signInPage.getByLabel(/e-?mail/i).first().fill(DEMO.email);
  await signInPage.getByLabel(/password/i).first().fill(DEMO.password);
  await signInPage.getByRole('button', { name: /sign in/i }).first().click();
  await signInPage.waitForURL(/\/home/, { timeout: 30_000 });
  const state = await signInContext.storageState();
  await signInContext.close();
  const homeContext = await browser.newContext({ storageState: state });
  const homePage = await homeContext.newPage();
  const home = collect(homePage);
  await homePage.goto(`${baseUrl}/parentportal/home`);
  await homePage.getByTestId('page-title').waitFor({ timeout: 30_000 });
  await homePage.locator('[data-section]').first().waitFor({ timeout: 30_000 });
  await homePage.waitForLoadState('networkidle');
  results.push(total('home', await home.done()));
  await homeContext.close();
  return results;
}
