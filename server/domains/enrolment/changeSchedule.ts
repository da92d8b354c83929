// A parent's change of schedule (spec 2.1 /changeschedule, 2.11, 4 enrolment and seats, 5.5, 8.2, 9
// application type 4): a request kept on the server under its random hex key (one open request per
// account and program; the parent continues on any device), per enrolled child a new schedule at a
// site or 'No change required', an effective date by the provider's policy (provider.json
// changeSchedule, rules/changeSchedule.rules.json), what it costs (src/engine/changeSchedule.ts, by
// the billing rule of src/engine/billing.ts), then a submit that in one transaction takes the new
// schedule's seats (a conditional UPDATE ... WHERE taken < total per seat: a change whose seats went
// meanwhile is refused whole with spec 8.2's message and nothing is charged), counts the account's
// changes for the free ones (the account's row locked, so two submits at once count each other) and
// posts the change fee and a settled difference to the ledger. The change then waits for the provider
// (`npm run provider -- changes list|approve|reject`) when the program does not let parents change
// enrolment, and is applied on its effective date by the job changes.apply: the old schedule's
// enrolments end the day before, the new ones start on it, and the seats of the activities the child
// leaves go back then, not before. Every id is checked against the signed-in account and provider.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Db, DbOrTx, Tx } from '../../db/index';
import { accounts, activities, changeRequests, children, enrollments, invoiceLines, invoices, ledgerEntries, programPeriods, providers, registrations, seats, seatTakes, servicePeriods, sites, type ChangeData } from '../../db/schema';
import { isoDay } from '../../clock';
import { fail } from '../../errors';
import { textIn } from '../../providerTexts';
import { addDays, withChildOrder, type BillableEnrolment } from '../../../src/engine/billing';
import {
  allowedEffectiveDates,
  changeAppliesItself,
  changeCost,
  changeFeeCents,
  earliestEffectiveDate,
  effectiveDateProblem,
  periodHolding,
  type ChangeCost,
  type ChangePolicy,
  type NewScheduleItem,
} from '../../../src/engine/changeSchedule';
import { dateInLanguage } from '../../../src/engine/formats';
import { ACTIVITY_TYPE } from '../../../src/engine/programCodes';
import { accountMoney } from '../billing/ledger';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { moneyText } from '../../../src/engine/money';
import { activitiesOf } from './applicationDraft';
import { seatAvailability } from './seats';
import { addWeeksRequest } from './addWeeks';
import { accountHolders } from './holders';
import type { SessionInfo } from '../../auth';
import type { RuleSet } from '../../../src/engine/logic';

export type ChangeRow = typeof changeRequests.$inferSelect;
type ProgramRow = typeof programPeriods.$inferSelect;
type Owner = { providerId: number; accountId: number };
type Deps = Pick<AppDeps, 'db' | 'clock' | 'today' | 't' | 'settings' | 'declarations'> & { mailQueued?: () => void };

/** the seat of an activity that is not weekly (seats.week_start) */
const NOT_WEEKLY = '1900-01-01';
/** how many effective dates the picker offers */
const EFFECTIVE_DATES_OFFERED = 12;
/** the states of a submitted change that count among the account's changes (a rejected one does not) */
const COUNTED = ['waiting', 'scheduled', 'applied'];

const codes = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** The provider's app name, policy, billing settings, program options and effective rules. */
async function providerFacts(deps: Deps, providerId: number, lang: string, db: DbOrTx = deps.db) {
  const [p] = await db.select({ appName: providers.appName, programOptions: providers.programOptions }).from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!p || !decl) return fail({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  const settings = deps.settings(p.appName);
  return { appName: p.appName, policy: settings.changeSchedule, billing: settings.billing, rules: decl.set.rules as RuleSet, canParentChangeEnrollment: p.programOptions.canParentChangeEnrollment === true };
}

async function programOf(deps: Deps, s: Owner, id: number, lang: string, db: DbOrTx = deps.db): Promise<ProgramRow> {
  const [pp] = await db.select().from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, s.providerId)));
  if (!pp || pp.category === 'summerCamp') fail({ deps, lang }, 404, 'application.errors.change.notFound');
  return pp;
}

/** The account's children registered in the program, with their names. */
async function registeredChildren(db: DbOrTx, s: Owner, programPeriodId: number) {
  return db
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName, birth: children.dateOfBirth, registrationId: registrations.id })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId), eq(registrations.programPeriodId, programPeriodId), eq(registrations.status, 'REGISTERED')))
    .orderBy(asc(children.dateOfBirth), asc(children.id));
}

/** The program's activities a schedule may hold: by the period, not one-time, not a single date. */
async function scheduleActivities(db: DbOrTx, providerId: number, programPeriodId: number) {
  return db
    .select()
    .from(activities)
    .where(and(eq(activities.providerId, providerId), eq(activities.programPeriodId, programPeriodId), eq(activities.isOneTime, false), sql`${activities.activityTypeID} <> ${ACTIVITY_TYPE.singleDate}`))
    .orderBy(asc(activities.id));
}

/** The account's enrolments in the program's schedule activities that are in force on or after `from`. */
async function enrolmentsFrom(db: DbOrTx, s: Owner, programPeriodId: number, from: string) {
  return db
    .select({ e: enrollments, a: activities })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .where(
      and(
        eq(enrollments.providerId, s.providerId),
        eq(enrollments.accountId, s.accountId),
        eq(activities.programPeriodId, programPeriodId),
        eq(enrollments.status, 'A'),
        eq(activities.isOneTime, false),
        sql`${activities.activityTypeID} <> ${ACTIVITY_TYPE.singleDate}`,
        or(isNull(enrollments.deEnrollDate), gte(enrollments.deEnrollDate, from)),
      ),
    )
    .orderBy(asc(enrollments.id));
}

/** The account's request under this key (any other account's or provider's key is not found). */
export async function changeOf(deps: Pick<Deps, 'db' | 't'>, s: Owner, key: string, lang: string): Promise<ChangeRow> {
  const [r] = await deps.db.select().from(changeRequests).where(and(eq(changeRequests.key, key), eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId)));
  if (!r || r.status === 'discarded') fail({ deps, lang }, 404, 'application.errors.change.notFound');
  return r;
}

/** A change of schedule under this key: an add-weeks request's key (server/domains/enrolment/addWeeks.ts) is not one. */
async function scheduleChangeOf(deps: Pick<Deps, 'db' | 't'>, s: Owner, key: string, lang: string): Promise<ChangeRow> {
  const r = await changeOf(deps, s, key, lang);
  if (r.data.addWeeks) fail({ deps, lang }, 404, 'application.errors.change.notFound');
  return r;
}

