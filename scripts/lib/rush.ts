// The registration rush's data, shared by bench:rush and bench:scale: the demo data, a week of
// Adventure Week with a given number of seats, and families each signed in (a session written
// straight into the database: signing thousands of parents in is not what is measured) with a draft
// ready to submit; and the change-schedule rush's (prepareChange): families each with a change
// request ready to send, all to one new activity.
import http from 'node:http';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { DbHandle } from '../../server/db/index';
import * as s from '../../server/db/schema';
import { ABSOLUTE_MS, hashToken, IDLE_MS, newToken, Passwords } from '../../server/auth';
import { seedDemo } from '../../server/seed/index';
import { readProviderRecords, syncProviders } from '../../server/providers';
import { businessClock, isoDay, systemClock } from '../../server/clock';
import { changePolicyOf } from '../../server/changeScheduleSettings';
import { buildDeclarationSet } from '../../src/engine/index';
import { readBaseDeclarations } from '../../src/engine/node';
import { earliestEffectiveDate } from '../../src/engine/changeSchedule';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Prepared {
  programPeriodID: number;
  activityID: number;
  week: string;
  parents: { token: string; key: string }[];
}

/** Demo data, a week of Adventure Week with `seatCount` seats, and `families` families each with a draft ready to submit. */
export async function prepare(handle: DbHandle, families: number, seatCount: number): Promise<Prepared> {
  const db = handle.db;
  await syncProviders(db, readProviderRecords(ROOT));
  await seedDemo(db, { root: ROOT, passwords: new Passwords({ memoryCost: 1024, timeCost: 1, parallelism: 1 }), clock: systemClock });
  const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
  const [act] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'Adventure Week')));
  // the camp's seventh week: no demo family holds a seat there
  const monday = new Date(`${act.startDate}T00:00:00Z`);
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) + 42);
  const week = monday.toISOString().slice(0, 10);
  await db.insert(s.seats).values({ providerId: pp.providerId, activityId: act.id, weekStart: week, total: seatCount, taken: 0 });

  const pid = pp.providerId;
  const parents: Prepared['parents'] = [];
  const now = new Date();
  for (let start = 0; start < families; start += 250) {
    const n = Math.min(250, families - start);
    const idx = Array.from({ length: n }, (_, i) => start + i);
    const { accts, tokens } = await signedInAccounts(db, pid, idx, { accountNo: 'RUSH', name: 'Parent', lastName: 'Rush', email: 'rush' }, now);
    const kids = await db
      .insert(s.children)
      .values(idx.map((i, j) => ({ providerId: pid, accountId: accts[j].id, firstName: `Child${i}`, lastName: 'Rush', dateOfBirth: '2018-05-01', homeSiteId: act.siteId })))
      .returning({ id: s.children.id });
    const keys = idx.map(() => randomBytes(16).toString('hex'));
    await db.insert(s.applicationDrafts).values(
      idx.map((i, j) => ({
        key: keys[j],
        providerId: pid,
        accountId: accts[j].id,
        programPeriodId: pp.id,
        step: 'review',
        status: 'open',
        createdAt: now,
        updatedAt: now,
        data: {
          childIDs: [kids[j].id],
          enrollmentOption: 'Y' as const,
          children: [{ prChildID: kids[j].id, childName: `Child${i} Rush`, siteID: act.siteId, selections: [{ activityID: act.id, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null, daysPerWeek: 5, activityTypeID: 1 }] }],
        },
      })),
    );
    idx.forEach((_, j) => parents.push({ token: tokens[j], key: keys[j] }));
  }
  return { programPeriodID: pp.id, activityID: act.id, week, parents };
}

// one connection per parent, all opened at once, with no client-side connect timeout: the rush is
// 2,000 browsers, and a connection the server's backlog makes wait is latency, not a failure
export const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
export function post(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-length': 0 } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Accounts each with its holder, a login and a session written straight into the database (signing
 * thousands of parents in is not what a benchmark measures): `<accountNo>-<i>`, `<email><i>@example.com`.
 */
export async function signedInAccounts(
  db: DbHandle['db'],
  providerId: number,
  idx: number[],
  names: { accountNo: string; name: string; lastName: string; email: string },
  now: Date,
): Promise<{ accts: { id: number }[]; tokens: string[] }> {
  const accts = await db.insert(s.accounts).values(idx.map((i) => ({ providerId, accountNo: `${names.accountNo}-${i}` }))).returning({ id: s.accounts.id });
  const adults = await db
    .insert(s.adults)
    .values(idx.map((i, j) => ({ providerId, accountId: accts[j].id, accountHolder: 1, firstName: `${names.name}${i}`, lastName: names.lastName, email: `${names.email}${i}@example.com` })))
    .returning({ id: s.adults.id });
  const logins = await db
    .insert(s.logins)
    .values(idx.map((i, j) => ({ providerId, adultId: adults[j].id, email: `${names.email}${i}@example.com`, passwordHash: 'not-used' })))
    .returning({ id: s.logins.id });
  const tokens = idx.map(() => newToken());
  await db.insert(s.sessions).values(
    idx.map((_, j) => ({
      providerId,
      loginId: logins[j].id,
      adultId: adults[j].id,
      accountId: accts[j].id,
      locale: 'en',
      tokenHash: hashToken(tokens[j]),
      createdAt: now,
      lastSeenAt: now,
      idleExpiresAt: new Date(now.getTime() + IDLE_MS),
      absoluteExpiresAt: new Date(now.getTime() + ABSOLUTE_MS),
    })),
  );
  return { accts, tokens };
}

