// Checkout under load and under faults, on a fresh database each time (PGlite and PostgreSQL), with
// everything as separate processes: the production server (killed with SIGKILL mid-payment and started
// again on the same database), the sandbox gateway with its data file (restarted: it resumes the
// deliveries it had not made), and fault-injecting proxies between them (scripts/lib/faultProxy.ts):
//   gateway → portal   notifications repeated, late, out of order (held until a later one went
//                      through) and lost (answered 200 and never delivered)
//   portal → gateway   calls that time out, before the gateway did them or after
// CHECKOUT_CONCURRENCY parents (copies of the demo parent Maria Garcia, each with her own account) pay
// at once, CHECKOUT_PAYMENTS rounds in all, each one of:
//   plain     a $1.00 payment started twice at once (a double click), its return answered twice
//   gone      paid, and the parent never comes back: the notification (or the reconciler) applies it
//   cancel    the hosted page's Cancel, then a payment on the same page (another tab of it)
//   methods   a card checkout, then a bank checkout for the same debt; both pages paid
//   tabs      the balance from two tabs (two keys); both pages paid
//   later     an application paid later, the whole balance paid, then the application's own pay-now
// and, as faults, some rounds are a refresh storm (the start and the return sent a dozen times at once,
// the page submitted twice) or a decline first (the sandbox's declining cards and bank accounts, an
// issuer timeout), then a good card on a new checkout. A parent whose request got no answer or a 5xx
// taps again with the same body, as a browser's parent would.
// Afterwards the portal's reconciler is given its time, the gateway is asked about every checkout and
// the books are read from the database: checkouts, faults by kind, taken by the gateway, posted, double
// charges (a debt charged twice and not refunded), lost payments (taken and not posted), ledger
// mismatches (an account whose ledger payments less refunds differ from what the gateway took less what
// it refunded), p50/p99. Exits 1 unless the last three are 0 on every backend.
//   npm run bench:checkout                                     10,000 rounds, PGlite then PostgreSQL
//   CHECKOUT_PAYMENTS=300 npm run bench:checkout -- --backend pglite
// PostgreSQL: a database of its own is created and dropped through BENCH_DATABASE_URL or
// TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import pg from 'pg';
import { openDb } from '../server/db/index';
import * as t from '../server/db/schema';
import { Passwords, PRODUCTION_ARGON2 } from '../server/auth';
import { systemClock } from '../server/clock';
import { ROOT } from '../server/app';
import { readProviderRecords, syncProviders } from '../server/providers';
import { isEmptyDatabase, seedDemo } from '../server/seed/index';
import { MERCHANT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signMessage, type CheckoutQueryAnswer } from '../sandbox-gateway/protocol';
import { freePort, startPortal, type Running } from './lib/portal';
import { testCardNumber } from './lib/cards';
import { startFaultProxy, type ProxyAction } from './lib/faultProxy';
import { startSandboxProcess } from './lib/sandboxProcess';

const PAYMENTS = Number(process.env.CHECKOUT_PAYMENTS || 10_000);
const CONCURRENCY = Number(process.env.CHECKOUT_CONCURRENCY || 20);
/** the share of notifications, of the portal's gateway calls and of rounds that get a fault */
const NOTIFY_FAULTS = Number(process.env.CHECKOUT_NOTIFY_FAULTS || 0.3);
const CALL_FAULTS = Number(process.env.CHECKOUT_CALL_FAULTS || 0.03);
const ROUND_FAULTS = Number(process.env.CHECKOUT_ROUND_FAULTS || 0.08);
/** faults the run must have injected at least (1,000 for 10,000 rounds) */
const MIN_FAULTS = Math.ceil(PAYMENTS / 10);
const PORTAL_KILLS = Math.max(2, Math.round(PAYMENTS / 1000));
const GATEWAY_RESTARTS = Math.max(1, Math.round(PAYMENTS / 2000));
const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Sunshine#2026';
/** the portal's gateway calls time out after this (the adapter's timeoutMs) */
const GATEWAY_TIMEOUT_MS = 2000;
/** the gateway's notification retries: a portal restart may outlast them (the reconciler is there for that) */
const RETRIES_MS = [1000, 2000, 4000, 8000];
/** a parent taps again for this long at most (a portal restart takes a while) */
const TAP_FOR_MS = 120_000;