/**
 * Starts a change of the account's schedule in a program (or answers its open one): every child
 * registered in it at the site of the schedule in force, no choice made yet, the earliest effective
 * date the policy allows.
 */
export async function startChange(deps: Deps, s: Owner, programPeriodId: number, lang: string): Promise<ChangeRow> {
  const pp = await programOf(deps, s, programPeriodId, lang);
  const kids = await registeredChildren(deps.db, s, pp.id);
  if (!kids.length) fail({ deps, lang }, 404, 'application.errors.change.notFound');
  const [open] = await deps.db
    .select()
    .from(changeRequests)
    .where(and(eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId), eq(changeRequests.programPeriodId, pp.id), eq(changeRequests.status, 'open')));
  if (open) return open;
  const f = await providerFacts(deps, s.providerId, lang);
  const today = isoDay(deps.today());
  const earliest = earliestEffectiveDate(f.rules, f.policy, today, { start: pp.startDate, end: pp.endDate });
  if (!earliest) fail({ deps, lang }, 409, 'application.errors.change.noneLeft');
  const now = deps.clock();
  // each child's site starts as the one of the schedule in force (the change-site dialog changes it)
  const inForce = await enrolmentsFrom(deps.db, s, pp.id, earliest);
  const siteOf = (childId: number) => inForce.find((x) => x.e.childId === childId && x.e.enrollmentDate <= earliest)?.a.siteId ?? null;
  const data: ChangeData = { children: kids.map((k) => ({ prChildID: k.id, noChange: false, siteID: siteOf(k.id), selections: [] })), effectiveDate: earliest };
  const [row] = await deps.db
    .insert(changeRequests)
    .values({ key: randomBytes(16).toString('hex'), providerId: s.providerId, accountId: s.accountId, programPeriodId: pp.id, data, effectiveDate: earliest, createdAt: now, updatedAt: now })
    .returning();
  return row;
}

/** The request's choices checked against the program and the account (unknown ids are refused). */
/** The parent's choices as sent: a child with 'No change required' may come without site and schedule (the form hides them). */
export interface ChangeInput {
  children?: { prChildID: number; noChange: boolean; siteID?: number | null; selections?: { activityID: number; daysOfWeek: string[] }[] }[];
  effectiveDate?: string | null;
}

async function checkedData(deps: Deps, s: Owner, r: ChangeRow, given: ChangeInput, lang: string): Promise<ChangeData> {
  const kids = await registeredChildren(deps.db, s, r.programPeriodId);
  const acts = await scheduleActivities(deps.db, s.providerId, r.programPeriodId);
  const siteIDs = new Set(acts.map((a) => a.siteId));
  const seen = new Set<number>();
  const rows = (given.children ?? []).map((given) => {
    const c = { ...given, siteID: given.siteID ?? null, selections: given.selections ?? [] };
    if (!kids.some((k) => k.id === c.prChildID) || seen.has(c.prChildID)) fail({ deps, lang }, 404, 'application.errors.change.notFound');
    seen.add(c.prChildID);
    if (c.siteID !== null && !siteIDs.has(c.siteID)) fail({ deps, lang }, 404, 'application.errors.change.notFound');
    const picked = new Set<number>();
    const selections = c.noChange
      ? []
      : c.selections.map((sel) => {
          const a = acts.find((x) => x.id === sel.activityID && (c.siteID === null || x.siteId === c.siteID));
          if (!a || picked.has(a.id)) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
          picked.add(a.id);
          const offered = codes(a.daysOfWeek);
          const days = [...new Set(sel.daysOfWeek)];
          if (days.some((d) => !offered.includes(d))) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
          if (a.activityTypeID !== ACTIVITY_TYPE.selectableDays) return { activityID: a.id, daysOfWeek: offered };
          if (days.length > a.daysPerWeek) fail({ deps, lang }, 400, 'application.errors.tooManyDays', { count: a.daysPerWeek });
          return { activityID: a.id, daysOfWeek: offered.filter((d) => days.includes(d)) };
        });
    return { prChildID: c.prChildID, noChange: c.noChange === true, siteID: c.siteID, selections };
  });
  // a child the parent left out stays in the request, undecided
  for (const k of kids) if (!seen.has(k.id)) rows.push({ prChildID: k.id, noChange: false, siteID: null, selections: [] });
  return { children: rows, effectiveDate: given.effectiveDate ?? r.effectiveDate };
}

/** Why an effective date cannot be taken, as the 400 the parent reads (nothing when it can). */
function checkEffectiveDate(deps: Pick<Deps, 't'>, lang: string, rules: RuleSet, policy: ChangePolicy, today: string, pp: ProgramRow, date: string): void {
  const program = { start: pp.startDate, end: pp.endDate };
  const problem = effectiveDateProblem(rules, policy, today, date, program);
  if (!problem) return;
  const earliest = earliestEffectiveDate(rules, policy, today, program);
  if (!earliest) fail({ deps, lang }, 409, 'application.errors.change.noneLeft');
  const params = { days: policy.minimumNoticeDays, date: dateInLanguage(earliest, lang) };
  if (problem === 'notice') fail({ deps, lang }, 400, 'application.errors.change.notice', params);
  if (problem === 'program') fail({ deps, lang }, 400, 'application.errors.change.outsideProgram');
  fail({ deps, lang }, 400, 'application.errors.change.effectiveDay', params);
}

/** Saves the parent's choices (open requests only): per child a schedule at a site or no change, and the effective date. */
export async function saveChange(deps: Deps, s: Owner, key: string, given: ChangeInput, lang: string): Promise<ChangeRow> {
  const r = await scheduleChangeOf(deps, s, key, lang);
  if (r.status !== 'open') fail({ deps, lang }, 409, 'application.errors.change.submitted');
  const data = await checkedData(deps, s, r, given, lang);
  if (data.effectiveDate && data.effectiveDate !== r.effectiveDate) {
    const f = await providerFacts(deps, s.providerId, lang);
    const pp = await programOf(deps, s, r.programPeriodId, lang);
    checkEffectiveDate(deps, lang, f.rules, f.policy, isoDay(deps.today()), pp, data.effectiveDate);
  }
  const [row] = await deps.db
    .update(changeRequests)
    .set({ data, effectiveDate: data.effectiveDate ?? null, updatedAt: deps.clock() })
    .where(and(eq(changeRequests.id, r.id), eq(changeRequests.status, 'open')))
    .returning();
  if (!row) fail({ deps, lang }, 409, 'application.errors.change.submitted');
  return row;
}

