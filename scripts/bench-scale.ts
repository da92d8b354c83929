// Several portal instances on one PostgreSQL behind a real load balancer (HAProxy, from Debian's
// packages: installed when missing and running as root). SCALE_INSTANCES instances (3) share a fresh
// database; at one moment SCALE_PARENTS parents (2,000) submit their application for a week with
// SCALE_SEATS seats (200) while SCALE_CHECKOUTS other parents (1,000) each pay by card (a checkout
// double-clicked, the sandbox gateway's hosted page, the signed return). Halfway through, one
// instance is killed with SIGKILL. A parent whose request got no answer, or a 5xx, taps again (the
// same idempotency key; after a 503's Retry-After), up to 8 times, as a browser's parent would.
// Afterwards the books are read from the database, the gateway's store and an SMTP server in this
// process: seats taken, overbooked, payments taken by the gateway and posted, double charges, e-mails
// queued, sent and received twice, acknowledged writes lost (an answer said REGISTERED, WAITLISTED or
// APPROVED and the database does not hold it), 5xx, p50/p99. Then the same rush on one instance.
// Exits 1 when overbooked, double, duplicate e-mails or lost writes are not 0.
//   npm run bench:scale                           PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL
//   SCALE_INSTANCES=5 SCALE_PARENTS=500 SCALE_CHECKOUTS=200 npm run bench:scale
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { openDb, type DbHandle } from '../server/db/index';
import * as s from '../server/db/schema';
import { buildSandboxGateway } from '../sandbox-gateway/app';
import { freePort, startPortal, type Running } from './lib/portal';
import { prepare, signedInAccounts, type Prepared } from './lib/rush';
import { testCardNumber } from './lib/cards';

const INSTANCES = Number(process.env.SCALE_INSTANCES || 3);
const PARENTS = Number(process.env.SCALE_PARENTS || 2000);
const SEATS = Number(process.env.SCALE_SEATS || 200);
const CHECKOUTS = Number(process.env.SCALE_CHECKOUTS || 1000);
/** parents paying at the same moment: a burst, not 1,000 sockets at once through one gateway */
const CHECKOUT_CONCURRENCY = Number(process.env.SCALE_CHECKOUT_CONCURRENCY || 100);
const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '';
const POOL_SIZE = process.env.SCALE_POOL_SIZE || String(Math.max(4, os.cpus().length * 4));
const SECRET = randomBytes(24).toString('hex');
/** a parent's tries of one request: a 5xx or no answer is tried again, as a browser's parent would */
const TAPS = 8;

if (!ADMIN_URL) {
  console.error('bench:scale needs PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL (for example postgres://postgres@127.0.0.1:5432/postgres)');
  process.exit(1);
}

// ── HAProxy ──

function haproxyBinary(): string {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim();
  } catch {
    if (process.getuid?.() !== 0) throw new Error('HAProxy is not installed: apt-get install -y haproxy (as root)');
    console.log('installing HAProxy (apt-get install -y haproxy)');
    execFileSync('apt-get', ['install', '-y', 'haproxy'], { stdio: 'ignore' });
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim();
  }
}

interface Balancer {
  url: string;
  stop(): Promise<void>;
}