export interface PreparedChange {
  programPeriodID: number;
  activityID: number;
  /** the seat row of the activity (not weekly) */
  week: string;
  parents: { token: string; key: string; accountId: number }[];
}

/**
 * The change-schedule rush's data: demo data, a new activity of the school year at Lincoln with
 * `seatCount` seats, and `families` families each signed in with a child registered in the school
 * year (in After Care) and a change request ready to send that moves the child to the new activity
 * from the earliest effective date the provider's policy allows.
 */
export async function prepareChange(handle: DbHandle, families: number, seatCount: number): Promise<PreparedChange> {
  const db = handle.db;
  const records = readProviderRecords(ROOT);
  await syncProviders(db, records);
  await seedDemo(db, { root: ROOT, passwords: new Passwords({ memoryCost: 1024, timeCost: 1, parallelism: 1 }), clock: systemClock });
  const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
  const [after] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'After Care')));
  const [act] = await db
    .insert(s.activities)
    .values({ providerId: pp.providerId, programPeriodId: pp.id, siteId: after.siteId, activity: 'Rush Club', translations: {}, startDate: pp.startDate, endDate: pp.endDate, timing: '3:00 PM - 6:00 PM', feeCents: 245_00, capacity: seatCount })
    .returning();
  const week = '1900-01-01';
  await db.insert(s.seats).values({ providerId: pp.providerId, activityId: act.id, weekStart: week, total: seatCount, taken: 0 });
  // the earliest effective date by the provider's declared policy and rules, on the server's business day
  const built = buildDeclarationSet(readBaseDeclarations(ROOT), []);
  if (!built.ok) throw new Error(built.errors.map((e) => e.message).join('\n'));
  const brightpath = records.find((r) => r.appName === 'brightpath');
  const effectiveDate = earliestEffectiveDate(built.set.rules, changePolicyOf(brightpath?.changeSchedule), isoDay(businessClock(systemClock)()), { start: pp.startDate, end: pp.endDate });
  if (!effectiveDate) throw new Error('no effective date is left in the school year');

  const pid = pp.providerId;
  const parents: PreparedChange['parents'] = [];
  const now = new Date();
  const days = after.daysOfWeek.split(',');
  for (let start = 0; start < families; start += 250) {
    const n = Math.min(250, families - start);
    const idx = Array.from({ length: n }, (_, i) => start + i);
    const { accts, tokens } = await signedInAccounts(db, pid, idx, { accountNo: 'CHANGE', name: 'Parent', lastName: 'Change', email: 'change' }, now);
    const kids = await db
      .insert(s.children)
      .values(idx.map((i, j) => ({ providerId: pid, accountId: accts[j].id, firstName: `Child${i}`, lastName: 'Change', dateOfBirth: '2017-05-01', homeSiteId: act.siteId })))
      .returning({ id: s.children.id });
    await db.insert(s.registrations).values(idx.map((_, j) => ({ providerId: pid, accountId: accts[j].id, programPeriodId: pp.id, childId: kids[j].id, status: 'REGISTERED', registrationDate: pp.startDate, submittedOn: pp.startDate })));
    await db.insert(s.enrollments).values(idx.map((_, j) => ({ providerId: pid, accountId: accts[j].id, childId: kids[j].id, activityId: after.id, enrollmentDate: pp.startDate, daysOfWeek: after.daysOfWeek })));
    const keys = idx.map(() => randomBytes(16).toString('hex'));
    await db.insert(s.changeRequests).values(
      idx.map((_, j) => ({
        key: keys[j],
        providerId: pid,
        accountId: accts[j].id,
        programPeriodId: pp.id,
        status: 'open',
        effectiveDate,
        data: { children: [{ prChildID: kids[j].id, noChange: false, siteID: act.siteId, selections: [{ activityID: act.id, daysOfWeek: days }] }], effectiveDate },
        createdAt: now,
        updatedAt: now,
      })),
    );
    idx.forEach((_, j) => parents.push({ token: tokens[j], key: keys[j], accountId: accts[j].id }));
  }
  return { programPeriodID: pp.id, activityID: act.id, week, parents };
}