/** The account's changes that count for the free ones: in the program, or in the effective date's service period. */
async function changesInPeriod(db: DbOrTx, s: Owner, pp: ProgramRow, policy: ChangePolicy, effectiveDate: string): Promise<number> {
  const scope =
    policy.freeChangesPer === 'servicePeriod'
      ? (() => {
          const held = periodHolding({ start: pp.startDate, end: pp.endDate }, pp.billingCycle, effectiveDate);
          return held ? and(gte(changeRequests.effectiveDate, held.period.start), lte(changeRequests.effectiveDate, held.period.end)) : undefined;
        })()
      : undefined;
  const [n] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(changeRequests)
    .where(and(eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId), eq(changeRequests.programPeriodId, pp.id), inArray(changeRequests.status, COUNTED), scope));
  return n?.n ?? 0;
}

export interface ChangeQuote {
  effectiveDate: string;
  earliestEffectiveDate: string | null;
  appliesItself: boolean;
  /** the account's changes already counted in the period, before this one */
  changesInPeriod: number;
  /** per changed child, and the whole change (the fee and the credit once) */
  children: { prChildID: number; cost: ChangeCost }[];
  total: ChangeCost;
}

/** What the request costs by its choices now (the same computation the submit posts). */
async function quoteIn(db: DbOrTx, deps: Deps, s: Owner, r: ChangeRow, data: ChangeData, lang: string): Promise<ChangeQuote> {
  const f = await providerFacts(deps, s.providerId, lang, db);
  const pp = await programOf(deps, s, r.programPeriodId, lang, db);
  const today = isoDay(deps.today());
  const program = { start: pp.startDate, end: pp.endDate };
  const earliest = earliestEffectiveDate(f.rules, f.policy, today, program);
  const effectiveDate = data.effectiveDate ?? earliest;
  if (!effectiveDate) return fail({ deps, lang }, 409, 'application.errors.change.noneLeft');
  const held = periodHolding(program, pp.billingCycle, effectiveDate);
  if (!held) return fail({ deps, lang }, 400, 'application.errors.change.outsideProgram');
  const kids = await registeredChildren(db, s, pp.id);
  const birth = new Map(kids.map((k) => [k.id, k.birth]));
  const acts = await scheduleActivities(db, s.providerId, pp.id);
  const inForce = (await enrolmentsFrom(db, s, pp.id, held.period.start)).filter((x) => x.e.enrollmentDate <= held.period.end);
  const billable = (x: (typeof inForce)[number]): Omit<BillableEnrolment, 'childOrder'> => ({
    enrollmentId: x.e.id,
    childId: x.e.childId,
    activityId: x.e.activityId,
    enrollmentDate: x.e.enrollmentDate,
    deEnrollDate: x.e.deEnrollDate,
    daysOfWeek: x.e.daysOfWeek,
    activity: { feeType: x.a.feeType, feeCents: x.a.feeCents, siblingFeeCents: x.a.siblingFeeCents, feesBySP: x.a.feesBySP, startDate: x.a.startDate, endDate: x.a.endDate, daysOfWeek: x.a.daysOfWeek },
  });
  const before = withChildOrder(inForce.map(billable), birth);
  const changed = (data.children ?? []).filter((c) => !c.noChange && c.selections.length);
  const changedIds = new Set(changed.map((c) => c.prChildID));
  // the children's order per activity after the change (the sibling fee follows it)
  const afterList = [
    ...inForce.filter((x) => !changedIds.has(x.e.childId)).map(billable),
    ...changed.flatMap((c) =>
      c.selections.map((sel, i) => {
        const a = acts.find((x) => x.id === sel.activityID)!;
        return {
          enrollmentId: -(c.prChildID * 1000 + i + 1),
          childId: c.prChildID,
          activityId: a.id,
          enrollmentDate: effectiveDate,
          deEnrollDate: null,
          daysOfWeek: sel.daysOfWeek.join(','),
          activity: { feeType: a.feeType, feeCents: a.feeCents, siblingFeeCents: a.siblingFeeCents, feesBySP: a.feesBySP, startDate: a.startDate, endDate: a.endDate, daysOfWeek: a.daysOfWeek },
        };
      }),
    ),
  ];
  const after = withChildOrder(afterList, birth);
  const changesMade = await changesInPeriod(db, s, pp, f.policy, effectiveDate);
  const fee = changed.length ? changeFeeCents(f.rules, f.policy, changesMade) : 0;
  const [sp] = await db
    .select({ id: servicePeriods.id })
    .from(servicePeriods)
    .where(and(eq(servicePeriods.providerId, s.providerId), eq(servicePeriods.programPeriodId, pp.id), eq(servicePeriods.startDate, held.period.start)));
  const [invoiced] = sp
    ? await db.select({ id: invoices.id }).from(invoices).where(and(eq(invoices.providerId, s.providerId), eq(invoices.accountId, s.accountId), eq(invoices.servicePeriodDetailID, sp.id)))
    : [];
  const holidays = new Set((f.billing?.holidays ?? []).map((h) => h.date));
  const provider = { prorate: f.billing?.prorate ?? true };
  const credit = (await accountMoney(db, s.providerId, s.accountId, today)).creditCents;
  const costOf = (childIds: Set<number>, changeFee: number, creditCents: number) =>
    changeCost(f.rules, {
      effectiveDate,
      period: held.period,
      nextPeriod: held.next,
      current: before.filter((e) => childIds.has(e.childId)),
      next: after.filter((e) => childIds.has(e.childId) && e.enrollmentId < 0).map(({ enrollmentDate: _from, deEnrollDate: _to, ...item }) => item satisfies NewScheduleItem),
      holidays,
      provider,
      periodInvoiced: Boolean(invoiced),
      changeFeeCents: changeFee,
      creditCents,
    });
  return {
    effectiveDate,
    earliestEffectiveDate: earliest,
    appliesItself: changeAppliesItself(f.rules, f.canParentChangeEnrollment),
    changesInPeriod: changesMade,
    children: changed.map((c) => ({ prChildID: c.prChildID, cost: costOf(new Set([c.prChildID]), 0, 0) })),
    total: costOf(changedIds, fee, credit),
  };
}

/** What the request costs by its current choices (shown before sending). */
export async function quoteChange(deps: Deps, s: Owner, key: string, lang: string): Promise<ChangeQuote> {
  const r = await scheduleChangeOf(deps, s, key, lang);
  return quoteIn(deps.db, deps, s, r, r.data, lang);
}

