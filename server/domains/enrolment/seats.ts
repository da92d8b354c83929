// Seats and the waitlist (spec 4 enrolment and seats): a seat is taken with one conditional
// UPDATE ... WHERE taken < total inside the submit's one database call (submit_application,
// server/db/functions/submit_application.sql), so no program is overbooked whatever the concurrency, on PGlite and PostgreSQL. Capacity check modes:
// C a full activity refuses the child (SEATS FULL), W a full activity waitlists it, N no check.
// The enrolment option: Y enrols what is available and waitlists the rest; N waits until all fit.
// Waitlist places follow a monotonic sequence (the entry id), never a timestamp two requests share.
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type { Tx } from '../../db/index';
import { activities, applicationDrafts, enrollmentDates, onetimeTakes, seats, waitlistEntries } from '../../db/schema';
import { isoDay } from '../../clock';
import { dateTimeInLanguage } from '../../../src/engine/formats';
import { textIn } from '../../providerTexts';
import { fail } from '../../errors';
import { isOpenNow, isWeekly, mondayOf, seatWeek, type DraftData, type DraftRow, type Selection } from './applicationDraft';
import type { programPeriods } from '../../db/schema';
import { singleLine } from '../../inputChecks';
import { batched, callJson, prepared } from '../../db/prepared';
import { ACTIVITY_TYPE, type RegistrationStatus } from '../../../src/engine/programCodes';
import type { Confirmation } from '../../db/draftData';

type ProgramRow = typeof programPeriods.$inferSelect;

export type { Confirmation } from '../../db/draftData';

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

export async function releaseSeat(tx: Tx, id: number): Promise<void> {
  await tx.update(seats).set({ taken: sql`greatest(${seats.taken} - 1, 0)` }).where(eq(seats.id, id));
}

/**
 * Takes one seat of a single-date activity's date (its seats row has week_start the date, made with
 * the date's capacity when first taken), inside the caller's transaction: one conditional UPDATE, so
 * the last seat of a date goes to one request whatever the concurrency. Answers the seat's id, or
 * null when none is left.
 */
export async function takeDateSeat(tx: Tx, providerId: number, activityId: number, date: string, capacity: number): Promise<number | null> {
  await tx.insert(seats).values({ providerId, activityId, weekStart: date, total: capacity, taken: 0 }).onConflictDoNothing({ target: [seats.activityId, seats.weekStart] });
  const [row] = await tx
    .update(seats)
    .set({ taken: sql`${seats.taken} + 1` })
    .where(and(eq(seats.activityId, activityId), eq(seats.weekStart, date), eq(seats.providerId, providerId), sql`${seats.taken} < ${seats.total}`))
    .returning({ id: seats.id });
  return row?.id ?? null;
}

/** Releases the dates a one-time enrolment (or a calendar's flex dates) holds (its hold ended unpaid): their seats go back and the dates leave the child's plan. */
export async function releaseOneTimeTakes(tx: Tx, draftId: number): Promise<void> {
  const held = await tx
    .update(onetimeTakes)
    .set({ status: 'released' })
    .where(and(eq(onetimeTakes.draftId, draftId), eq(onetimeTakes.status, 'held')))
    .returning();
  for (const h of held) {
    await releaseSeat(tx, h.seatId);
    await tx
      .delete(enrollmentDates)
      .where(and(eq(enrollmentDates.childId, h.childId), eq(enrollmentDates.activityId, h.activityId), eq(enrollmentDates.date, h.date), eq(enrollmentDates.kind, h.kind)));
  }
}

