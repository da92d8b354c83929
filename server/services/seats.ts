// Seats and the waitlist (spec 4 enrolment and seats; /work guide "money and seats"): a seat is taken
// with one conditional UPDATE ... WHERE taken < total RETURNING inside the submit's transaction, so
// no program is overbooked whatever the concurrency, on PGlite and PostgreSQL. Capacity check modes:
// C a full activity refuses the child (SEATS FULL), W a full activity waitlists it, N no check.
// The enrolment option: Y enrols what is available and waitlists the rest; N waits until all fit.
// Waitlist places follow a monotonic sequence (the entry id), never a timestamp two requests share.
import { and, asc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../context';
import type { SessionInfo } from '../auth';
import { activities, applicationDrafts, children, enrollments, registrations, seatTakes, seats, waitlistEntries, adults } from '../db/schema';
import { isoDay } from '../clock';
import { textIn } from '../providerTexts';
import { fail, isOpenNow, isWeekly, mondayOf, seatWeek, type DraftData, type DraftRow, type Selection } from './application';
import type { programPeriods } from '../db/schema';
import type { Db } from '../db/index';
import { enqueueMail, type OutboxMail } from '../outbox';

type ProgramRow = typeof programPeriods.$inferSelect;
type Status = 'PROCESSED' | 'REGISTERED' | 'WAITLISTED' | 'SEATS FULL' | 'REMOVED' | 'PENDING';
type Tx = Parameters<Parameters<AppDeps['db']['transaction']>[0]>[0];

export interface Confirmation {
  key: string;
  programPeriodID: number;
  programPeriod: string;
  submittedOn: string | null;
  emailSent: boolean;
  parentName: string;
  children: {
    prChildID: number;
    fullName: string;
    status: Status;
    waitlistPosition?: number | null;
    /** a waitlisted choice names its entry by registration and seat (`entryId` in confirmations stored before) */
    activities: { activityID: number; activity: string; weekStart: string | null; state: 'A' | 'W' | 'FULL'; entryId?: number | null; seatId?: number; registrationId?: number; waitlistPosition?: number | null }[];
  }[];
}

/** Seats of the activities (per week for weekly programs): what is left now. */
export async function seatAvailability(
  deps: AppDeps,
  s: SessionInfo,
  pp: ProgramRow,
  acts: { activityID: number; capacity?: number; startDate?: string; endDate?: string }[],
  weekStarts: string[],
): Promise<{ activityID: number; weekStart: string | null; total: number; available: number; isFull: boolean }[]> {
  if (!acts.length) return [];
  const rows = await deps.db
    .select()
    .from(seats)
    .where(and(eq(seats.providerId, s.providerId), inArray(seats.activityId, acts.map((a) => a.activityID))));
  const capacity = new Map(
    (await deps.db.select({ id: activities.id, capacity: activities.capacity }).from(activities).where(inArray(activities.id, acts.map((a) => a.activityID)))).map((r) => [r.id, r.capacity]),
  );
  const out: { activityID: number; weekStart: string | null; total: number; available: number; isFull: boolean }[] = [];
  for (const a of acts) {
    // a weekly activity has a seat per week it meets
    const weeks = isWeekly(pp) ? weekStarts.filter((w) => !a.startDate || !a.endDate || (w >= mondayOf(a.startDate) && w <= a.endDate)) : [null];
    for (const w of weeks) {
      const row = rows.find((r) => r.activityId === a.activityID && r.weekStart === seatWeek(pp, { weekStart: w }));
      const total = row?.total ?? capacity.get(a.activityID) ?? 0;
      const available = Math.max(0, total - (row?.taken ?? 0));
      out.push({ activityID: a.activityID, weekStart: w, total, available, isFull: pp.capacityCheck !== 'N' && available === 0 });
    }
  }
  return out;
}

/** Seat row ids by database, activity and week: a committed row keeps its id (it goes only with its activity). */
const seatIdCache = new WeakMap<object, Map<string, number>>();

/**
 * The seat row of an activity's week, created on first use with the activity's capacity. Ids read
 * here go to `seen`; the caller caches them once its transaction committed (a row made by a
 * transaction that rolls back must not be remembered).
 */
async function seatId(tx: Tx, cache: Map<string, number>, seen: Map<string, number>, providerId: number, activityId: number, week: string, capacity: number): Promise<number> {
  const k = `${activityId}/${week}`;
  const known = cache.get(k) ?? seen.get(k);
  if (known) return known;
  const find = async () => (await tx.select({ id: seats.id }).from(seats).where(and(eq(seats.activityId, activityId), eq(seats.weekStart, week))))[0]?.id;
  let id = await find();
  if (!id) {
    const [made] = await tx.insert(seats).values({ providerId, activityId, weekStart: week, total: capacity, taken: 0 }).onConflictDoNothing({ target: [seats.activityId, seats.weekStart] }).returning({ id: seats.id });
    id = made?.id ?? (await find())!;
  }
  seen.set(k, id);
  return id;
}

/** Takes one seat while one remains (mode N: always): one statement, atomic on both databases. */
async function takeSeat(tx: Tx, id: number, check: boolean): Promise<boolean> {
  const rows = check
    ? await tx.update(seats).set({ taken: sql`${seats.taken} + 1` }).where(and(eq(seats.id, id), sql`${seats.taken} < ${seats.total}`)).returning({ id: seats.id })
    : await tx.update(seats).set({ taken: sql`${seats.taken} + 1` }).where(eq(seats.id, id)).returning({ id: seats.id });
  return rows.length === 1;
}

export async function releaseSeat(tx: Tx, id: number): Promise<void> {
  await tx.update(seats).set({ taken: sql`greatest(${seats.taken} - 1, 0)` }).where(eq(seats.id, id));
}

/** The places of waitlist entries named by id or by registration and seat: the active entries before each on its seat's list, plus one. */
export async function entryPositions(deps: AppDeps, ids: number[], regs: number[] = []): Promise<{ byId: Map<number, number>; byRegSeat: Map<string, number> }> {
  const byId = new Map<number, number>();
  const byRegSeat = new Map<string, number>();
  if (!ids.length && !regs.length) return { byId, byRegSeat };
  // written out: drizzle leaves a single table's columns unqualified, and the count is correlated
  const e = alias(waitlistEntries, 'e');
  const rows = await deps.db
    .select({ id: e.id, registrationId: e.registrationId, seatId: e.seatId, place: sql<number>`(select count(*) from waitlist_entries w where w.seat_id = e.seat_id and w.status = 'active' and w.id <= e.id)`.mapWith(Number) })
    .from(e)
    .where(and(or(ids.length ? inArray(e.id, ids) : undefined, regs.length ? inArray(e.registrationId, regs) : undefined), eq(e.status, 'active')));
  for (const r of rows) {
    byId.set(r.id, r.place);
    byRegSeat.set(`${r.registrationId}/${r.seatId}`, r.place);
  }
  return { byId, byRegSeat };
}

/** The account's children's best waitlist places, by program and child ("programID/childID"). */
export async function accountWaitlistPlaces(deps: AppDeps, s: SessionInfo): Promise<Map<string, number>> {
  const e = alias(waitlistEntries, 'e');
  const rows = await deps.db
    .select({
      childId: e.childId,
      pp: activities.programPeriodId,
      place: sql<number>`(select count(*) from waitlist_entries w where w.seat_id = e.seat_id and w.status = 'active' and w.id <= e.id)`.mapWith(Number),
    })
    .from(e)
    .innerJoin(seats, eq(seats.id, e.seatId))
    .innerJoin(activities, eq(activities.id, seats.activityId))
    .where(and(eq(e.providerId, s.providerId), eq(e.accountId, s.accountId), eq(e.status, 'active')));
  const out = new Map<string, number>();
  for (const r of rows) {
    const k = `${r.pp}/${r.childId}`;
    if (!out.has(k) || r.place < out.get(k)!) out.set(k, r.place);
  }
  return out;
}

const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** What a complete application holds before it may be submitted (spec 5.5), else a 400 naming it. */
function checkComplete(deps: AppDeps, lang: string, data: DraftData): void {
  const kids = data.children ?? [];
  if (!kids.length) fail(deps, lang, 400, 'application.errors.noChildren');
  for (const c of kids) {
    if (!c.selections.length) fail(deps, lang, 400, 'application.errors.noActivity');
    for (const s of c.selections) {
      if (s.activityTypeID === 2 && !s.daysOfWeek.length) fail(deps, lang, 400, 'application.errors.daysRequired');
      if (s.daysPerWeek && s.daysOfWeek.length > s.daysPerWeek) fail(deps, lang, 400, 'application.errors.tooManyDays', { count: s.daysPerWeek });
      if (s.activityTypeID === 4 && !s.date) fail(deps, lang, 400, 'application.errors.dateRequired');
    }
  }
  if (data.enrollmentOption !== 'Y' && data.enrollmentOption !== 'N') fail(deps, lang, 400, 'application.errors.optionRequired');
  if (data.isOptedFinancialAssistance && !(data.agencies ?? []).length) fail(deps, lang, 400, 'application.errors.agencyRequired');
}

/**
 * Submits a draft once: a second call (a double click, a retry after a lost answer) gets the first
 * confirmation. The draft is claimed first (open -> submitting, one statement), then one transaction
 * takes the seats, writes registrations, enrolments and waitlist entries, and stores the confirmation.
 */
export async function submitApplication(
  deps: AppDeps,
  s: SessionInfo,
  d: DraftRow,
  pp: ProgramRow,
  lang: string,
  facts?: {
    parentName: string;
    /** the confirmation e-mail of a confirmation (null: no address): queued in the same transaction */
    mailOf: (c: Confirmation) => OutboxMail | null;
  },
): Promise<{ fresh: boolean; confirmation: Confirmation }> {
  if (d.status === 'submitted' && d.result) return { fresh: false, confirmation: d.result as unknown as Confirmation };
  if (!isOpenNow(deps, pp)) {
    if (pp.registrationStartAt && pp.registrationStartAt > deps.clock()) fail(deps, lang, 409, 'application.errors.notOpen', { date: pp.registrationStartAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC' });
    fail(deps, lang, 409, 'application.errors.closed');
  }
  const data = d.data as DraftData;
  checkComplete(deps, lang, data);
  if (d.status !== 'open') fail(deps, lang, 409, 'application.errors.submitted');
  const today = isoDay(deps.today());
  let cache = seatIdCache.get(deps.db);
  if (!cache) seatIdCache.set(deps.db, (cache = new Map()));
  const seen = new Map<string, number>();
  try {
    const confirmation = await retryOnDeadlock(() => deps.db.transaction(async (tx) => {
      // a retried attempt remembers only its own seat rows
      seen.clear();
      const acts = await tx.select().from(activities).where(and(eq(activities.providerId, s.providerId), eq(activities.programPeriodId, pp.id)));
      const claims = data.isOptedFinancialAssistance === true && pp.discountsNeedReview;
      const out: Confirmation = {
        key: d.key,
        programPeriodID: pp.id,
        programPeriod: textIn(pp, 'programPeriod', lang),
        submittedOn: today,
        emailSent: false,
        parentName: facts?.parentName ?? '',
        children: [],
      };
      const joins: { seat: number; childId: number; registrationId: number }[] = [];
      for (const child of data.children ?? []) {
        const taken: { sel: Selection; seat: number }[] = [];
        const full: { sel: Selection; seat: number }[] = [];
        for (const sel of child.selections) {
          const a = acts.find((x) => x.id === sel.activityID)!;
          const seat = await seatId(tx, cache, seen, s.providerId, a.id, seatWeek(pp, sel), a.capacity);
          // tests pause here: many submits between reading and taking still take each seat once
          await deps.hooks?.beforeSeatTake?.();
          if (await takeSeat(tx, seat, pp.capacityCheck !== 'N')) taken.push({ sel, seat });
          else full.push({ sel, seat });
        }
        let status: Status;
        let waitlist: { sel: Selection; seat: number }[] = [];
        if (!full.length) status = 'REGISTERED';
        else if (pp.capacityCheck === 'C') {
          // a full activity cannot be submitted: nothing is taken for this child
          for (const t of taken) await releaseSeat(tx, t.seat);
          taken.length = 0;
          status = 'SEATS FULL';
        } else if (data.enrollmentOption === 'N') {
          // wait until all fit: nothing taken now, every choice on the waitlist
          for (const t of taken) await releaseSeat(tx, t.seat);
          waitlist = [...taken, ...full];
          taken.length = 0;
          status = 'WAITLISTED';
        } else {
          waitlist = full;
          status = taken.length ? 'REGISTERED' : 'WAITLISTED';
        }
        if (claims && status === 'REGISTERED') status = 'PENDING';
        const name = (a: number) => textIn(acts.find((x) => x.id === a)!, 'activity', lang);
        const row: Confirmation['children'][number] = { prChildID: child.prChildID, fullName: child.childName, status, activities: [] };
        if (status !== 'SEATS FULL') {
          const [reg] = await tx
            .insert(registrations)
            .values({ providerId: s.providerId, accountId: s.accountId, programPeriodId: pp.id, childId: child.prChildID, status, registrationDate: today, submittedOn: today, isPendingApproval: status === 'PENDING', claimsDiscount: claims, draftId: d.id })
            .onConflictDoUpdate({
              target: [registrations.programPeriodId, registrations.childId],
              set: { status, registrationDate: today, submittedOn: today, isPendingApproval: status === 'PENDING', claimsDiscount: claims, draftId: d.id, accountId: s.accountId },
            })
            .returning({ id: registrations.id });
          for (const t of taken) {
            await tx.insert(seatTakes).values({ providerId: s.providerId, seatId: t.seat, registrationId: reg.id, status: 'held' });
            // enrolled now, or once the provider approves a claimed discount
            if (status === 'REGISTERED') await tx.insert(enrollments).values(enrollmentOf(s, pp, acts.find((x) => x.id === t.sel.activityID)!, t.sel, child.prChildID, today));
            row.activities.push({ activityID: t.sel.activityID, activity: name(t.sel.activityID), weekStart: t.sel.weekStart, state: 'A', entryId: null });
          }
          for (const w of waitlist) {
            joins.push({ seat: w.seat, childId: child.prChildID, registrationId: reg.id });
            row.activities.push({ activityID: w.sel.activityID, activity: name(w.sel.activityID), weekStart: w.sel.weekStart, state: 'W', entryId: null, seatId: w.seat, registrationId: reg.id });
          }
        } else {
          for (const f of full) row.activities.push({ activityID: f.sel.activityID, activity: name(f.sel.activityID), weekStart: f.sel.weekStart, state: 'FULL', entryId: null });
        }
        out.children.push(row);
      }
      // the e-mail is queued with the registration or not at all (a transactional outbox)
      const mail = facts?.mailOf(out);
      if (mail) {
        await enqueueMail(tx as unknown as Db, deps.clock, mail);
        out.emailSent = true;
      }
      // the claim is the last statement: a second submit of the same draft (a double click, a
      // retry after a lost answer) finds it submitted and rolls back what it took
      const claimed = await tx
        .update(applicationDrafts)
        .set({ status: 'submitted', step: 'submitted', submittedAt: deps.clock(), updatedAt: deps.clock(), result: out as unknown as Record<string, unknown> })
        .where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')))
        .returning({ id: applicationDrafts.id });
      if (!claimed.length) throw new AlreadySubmitted();
      // waitlist entries last, in one statement: their ids (a monotonic sequence) order each seat's
      // list. A place is counted when read; one counted the instant a submit commits can still miss an
      // earlier entry whose transaction commits a moment later, so the confirmation page counts again.
      // (Locking the seat's list until the commit would make them final at once, but it serialises
      // every waitlisted submit's commit: +2 s at p99 in bench:rush.)
      if (joins.length) {
        await tx
          .insert(waitlistEntries)
          .values(joins.map((j) => ({ providerId: s.providerId, seatId: j.seat, accountId: s.accountId, childId: j.childId, registrationId: j.registrationId, status: 'active', createdAt: deps.clock() })));
      }
      return out;
    }));
    for (const [k, id] of seen) cache.set(k, id);
    return { fresh: true, confirmation };
  } catch (err) {
    if (!(err instanceof AlreadySubmitted)) throw err;
    const [now] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, d.id));
    if (now?.status === 'submitted' && now.result) return { fresh: false, confirmation: now.result as unknown as Confirmation };
    fail(deps, lang, 409, 'application.errors.submitted');
  }
}

class AlreadySubmitted extends Error {}

/**
 * Runs a transaction again when PostgreSQL ended it to break a deadlock (two submits locking the same
 * seats in another order) or a serialization failure: it rolled back whole, so running it again is safe.
 */
async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      const code = (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
      if (i >= attempts || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * i));
    }
  }
}

/** The enrolment row of a taken choice: a week of a weekly program, a single date, or from today on. */
export function enrollmentOf(s: { providerId: number; accountId: number }, pp: ProgramRow, a: typeof activities.$inferSelect, sel: Selection, childId: number, today: string) {
  const start = isWeekly(pp) && sel.weekStart ? sel.weekStart : a.activityTypeID === 4 && sel.date ? sel.date : a.startDate > today ? a.startDate : today;
  const end = isWeekly(pp) && sel.weekStart ? addDays(sel.weekStart, 4) : a.activityTypeID === 4 && sel.date ? sel.date : null;
  return {
    providerId: s.providerId,
    accountId: s.accountId,
    childId,
    activityId: a.id,
    enrollmentDate: start,
    deEnrollDate: end,
    daysOfWeek: sel.daysOfWeek.join(','),
    weekRange: isWeekly(pp) && sel.weekStart ? `${mdy(sel.weekStart)} - ${mdy(addDays(sel.weekStart, 4))}` : null,
    status: 'A',
  };
}
