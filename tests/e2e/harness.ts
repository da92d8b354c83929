// Starts the real server (built portal + API) on a fresh embedded database and drives Debian's
// chromium with playwright-core; axe checks every page a test visits.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { freePort } from '../../scripts/lib/portal';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const root = path.resolve(import.meta.dirname, '../..');
const shotDir = path.join(root, 'test-results', 'screens');


export interface RunningServer {
  url: string;
  /** the embedded database's folder */
  dataDir: string;
  stop(): Promise<void>;
  /**
   * Stops the server, runs `between` (a CLI on the same database: the embedded one is one
   * process's at a time), and starts it again on the same port and data.
   */
  restart(between: () => Promise<void> | void, more?: Record<string, string>): Promise<void>;
  /** SIGKILL, as a crash: no shutdown runs */
  crash(): Promise<void>;
  /** stops the server (its shutdown runs) and keeps its database */
  halt(): Promise<void>;
  log(): string;
}

const removeData = (dataDir: string) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const f of [`${dataDir}.sandbox-gateway.json`, `${dataDir}.sandbox-gateway.json.secrets`]) fs.rmSync(f, { force: true });
};

const localDay = () => new Date().toLocaleDateString('sv');

/**
 * The database a server on default settings starts with, seeded once for the whole run by
 * tests/e2e/seededTemplate.ts (a server started and stopped): a copy is the same demo data the server
 * would seed on an empty database, without the 15 to 20 s of seeding at every start. Not used with
 * other settings, nor once the business day differs from the one it was seeded on.
 */
function seededCopy(env: Record<string, string>, dataDir: string): void {
  const template = process.env.PP_E2E_SEEDED_DIR;
  if (!template || Object.keys(env).length > 0) return;
  let made: { today: string; day: string };
  try {
    made = JSON.parse(fs.readFileSync(`${template}.ready`, 'utf8')) as typeof made;
  } catch {
    return;
  }
  if (made.today !== (process.env.PORTAL_TODAY ?? '') || (!made.today && made.day !== localDay())) return;
  fs.cpSync(template, dataDir, { recursive: true });
  for (const f of ['.sandbox-gateway.json', '.sandbox-gateway.json.secrets']) if (fs.existsSync(template + f)) fs.copyFileSync(template + f, dataDir + f);
}

/** Marks a stopped server's database as the run's seeded template (tests/e2e/seededTemplate.ts). */
export function markSeeded(dataDir: string): void {
  fs.writeFileSync(`${dataDir}.ready`, JSON.stringify({ today: process.env.PORTAL_TODAY ?? '', day: localDay() }));
}

export function removeSeeded(dataDir: string): void {
  removeData(dataDir);
  fs.rmSync(`${dataDir}.ready`, { force: true });
}

export async function startServer(env: Record<string, string> = {}, reuse?: { port: number; dataDir: string }, attempt = 1): Promise<RunningServer> {
  if (!fs.existsSync(path.join(root, 'dist', 'index.html'))) {
    throw new Error('dist/ is missing: run `npm run build` before the browser tests');
  }
  const port = reuse?.port ?? (await freePort());
  const dataDir = reuse?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-'));
  if (!reuse) seededCopy(env, dataDir);
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PGLITE_DIR: dataDir,
      DATABASE_URL: '',
      SMTP_URL: '',
      // the tests read the outbox, and follow links to the address they reach the server at
      DEV_ROUTES: '1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // two test files share the machine, each with a server whose embedded database runs on its
      // event loop: a loaded machine holds that loop up over the production limit (1 s) and the
      // server would refuse pages with 503 "overloaded", which no browser test is about
      // (tests/server/operations.test.ts tests that refusal)
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  // a loaded machine can take well over a minute to start the server (the hook allows 180 s)
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) {
      // the free port was taken between choosing it and listening on it (another test file's
      // server or gateway): a fresh start on another port
      if (!reuse && attempt < 3 && output.includes(`EADDRINUSE: address already in use 127.0.0.1:${port}`)) {
        removeData(dataDir);
        return startServer(env, undefined, attempt + 1);
      }
      throw new Error(`server exited (${child.exitCode}):\n${output}`);
    }
    try {
      const res = await fetch(`${url}/api/Customer/version?sourceApp=parentportal`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 150 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const current = child;
  const halt = async () => {
    if (current.exitCode === null && current.signalCode === null) {
      const exited = new Promise((r) => current.once('exit', r));
      current.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (current.exitCode === null) current.kill('SIGKILL');
    }
  };
  const server: RunningServer = {
    url,
    dataDir,
    log: () => output,
    async restart(between, more = {}) {
      await halt();
      await between();
      // `more`: settings of the new process over the first's (another business day)
      const again = await startServer({ ...env, ...more }, { port, dataDir });
      // the new process is the one stop(), crash() and the next restart() end: `this` is the object
      // the test holds (after a first restart, this method is the new process's, called on it), so a
      // second restart stops the process that runs, never a second server on the same database
      this.stop = again.stop;
      this.halt = again.halt;
      this.crash = again.crash;
      this.log = again.log;
      this.restart = again.restart;
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    halt,
    async stop() {
      await halt();
      removeData(dataDir);
    },
  };
  return server;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newContext(browser: Browser, width = 1280, locale = 'en-US'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width, height: width < 500 ? 780 : 900 }, locale });
}

/** axe with the WCAG 2.1 A/AA rules; fails naming every violation and its first nodes. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  // colours measured mid-transition (a dialog fading in, a busy button turning back) are not the
  // page's colours: wait for busy buttons to settle, then for running animations and transitions
  await page
    .waitForFunction(() => !document.querySelector('[data-loading], [aria-busy=true]'), undefined, { timeout: 3000 })
    .catch(() => undefined);
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((r) => setTimeout(r, 3000)),
    ]),
  );
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  if (result.violations.length > 0) {
    const lines = result.violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes
        .slice(0, 3)
        .map((n) => `${n.target.join(' ')}\n      ${n.html.slice(0, 300)}\n      ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`)
        .join('\n    ')}`,
    );
    throw new Error(`axe found ${result.violations.length} violation(s) on ${label}:\n${lines.join('\n')}`);
  }
  // axe leaves an aria-describedby or aria-labelledby naming an id nothing carries alone (it still
  // reads the ids that exist): a screen reader then reads less than the page meant
  const dangling = await page.evaluate(() =>
    [...document.querySelectorAll('[aria-describedby], [aria-labelledby]')].flatMap((el) =>
      ['aria-describedby', 'aria-labelledby'].flatMap((attr) =>
        (el.getAttribute(attr) ?? '')
          .split(/\s+/)
          .filter((id) => id && !document.getElementById(id))
          .map((id) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} ${attr}=${id}`),
      ),
    ),
  );
  if (dangling.length > 0) throw new Error(`ids named but not on the page, on ${label}:\n${dangling.slice(0, 10).join('\n')}`);
}

/** Screenshots land in test-results/screens for people to look at. */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shotDir, { recursive: true });
  await page.screenshot({ path: path.join(shotDir, `${name}.png`), fullPage: true });
}

/** The outbox the server keeps when no SMTP server is configured (development and tests only). */
export async function outbox(server: RunningServer): Promise<Array<{ to: string; subject: string; text: string }>> {
  const res = await fetch(`${server.url}/api/dev/outbox`);
  if (!res.ok) throw new Error(`outbox: ${res.status}`);
  return (await res.json()) as Array<{ to: string; subject: string; text: string }>;
}