/** HAProxy in front of the instances: round robin, health-checked on /ready, a failed connection retried on another. */
async function startBalancer(port: number, backends: string[], readyPath: string): Promise<Balancer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-haproxy-'));
  const cfg = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    cfg,
    [
      'global',
      '  maxconn 8000',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 180s',
      '  timeout server 180s',
      '  timeout queue 180s',
      // a request that reached no instance (refused connection, an instance shutting down) goes to another;
      // one an instance took and died with is the parent's to repeat (it cannot know whether it was done)
      '  retries 3',
      '  option redispatch',
      '  retry-on conn-failure 503',
      '  option http-buffer-request',
      // the parent's address for the per-address limits (the instances trust this balancer: TRUST_PROXY)
      '  option forwardfor',
      'frontend portal',
      `  bind 127.0.0.1:${port}`,
      '  default_backend portals',
      'backend portals',
      '  balance roundrobin',
      `  option httpchk GET ${readyPath}`,
      '  http-check expect status 200',
      // a busy instance answers /ready late, not never: without a check timeout HAProxy gives the answer
      // only the check interval and, on a starved machine, takes every instance out and refuses everyone
      // (its own 503s); a killed one refuses the connection at once and is out after `fall` checks
      '  timeout check 3s',
      '  default-server inter 1s fall 3 rise 2',
      ...backends.map((b, i) => `  server portal${i + 1} ${new URL(b).host} check`),
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(haproxyBinary(), ['-f', cfg, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`HAProxy exited: ${output}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`HAProxy did not answer: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ── an SMTP server that counts what it receives ──

async function startMailbox() {
  const received = new Map<string, number>();
  let total = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (c: string) => (raw += c));
      stream.on('end', () => {
        total++;
        const id = mailIdentity(raw);
        received.set(id, (received.get(id) ?? 0) + 1);
        done();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    total: () => total,
    duplicates: () => [...received.values()].reduce((n, c) => n + c - 1, 0),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** One mail's identity: its text without what differs between two sends of it (message id, date, MIME boundaries). */
function mailIdentity(raw: string): string {
  let text = raw.replace(/^(Message-ID|Date):.*\r?\n/gim, '');
  for (const [, boundary] of raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)) text = text.split(boundary).join('BOUNDARY');
  return createHash('sha256').update(text).digest('hex');
}

// ── the parents who pay ──

interface Payer {
  token: string;
  accountId: number;
}

async function preparePayers(handle: DbHandle, count: number): Promise<Payer[]> {
  const db = handle.db;
  const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
  const pid = pp.providerId;
  const out: Payer[] = [];
  const now = new Date();
  for (let start = 0; start < count; start += 250) {
    const idx = Array.from({ length: Math.min(250, count - start) }, (_, i) => start + i);
    const { accts, tokens } = await signedInAccounts(db, pid, idx, { accountNo: 'PAY', name: 'Payer', lastName: 'Scale', email: 'payer' }, now);
    await db.insert(s.ledgerEntries).values(idx.map((_, j) => ({ providerId: pid, accountId: accts[j].id, kind: 'CHARGE', amountCents: 10_000, entryDate: now.toISOString().slice(0, 10), description: 'Tuition', createdAt: now })));
    idx.forEach((_, j) => out.push({ token: tokens[j], accountId: accts[j].id }));
  }
  return out;
}

// ── requests: one connection each, as many browsers would; a lost answer is tapped again ──

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
interface Answer {
  status: number;
  body: string;
  /** seconds, from a 503's Retry-After */
  retryAfter?: number;
}
function request(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { ...headers, 'content-length': Buffer.byteLength(body ?? '') } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, retryAfter: Number(res.headers['retry-after']) || undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

class Tally {
  latencies: number[] = [];
  c5xx = 0;
  /** the 5xx by status; a 503 is a busy instance's refusal (its JSON body) or the balancer's (no instance ready) */
  byStatus = new Map<string, number>();
  noAnswer = 0;
  retried = 0;
  /** requests still without an answer below 500 after the last tap: the parent gave up */
  gaveUp = 0;
  /** the request's answer; a 5xx or no answer is repeated (up to TAPS times), the last kept */
  async send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer | null> {
    for (let tap = 1; ; tap++) {
      const t0 = performance.now();
      let answer: Answer | null = null;
      try {
        answer = await request(url, method, headers, body);
      } catch {
        this.noAnswer++;
      }
      this.latencies.push(performance.now() - t0);
      if (answer && answer.status >= 500) {
        this.c5xx++;
        const by = answer.status === 503 && !answer.body.startsWith('{') ? '503 from the balancer' : String(answer.status);
        this.byStatus.set(by, (this.byStatus.get(by) ?? 0) + 1);
      }
      if (answer && answer.status < 500) return answer;
      if (tap === TAPS) {
        this.gaveUp++;
        return answer;
      }
      this.retried++;
      // a busy portal says when to come back (503, Retry-After); a lost answer is tried again soon
      const wait = answer?.retryAfter ? Math.min(answer.retryAfter, 10) * 1000 * (0.5 + Math.random()) : 250 * tap;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

const pct = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

// ── one run ──

interface RunResult {
  instances: number;
  taken: number;
  waitlisted: number;
  overbooked: number;
  rush: Tally;
  checkout: Tally | null;
  gatewayTaken: number;
  posted: number;
  double: number;
  chargedNotPosted: number;
  mailQueued: number;
  mailSent: number;
  mailReceived: number;
  mailDuplicates: number;
  lost: number;
  killed: boolean;
  seconds: number;
  /** seconds from the last answer until every queued mail was sent */
  mailWait: number;
}

async function freshDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `pp_scale_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

async function run(instances: number, checkouts: number, kill: boolean): Promise<RunResult> {
  const database = await freshDatabase();
  const open = () => openDb({ databaseUrl: database.url });
  let handle = await open();
  let prep: Prepared;
  let payers: Payer[];
  try {
    prep = await prepare(handle, PARENTS, SEATS);
    payers = await preparePayers(handle, checkouts);
  } finally {
    await handle.close();
  }
  const mailbox = await startMailbox();
  const gwPort = await freePort();
  const gw = await buildSandboxGateway({ secrets: { '1': SECRET, '2': SECRET }, publicUrl: `http://127.0.0.1:${gwPort}` });
  await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
  // every instance names the balancer as the public address (the gateway's return and notifications
  // come through it); its port is chosen before the instances start
  const lbPort = await freePort();
  const publicUrl = `http://127.0.0.1:${lbPort}`;
  const env = {
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: POOL_SIZE,
    PUBLIC_URL: publicUrl,
    SMTP_URL: mailbox.url,
    PAYMENT_GATEWAYS: JSON.stringify({ '1': { url: `http://127.0.0.1:${gwPort}`, merchant: '1', secret: SECRET }, '2': { url: `http://127.0.0.1:${gwPort}`, merchant: '2', secret: SECRET } }),
    RATE_LIMIT_ALLOW_LIST: '127.0.0.1',
    TRUST_PROXY: '127.0.0.1',
    PAYMENT_RECONCILE_AFTER_SECONDS: '5',
    PAYMENT_RECONCILE_EVERY_SECONDS: '2',
  };
  const portals: Running[] = [];
  let lb: Balancer | null = null;
  const rushTally = new Tally();
  const checkoutTally = checkouts ? new Tally() : null;
  const answered = { registered: new Set<string>(), waitlisted: new Set<string>(), approved: new Set<number>() };
  let killed = false;
  const timing = { lastAnswer: 0, mailWait: 0 };
  const t0 = performance.now();
  try {
    // the instances start one after another: the first applies the migrations
    for (let i = 0; i < instances; i++) portals.push(await startPortal(env));
    const readyPath = (await fetch(`${portals[0].url}/ready`).catch(() => null))?.status === 200 ? '/ready' : '/api/Customer/version?sourceApp=parentportal';
    lb = await startBalancer(lbPort, portals.map((p) => p.url), readyPath);
    const version = ((await (await fetch(`${lb.url}/api/Customer/version?sourceApp=parentportal`)).json()) as { releaseVersion: string }).releaseVersion;
    const headers = (token: string, json = false): Record<string, string> => ({ authorization: `Bearer ${token}`, 'x-release-version': version, ...(json ? { 'content-type': 'application/json' } : {}) });

    let done = 0;
    const total = prep.parents.length + checkouts;
    const progress = () => {
      done++;
      if (kill && !killed && done >= total / 2 && portals.length > 1) {
        killed = true;
        portals[1].process?.kill('SIGKILL');
      }
    };

    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    const submits = prep.parents.map(async (p) => {
      await gate;
      const a = await rushTally.send(`${lb!.url}/api/ParentApplication/application/submit?key=${p.key}`, 'POST', headers(p.token));
      if (a?.status === 200) {
        const status = (JSON.parse(a.body) as { children: { status: string }[] }).children[0]?.status;
        if (status === 'REGISTERED') answered.registered.add(p.key);
        else if (status === 'WAITLISTED') answered.waitlisted.add(p.key);
      }
      progress();
    });
    let next = 0;
    let cards = 0;
    const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
    const pays = Array.from({ length: Math.min(CHECKOUT_CONCURRENCY, checkouts) }, async () => {
      await gate;
      for (let n = next++; n < checkouts; n = next++) {
        const who = payers[n];
        const body = JSON.stringify({ ...payer, idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '1.00' });
        // a double click: the same key twice at once
        const [one] = await Promise.all([
          checkoutTally!.send(`${lb!.url}/api/Billing/payment/checkout`, 'POST', headers(who.token, true), body),
          checkoutTally!.send(`${lb!.url}/api/Billing/payment/checkout`, 'POST', headers(who.token, true), body),
        ]);
        if (one?.status === 200) {
          const { checkoutUrl } = JSON.parse(one.body) as { checkoutUrl: string };
          const page = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: testCardNumber(++cards), expiry: '12/30', cvv: '123' }), redirect: 'manual' });
          const location = page.headers.get('location');
          if (location) {
            const q = Object.fromEntries(new URL(location).searchParams);
            const result = await checkoutTally!.send(`${lb!.url}/api/Billing/payment/result`, 'POST', headers(who.token, true), JSON.stringify({ gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status, sig: q.sig }));
            if (result?.status === 200) {
              const r = JSON.parse(result.body) as { status: string; accountPaymentID: number | null };
              if (r.status === 'APPROVED' && r.accountPaymentID) answered.approved.add(r.accountPaymentID);
            }
          }
        }
        progress();
      }
    });
    openGate();
    await Promise.all([...submits, ...pays]);
    // what the killed instance left: mails claimed and payments open are taken up by the others (leases, the reconciler)
    await gw.flushNotifications();
    handle = await open();
    // every queued mail sent (a page a parent abandoned stays open at the gateway until it expires)
    const waitFrom = performance.now();
    timing.lastAnswer = (waitFrom - t0) / 1000;
    const deadline = Date.now() + 300_000;
    for (;;) {
      const [unsent] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(s.outbox).where(isNull(s.outbox.sentAt));
      if (Number(unsent.n) === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    timing.mailWait = (performance.now() - waitFrom) / 1000;
  } finally {
    await Promise.all(portals.map((p) => p.stop()));
    await lb?.stop();
    await gw.close();
    await mailbox.close();
  }
  const seconds = timing.lastAnswer;

  // the books
  try {
    const db = handle.db;
    const [seat] = await db.select().from(s.seats).where(and(eq(s.seats.activityId, prep.activityID), eq(s.seats.weekStart, prep.week)));
    const [enrolled] = await db.select({ n: sql<number>`count(*)::int` }).from(s.enrollments).where(and(eq(s.enrollments.activityId, prep.activityID), eq(s.enrollments.enrollmentDate, prep.week)));
    const [waiting] = await db.select({ n: sql<number>`count(*)::int` }).from(s.waitlistEntries).where(and(eq(s.waitlistEntries.seatId, seat.id), eq(s.waitlistEntries.status, 'active')));
    const taken = Math.max(seat.taken, Number(enrolled.n));
    // acknowledged writes: each REGISTERED answer has its enrolment, each WAITLISTED its entry, each APPROVED its payment
    let lost = 0;
    const keys = [...answered.registered, ...answered.waitlisted];
    const drafts = keys.length ? await db.select({ key: s.applicationDrafts.key, data: s.applicationDrafts.data }).from(s.applicationDrafts).where(inArray(s.applicationDrafts.key, keys)) : [];
    const childOf = new Map(drafts.map((d) => [d.key, (d.data as { childIDs: number[] }).childIDs[0]]));
    const enrolledChildren = new Set(
      (await db.select({ child: s.enrollments.childId }).from(s.enrollments).where(and(eq(s.enrollments.activityId, prep.activityID), eq(s.enrollments.enrollmentDate, prep.week)))).map((r) => r.child),
    );
    const waitingChildren = new Set((await db.select({ child: s.waitlistEntries.childId }).from(s.waitlistEntries).where(and(eq(s.waitlistEntries.seatId, seat.id), eq(s.waitlistEntries.status, 'active')))).map((r) => r.child));
    for (const k of answered.registered) if (!enrolledChildren.has(childOf.get(k) ?? -1)) lost++;
    for (const k of answered.waitlisted) if (!waitingChildren.has(childOf.get(k) ?? -1)) lost++;
    const postedIds = new Set((answered.approved.size ? await db.select({ id: s.payments.id }).from(s.payments).where(inArray(s.payments.id, [...answered.approved])) : []).map((r) => r.id));
    for (const id of answered.approved) if (!postedIds.has(id)) lost++;
    // payments: what the gateway took against what was posted
    const accountIds = payers.map((p) => p.accountId);
    let gatewayTaken = 0;
    let chargedNotPosted = 0;
    let double = 0;
    let posted = 0;
    if (accountIds.length) {
      const attempts = await db.select().from(s.paymentAttempts).where(inArray(s.paymentAttempts.accountId, accountIds));
      const postedTx = new Set((await db.select({ tx: s.payments.gatewayTransactionId }).from(s.payments).where(inArray(s.payments.accountId, accountIds))).map((p) => p.tx));
      posted = postedTx.size;
      const keptPerAccount = new Map<number, number>();
      for (const a of attempts) {
        if (!a.checkoutId) continue;
        for (const tx of gw.store.transactionsOfCheckout(a.checkoutId)) {
          if (tx.status !== 'APPROVED') continue;
          gatewayTaken++;
          if (!postedTx.has(tx.transactionId)) chargedNotPosted++;
          if (gw.store.refundedCents(tx.transactionId) < tx.amountCents) keptPerAccount.set(a.accountId, (keptPerAccount.get(a.accountId) ?? 0) + 1);
        }
      }
      // each payer paid one debt once
      for (const n of keptPerAccount.values()) if (n > 1) double++;
    }
    const [queued] = await db.select({ n: sql<number>`count(*)::int` }).from(s.outbox);
    const [sent] = await db.select({ n: sql<number>`count(*)::int` }).from(s.outbox).where(sql`${s.outbox.sentAt} is not null`);
    return {
      instances,
      taken,
      waitlisted: Number(waiting.n),
      overbooked: Math.max(0, taken - seat.total),
      rush: rushTally,
      checkout: checkoutTally,
      gatewayTaken,
      posted,
      double,
      chargedNotPosted,
      mailQueued: Number(queued.n),
      mailSent: Number(sent.n),
      mailReceived: mailbox.total(),
      mailDuplicates: mailbox.duplicates(),
      lost,
      killed,
      seconds,
      mailWait: timing.mailWait,
    };
  } finally {
    await handle.close();
    await database.drop();
  }
}

const ms = (n: number) => `${Math.round(n)} ms`;
const statuses = (t: Tally) => (t.byStatus.size ? ` (${[...t.byStatus].sort(([a], [b]) => a.localeCompare(b)).map(([code, n]) => `${code}: ${n}`).join(', ')})` : '');
function print(r: RunResult) {
  console.log(`\n${r.instances} instance${r.instances > 1 ? 's' : ''}${r.killed ? ', one killed with SIGKILL halfway' : ''}: ${PARENTS} parents submit for ${SEATS} seats${r.checkout ? ` while ${CHECKOUTS} parents pay by card` : ''} (${r.seconds.toFixed(1)} s)`);
  console.log(`  seats taken ${r.taken}, waitlisted ${r.waitlisted}, overbooked ${r.overbooked}`);
  console.log(`  submit: 5xx ${r.rush.c5xx}${statuses(r.rush)}, no answer ${r.rush.noAnswer}, tapped again ${r.rush.retried}, given up after ${TAPS} taps ${r.rush.gaveUp}, p50 ${ms(pct(r.rush.latencies, 50))}, p99 ${ms(pct(r.rush.latencies, 99))}`);
  if (r.checkout) {
    console.log(`  checkout: 5xx ${r.checkout.c5xx}${statuses(r.checkout)}, no answer ${r.checkout.noAnswer}, tapped again ${r.checkout.retried}, given up after ${TAPS} taps ${r.checkout.gaveUp}, p50 ${ms(pct(r.checkout.latencies, 50))}, p99 ${ms(pct(r.checkout.latencies, 99))}`);
    console.log(`  payments taken by the gateway ${r.gatewayTaken}, posted ${r.posted}, double charges ${r.double}, charged-not-posted ${r.chargedNotPosted}`);
  }
  console.log(`  e-mails queued ${r.mailQueued}, sent ${r.mailSent}, received ${r.mailReceived}, duplicates ${r.mailDuplicates} (the last sent ${r.mailWait.toFixed(0)} s after the last answer)`);
  console.log(`  acknowledged writes lost ${r.lost}`);
}

haproxyBinary();
const many = await run(INSTANCES, CHECKOUTS, true);
print(many);
const one = await run(1, 0, false);
print(one);
const wrong = [many, one].filter((r) => r.overbooked || r.double || r.chargedNotPosted || r.mailDuplicates || r.lost || r.taken !== SEATS);
if (wrong.length) {
  console.error('\nbench:scale: a count is wrong');
  process.exitCode = 1;
}
