// Checkout under load and under faults, against the production server (embedded database, or
// DATABASE_URL) with a sandbox gateway in this process. CHECKOUT_CONCURRENCY parents (copies of the
// demo parent Maria Garcia, each with her own account) pay at once, CHECKOUT_PAYMENTS rounds in all.
// Each round is one of:
//   plain       a $1.00 payment started twice at once (a double click), its return answered twice
//   cancel      the hosted page's Cancel, then a payment on the same page (another tab of it)
//   methods     a card checkout, then a bank checkout for the same debt; both pages paid
//   tabs        the balance from two tabs (two keys); both pages paid
//   later       an application paid later, the whole balance paid, then the application's own pay-now
// and, before them, each parent pays once while the portal is down for the gateway (its notifications
// fail past their retries) and never returns: the reconciler must apply those.
// The books are read from the database afterwards: taken (approved at the gateway), posted, refunded,
// double (a debt charged twice and not refunded) and charged-not-posted. Exits 1 unless both are 0 and
// every count is as expected.
//   npm run bench:checkout
//   CHECKOUT_PAYMENTS=400 CHECKOUT_CONCURRENCY=40 npm run bench:checkout
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import { openDb } from '../server/db/index';
import * as t from '../server/db/schema';
import { Passwords, PRODUCTION_ARGON2 } from '../server/auth';
import { systemClock } from '../server/clock';
import { ROOT } from '../server/app';
import { readProviderRecords, syncProviders } from '../server/providers';
import { isEmptyDatabase, seedDemo } from '../server/seed/index';
import { buildSandboxGateway } from '../sandbox-gateway/app';
import { freePort, startPortal } from './lib/portal';
import { testCardNumber } from './lib/cards';

const PAYMENTS = Number(process.env.CHECKOUT_PAYMENTS || 200);
const CONCURRENCY = Number(process.env.CHECKOUT_CONCURRENCY || 20);
const PASSWORD = 'Sunshine#2026';
const SECRET = randomBytes(24).toString('hex');
/** the gateway's notification retries: the outage below outlasts them */
const RETRIES_MS = [200, 500, 1000];
const OUTAGE_MS = 3000;

let cards = 0;
const cardNumber = () => testCardNumber(++cards);
let banks = 0;
const bankAccount = () => String(100000000 + ++banks);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

// ── the database: the demo data and one account per bench parent ──

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-bench-checkout-'));
const dbOptions = { databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir: dataDir };