/** The places of waitlist entries named by id or by registration and seat: the active entries before each on its seat's list, plus one. */
export async function entryPositions(deps: Pick<AppDeps, 'db'>, ids: number[], regs: number[] = []): Promise<{ byId: Map<number, number>; byRegSeat: Map<string, number> }> {
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
    const best = out.get(k);
    if (best === undefined || r.place < best) out.set(k, r.place);
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
  if (!kids.length) fail({ deps, lang }, 400, 'application.errors.noChildren');
  for (const c of kids) {
    if (!c.selections.length) fail({ deps, lang }, 400, 'application.errors.noActivity');
    for (const s of c.selections) {
      if (s.activityTypeID === ACTIVITY_TYPE.selectableDays && !s.daysOfWeek.length) fail({ deps, lang }, 400, 'application.errors.daysRequired');
      if (s.daysPerWeek && s.daysOfWeek.length > s.daysPerWeek) fail({ deps, lang }, 400, 'application.errors.tooManyDays', { count: s.daysPerWeek });
      if (s.activityTypeID === ACTIVITY_TYPE.singleDate && !s.date) fail({ deps, lang }, 400, 'application.errors.dateRequired');
    }
  }
  if (data.enrollmentOption !== 'Y' && data.enrollmentOption !== 'N') fail({ deps, lang }, 400, 'application.errors.optionRequired');
  if (data.isOptedFinancialAssistance && !(data.agencies ?? []).length) fail({ deps, lang }, 400, 'application.errors.agencyRequired');
}

/** What the submit needs of the signed-in parent: her name and the confirmation e-mail's parts (null: no address). */
export interface SubmitFacts {
  parentName: string;
  mail: {
    providerId: number;
    kind: string;
    to: string;
    from: string;
    subject: string;
    /** the text before the children's lines and after them */
    before: string;
    after: string;
    line: (childName: string, status: RegistrationStatus) => string;
  } | null;
}

/** What the submit needs of a program's activities. */
export type SubmitActivity = Pick<typeof activities.$inferSelect, 'id' | 'activity' | 'translations' | 'activityTypeID' | 'startDate' | 'capacity'>;

const STATUSES: RegistrationStatus[] = ['REGISTERED', 'WAITLISTED', 'SEATS FULL', 'PENDING'];

/**
 * Submits a draft once: a second call (a double click, a retry after a lost answer) gets the first
 * confirmation. Everything is decided and written by the database function submit_application
 * (server/db/functions/submit_application.sql): it takes the seats, writes registrations, enrolments, the confirmation
 * e-mail and waitlist entries, and claims the draft (open -> submitted) last, so a second submit of
 * the same draft rolls back whole. The submits of one moment go to the database in one call and one
 * transaction (submit_applications; `submitTogether`), which keeps a registration rush fast:
 * one round trip and one commit per batch. What is not decided there (names in the parent's
 * language, the enrolment rows, the e-mail's texts per status) is prepared here.
 */
export async function submitApplication(
  deps: AppDeps,
  s: SessionInfo,
  d: DraftRow,
  pp: ProgramRow,
  acts: SubmitActivity[],
  lang: string,
  facts?: SubmitFacts,
): Promise<{ fresh: boolean; confirmation: Confirmation }> {
  if (d.status === 'submitted' && d.result) return { fresh: false, confirmation: d.result };
  if (!isOpenNow(deps, pp)) {
    if (pp.registrationStartAt && pp.registrationStartAt > deps.today()) fail({ deps, lang }, 409, 'application.errors.notOpen', { date: `${dateTimeInLanguage(pp.registrationStartAt.toISOString().slice(0, 16), lang)} UTC` });
    fail({ deps, lang }, 409, 'application.errors.closed');
  }
  const data = d.data;
  checkComplete(deps, lang, data);
  if (d.status !== 'open') fail({ deps, lang }, 409, 'application.errors.submitted');
  const today = isoDay(deps.today());
  const mail = facts?.mail;
  const now = deps.clock();
  const payload = {
    key: d.key,
    providerId: s.providerId,
    accountId: s.accountId,
    programPeriodId: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    draftId: d.id,
    today,
    now: now.toISOString(),
    capacityCheck: pp.capacityCheck,
    enrollmentOption: data.enrollmentOption,
    claims: data.isOptedFinancialAssistance === true && pp.discountsNeedReview,
    parentName: facts?.parentName ?? '',
    pauseSeconds: deps.hooks?.pauseBeforeSeatTakeMs ? deps.hooks.pauseBeforeSeatTakeMs / 1000 : 0,
    // without a mail the key is left out: a JSON null is not SQL's NULL to submit_application
    ...(mail ? { mail: { kind: mail.kind, to: singleLine(mail.to), from: singleLine(mail.from), subject: singleLine(mail.subject), before: mail.before, after: mail.after } } : {}),
    children: (data.children ?? []).map((child) => ({
      prChildID: child.prChildID,
      childName: child.childName,
      lines: mail ? Object.fromEntries(STATUSES.map((st) => [st, mail.line(child.childName, st)])) : {},
      selections: child.selections.map((sel) => {
        const a = acts.find((x) => x.id === sel.activityID);
        // checkComplete and the enrolment step only keep the program's activities; a draft naming another is refused
        if (!a) fail({ deps, lang }, 400, 'application.errors.noActivity');
        return {
          activityID: a.id,
          activity: textIn(a, 'activity', lang),
          weekStart: sel.weekStart ?? null,
          seatWeek: seatWeek(pp, sel),
          capacity: a.capacity,
          enrollment: enrollmentOf(s, pp, a, sel, child.prChildID, today),
        };
      }),
    })),
  };
  try {
    const { confirmation } = await retryOnDeadlock(() => submitTogether(deps)(payload));
    return { fresh: true, confirmation };
  } catch (err) {
    if (errorCode(err) !== 'PPA01') throw err;
    const [again] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, d.id));
    if (again?.status === 'submitted' && again.result) return { fresh: false, confirmation: again.result };
    fail({ deps, lang }, 409, 'application.errors.submitted');
  }
}