/** Each child has a new schedule at a site or 'No change required', and at least one has a change (spec 5.5). */
async function checkComplete(deps: Deps, s: Owner, r: ChangeRow, lang: string): Promise<void> {
  const kids = await registeredChildren(deps.db, s, r.programPeriodId);
  const rows = r.data.children ?? [];
  for (const k of kids) {
    const c = rows.find((x) => x.prChildID === k.id);
    const name = `${k.firstName} ${k.lastName}`;
    if (!c || (!c.noChange && !c.selections.length)) fail({ deps, lang }, 400, 'application.errors.change.childChoice', { name });
    if (!c.noChange && c.siteID === null) fail({ deps, lang }, 400, 'application.errors.change.siteRequired');
  }
  if (!rows.some((c) => !c.noChange && c.selections.length)) fail({ deps, lang }, 400, 'application.errors.change.nothingChanged');
}

/** The seat row of an activity (made on first use with its capacity). */
async function seatOf(tx: Tx, providerId: number, a: { id: number; capacity: number }): Promise<number> {
  await tx.insert(seats).values({ providerId, activityId: a.id, weekStart: NOT_WEEKLY, total: a.capacity, taken: 0 }).onConflictDoNothing({ target: [seats.activityId, seats.weekStart] });
  const [row] = await tx.select({ id: seats.id }).from(seats).where(and(eq(seats.activityId, a.id), eq(seats.weekStart, NOT_WEEKLY)));
  return row.id;
}

/** Test hooks: a pause between reading a seat and taking it (many submits meet there). */
export const changeHooks: { pauseBeforeSeatTakeMs?: number } = {};

/**
 * Sends the request once: its seats, its charges and its state in one transaction. A second call
 * answers the request as sent. Refused: incomplete, before the notice or on a day changes do not take
 * effect, a seat of the new schedule gone (409, 'seats unavailable for the changed schedule', nothing
 * taken or charged). A change that applies itself and whose effective date has come is applied at once.
 */
export async function submitChange(deps: Deps, s: Owner, key: string, lang: string): Promise<ChangeRow> {
  const r = await scheduleChangeOf(deps, s, key, lang);
  if (r.status !== 'open') return r;
  await checkComplete(deps, s, r, lang);
  const f = await providerFacts(deps, s.providerId, lang);
  const pp = await programOf(deps, s, r.programPeriodId, lang);
  const today = isoDay(deps.today());
  if (!r.effectiveDate) return fail({ deps, lang }, 400, 'application.errors.change.outsideProgram');
  checkEffectiveDate(deps, lang, f.rules, f.policy, today, pp, r.effectiveDate);
  const effectiveDate = r.effectiveDate;
  let mailed = false;
  const sent = await deps.db.transaction(async (tx) => {
    // the account's submits one after another: each counts the changes the one before made
    await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, s.accountId)).for('update');
    const [again] = await tx.select().from(changeRequests).where(eq(changeRequests.id, r.id)).for('update');
    if (!again || again.status !== 'open') return again;
    const quote = await quoteIn(tx, deps, s, again, again.data, lang);
    const acts = await scheduleActivities(tx, s.providerId, pp.id);
    const kids = await registeredChildren(tx, s, pp.id);
    const current = await enrolmentsFrom(tx, s, pp.id, effectiveDate);
    for (const c of again.data.children ?? []) {
      if (c.noChange || !c.selections.length) continue;
      const has = new Set(current.filter((x) => x.e.childId === c.prChildID).map((x) => x.e.activityId));
      const registrationId = kids.find((k) => k.id === c.prChildID)!.registrationId;
      for (const sel of c.selections) {
        if (has.has(sel.activityID)) continue;
        const a = acts.find((x) => x.id === sel.activityID)!;
        const seat = await seatOf(tx, s.providerId, a);
        if (changeHooks.pauseBeforeSeatTakeMs) await new Promise((res) => setTimeout(res, changeHooks.pauseBeforeSeatTakeMs));
        const took = await tx
          .update(seats)
          .set({ taken: sql`${seats.taken} + 1` })
          .where(and(eq(seats.id, seat), pp.capacityCheck === 'N' ? undefined : sql`${seats.taken} < ${seats.total}`))
          .returning({ id: seats.id });
        if (!took.length) fail({ deps, lang }, 409, 'application.errors.change.seatsUnavailable');
        await tx.insert(seatTakes).values({ providerId: s.providerId, seatId: seat, registrationId, changeRequestId: again.id });
      }
    }
    const t = quote.total;
    const now = deps.clock();
    const entries: (typeof ledgerEntries.$inferInsert)[] = [];
    const what = textIn(pp, 'programPeriod', 'en');
    if (t.changeFeeCents > 0) entries.push({ providerId: s.providerId, accountId: s.accountId, kind: 'CHARGE', amountCents: t.changeFeeCents, entryDate: today, dueDate: today, description: `${what}: schedule change fee`, createdAt: now });
    const settled = t.differenceSettledNow ? t.differenceCents : 0;
    if (settled > 0) entries.push({ providerId: s.providerId, accountId: s.accountId, kind: 'CHARGE', amountCents: settled, entryDate: today, dueDate: today, description: `${what}: schedule change from ${effectiveDate}`, createdAt: now });
    if (settled < 0) entries.push({ providerId: s.providerId, accountId: s.accountId, kind: 'CREDIT', amountCents: -settled, entryDate: today, description: `${what}: schedule change from ${effectiveDate}`, createdAt: now });
    if (entries.length) await tx.insert(ledgerEntries).values(entries);
    const [row] = await tx
      .update(changeRequests)
      .set({
        status: quote.appliesItself ? 'scheduled' : 'waiting',
        cost: quote as unknown as Record<string, unknown>,
        changeFeeCents: t.changeFeeCents,
        chargedCents: t.changeFeeCents + Math.max(0, settled),
        creditedCents: Math.max(0, -settled),
        amountDueCents: t.amountDueCents,
        appliesItself: quote.appliesItself,
        // the business day it was sent on (the report and the confirmation show it)
        submittedAt: deps.today(),
        updatedAt: now,
      })
      .where(and(eq(changeRequests.id, again.id), eq(changeRequests.status, 'open')))
      .returning();
    if (row) mailed = await confirmationMail(deps, tx, s, row, pp, lang);
    return row;
  });
  if (mailed) deps.mailQueued?.();
  if (sent.status === 'scheduled' && sent.effectiveDate && sent.effectiveDate <= today) await applyChange(deps, sent.id);
  const [now] = await deps.db.select().from(changeRequests).where(eq(changeRequests.id, sent.id));
  return now;
}

