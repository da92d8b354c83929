// Registration rush: 2,000 parents submit their application for one week of a program with 200
// seats at the same moment, against the production server on a fresh database, on PostgreSQL and on
// the embedded database (PGlite). Accounts, sessions and ready-to-submit drafts are written straight
// into the database before the server starts (signing 2,000 parents in is not what is measured).
// Prints per backend: seats taken (must be 200), waitlisted (must be 1,800), overbooked (must be 0),
// 4xx and 5xx answers, and p50 / p99 / max submit latency. Exits 1 when a count is wrong.
//   npm run bench:rush                      PostgreSQL from BENCH_DATABASE_URL or TEST_DATABASE_URL (skipped without)
//   RUSH_PARENTS=500 RUSH_SEATS=50 npm run bench:rush
//   RUSH_BACKENDS=postgresql npm run bench:rush     one backend only (postgresql or pglite)
//   PORTAL_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" npm run bench:rush   the server's CPU profile
//   RUSH_KIND=change npm run bench:rush     the change-schedule rush instead: 500 parents (RUSH_PARENTS) send
//                                           a change to one activity with 50 seats (RUSH_SEATS) at once;
//                                           prints taken, refused (409: seats unavailable for the changed
//                                           schedule), overbooked, charged though refused, 5xx, latencies
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDb, type DbHandle } from '../server/db/index';
import * as s from '../server/db/schema';
import { commandCpuMs, machineCpuMs, startPortal } from './lib/portal';
import { post, prepare, prepareChange } from './lib/rush';

const KIND = process.env.RUSH_KIND === 'change' ? 'change' : 'application';
const PARENTS = Number(process.env.RUSH_PARENTS || (KIND === 'change' ? 500 : 2000));
const SEATS = Number(process.env.RUSH_SEATS || (KIND === 'change' ? 50 : 200));
const ADMIN_URL = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || '';
// database connections of the server for the rush: about four per core. A submit holds one for a
// single call, and more connections than that only compete for the same cores (on 2 cores: 8
// answered the last submit in 1.6-1.7 s, 20 in 1.95-2.1 s)
const POOL_SIZE = process.env.RUSH_POOL_SIZE || String(Math.max(4, os.cpus().length * 4));
const BACKENDS = (process.env.RUSH_BACKENDS || 'postgresql,pglite').toLowerCase().split(',');

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

interface Result {
  backend: string;
  taken: number;
  waitlisted: number;
  overbooked: number;
  c4xx: number;
  c5xx: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  /** the server process's CPU time during the rush (ms) */
  serverCpu: number | null;
  /** the rest of the machine's CPU time during the rush (ms): PostgreSQL's processes, this load generator, all cores busy */
  postgresCpu: number | null;
  loadCpu: number;
  machine: { busy: number; total: number } | null;
}