const backendArg = (() => {
  const i = process.argv.indexOf('--backend');
  const v = i >= 0 ? process.argv[i + 1] : (process.argv.find((a) => a.startsWith('--backend='))?.split('=')[1] ?? 'both');
  if (v !== 'pglite' && v !== 'postgres' && v !== 'both') {
    console.error('--backend is pglite, postgres or both');
    process.exit(2);
  }
  return v as 'pglite' | 'postgres' | 'both';
})();

const FAULT_KINDS = [
  'notification duplicated',
  'notification late',
  'notification out of order',
  'notification lost',
  'refresh storm',
  'gateway timeout',
  'decline',
  'portal SIGKILL',
  'gateway restart',
] as const;
type FaultKind = (typeof FAULT_KINDS)[number];

const DECLINING_CARDS = ['4000000000000002', '4000000000000127', '4000000000000069', '4000000000000010', '4000000000000408'];
// the accounts refused at once (the others with a return code are accepted and come back days later)
const DECLINING_ACCOUNTS = ['9900091', '9900094'];

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(xs: readonly T[]) => xs[Math.floor(Math.random() * xs.length)];

// ── the database: the demo data and one account per bench parent ──

type DbOptions = { databaseUrl?: string; pgliteDir?: string };

async function prepare(dbOptions: DbOptions) {
  const handle = await openDb(dbOptions);
  try {
    const db = handle.db;
    if (await isEmptyDatabase(db)) {
      await syncProviders(db, readProviderRecords(ROOT));
      await seedDemo(db, { root: ROOT, passwords: new Passwords(PRODUCTION_ARGON2), clock: systemClock });
    }
    const [maria] = await db.select().from(t.logins).where(eq(t.logins.email, 'maria.garcia@example.com'));
    const [adult] = await db.select().from(t.adults).where(eq(t.adults.id, maria.adultId));
    const [account] = await db.select().from(t.accounts).where(eq(t.accounts.id, adult.accountId));
    const [child] = await db.select().from(t.children).where(eq(t.children.accountId, account.id)).limit(1);
    const [pp] = await db.select().from(t.programPeriods).where(and(eq(t.programPeriods.providerId, account.providerId), eq(t.programPeriods.programPeriod, 'Little Sprouts Preschool')));
    // the preschool is paid now or later, with room for every bench child
    await db.update(t.programPeriods).set({ paymentOption: 'O' }).where(eq(t.programPeriods.id, pp.id));
    const acts = await db.select().from(t.activities).where(eq(t.activities.programPeriodId, pp.id));
    await db.update(t.seats).set({ total: 100_000 }).where(inArray(t.seats.activityId, acts.map((a) => a.id)));
    const parents: { email: string; childId: number }[] = [];
    for (let n = 0; n < CONCURRENCY; n++) {
      const email = `bench.payer.${n}@example.com`;
      const { id: _a, ...accountRow } = account;
      const [acc] = await db.insert(t.accounts).values({ ...accountRow, accountNo: `BENCH-${n}-${randomBytes(3).toString('hex')}` }).returning();
      const { id: _b, ...adultRow } = adult;
      const [ad] = await db.insert(t.adults).values({ ...adultRow, accountId: acc.id, email }).returning();
      const { id: _c, ...loginRow } = maria;
      await db.insert(t.logins).values({ ...loginRow, adultId: ad.id, email, failedCount: 0, lockedAt: null });
      const { id: _d, ...childRow } = child;
      const [ch] = await db.insert(t.children).values({ ...childRow, accountId: acc.id }).returning();
      await db.insert(t.ledgerEntries).values({ providerId: acc.providerId, accountId: acc.id, kind: 'CHARGE', amountCents: 100_000, entryDate: new Date().toISOString().slice(0, 10), description: 'Tuition', createdAt: new Date() });
      parents.push({ email, childId: ch.id });
    }
    return { parents, program: pp.id, activity: acts[0] };
  } finally {
    await handle.close();
  }
}

interface Result {
  backend: string;
  rounds: number;
  checkouts: number;
  faults: Map<FaultKind, number>;
  gone: number;
  cutShort: number;
  taken: number;
  posted: number;
  refunded: number;
  double: number;
  lost: number;
  ledgerMismatches: number;
  starts: number[];
  whole: number[];
  requests: number[];
  seconds: number;
  problems: string[];
}