/**
 * The confirmation e-mail of a sent change (spec 2.11 confirmation, e-mail), in the sender's
 * language, to the primary account holder's sign-in address and address on file, and in the
 * account's Emails/Texts history, in the submit's transaction: each child's new schedule or no
 * change, when it takes effect or that it waits for the provider, the fee and what is due now.
 */
async function confirmationMail(deps: Deps, tx: Tx, s: Owner, r: ChangeRow, pp: ProgramRow, lang: string): Promise<boolean> {
  const [p] = await tx.select().from(providers).where(eq(providers.id, s.providerId));
  const { holders, to } = await accountHolders(tx, s.providerId, s.accountId);
  if (!p || !to.length) return false;
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `mail.changeSubmitted.${key}`, params);
  const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
  const kids = await registeredChildren(tx, s, pp.id);
  const acts = await scheduleActivities(tx, s.providerId, pp.id);
  const siteRows = await tx.select().from(sites).where(eq(sites.providerId, s.providerId));
  const program = textIn(pp, 'programPeriod', lang);
  const date = r.effectiveDate ? dateInLanguage(r.effectiveDate, lang) : '';
  const holder = holders[0];
  const lines = [
    t('greeting', { name: holder ? `${holder.firstName} ${holder.lastName}` : '' }),
    '',
    t(r.status === 'waiting' ? 'waiting' : 'scheduled', { program, date }),
    '',
    ...(r.data.children ?? []).map((c) => {
      const k = kids.find((x) => x.id === c.prChildID);
      const child = k ? `${k.firstName} ${k.lastName}` : '';
      if (c.noChange || !c.selections.length) return t('noChange', { child });
      const schedule = c.selections
        .map((sel) => {
          const a = acts.find((x) => x.id === sel.activityID);
          const site = siteRows.find((x) => x.id === a?.siteId);
          return a ? `${textIn(a, 'activity', lang)}${site ? ` (${textIn(site, 'siteName', lang)})` : ''} ${sel.daysOfWeek.join(', ')}` : '';
        })
        .join('; ');
      return t('child', { child, schedule });
    }),
    '',
    ...(r.changeFeeCents > 0 ? [t('fee', { amount: fmt(r.changeFeeCents) })] : []),
    r.amountDueCents > 0 ? t('due', { amount: fmt(r.amountDueCents) }) : t('nothingDue'),
    '',
    t('footer', { organisation: p.organisation }),
  ];
  const subject = t('subject', { program });
  for (const address of to) {
    await enqueueMail(tx, deps.clock, { providerId: s.providerId, kind: 'change-submitted', to: address, from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`, subject, text: lines.join('\n') });
  }
  await recordInHistory(tx, deps.today(), { providerId: s.providerId, accountId: s.accountId, subject, text: lines.join('\n'), from: p.programName });
  return true;
}

/** Discards an open request (the exit bar's 'return'): its key is not found any more. */
export async function discardChange(deps: Deps, s: Owner, key: string, lang: string): Promise<void> {
  const r = await changeOf(deps, s, key, lang);
  if (r.status !== 'open') fail({ deps, lang }, 409, 'application.errors.change.submitted');
  await deps.db.update(changeRequests).set({ status: 'discarded', updatedAt: deps.clock() }).where(and(eq(changeRequests.id, r.id), eq(changeRequests.status, 'open')));
}

/** Releases one held seat take (and its seat). */
async function releaseTakes(tx: Tx, takes: { id: number; seatId: number }[]): Promise<number> {
  let n = 0;
  for (const take of takes) {
    const moved = await tx.update(seatTakes).set({ status: 'released' }).where(and(eq(seatTakes.id, take.id), eq(seatTakes.status, 'held'))).returning({ id: seatTakes.id });
    if (!moved.length) continue;
    await tx.update(seats).set({ taken: sql`greatest(${seats.taken} - 1, 0)` }).where(eq(seats.id, take.seatId));
    n++;
  }
  return n;
}

/**
 * Applies a scheduled change whose effective date has come, once (a conditional UPDATE claims it):
 * each changed child's enrolments in the program end the day before the effective date (those
 * starting on or after it are replaced), the new schedule's start on it, and the seats the child held
 * in activities it leaves are released.
 */
export async function applyChange(deps: Pick<Deps, 'db' | 'clock' | 'today'>, id: number): Promise<boolean> {
  const today = isoDay(deps.today());
  return deps.db.transaction(async (tx) => {
    const [r] = await tx
      .update(changeRequests)
      .set({ status: 'applied', appliedAt: deps.clock(), updatedAt: deps.clock() })
      .where(and(eq(changeRequests.id, id), eq(changeRequests.status, 'scheduled'), lte(changeRequests.effectiveDate, today)))
      .returning();
    if (!r || !r.effectiveDate) return false;
    const s = { providerId: r.providerId, accountId: r.accountId };
    const from = r.effectiveDate;
    const current = await enrolmentsFrom(tx, s, r.programPeriodId, from);
    const kids = await registeredChildren(tx, s, r.programPeriodId);
    for (const c of r.data.children ?? []) {
      if (c.noChange || !c.selections.length) continue;
      const mine = current.filter((x) => x.e.childId === c.prChildID);
      for (const x of mine) {
        if (x.e.enrollmentDate < from) {
          await tx.update(enrollments).set({ deEnrollDate: addDays(from, -1) }).where(eq(enrollments.id, x.e.id));
          continue;
        }
        // an enrolment that would have started on or after the effective date is replaced: gone, or
        // (when an invoice billed it already) ended before its first day, so it bills nothing more
        const [billed] = await tx.select({ id: invoiceLines.id }).from(invoiceLines).where(eq(invoiceLines.enrollmentId, x.e.id)).limit(1);
        if (billed) await tx.update(enrollments).set({ deEnrollDate: addDays(x.e.enrollmentDate, -1) }).where(eq(enrollments.id, x.e.id));
        else await tx.delete(enrollments).where(eq(enrollments.id, x.e.id));
      }
      await tx.insert(enrollments).values(
        c.selections.map((sel) => ({ providerId: r.providerId, accountId: r.accountId, childId: c.prChildID, activityId: sel.activityID, enrollmentDate: from, daysOfWeek: sel.daysOfWeek.join(','), status: 'A' })),
      );
      // the seats of the activities the child leaves go back now, not before
      const left = [...new Set(mine.map((x) => x.e.activityId))].filter((a) => !c.selections.some((sel) => sel.activityID === a));
      const registrationId = kids.find((k) => k.id === c.prChildID)?.registrationId;
      if (left.length && registrationId) {
        const takes = await tx
          .select({ id: seatTakes.id, seatId: seatTakes.seatId })
          .from(seatTakes)
          .innerJoin(seats, eq(seats.id, seatTakes.seatId))
          .where(and(eq(seatTakes.registrationId, registrationId), eq(seatTakes.status, 'held'), inArray(seats.activityId, left)));
        await releaseTakes(tx, takes);
      }
    }
    return true;
  });
}

/** The job changes.apply: every scheduled change whose effective date has come, each once. */
export async function applyDueChanges(deps: Pick<Deps, 'db' | 'clock' | 'today'>): Promise<number> {
  const today = isoDay(deps.today());
  const due = await deps.db.select({ id: changeRequests.id }).from(changeRequests).where(and(eq(changeRequests.status, 'scheduled'), lte(changeRequests.effectiveDate, today))).orderBy(asc(changeRequests.id));
  let n = 0;
  for (const d of due) if (await applyChange(deps, d.id)) n++;
  return n;
}

/** A provider's error in the CLI (a change not found or decided already). */
export class ChangeDecisionError extends Error {}

/** The changes waiting for the provider (all providers, or one by app name). */
export async function pendingChanges(db: Db, appName?: string) {
  const rows = await db
    .select({ r: changeRequests, provider: providers.appName, program: programPeriods.programPeriod })
    .from(changeRequests)
    .innerJoin(providers, eq(providers.id, changeRequests.providerId))
    .innerJoin(programPeriods, eq(programPeriods.id, changeRequests.programPeriodId))
    .where(and(eq(changeRequests.status, 'waiting'), appName ? eq(providers.appName, appName) : undefined))
    .orderBy(asc(changeRequests.id));
  const kidIds = rows.flatMap((x) => (x.r.data.children ?? []).map((c) => c.prChildID));
  const kids = kidIds.length ? await db.select({ id: children.id, name: sql<string>`${children.firstName} || ' ' || ${children.lastName}` }).from(children).where(inArray(children.id, kidIds)) : [];
  const actIds = rows.flatMap((x) => (x.r.data.children ?? []).flatMap((c) => c.selections.map((sel) => sel.activityID)));
  const acts = actIds.length ? await db.select({ id: activities.id, name: activities.activity, site: sites.siteName }).from(activities).innerJoin(sites, eq(sites.id, activities.siteId)).where(inArray(activities.id, actIds)) : [];
  return rows.map((x) => ({
    id: x.r.id,
    provider: x.provider,
    programPeriod: x.program,
    effectiveDate: x.r.effectiveDate,
    chargedCents: x.r.chargedCents,
    children: (x.r.data.children ?? []).map((c) => ({
      name: kids.find((k) => k.id === c.prChildID)?.name ?? String(c.prChildID),
      change: c.noChange ? 'no change' : c.selections.map((sel) => { const a = acts.find((y) => y.id === sel.activityID); return `${a?.name ?? sel.activityID} at ${a?.site ?? ''} (${sel.daysOfWeek.join(',')})`; }).join('; '),
    })),
  }));
}

async function waitingChange(tx: Tx, appName: string, id: number) {
  const [r] = await tx
    .select({ r: changeRequests })
    .from(changeRequests)
    .innerJoin(providers, eq(providers.id, changeRequests.providerId))
    .where(and(eq(changeRequests.id, id), eq(providers.appName, appName)))
    .for('update');
  if (!r) throw new ChangeDecisionError(`Change request ${id} was not found for provider ${appName}.`);
  if (r.r.status !== 'waiting') throw new ChangeDecisionError(`Change request ${id} is ${r.r.status}, not waiting for a decision.`);
  return r.r;
}

/**
 * The parent told of the provider's decision, in her language when the provider offers it (else the
 * provider's first), at the primary account holder's addresses and in the Emails/Texts history.
 */
async function decisionMail(deps: DecisionDeps, tx: Tx, r: ChangeRow, approved: boolean): Promise<boolean> {
  const [p] = await tx.select().from(providers).where(eq(providers.id, r.providerId));
  const [pp] = await tx.select().from(programPeriods).where(eq(programPeriods.id, r.programPeriodId));
  const { holders, to } = await accountHolders(tx, r.providerId, r.accountId);
  if (!p || !pp || !to.length) return false;
  const offered = p.languages.map((l) => l.code);
  const lang = holders[0] && offered.includes(holders[0].primaryLanguage) ? holders[0].primaryLanguage : (offered[0] ?? 'en');
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `mail.changeDecided.${key}`, params);
  const params = { program: textIn(pp, 'programPeriod', lang), date: r.effectiveDate ? dateInLanguage(r.effectiveDate, lang) : '' };
  const holder = holders[0];
  const text = [t('greeting', { name: holder ? `${holder.firstName} ${holder.lastName}` : '' }), '', t(approved ? 'approved' : 'rejected', params), '', t('footer', { organisation: p.organisation })].join('\n');
  const subject = t(approved ? 'subjectApproved' : 'subjectRejected', params);
  for (const address of to) await enqueueMail(tx, deps.clock, { providerId: r.providerId, kind: approved ? 'change-approved' : 'change-rejected', to: address, from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`, subject, text });
  await recordInHistory(tx, deps.today(), { providerId: r.providerId, accountId: r.accountId, subject, text, from: p.programName });
  return true;
}