async function prepare() {
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
      const [had] = await db.select().from(t.logins).where(eq(t.logins.email, email));
      if (had) {
        const [a] = await db.select().from(t.adults).where(eq(t.adults.id, had.adultId));
        const [c] = await db.select().from(t.children).where(eq(t.children.accountId, a.accountId)).limit(1);
        parents.push({ email, childId: c.id });
        continue;
      }
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

const prepared = await prepare();

// ── the gateway (here, so its store can be read) and the portal behind a switchable address ──

const gwPort = await freePort();
const gw = await buildSandboxGateway({ secrets: { '1': SECRET, '2': SECRET }, publicUrl: `http://127.0.0.1:${gwPort}`, notify: { retryDelaysMs: RETRIES_MS } });
await gw.app.listen({ port: gwPort, host: '127.0.0.1' });

// the portal's public address: a proxy that answers 503 while the portal is 'down' for the gateway
let target = '';
let down = false;
const proxy = http.createServer((req, res) => {
  if (down || !target) {
    res.writeHead(503).end();
    req.resume();
    return;
  }
  const up = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  up.on('error', () => res.writeHead(502).end());
  req.pipe(up);
});
const proxyPort = await freePort();
await new Promise<void>((r) => proxy.listen(proxyPort, '127.0.0.1', r));

const gatewayConfig = { url: `http://127.0.0.1:${gwPort}`, secret: SECRET };
const portal = await startPortal(
  {
    PGLITE_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    PUBLIC_URL: `http://127.0.0.1:${proxyPort}`,
    PAYMENT_GATEWAYS: JSON.stringify({ '1': { ...gatewayConfig, merchant: '1' }, '2': { ...gatewayConfig, merchant: '2' } }),
    RATE_LIMIT_ALLOW_LIST: '127.0.0.1',
    PAYMENT_RECONCILE_AFTER_SECONDS: '2',
    PAYMENT_RECONCILE_EVERY_SECONDS: '1',
  },
  async () => undefined,
);
target = portal.url;

type Kind = 'outage' | 'plain' | 'cancel' | 'methods' | 'tabs' | 'later';
/** Each debt a round paid toward, with the checkouts (attempt ids) opened for it and how many charges it may keep. */
const debts: { kind: Kind; attempts: string[]; keep: number }[] = [];
const starts: number[] = [];
const whole: number[] = [];
const problems: string[] = [];
let failed = false;

try {
  const version = ((await (await fetch(`${portal.url}/api/Customer/version?sourceApp=parentportal`)).json()) as { releaseVersion: string }).releaseVersion;
  const sessions = await Promise.all(
    prepared.parents.map(async (p) => {
      const res = await fetch(`${portal.url}/api/Authentication/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appName: 'brightpath', email: p.email, password: PASSWORD }) });
      if (!res.ok) throw new Error(`sign-in of ${p.email}: ${res.status} ${await res.text()}`);
      return { ...p, token: ((await res.json()) as { token: string }).token, laterDone: false };
    }),
  );
  type Session = (typeof sessions)[number];
  const call = async (s: Session, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${portal.url}/api${url}`, { method, headers: { authorization: `Bearer ${s.token}`, 'x-release-version': version, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: (await res.json().catch(() => ({}))) as Record<string, any> };
  };
  const api = async (s: Session, method: string, url: string, body?: unknown) => {
    const r = await call(s, method, url, body);
    if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json)}`);
    return r.json;
  };
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const key = () => randomBytes(16).toString('hex');
  const payCard = (url: string) => fetch(url, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: cardNumber(), expiry: '12/30', cvv: '123' }), redirect: 'manual' });
  const payBank = (url: string) => fetch(url, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', routing: '021000021', account: bankAccount(), accountType: 'checking' }), redirect: 'manual' });
  const returnOf = (gatewayCode: number, location: string | null) => {
    const q = Object.fromEntries(new URL(location!).searchParams);
    return { gatewayCode, checkout: q.checkout, transaction: q.transaction, status: q.status, sig: q.sig };
  };
  const other = (method = 'CCD', amount = '1.00') => ({ ...payer, idempotencyKey: key(), paymentMethodCode: method, amountChoice: 'other', otherAmount: amount });

  const rounds: Record<Exclude<Kind, 'outage'>, (s: Session) => Promise<void>> = {
    async plain(s) {
      const t0 = performance.now();
      const body = other();
      const [a, b] = await Promise.all([api(s, 'POST', '/Billing/payment/checkout', body), api(s, 'POST', '/Billing/payment/checkout', body)]);
      starts.push(performance.now() - t0);
      if (a.checkoutUrl !== b.checkoutUrl) problems.push('a double click started two checkouts');
      debts.push({ kind: 'plain', attempts: [a.paymentID], keep: 1 });
      const page = await payCard(a.checkoutUrl);
      const result = returnOf(1, page.headers.get('location'));
      const [r1, r2] = await Promise.all([api(s, 'POST', '/Billing/payment/result', result), api(s, 'POST', '/Billing/payment/result', result)]);
      whole.push(performance.now() - t0);
      if (r1.status !== 'APPROVED' || r1.accountPaymentID !== r2.accountPaymentID) problems.push(`plain: ${r1.status} / ${r2.status}`);
    },
    async cancel(s) {
      const a = await api(s, 'POST', '/Billing/payment/checkout', other());
      debts.push({ kind: 'cancel', attempts: [a.paymentID], keep: 0 });
      const c = await fetch(`${a.checkoutUrl}/cancel`, { redirect: 'manual' });
      await api(s, 'POST', '/Billing/payment/result', returnOf(1, c.headers.get('location')));
      const page = await payCard(a.checkoutUrl);
      if (page.status === 303) await call(s, 'POST', '/Billing/payment/result', returnOf(1, page.headers.get('location')));
    },
    async methods(s) {
      const card = await api(s, 'POST', '/Billing/payment/checkout', other('CCD'));
      const bank = await call(s, 'POST', '/Billing/payment/checkout', other('ECH'));
      debts.push({ kind: 'methods', attempts: [card.paymentID, bank.json.paymentID].filter(Boolean), keep: 1 });
      const pages = await Promise.all([payCard(card.checkoutUrl), bank.status === 200 ? payBank(bank.json.checkoutUrl) : null]);
      if (pages[0]?.status === 303) await call(s, 'POST', '/Billing/payment/result', returnOf(1, pages[0].headers.get('location')));
      if (pages[1]?.status === 303) await call(s, 'POST', '/Billing/payment/result', returnOf(2, pages[1].headers.get('location')));
    },
    async tabs(s) {
      const [one, two] = await Promise.all([call(s, 'POST', '/Billing/payment/checkout', other()), call(s, 'POST', '/Billing/payment/checkout', other())]);
      const opened = [one, two].filter((x) => x.status === 200).map((x) => x.json);
      debts.push({ kind: 'tabs', attempts: opened.map((x) => x.paymentID), keep: 1 });
      const pages = await Promise.all(opened.map((x) => payCard(x.checkoutUrl)));
      for (const p of pages) if (p.status === 303) await call(s, 'POST', '/Billing/payment/result', returnOf(1, p.headers.get('location')));
    },
    async later(s) {
      if (s.laterDone) return rounds.plain(s);
      s.laterDone = true;
      const { key: appKey } = await api(s, 'POST', '/ParentApplication/application/start', { programPeriodID: prepared.program });
      const act = prepared.activity;
      await api(s, 'PUT', `/ParentApplication/application/children?key=${appKey}`, { childIDs: [s.childId] });
      await api(s, 'PUT', `/ParentApplication/application/enrollment?key=${appKey}`, { children: [{ prChildID: s.childId, siteID: act.siteId, selections: [{ activityID: act.id, weekStart: null, daysOfWeek: act.daysOfWeek.split(','), date: null }] }], enrollmentOption: 'Y' });
      await api(s, 'PUT', `/ParentApplication/application/fee?key=${appKey}`, { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] });
      await api(s, 'POST', `/ParentApplication/application/submit?key=${appKey}`);
      await api(s, 'POST', `/ParentApplication/application/pay-later?key=${appKey}`);
      const whole = await api(s, 'POST', '/Billing/payment/checkout', { ...payer, idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'balance' });
      const page = await payCard(whole.checkoutUrl);
      await api(s, 'POST', '/Billing/payment/result', returnOf(1, page.headers.get('location')));
      const again = await call(s, 'POST', '/Billing/payment/checkout', { ...payer, applicationKey: appKey, paymentMethodCode: 'CCD' });
      debts.push({ kind: 'later', attempts: [whole.paymentID, again.json.paymentID].filter(Boolean), keep: 1 });
      if (again.status === 200) {
        const p2 = await payCard(again.json.checkoutUrl);
        if (p2.status === 303) await call(s, 'POST', '/Billing/payment/result', returnOf(1, p2.headers.get('location')));
      }
    },
  };

  const t0 = performance.now();
  // the portal down for the gateway: each parent pays and never comes back
  down = true;
  await Promise.all(
    sessions.map(async (s) => {
      const a = await api(s, 'POST', '/Billing/payment/checkout', other('CCD', '2.00'));
      debts.push({ kind: 'outage', attempts: [a.paymentID], keep: 1 });
      await payCard(a.checkoutUrl);
    }),
  );
  await new Promise((r) => setTimeout(r, Math.max(OUTAGE_MS, RETRIES_MS.reduce((a, b) => a + b, 0) + 500)));
  down = false;
  // the reconciler applies the outage's payments (asked about 2 s after they opened, every second);
  // until it has, a parent's next checkout finds her paid page and is refused ('a payment was just
  // completed'), as it should be: the rounds start once every outage payment is posted
  const posted = Date.now() + 120_000;
  for (const s of sessions) {
    while (((await api(s, 'GET', '/Billing/payments-received')) as unknown as unknown[]).length === 0) {
      if (Date.now() > posted) throw new Error('the reconciler did not apply the payments of the outage within 120 s');
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  const kinds = ['plain', 'plain', 'cancel', 'methods', 'tabs', 'later'] as const;
  let next = 0;
  await Promise.all(
    sessions.map(async (s) => {
      for (let n = next++; n < PAYMENTS; n = next++) await rounds[kinds[n % kinds.length]](s);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await gw.flushNotifications();
  await new Promise((r) => setTimeout(r, 5000));
  console.log(`checkout: ${PAYMENTS} rounds and ${CONCURRENCY} payments during an outage, ${CONCURRENCY} parents at a time, in ${seconds.toFixed(1)} s`);
  console.log(`  start (double click): p50 ${pct(starts, 50).toFixed(0)} ms, p99 ${pct(starts, 99).toFixed(0)} ms; whole payment: p50 ${pct(whole, 50).toFixed(0)} ms, p99 ${pct(whole, 99).toFixed(0)} ms`);
} catch (e) {
  failed = true;
  console.error(e);
  // the server's own account of it
  console.error(portal.log?.().split('\n').filter((l) => /"level":(50|60)|Error/.test(l)).slice(0, 5).join('\n'));
} finally {
  await portal.stop();
  await gw.close();
  proxy.close();
}

// ── the books ──

const handle = await openDb(dbOptions);
try {
  const db = handle.db;
  const benchAccounts = (await db.select({ accountId: t.adults.accountId }).from(t.adults).where(like(t.adults.email, 'bench.payer.%@example.com'))).map((r) => r.accountId);
  const attempts = await db.select().from(t.paymentAttempts).where(inArray(t.paymentAttempts.accountId, benchAccounts));
  const byPublic = new Map(attempts.map((a) => [a.publicId, a]));
  const posted = new Set((await db.select({ tx: t.payments.gatewayTransactionId }).from(t.payments).where(inArray(t.payments.accountId, benchAccounts))).map((p) => p.tx));
  const refundedTx = new Set<string>();
  let taken = 0;
  let refunded = 0;
  let chargedNotPosted = 0;
  const approvedOf = new Map<string, string>();
  for (const a of attempts) {
    if (!a.checkoutId) continue;
    for (const tx of gw.store.transactionsOfCheckout(a.checkoutId)) {
      if (tx.status !== 'APPROVED') continue;
      taken++;
      approvedOf.set(a.publicId, tx.transactionId);
      if (gw.store.refundedCents(tx.transactionId) >= tx.amountCents) {
        refunded++;
        refundedTx.add(tx.transactionId);
      }
      if (!posted.has(tx.transactionId)) chargedNotPosted++;
    }
  }
  let double = 0;
  const perKind: Record<string, { debts: number; kept: number }> = {};
  for (const d of debts) {
    const kept = d.attempts.filter((p) => approvedOf.has(p) && !refundedTx.has(approvedOf.get(p)!)).length;
    if (kept > d.keep) double++;
    perKind[d.kind] ??= { debts: 0, kept: 0 };
    perKind[d.kind].debts++;
    perKind[d.kind].kept += kept;
    for (const p of d.attempts) if (!byPublic.has(p)) problems.push(`attempt ${p} is not in the database`);
  }
  const unposted = attempts.filter((a) => a.status === 'CREATED').length;
  console.log(`  taken ${taken}, posted ${posted.size}, refunded ${refunded}, double ${double}, charged-not-posted ${chargedNotPosted}; attempts still open ${unposted}`);
  console.log(`  charges kept per round: ${Object.entries(perKind).map(([k, v]) => `${k} ${v.kept}/${v.debts}`).join(', ')}`);
  const outage = perKind.outage;
  if (double !== 0 || chargedNotPosted !== 0 || (outage && outage.kept !== outage.debts) || problems.length) failed = true;
  for (const p of problems.slice(0, 10)) console.error(`  ${p}`);
} finally {
  await handle.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.error('checkout: a count is wrong');
  process.exit(1);
}