const codeOf = (x: unknown): string | undefined => (typeof x === 'object' && x !== null && 'code' in x && typeof x.code === 'string' ? x.code : undefined);
const errorCode = (err: unknown): string | undefined => codeOf(err) ?? (typeof err === 'object' && err !== null && 'cause' in err ? codeOf(err.cause) : undefined);

/** Submits per database call at most: a batch is one transaction, so its seat rows stay locked until all of it commits. */
export const SUBMIT_BATCH = 50;

type SubmitOutcome = { ok: { confirmation: Confirmation } } | { error: string; message: string };

/**
 * The submits of one moment in one call of submit_applications (server/db/functions/submit_applications.sql): one round trip and
 * one commit for the batch, each submit in a block of its own (its error rolls back only its work).
 * A submit's error comes back as a database error with its SQLSTATE (PPA01: submitted already;
 * 40P01: a deadlock, tried again).
 */
function submitTogether(deps: AppDeps): (payload: object) => Promise<{ confirmation: Confirmation }> {
  const call = prepared(deps.db, 'submit_applications', (db) =>
    batched<object, SubmitOutcome>(
      (payloads) => callJson<SubmitOutcome[]>(db, 'submit_applications', 'submit_applications', payloads),
      () => deps.hooks?.submitBatch ?? SUBMIT_BATCH,
    ),
  );
  return async (payload) => {
    const outcome = await call(payload);
    if ('ok' in outcome) return outcome.ok;
    throw Object.assign(new Error(outcome.message), { code: outcome.error });
  };
}

/**
 * Runs a submit again when PostgreSQL ended it to break a deadlock (two submits locking the same
 * seats in another order) or a serialization failure: its work rolled back whole, so running it again
 * is safe.
 */
async function retryOnDeadlock<T>(run: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await run();
    } catch (err) {
      const code = errorCode(err);
      if (i >= attempts || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * i));
    }
  }
}

/** The enrolment row of a taken choice: a week of a weekly program, a single date, or from today on. */
export function enrollmentOf(s: { providerId: number; accountId: number }, pp: ProgramRow, a: Pick<typeof activities.$inferSelect, 'id' | 'activityTypeID' | 'startDate'>, sel: Selection, childId: number, today: string) {
  const start = isWeekly(pp) && sel.weekStart ? sel.weekStart : a.activityTypeID === ACTIVITY_TYPE.singleDate && sel.date ? sel.date : a.startDate > today ? a.startDate : today;
  const end = isWeekly(pp) && sel.weekStart ? addDays(sel.weekStart, 4) : a.activityTypeID === ACTIVITY_TYPE.singleDate && sel.date ? sel.date : null;
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