type DecisionDeps = Pick<Deps, 'db' | 'clock' | 'today' | 't'>;

/** The provider approves a waiting change: it is scheduled, and applied at once when its effective date has come; the parent is e-mailed. */
export async function approveChange(deps: DecisionDeps, appName: string, id: number): Promise<{ applied: boolean; effectiveDate: string | null }> {
  const r = await deps.db.transaction(async (tx) => {
    const w = await waitingChange(tx, appName, id);
    await tx.update(changeRequests).set({ status: 'scheduled', decidedAt: deps.clock(), updatedAt: deps.clock() }).where(eq(changeRequests.id, w.id));
    await decisionMail(deps, tx, w, true);
    return w;
  });
  const applied = await applyChange(deps, r.id);
  return { applied, effectiveDate: r.effectiveDate };
}

/** The provider rejects a waiting change: its seats go back and what it charged or credited is undone; the parent is e-mailed. */
export async function rejectChange(deps: DecisionDeps, appName: string, id: number): Promise<{ released: number; creditedCents: number }> {
  return deps.db.transaction(async (tx) => {
    const w = await waitingChange(tx, appName, id);
    await tx.update(changeRequests).set({ status: 'rejected', decidedAt: deps.clock(), updatedAt: deps.clock() }).where(eq(changeRequests.id, w.id));
    const takes = await tx.select({ id: seatTakes.id, seatId: seatTakes.seatId }).from(seatTakes).where(and(eq(seatTakes.changeRequestId, w.id), eq(seatTakes.status, 'held')));
    const released = await releaseTakes(tx, takes);
    const today = isoDay(deps.today());
    const now = deps.clock();
    if (w.chargedCents > 0) await tx.insert(ledgerEntries).values({ providerId: w.providerId, accountId: w.accountId, kind: 'CREDIT', amountCents: w.chargedCents, entryDate: today, description: 'Schedule change not approved', createdAt: now });
    if (w.creditedCents > 0) await tx.insert(ledgerEntries).values({ providerId: w.providerId, accountId: w.accountId, kind: 'CHARGE', amountCents: w.creditedCents, entryDate: today, dueDate: today, description: 'Schedule change not approved', createdAt: now });
    await decisionMail(deps, tx, w, false);
    return { released, creditedCents: w.chargedCents };
  });
}