async function rush(backend: string, open: () => Promise<DbHandle>, serverEnv: Record<string, string>): Promise<Result> {
  let handle = await open();
  const prep = await prepare(handle, PARENTS, SEATS);
  await handle.close();
  // the server's own settings for the rush
  const server = await startPortal({ DATABASE_POOL_SIZE: POOL_SIZE, ...serverEnv });
  const latencies: number[] = [];
  let c4xx = 0;
  let c5xx = 0;
  let failed = 0;
  let registeredAnswers = 0;
  let waitlistedAnswers = 0;
  let serverCpu: number | null = null;
  let postgresCpu: number | null = null;
  let loadCpu: number;
  let machine: Result['machine'] = null;
  try {
    let open!: () => void;
    const gate = { promise: new Promise<void>((r) => (open = r)) };
    const all = prep.parents.map(async (p) => {
      await gate.promise;
      const t0 = performance.now();
      try {
        const res = await post(`${server.url}/api/ParentApplication/application/submit?key=${p.key}`, p.token);
        const body = res.body;
        latencies.push(performance.now() - t0);
        if (res.status >= 500) c5xx++;
        else if (res.status >= 400) c4xx++;
        else {
          const status = (JSON.parse(body) as { children: { status: string }[] }).children[0]?.status;
          if (status === 'REGISTERED') registeredAnswers++;
          else if (status === 'WAITLISTED') waitlistedAnswers++;
        }
      } catch (err) {
        if (!failed) console.error(`${backend}: a submit got no answer: ${(err as Error).message}`);
        failed++;
        latencies.push(performance.now() - t0);
      }
    });
    const cpu0 = server.cpuMs?.() ?? null;
    const pg0 = commandCpuMs('postgres');
    const load0 = process.cpuUsage();
    const machine0 = machineCpuMs();
    open();
    await Promise.all(all);
    const machine1 = machineCpuMs();
    const load1 = process.cpuUsage(load0);
    const pg1 = commandCpuMs('postgres');
    const cpu1 = server.cpuMs?.() ?? null;
    if (cpu0 !== null && cpu1 !== null) serverCpu = cpu1 - cpu0;
    if (pg0 !== null && pg1 !== null && backend === 'PostgreSQL') postgresCpu = pg1 - pg0;
    loadCpu = (load1.user + load1.system) / 1000;
    if (machine0 && machine1) machine = { busy: machine1.busy - machine0.busy, total: machine1.total - machine0.total };
  } finally {
    await server.stop();
  }
  // the database's word, not the answers': seats taken, waitlist entries, enrolments of the week
  handle = await open();
  try {
    const [seat] = await handle.db.select().from(s.seats).where(and(eq(s.seats.activityId, prep.activityID), eq(s.seats.weekStart, prep.week)));
    const [held] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(s.seatTakes).where(and(eq(s.seatTakes.seatId, seat.id), eq(s.seatTakes.status, 'held')));
    const [waiting] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(s.waitlistEntries).where(and(eq(s.waitlistEntries.seatId, seat.id), eq(s.waitlistEntries.status, 'active')));
    const [enrolled] = await handle.db
      .select({ n: sql<number>`count(*)::int` })
      .from(s.enrollments)
      .where(and(eq(s.enrollments.activityId, prep.activityID), eq(s.enrollments.enrollmentDate, prep.week)));
    // the counter, the held takes and the enrolments must agree; the largest is what was sold
    const taken = Math.max(seat.taken, Number(held.n), Number(enrolled.n));
    if (seat.taken !== Number(held.n) || seat.taken !== Number(enrolled.n)) console.error(`${backend}: seat counter ${seat.taken}, held ${held.n}, enrolled ${enrolled.n}`);
    if (registeredAnswers !== taken || waitlistedAnswers !== Number(waiting.n)) {
      console.error(`${backend}: answers say ${registeredAnswers} registered / ${waitlistedAnswers} waitlisted, the database ${taken} / ${waiting.n}`);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    return { backend, taken, waitlisted: Number(waiting.n), overbooked: Math.max(0, taken - seat.total), c4xx, c5xx, failed, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted.at(-1) ?? 0, serverCpu, postgresCpu, loadCpu, machine };
  } finally {
    await handle.close();
  }
}

/**
 * The change-schedule rush: every parent sends her change to the one activity at once. The seats
 * taken, the refused changes and what the refused were charged are read from the database.
 */
async function changeRush(backend: string, open: () => Promise<DbHandle>, serverEnv: Record<string, string>): Promise<Result> {
  let handle = await open();
  const prep = await prepareChange(handle, PARENTS, SEATS);
  await handle.close();
  const server = await startPortal({ DATABASE_POOL_SIZE: POOL_SIZE, ...serverEnv });
  const latencies: number[] = [];
  let c4xx = 0;
  let c5xx = 0;
  let failed = 0;
  let refusedAnswers = 0;
  let serverCpu: number | null = null;
  let loadCpu: number;
  try {
    let go!: () => void;
    const gate = new Promise<void>((r) => (go = r));
    const all = prep.parents.map(async (p) => {
      await gate;
      const t0 = performance.now();
      try {
        const res = await post(`${server.url}/api/Registration/changeschedule/submit?key=${p.key}`, p.token);
        latencies.push(performance.now() - t0);
        if (res.status >= 500) c5xx++;
        else if (res.status === 409 && res.body.includes('application.errors.change.seatsUnavailable')) refusedAnswers++;
        else if (res.status >= 400) {
          if (!c4xx) console.error(`${backend}: ${res.status} ${res.body.slice(0, 200)}`);
          c4xx++;
        }
      } catch (err) {
        if (!failed) console.error(`${backend}: a change got no answer: ${(err as Error).message}`);
        failed++;
        latencies.push(performance.now() - t0);
      }
    });
    const cpu0 = server.cpuMs?.() ?? null;
    const load0 = process.cpuUsage();
    go();
    await Promise.all(all);
    const load1 = process.cpuUsage(load0);
    const cpu1 = server.cpuMs?.() ?? null;
    if (cpu0 !== null && cpu1 !== null) serverCpu = cpu1 - cpu0;
    loadCpu = (load1.user + load1.system) / 1000;
  } finally {
    await server.stop();
  }
  handle = await open();
  try {
    const [seat] = await handle.db.select().from(s.seats).where(and(eq(s.seats.activityId, prep.activityID), eq(s.seats.weekStart, prep.week)));
    const [held] = await handle.db.select({ n: sql<number>`count(*)::int` }).from(s.seatTakes).where(and(eq(s.seatTakes.seatId, seat.id), eq(s.seatTakes.status, 'held')));
    const accounts = prep.parents.map((p) => p.accountId);
    const sent = await handle.db.select({ accountId: s.changeRequests.accountId, status: s.changeRequests.status }).from(s.changeRequests).where(inArray(s.changeRequests.accountId, accounts));
    const stillOpen = sent.filter((r) => r.status === 'open').map((r) => r.accountId);
    const [charged] = stillOpen.length
      ? await handle.db.select({ n: sql<number>`count(*)::int` }).from(s.ledgerEntries).where(inArray(s.ledgerEntries.accountId, stillOpen))
      : [{ n: 0 }];
    const taken = Math.max(seat.taken, Number(held.n), sent.length - stillOpen.length);
    if (seat.taken !== Number(held.n) || seat.taken !== sent.length - stillOpen.length) console.error(`${backend}: seat counter ${seat.taken}, held ${held.n}, changes sent ${sent.length - stillOpen.length}`);
    if (refusedAnswers !== stillOpen.length) console.error(`${backend}: ${refusedAnswers} refused answers, ${stillOpen.length} changes left open`);
    chargedRefused.set(backend, Number(charged.n));
    const sorted = [...latencies].sort((a, b) => a - b);
    return { backend, taken, waitlisted: stillOpen.length, overbooked: Math.max(0, taken - seat.total), c4xx, c5xx, failed, p50: pct(sorted, 50), p99: pct(sorted, 99), max: sorted.at(-1) ?? 0, serverCpu, postgresCpu: null, loadCpu, machine: null };
  } finally {
    await handle.close();
  }
}
/** ledger entries of the accounts whose change was refused, per backend (must be 0) */
const chargedRefused = new Map<string, number>();
const run = KIND === 'change' ? changeRush : rush;

const results: Result[] = [];
if (!BACKENDS.includes('postgresql')) {
  // not asked for
} else if (ADMIN_URL) {
  const name = `pp_rush_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    results.push(await run('PostgreSQL', () => openDb({ databaseUrl: url.toString() }), { DATABASE_URL: url.toString() }));
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
} else {
  console.log('PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL');
}
if (BACKENDS.includes('pglite')) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-rush-'));
  try {
    results.push(await run('PGlite', () => openDb({ pgliteDir: dataDir }), { DATABASE_URL: '', PGLITE_DIR: dataDir }));
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const ms = (n: number) => `${Math.round(n)} ms`;
if (KIND === 'change') {
  console.log(`\nChange-schedule rush: ${PARENTS} parents send a change to one activity with ${SEATS} seats at once`);
  console.log(['backend', 'taken', 'refused', 'overbooked', 'charged', '4xx', '5xx', 'no answer', 'p50', 'p99', 'max'].map((h) => h.padEnd(11)).join(''));
  for (const r of results) console.log([r.backend, r.taken, r.waitlisted, r.overbooked, chargedRefused.get(r.backend) ?? 0, r.c4xx, r.c5xx, r.failed, ms(r.p50), ms(r.p99), ms(r.max)].map((v) => String(v).padEnd(11)).join(''));
  const wrongChange = results.filter((r) => r.taken !== Math.min(SEATS, PARENTS) || r.waitlisted !== Math.max(0, PARENTS - SEATS) || r.overbooked || r.c4xx || r.c5xx || r.failed || chargedRefused.get(r.backend));
  if (wrongChange.length) {
    console.error(`Wrong counts on: ${wrongChange.map((r) => r.backend).join(', ')}`);
    process.exitCode = 1;
  }
  process.exit();
}
console.log(`\nRush: ${PARENTS} parents submit at once for ${SEATS} seats (capacity check W, enrol what is available)`);
console.log(['backend', 'taken', 'waitlisted', 'overbooked', '4xx', '5xx', 'no answer', 'p50', 'p99', 'max', 'server CPU'].map((h) => h.padEnd(11)).join(''));
for (const r of results) {
  const cpu = r.serverCpu === null ? '-' : `${ms(r.serverCpu)} (${((r.serverCpu * 1000) / PARENTS).toFixed(0)} µs/submit)`;
  console.log([r.backend, r.taken, r.waitlisted, r.overbooked, r.c4xx, r.c5xx, r.failed, ms(r.p50), ms(r.p99), ms(r.max), cpu].map((v) => String(v).padEnd(11)).join(''));
}
// where the machine's time went: the load generator shares the cores with the server and PostgreSQL
for (const r of results) {
  const parts = [`server ${r.serverCpu === null ? '-' : ms(r.serverCpu)}`, `PostgreSQL ${r.postgresCpu === null ? '-' : ms(r.postgresCpu)}`, `load generator ${ms(r.loadCpu)}`];
  const busy = r.machine ? `, all cores ${Math.round((100 * r.machine.busy) / Math.max(1, r.machine.total))}% busy (${ms(r.machine.busy)} of ${ms(r.machine.total)})` : '';
  console.log(`${r.backend} CPU during the rush: ${parts.join(', ')}${busy}`);
}
const wrong = results.filter((r) => r.taken !== SEATS || r.waitlisted !== PARENTS - SEATS || r.overbooked || r.c4xx || r.c5xx || r.failed);
if (wrong.length) {
  console.error(`Wrong counts on: ${wrong.map((r) => r.backend).join(', ')}`);
  process.exitCode = 1;
}