async function run(backend: 'pglite' | 'postgres'): Promise<Result> {
  const secret = randomBytes(24).toString('hex');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-bench-checkout-'));
  let dbOptions: DbOptions;
  let dropDatabase = async () => {};
  if (backend === 'postgres') {
    const name = `pp_checkout_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    dbOptions = { databaseUrl: url.toString() };
    dropDatabase = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else dbOptions = { pgliteDir: path.join(work, 'pglite') };

  const faults = new Map<FaultKind, number>(FAULT_KINDS.map((k) => [k, 0]));
  const fault = (k: FaultKind) => faults.set(k, (faults.get(k) ?? 0) + 1);
  let faulting = true;
  const problems: string[] = [];
  const result: Result = { backend, rounds: PAYMENTS, checkouts: 0, faults, gone: 0, cutShort: 0, taken: 0, posted: 0, refunded: 0, double: 0, lost: 0, ledgerMismatches: 0, starts: [], whole: [], requests: [], seconds: 0, problems };

  try {
    const prepared = await prepare(dbOptions);

    // portal → gateway: calls that time out (before the gateway did them, or after)
    const toGateway = await startFaultProxy((req): ProxyAction => {
      if (!faulting || !req.url.startsWith('/api/') || Math.random() >= CALL_FAULTS) return { kind: 'pass' };
      fault('gateway timeout');
      return { kind: 'hang', forward: Math.random() < 0.5 };
    });
    // gateway → portal (and the parents' own requests, untouched): notifications mishandled
    let released: (() => void)[] = [];
    /** set while a kill waits for a payment's request to be under way at the portal */
    let paymentUnderWay: (() => void) | null = null;
    const toPortal = await startFaultProxy((req): ProxyAction => {
      if (paymentUnderWay && req.url.includes('/payment/')) {
        const now = paymentUnderWay;
        paymentUnderWay = null;
        setTimeout(now, Math.random() * 30);
      }
      if (req.method !== 'POST' || !req.url.includes('/payment/notification/')) return { kind: 'pass' };
      // a notification going through lets the ones held back for it follow (out of order)
      const earlier = released;
      released = [];
      setTimeout(() => earlier.forEach((r) => r()), 300);
      const r = Math.random();
      if (!faulting || r >= NOTIFY_FAULTS) return { kind: 'pass' };
      const share = r / NOTIFY_FAULTS;
      if (share < 0.25) {
        fault('notification duplicated');
        return { kind: 'copies', copies: 1 + Math.floor(Math.random() * 2), gapMs: 200 + Math.floor(Math.random() * 1500) };
      }
      if (share < 0.5) {
        fault('notification late');
        return { kind: 'wait', until: sleep(1000 + Math.random() * 5000) };
      }
      if (share < 0.75) {
        fault('notification out of order');
        return { kind: 'wait', until: Promise.race([new Promise<void>((r2) => released.push(r2)), sleep(8000)]) };
      }
      fault('notification lost');
      return { kind: 'ack' };
    });

    const gwPort = await freePort();
    const gateway = await startSandboxProcess(gwPort, {
      secrets: { '1': secret, '2': secret },
      publicUrl: `http://127.0.0.1:${gwPort}`,
      dataFile: path.join(work, 'sandbox-gateway.json'),
      notify: { retryDelaysMs: RETRIES_MS },
    });
    toGateway.setTarget(gateway.url);

    const gatewayConfig = { url: toGateway.url, secret, timeoutMs: GATEWAY_TIMEOUT_MS };
    const portalEnv = {
      PGLITE_DIR: dbOptions.pgliteDir ?? '',
      DATABASE_URL: dbOptions.databaseUrl ?? '',
      PUBLIC_URL: toPortal.url,
      PAYMENT_GATEWAYS: JSON.stringify({ '1': { ...gatewayConfig, merchant: '1' }, '2': { ...gatewayConfig, merchant: '2' } }),
      RATE_LIMIT_ALLOW_LIST: '127.0.0.1',
      PAYMENT_RECONCILE_AFTER_SECONDS: '2',
      PAYMENT_RECONCILE_EVERY_SECONDS: '1',
    };
    let portal: Running = await startPortal(portalEnv);
    toPortal.setTarget(portal.url);
    const api = toPortal.url;

    // the gateway's own word on a checkout (its signed query), whichever merchant it belongs to
    const askGateway = async (checkoutId: string): Promise<CheckoutQueryAnswer | null> => {
      for (const merchant of ['1', '2']) {
        const p = `/api/checkouts/${encodeURIComponent(checkoutId)}`;
        for (let tap = 0; ; tap++) {
          const ts = Math.floor(Date.now() / 1000);
          const res = await fetch(gateway.url + p, { headers: { [MERCHANT_HEADER]: merchant, [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signMessage(secret, ts, `GET ${p}`) } }).catch(() => null);
          if (res?.status === 200) return (await res.json()) as CheckoutQueryAnswer;
          if (res?.status === 404) break;
          if (tap > 20) throw new Error(`the gateway does not answer about ${checkoutId}`);
          await sleep(500);
        }
      }
      return null;
    };

    // ── a parent's requests: a 5xx or no answer is tapped again with the same body ──
    // the release every call names (asked until the portal answers it: a 503 while it starts has none)
    const version = await (async () => {
      for (let tap = 0; tap < 120; tap++) {
        const res = await fetch(`${api}/api/Customer/version?sourceApp=parentportal`).catch(() => null);
        const body = res?.ok ? ((await res.json()) as { releaseVersion?: unknown }) : null;
        if (typeof body?.releaseVersion === 'string') return body.releaseVersion;
        await sleep(500);
      }
      throw new Error('the portal never answered its release version');
    })();
    async function send(method: string, url: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: Record<string, any> }> {
      const until = Date.now() + TAP_FOR_MS;
      for (let tap = 1; ; tap++) {
        const t0 = performance.now();
        let answer: { status: number; json: Record<string, any> } | null = null;
        try {
          const res = await fetch(`${api}/api${url}`, { method, headers, body, signal: AbortSignal.timeout(60_000) });
          answer = { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, any> };
        } catch {
          /* no answer */
        }
        result.requests.push(performance.now() - t0);
        if ((answer && answer.status < 500) || Date.now() > until) return answer ?? { status: 0, json: {} };
        await sleep(Math.min(250 * tap, 2000));
      }
    }
    const sessions = await Promise.all(
      prepared.parents.map(async (p) => {
        const r = await send('POST', '/Authentication/login', { 'content-type': 'application/json' }, JSON.stringify({ appName: 'brightpath', email: p.email, password: PASSWORD }));
        if (r.status !== 200) throw new Error(`sign-in of ${p.email}: ${r.status} ${JSON.stringify(r.json)}`);
        return { ...p, token: (r.json as { token: string }).token, laterDone: false };
      }),
    );
    type Session = (typeof sessions)[number];
    const call = (s: Session, method: string, url: string, body?: unknown) =>
      send(method, url, { authorization: `Bearer ${s.token}`, 'x-release-version': version, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body === undefined ? undefined : JSON.stringify(body));

    // ── the hosted page, as a browser uses it (a gateway being restarted is tried again) ──
    let cards = 0;
    let banks = 0;
    const checkoutIdOf = (url: string) => new URL(url).pathname.split('/').pop()!;
    const known = new Map<string, { session: Session; publicId: string }>();
    const submitPage = async (url: string, form: Record<string, string>) => {
      for (let tap = 0; ; tap++) {
        const res = await fetch(url, { method: 'POST', body: new URLSearchParams(form), redirect: 'manual' }).catch(() => null);
        if (res && res.status < 500) return { status: res.status, location: res.headers.get('location') };
        if (tap > 60) return { status: res?.status ?? 0, location: null };
        await sleep(500);
      }
    };
    const card = (number = testCardNumber(++cards)) => ({ name: 'Maria Garcia', number, expiry: '12/30', cvv: '123' });
    const bank = (account = String(100000000 + ++banks)) => ({ name: 'Maria Garcia', routing: '021000021', account, accountType: 'checking' });
    const returnOf = (gatewayCode: number, location: string | null) => {
      const q = Object.fromEntries(new URL(location!).searchParams);
      return { gatewayCode, checkout: q.checkout, transaction: q.transaction, status: q.status, sig: q.sig };
    };

    const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
    const key = () => randomBytes(16).toString('hex');
    const other = (method = 'CCD', amount = '1.00') => ({ ...payer, idempotencyKey: key(), paymentMethodCode: method, amountChoice: 'other', otherAmount: amount });
    /** a checkout started (taps included); null when the portal refused it (4xx: paid just now, another tab's page) */
    const start = async (s: Session, body: unknown, clicks = 1) => {
      const t0 = performance.now();
      const answers = await Promise.all(Array.from({ length: clicks }, () => call(s, 'POST', '/Billing/payment/checkout', body)));
      result.starts.push(performance.now() - t0);
      const ok = answers.filter((a) => a.status === 200).map((a) => a.json as { checkoutUrl: string; paymentID: string });
      if (new Set(ok.map((a) => a.checkoutUrl)).size > 1) problems.push('one idempotency key opened two checkouts');
      const first = ok[0];
      if (first) known.set(checkoutIdOf(first.checkoutUrl), { session: s, publicId: first.paymentID });
      return first ?? null;
    };
    const back = async (s: Session, gatewayCode: number, location: string | null, times = 1) => {
      if (!location) return null;
      const rs = await Promise.all(Array.from({ length: times }, () => call(s, 'POST', '/Billing/payment/result', returnOf(gatewayCode, location))));
      const settled = rs.filter((r) => r.status === 200 && r.json.status !== 'PENDING');
      if (new Set(settled.map((r) => `${r.json.status}:${r.json.accountPaymentID}`)).size > 1) problems.push(`one return answered ${settled.map((r) => r.json.status).join('/')}`);
      return rs[0];
    };

    type Kind = 'plain' | 'gone' | 'cancel' | 'methods' | 'tabs' | 'later' | 'storm' | 'decline';
    /** Each debt a round paid toward, with the checkouts (attempt ids) opened for it and how many charges it may keep. */
    const debts: { kind: Kind; attempts: string[]; keep: number }[] = [];
    const rounds: Record<Kind, (s: Session) => Promise<void>> = {
      async plain(s) {
        const t0 = performance.now();
        const a = await start(s, other(), 2);
        if (!a) return;
        debts.push({ kind: 'plain', attempts: [a.paymentID], keep: 1 });
        const page = await submitPage(a.checkoutUrl, card());
        await back(s, 1, page.location, 2);
        result.whole.push(performance.now() - t0);
      },
      async gone(s) {
        const a = await start(s, other('CCD', '2.00'));
        if (!a) return;
        debts.push({ kind: 'gone', attempts: [a.paymentID], keep: 1 });
        await submitPage(a.checkoutUrl, card());
        result.gone++;
      },
      async storm(s) {
        fault('refresh storm');
        const t0 = performance.now();
        const a = await start(s, other(), 6);
        if (!a) return;
        debts.push({ kind: 'storm', attempts: [a.paymentID], keep: 1 });
        const form = card();
        const pages = await Promise.all([submitPage(a.checkoutUrl, form), submitPage(a.checkoutUrl, form)]);
        await back(s, 1, pages.find((p) => p.location)?.location ?? null, 12);
        result.whole.push(performance.now() - t0);
      },
      async decline(s) {
        fault('decline');
        const t0 = performance.now();
        const byBank = Math.random() < 0.3;
        const a = await start(s, other(byBank ? 'ECH' : 'CCD'));
        if (!a) return;
        debts.push({ kind: 'decline', attempts: [a.paymentID], keep: 0 });
        const page = await submitPage(a.checkoutUrl, byBank ? bank(pick(DECLINING_ACCOUNTS)) : card(pick(DECLINING_CARDS)));
        const r = await back(s, byBank ? 2 : 1, page.location);
        if (r?.status === 200 && r.json.status === 'APPROVED') problems.push('a declining test number was approved');
        // the parent tries again with another card: a new checkout
        const again = await start(s, other());
        if (!again) return;
        debts.push({ kind: 'decline', attempts: [again.paymentID], keep: 1 });
        const p2 = await submitPage(again.checkoutUrl, card());
        await back(s, 1, p2.location);
        result.whole.push(performance.now() - t0);
      },
      async cancel(s) {
        const a = await start(s, other());
        if (!a) return;
        // the parent taps Cancel again while the gateway does not answer (being restarted), as on the
        // page; a cancel that never got through leaves her page open, and paying on it is one charge
        let c: Response | null = null;
        for (let tap = 0; tap <= 60 && !(c && c.status < 500); tap++) {
          if (tap) await sleep(500);
          c = await fetch(`${a.checkoutUrl}/cancel`, { redirect: 'manual' }).catch(() => null);
        }
        const cancelled = c?.status === 303;
        debts.push({ kind: 'cancel', attempts: [a.paymentID], keep: cancelled ? 0 : 1 });
        if (cancelled) await back(s, 1, c?.headers.get('location') ?? null);
        const page = await submitPage(a.checkoutUrl, card());
        if (page.status === 303) await back(s, 1, page.location);
      },
      async methods(s) {
        const byCard = await start(s, other('CCD'));
        const byBank = await start(s, other('ECH'));
        debts.push({ kind: 'methods', attempts: [byCard?.paymentID, byBank?.paymentID].filter((x): x is string => !!x), keep: 1 });
        const pages = await Promise.all([byCard ? submitPage(byCard.checkoutUrl, card()) : null, byBank ? submitPage(byBank.checkoutUrl, bank()) : null]);
        if (pages[0]?.status === 303) await back(s, 1, pages[0].location);
        if (pages[1]?.status === 303) await back(s, 2, pages[1].location);
      },
      async tabs(s) {
        const opened = (await Promise.all([start(s, other()), start(s, other())])).filter((x) => x !== null);
        debts.push({ kind: 'tabs', attempts: opened.map((x) => x.paymentID), keep: 1 });
        const pages = await Promise.all(opened.map((x) => submitPage(x.checkoutUrl, card())));
        for (const p of pages) if (p.status === 303) await back(s, 1, p.location);
      },
      async later(s) {
        if (s.laterDone) return rounds.plain(s);
        s.laterDone = true;
        const must = async (method: string, url: string, body?: unknown) => {
          const r = await call(s, method, url, body);
          if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json)}`);
          return r.json;
        };
        const { key: appKey } = await must('POST', '/ParentApplication/application/start', { programPeriodID: prepared.program });
        const act = prepared.activity;
        await must('PUT', `/ParentApplication/application/children?key=${appKey}`, { childIDs: [s.childId] });
        await must('PUT', `/ParentApplication/application/enrollment?key=${appKey}`, { children: [{ prChildID: s.childId, siteID: act.siteId, selections: [{ activityID: act.id, weekStart: null, daysOfWeek: act.daysOfWeek.split(','), date: null }] }], enrollmentOption: 'Y' });
        await must('PUT', `/ParentApplication/application/fee?key=${appKey}`, { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] });
        await must('POST', `/ParentApplication/application/submit?key=${appKey}`);
        await must('POST', `/ParentApplication/application/pay-later?key=${appKey}`);
        const whole = await start(s, { ...payer, idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
        const attempts = whole ? [whole.paymentID] : [];
        if (whole) await back(s, 1, (await submitPage(whole.checkoutUrl, card())).location);
        const again = await start(s, { ...payer, applicationKey: appKey, paymentMethodCode: 'CCD' });
        if (again) {
          attempts.push(again.paymentID);
          const p2 = await submitPage(again.checkoutUrl, card());
          if (p2.status === 303) await back(s, 1, p2.location);
        }
        debts.push({ kind: 'later', attempts, keep: 1 });
      },
    };

    // ── the chaos: the portal killed mid-payment and started again, the gateway restarted ──
    const events: { at: number; what: 'kill' | 'restart' }[] = [
      ...Array.from({ length: PORTAL_KILLS }, (_, i) => ({ at: Math.floor(((i + 0.5) * PAYMENTS) / PORTAL_KILLS), what: 'kill' as const })),
      ...Array.from({ length: GATEWAY_RESTARTS }, (_, i) => ({ at: Math.floor(((i + 0.75) * PAYMENTS) / (GATEWAY_RESTARTS + 0.5)), what: 'restart' as const })),
    ].sort((a, b) => a.at - b.at);
    let chaos: Promise<void> = Promise.resolve();
    const chaosAt = (done: number) => {
      while (events.length && events[0].at <= done) {
        const e = events.shift()!;
        chaos = chaos.then(async () => {
          if (e.what === 'kill') {
            fault('portal SIGKILL');
            // mid-payment: just after a checkout, a return or a notification reached the portal
            await Promise.race([new Promise<void>((r) => (paymentUnderWay = r)), sleep(5000)]);
            paymentUnderWay = null;
            const dead = portal;
            const exited = new Promise((r) => dead.process?.once('exit', r));
            dead.process?.kill('SIGKILL');
            await exited;
            toPortal.setTarget('');
            portal = await startPortal(portalEnv);
            toPortal.setTarget(portal.url);
          } else {
            fault('gateway restart');
            await gateway.restart();
          }
        });
      }
    };

    const t0 = performance.now();
    const plan: Kind[] = ['plain', 'gone', 'plain', 'cancel', 'methods', 'tabs', 'later'];
    let next = 0;
    let done = 0;
    await Promise.all(
      sessions.map(async (s) => {
        for (let n = next++; n < PAYMENTS; n = next++) {
          const r = Math.random();
          const kind: Kind = r < ROUND_FAULTS / 2 ? 'storm' : r < ROUND_FAULTS ? 'decline' : plan[n % plan.length];
          try {
            await rounds[kind](s);
          } catch (e) {
            // a round the faults cut short (an answer that never came): its books are read all the same
            result.cutShort++;
            if (result.cutShort <= 3) console.error(`  ${kind}: ${(e as Error).message}`);
          }
          chaosAt(++done);
        }
      }),
    );
    await chaos;
    result.seconds = (performance.now() - t0) / 1000;

    // ── the faults stop; what was held is delivered, and the reconciler gets its time ──
    faulting = false;
    released.forEach((r) => r());
    await gateway.flush();
    const expected = new Map<Session, number>();
    for (const [checkoutId, k] of known) {
      const q = await askGateway(checkoutId);
      if (q?.transaction?.status === 'APPROVED') expected.set(k.session, (expected.get(k.session) ?? 0) + 1);
    }
    const deadline = Date.now() + 180_000;
    for (const s of sessions) {
      for (;;) {
        const r = await call(s, 'GET', '/Billing/payments-received');
        if (r.status === 200 && (r.json as unknown as unknown[]).length >= (expected.get(s) ?? 0)) break;
        if (Date.now() > deadline) break;
        await sleep(500);
      }
    }
    // refunds the reconciler owes are made on its next rounds
    await sleep(5000);
    await portal.stop();
    await toPortal.close();

    // ── the books ──
    const handle = await openDb(dbOptions);
    try {
      const db = handle.db;
      const benchAccounts = (await db.select({ accountId: t.adults.accountId }).from(t.adults).where(like(t.adults.email, 'bench.payer.%@example.com'))).map((r) => r.accountId);
      const attempts = await db.select().from(t.paymentAttempts).where(inArray(t.paymentAttempts.accountId, benchAccounts));
      const byPublic = new Map(attempts.map((a) => [a.publicId, a]));
      const postedTx = new Set((await db.select({ tx: t.payments.gatewayTransactionId }).from(t.payments).where(inArray(t.payments.accountId, benchAccounts))).map((p) => p.tx));
      result.posted = postedTx.size;
      const checkoutIds = new Set([...attempts.map((a) => a.checkoutId).filter((c): c is string => !!c), ...known.keys()]);
      result.checkouts = checkoutIds.size;
      const approvedOf = new Map<string, string>();
      const refundedTx = new Set<string>();
      const gatewayNet = new Map<number, number>();
      for (const checkoutId of checkoutIds) {
        const q = await askGateway(checkoutId);
        const tx = q?.transaction;
        if (!tx || tx.status !== 'APPROVED') continue;
        result.taken++;
        const attempt = byPublic.get(tx.reference);
        if (!attempt) {
          problems.push(`the gateway took ${tx.transactionId} for an attempt the portal does not hold`);
          result.lost++;
          continue;
        }
        approvedOf.set(attempt.publicId, tx.transactionId);
        const account = tx.amountCents - attempt.feeCents;
        let net = account;
        if (q.refundedCents >= tx.amountCents) {
          result.refunded++;
          refundedTx.add(tx.transactionId);
          net -= account;
        } else if (q.refundedCents > 0) net -= q.refundedCents;
        gatewayNet.set(attempt.accountId, (gatewayNet.get(attempt.accountId) ?? 0) + net);
        if (!postedTx.has(tx.transactionId)) result.lost++;
      }
      // the ledger's payments less its refunds, account by account, against the gateway's
      const entries = await db.select().from(t.ledgerEntries).where(inArray(t.ledgerEntries.accountId, benchAccounts));
      const ledgerNet = new Map<number, number>();
      for (const e of entries) {
        if (e.kind === 'PAYMENT') ledgerNet.set(e.accountId, (ledgerNet.get(e.accountId) ?? 0) + e.amountCents);
        else if (e.kind === 'REFUND') ledgerNet.set(e.accountId, (ledgerNet.get(e.accountId) ?? 0) - e.amountCents);
      }
      for (const id of benchAccounts) {
        if ((ledgerNet.get(id) ?? 0) !== (gatewayNet.get(id) ?? 0)) {
          result.ledgerMismatches++;
          problems.push(`account ${id}: ledger ${ledgerNet.get(id) ?? 0} cents, gateway ${gatewayNet.get(id) ?? 0} cents`);
        }
      }
      for (const d of debts) {
        const kept = d.attempts.filter((p) => approvedOf.has(p) && !refundedTx.has(approvedOf.get(p)!)).length;
        if (kept > d.keep) {
          result.double++;
          // what the portal made of each of the debt's attempts, so a double charge says where it came from
          const seen = d.attempts.map((p) => {
            const a = byPublic.get(p);
            return a ? `${a.paymentMethodCode} ${a.status}${a.reasonCode ? ` ${a.reasonCode}` : ''}${a.refundReason ? `, refund ${a.refundReason} ${a.refundedCents}` : ''}` : `${p} unknown`;
          });
          problems.push(`double charge (${d.kind} round, ${kept} kept of ${d.keep}): ${seen.join('; ')}`);
        }
        for (const p of d.attempts) if (!byPublic.has(p)) problems.push(`attempt ${p} is not in the database`);
      }
    } finally {
      await handle.close();
    }
    await gateway.stop();
    await toGateway.close();
  } finally {
    await dropDatabase();
    fs.rmSync(work, { recursive: true, force: true });
  }
  return result;
}

function print(r: Result) {
  const total = [...r.faults.values()].reduce((a, b) => a + b, 0);
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(`\n${r.backend}: ${r.rounds} rounds, ${CONCURRENCY} parents at a time, in ${r.seconds.toFixed(1)} s`);
  console.log(`  checkouts ${r.checkouts}; faults ${total}: ${[...r.faults].map(([k, n]) => `${k} ${n}`).join(', ')}`);
  console.log(`  parents who never came back ${r.gone}; rounds cut short ${r.cutShort}`);
  console.log(`  taken by the gateway ${r.taken}, posted ${r.posted}, refunded ${r.refunded}`);
  console.log(`  double charges ${r.double}, lost payments ${r.lost}, ledger mismatches ${r.ledgerMismatches}`);
  console.log(`  start (clicks at once): p50 ${ms(pct(r.starts, 50))}, p99 ${ms(pct(r.starts, 99))}; whole payment: p50 ${ms(pct(r.whole, 50))}, p99 ${ms(pct(r.whole, 99))}; a request (taps included): p50 ${ms(pct(r.requests, 50))}, p99 ${ms(pct(r.requests, 99))}`);
  for (const p of r.problems.slice(0, 10)) console.error(`  ${p}`);
}

const backends: ('pglite' | 'postgres')[] = backendArg === 'both' ? ['pglite', 'postgres'] : [backendArg];
let failed = false;
for (const b of backends) {
  const r = await run(b);
  print(r);
  const total = [...r.faults.values()].reduce((a, x) => a + x, 0);
  if (r.double || r.lost || r.ledgerMismatches || r.problems.length) failed = true;
  if (total < MIN_FAULTS) {
    console.error(`  fewer faults than ${MIN_FAULTS}`);
    failed = true;
  }
}
if (failed) {
  console.error('checkout: a count is wrong');
  process.exit(1);
}