/** A change's cost in the API's shape (cents). */
function costView(c: ChangeCost) {
  return {
    newPeriod: c.newPeriodCents,
    restOld: c.restOldCents,
    restNew: c.restNewCents,
    difference: c.differenceCents,
    differenceSettledNow: c.differenceSettledNow,
    changeFee: c.changeFeeCents,
    total: c.totalCents,
    creditApplied: c.creditAppliedCents,
    amountDue: c.amountDueCents,
    creditBack: c.creditBackCents,
  };
}

/**
 * A request as the API answers it (Registration.change and the writes): its choices with the
 * children's names, and its cost, computed now while open (null until a child has a new schedule)
 * and as sent afterwards.
 */
export async function changeView(deps: Deps, s: Owner, r: ChangeRow, lang: string) {
  if (r.data.addWeeks) return addWeeksChangeView(deps, s, r, lang);
  const pp = await programOf(deps, s, r.programPeriodId, lang);
  const kids = await registeredChildren(deps.db, s, pp.id);
  const f = await providerFacts(deps, s.providerId, lang);
  const hasChange = (r.data.children ?? []).some((c) => !c.noChange && c.selections.length);
  const quote = r.status === 'open' ? (hasChange ? await quoteIn(deps.db, deps, s, r, r.data, lang) : null) : (r.cost as unknown as ChangeQuote | null);
  const earliest = earliestEffectiveDate(f.rules, f.policy, isoDay(deps.today()), { start: pp.startDate, end: pp.endDate });
  return {
    key: r.key,
    programPeriodID: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    applicationTypeID: 4,
    status: r.status as 'open' | 'waiting' | 'scheduled' | 'applied' | 'rejected',
    effectiveDate: r.effectiveDate,
    earliestEffectiveDate: earliest,
    // the picker's choices while open (the chosen date among them when it is still allowed)
    effectiveDates: (r.status === 'open' ? allowedEffectiveDates(f.rules, f.policy, isoDay(deps.today()), { start: pp.startDate, end: pp.endDate }, EFFECTIVE_DATES_OFFERED) : []).map((date) => ({ date, label: dateInLanguage(date, lang) })),
    appliesItself: r.status === 'open' ? changeAppliesItself(f.rules, f.canParentChangeEnrollment) : r.appliesItself,
    changesInPeriod: quote?.changesInPeriod ?? 0,
    children: (r.data.children ?? []).map((c) => {
      const k = kids.find((x) => x.id === c.prChildID);
      return { prChildID: c.prChildID, fullName: k ? `${k.firstName} ${k.lastName}` : '', noChange: c.noChange, siteID: c.siteID, selections: c.selections };
    }),
    cost: quote ? costView(quote.total) : null,
    amountDue: r.amountDueCents,
    kind: 'change' as const,
  };
}

/**
 * An add-weeks request in the change's shape, for the payment step and the confirmation it shares
 * with a change: its children with the weeks' activities, nothing before the first week to settle,
 * no change fee, its total, the credit applied and what it left due.
 */
async function addWeeksChangeView(deps: Deps, s: Owner, r: ChangeRow, lang: string) {
  const view = await addWeeksRequest(deps, s, r.key, lang);
  const children = [...new Set(view.weeks.map((w) => w.childID))].map((id) => {
    const weeks = view.weeks.filter((w) => w.childID === id);
    return { prChildID: id, fullName: weeks[0].childName, noChange: false, siteID: null, selections: weeks.map((w) => ({ activityID: w.activityID, daysOfWeek: w.daysOfWeek })) };
  });
  return {
    key: r.key,
    programPeriodID: view.programPeriodID,
    programPeriod: view.programPeriod,
    applicationTypeID: 4,
    status: r.status as 'open' | 'waiting' | 'scheduled' | 'applied' | 'rejected',
    effectiveDate: r.effectiveDate,
    earliestEffectiveDate: null,
    effectiveDates: [],
    appliesItself: true,
    changesInPeriod: 0,
    children,
    cost: { newPeriod: view.total, restOld: 0, restNew: 0, difference: 0, differenceSettledNow: true, changeFee: 0, total: view.total, creditApplied: view.creditApplied, amountDue: view.amountDue, creditBack: 0 },
    amountDue: r.amountDueCents,
    kind: 'addWeeks' as const,
  };
}

/**
 * The activities a child of the request may be scheduled in (the program's activities by the period,
 * per site, with fees and the seats left now) and the child's schedule in force on the request's
 * effective date (spec 2.11 'view existing schedule'; empty: not enrolled there).
 */
export async function changeActivities(deps: AppDeps, s: SessionInfo, key: string, childId: number, lang: string) {
  const r = await scheduleChangeOf(deps, s, key, lang);
  if (!(r.data.children ?? []).some((c) => c.prChildID === childId)) fail({ deps, lang }, 404, 'application.errors.change.notFound');
  const pp = await programOf(deps, s, r.programPeriodId, lang);
  const acts = (await activitiesOf(deps, s, pp, lang)).filter((a) => a.activityTypeID !== ACTIVITY_TYPE.singleDate);
  const seatsLeft = await seatAvailability(deps, s, pp, acts, []);
  const asOn = r.effectiveDate ?? isoDay(deps.today());
  const current = (await enrolmentsFrom(deps.db, s, pp.id, asOn)).filter((x) => x.e.childId === childId && x.e.enrollmentDate <= asOn);
  const siteRows = await deps.db.select().from(sites).where(and(eq(sites.providerId, s.providerId), inArray(sites.id, [...new Set([...acts.map((a) => a.siteID), ...current.map((x) => x.a.siteId)])].concat(0))));
  const siteName = (id: number) => {
    const row = siteRows.find((x) => x.id === id);
    return row ? textIn(row, 'siteName', lang) : '';
  };
  return {
    sites: [...new Map(acts.map((a) => [a.siteID, { siteID: a.siteID, siteName: a.siteName }])).values()],
    activities: acts.map((a) => ({
      activityID: a.activityID,
      activity: a.activity,
      activityTypeID: a.activityTypeID,
      siteID: a.siteID,
      siteName: a.siteName,
      timing: a.timing,
      daysPerWeek: a.daysPerWeek,
      daysOfWeek: a.daysOfWeek,
      timeOfferedCode: a.timeOfferedCode,
      startDate: a.startDate,
      endDate: a.endDate,
      feeType: a.feeType,
      fee: a.fee,
      siblingFee: a.siblingFee,
    })),
    seats: seatsLeft.map((x) => ({ activityID: x.activityID, total: x.total, available: x.available, isFull: x.isFull })),
    asOnDate: r.effectiveDate,
    current: current.map((x) => ({
      activityID: x.a.id,
      activity: textIn(x.a, 'activity', lang),
      siteID: x.a.siteId,
      siteName: siteName(x.a.siteId),
      timing: x.a.timing,
      daysOfWeek: codes(x.e.daysOfWeek || x.a.daysOfWeek),
      enrollmentDate: x.e.enrollmentDate,
      deEnrollDate: x.e.deEnrollDate,
    })),
  };
}

/**
 * The request's chosen schedules as the parent reads them (spec 7.5 submitted activities; the review,
 * the submission and the confirmation): per child 'No change required' or the new schedule's
 * activities with their site, days and timing, and the schedule in force that the change replaces.
 */
export async function changeSubmittedActivities(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const r = await changeOf(deps, s, key, lang);
  if (r.data.addWeeks) {
    // the weeks added, each as its activity and week (the payment step and confirmation a change shares)
    const view = await addWeeksRequest(deps, s, key, lang);
    return {
      key: r.key,
      status: r.status as 'open' | 'waiting' | 'scheduled' | 'applied' | 'rejected',
      effectiveDate: r.effectiveDate,
      children: [...new Set(view.weeks.map((w) => w.childID))].map((id) => {
        const weeks = view.weeks.filter((w) => w.childID === id);
        return {
          prChildID: id,
          fullName: weeks[0].childName,
          noChange: false,
          siteName: weeks[0].siteName,
          activities: weeks.map((w) => ({ activityID: w.activityID, activity: deps.t(lang, 'enrollment.addWeeks.weekActivity', { activity: w.activity, range: w.weekRange }), siteName: w.siteName, timing: w.timing, daysOfWeek: w.daysOfWeek })),
        };
      }),
    };
  }
  const pp = await programOf(deps, s, r.programPeriodId, lang);
  const kids = await registeredChildren(deps.db, s, pp.id);
  const acts = await scheduleActivities(deps.db, s.providerId, pp.id);
  const siteRows = await deps.db.select().from(sites).where(and(eq(sites.providerId, s.providerId), inArray(sites.id, [...new Set(acts.map((a) => a.siteId))].concat(0))));
  const siteName = (id: number | null) => {
    const row = siteRows.find((x) => x.id === id);
    return row ? textIn(row, 'siteName', lang) : '';
  };
  return {
    key: r.key,
    status: r.status as 'open' | 'waiting' | 'scheduled' | 'applied' | 'rejected',
    effectiveDate: r.effectiveDate,
    children: (r.data.children ?? []).flatMap((c) => {
      const k = kids.find((x) => x.id === c.prChildID);
      if (!k) return [];
      return [
        {
          prChildID: c.prChildID,
          fullName: `${k.firstName} ${k.lastName}`,
          noChange: c.noChange,
          siteName: c.noChange ? '' : siteName(c.siteID),
          activities: c.noChange
            ? []
            : c.selections.flatMap((sel) => {
                const a = acts.find((x) => x.id === sel.activityID);
                return a ? [{ activityID: a.id, activity: textIn(a, 'activity', lang), siteName: siteName(a.siteId), timing: a.timing, daysOfWeek: sel.daysOfWeek.length ? sel.daysOfWeek : codes(a.daysOfWeek) }] : [];
              }),
        },
      ];
    }),
  };
}

/**
 * Spec 7.5 change site (/children/change-site): the child's site in the open request; the new schedule
 * chosen at the old site is dropped (its activities are the old site's). The site must be one of the
 * program's sites with a schedule activity.
 */
export async function changeSite(deps: Deps, s: Owner, key: string, childId: number, siteId: number, lang: string): Promise<ChangeRow> {
  const r = await scheduleChangeOf(deps, s, key, lang);
  if (r.status !== 'open') fail({ deps, lang }, 409, 'application.errors.change.submitted');
  const rows = r.data.children ?? [];
  const c = rows.find((x) => x.prChildID === childId);
  if (!c) return fail({ deps, lang }, 404, 'application.errors.change.notFound');
  const acts = await scheduleActivities(deps.db, s.providerId, r.programPeriodId);
  if (!acts.some((a) => a.siteId === siteId)) fail({ deps, lang }, 400, 'application.errors.change.siteRequired');
  const next: ChangeData = {
    ...r.data,
    children: rows.map((x) => (x.prChildID === childId ? { ...x, noChange: false, siteID: siteId, selections: x.siteID === siteId ? x.selections : [] } : x)),
  };
  const [row] = await deps.db
    .update(changeRequests)
    .set({ data: next, updatedAt: deps.clock() })
    .where(and(eq(changeRequests.id, r.id), eq(changeRequests.status, 'open')))
    .returning();
  if (!row) fail({ deps, lang }, 409, 'application.errors.change.submitted');
  return row;
}

/**
 * Spec 7.5 confirmation/change-schedule (2.11 confirmation, e-mail): the sent change's confirmation
 * e-mailed again to the account holders, in the asker's language; refused while the request is open.
 */
export async function emailChangeConfirmation(deps: Deps, s: Owner, key: string, lang: string): Promise<{ sent: boolean }> {
  const r = await scheduleChangeOf(deps, s, key, lang);
  if (r.status === 'open') fail({ deps, lang }, 409, 'application.errors.change.notSent');
  const pp = await programOf(deps, s, r.programPeriodId, lang);
  const sent = await deps.db.transaction((tx) => confirmationMail(deps, tx, s, r, pp, lang));
  if (sent) deps.mailQueued?.();
  return { sent };
}
