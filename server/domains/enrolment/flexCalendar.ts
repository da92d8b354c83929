// The calendar product (spec 2.11 flex-scheduled dates, 4 enrolment option C, 7.3 enrolled dates):
// per child of a calendar program (option C) a month of the program's per-day activities, where the
// parent adds and removes flex dates. Which day may be added is the declared rule
// flexCalendar.dateReason (a scheduled holiday, outside the period, not after today, the weekend rule,
// not an activity day), which may be removed is flexCalendar.removeReason over the provider's
// cancellation window (provider.json calendar.cancellationWindowDays).
//
// An addition is kept as a calendar enrolment (an application_drafts row of type 6, submitted at
// once): in one transaction it takes each date's seat by the one-time enrolment's conditional UPDATE
// (seats.ts takeDateSeat: the last seat of a date goes to one parent whatever the concurrency, a
// date without a seat refuses the whole addition), records the dates (onetime_takes of kind flex, and
// the child's plan dates of kind flex), charges them on the ledger and, with something to pay, holds
// the seats while the parent pays through the checkout (Billing.startPayment with its key), or pay
// later. A hold that ends unpaid releases the dates as a one-time enrolment's (releaseOneTimeTakes).
// A date removed outside the window is released (its seat back) and its fee credited.
//
// The iCal feed: a secret per-account address (256 random bits, kept only as its SHA-256), read with
// no session, revocable; a new address replaces the old one.
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { activities, applicationDrafts, calendarFeeds, calendarHolidays, children, enrollmentDates, ledgerEntries, onetimeTakes, programPeriods, providers, registrations, seats, sites } from '../../db/schema';
import { isoDay } from '../../clock';
import { fail, httpError } from '../../errors';
import { textIn } from '../../providerTexts';
import { type RuleSet, evaluateRule } from '../../../src/engine/logic';
import { dateInLanguage } from '../../../src/engine/formats';
import { moneyText } from '../../../src/engine/money';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';
import { takeDateSeat, releaseSeat, type Confirmation } from './seats';
import { applicationOwes, payLater, paymentOf, postCharges } from './applicationPayment';
import { releaseExpiredHolds } from './applicationPayment';
import { accountMoney } from '../billing/ledger';
import { providerCalendar } from '../../calendarSettings';
import { icalCalendar, type IcalEvent } from '../../ical';
import type { FileResult } from '../../context';

type Owner = Pick<SessionInfo, 'providerId' | 'accountId'> & Partial<Pick<SessionInfo, 'email' | 'firstName' | 'lastName'>>;
type ProgramRow = typeof programPeriods.$inferSelect;
type ActivityRow = typeof activities.$inferSelect;

/** Day-of-week codes of the activities (spec 3): Sunday S, Saturday SA. */
const DOW = ['S', 'M', 'T', 'W', 'TH', 'F', 'SA'];
const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
const daysAhead = (iso: string, today: string) => Math.round((Date.parse(`${iso}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
const monthDays = (month: string): string[] => {
  const [y, m] = month.split('-').map(Number);
  const n = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return Array.from({ length: n }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`);
};
const shiftMonth = (month: string, by: number) => {
  const [y, m] = month.split('-').map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
};
const VALUE = /^(\d{1,9})\/(\d{4}-\d{2}-\d{2})$/;

export type DayReason = 'holiday' | 'outsidePeriod' | 'past' | 'weekend' | 'notActivityDay' | 'full' | null;
export type RemoveReason = 'past' | 'window' | null;

function notFound(deps: AppDeps, lang: string): never {
  throw httpError({ deps, lang }, 404, 'flexCalendar.errors.notFound');
}

async function providerOf(deps: AppDeps, providerId: number, lang: string) {
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!p || !decl) return fail({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  return { p, rules: decl.set.rules as RuleSet, window: providerCalendar(deps.root, p.appName).cancellationWindowDays };
}

/** The provider's calendar program (enrolment option C); another provider's or another option's is not found. */
async function calendarProgram(deps: AppDeps, s: Owner, id: number, lang: string): Promise<ProgramRow> {
  const [pp] = await deps.db.select().from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, s.providerId)));
  if (!pp || pp.enrollmentOption !== 'C') notFound(deps, lang);
  return pp;
}

/** The account's children registered in the program (another account's child is not found). */
async function programChildren(deps: AppDeps, s: Owner, pp: ProgramRow) {
  return deps.db
    .select({ childID: children.id, firstName: children.firstName, lastName: children.lastName })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId), eq(registrations.programPeriodId, pp.id), eq(registrations.status, 'REGISTERED'), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
}

/** The program's activities charged per day: the ones a parent adds flex dates of. */
async function flexActivities(deps: AppDeps, s: Owner, pp: ProgramRow) {
  return deps.db
    .select({ a: activities, siteName: sites.siteName, siteTranslations: sites.translations })
    .from(activities)
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(activities.providerId, s.providerId), eq(activities.programPeriodId, pp.id), eq(activities.feeType, 'PER_DAY'), eq(activities.isOneTime, false)))
    .orderBy(asc(activities.activity), asc(activities.id));
}

interface Context {
  pp: ProgramRow;
  child: { childID: number; firstName: string; lastName: string };
  kids: { childID: number; firstName: string; lastName: string }[];
  acts: { a: ActivityRow; siteName: string; siteTranslations: unknown }[];
}

async function contextOf(deps: AppDeps, s: Owner, programPeriodID: number, childID: number | undefined, lang: string): Promise<Context> {
  const pp = await calendarProgram(deps, s, programPeriodID, lang);
  const kids = await programChildren(deps, s, pp);
  const child = childID === undefined ? kids[0] : kids.find((k) => k.childID === childID);
  if (!child) notFound(deps, lang);
  return { pp, child, kids, acts: await flexActivities(deps, s, pp) };
}

interface DayState {
  value: string;
  date: string;
  activityID: number;
  enrolled: boolean;
  reason: DayReason;
  removeReason: RemoveReason;
  seatsLeft: number;
  holiday: string | null;
}

/** The days of the dates asked for, per flex activity: whether each is the child's, may be added or removed, and why not. */
async function dayStates(deps: AppDeps, s: Owner, c: Context, dates: string[], lang: string): Promise<DayState[]> {
  if (!dates.length || !c.acts.length) return [];
  const { rules, window } = await providerOf(deps, s.providerId, lang);
  const today = isoDay(deps.today());
  const first = dates[0];
  const last = dates[dates.length - 1];
  const ids = c.acts.map((x) => x.a.id);
  const holidays = await deps.db
    .select()
    .from(calendarHolidays)
    .where(and(eq(calendarHolidays.providerId, s.providerId), eq(calendarHolidays.programPeriodId, c.pp.id), gte(calendarHolidays.date, first), lte(calendarHolidays.date, last)));
  const seatRows = await deps.db.select().from(seats).where(and(eq(seats.providerId, s.providerId), inArray(seats.activityId, ids), gte(seats.weekStart, first), lte(seats.weekStart, last)));
  const mine = await deps.db
    .select({ activityId: enrollmentDates.activityId, date: enrollmentDates.date })
    .from(enrollmentDates)
    .where(and(eq(enrollmentDates.providerId, s.providerId), eq(enrollmentDates.accountId, s.accountId), eq(enrollmentDates.childId, c.child.childID), inArray(enrollmentDates.activityId, ids), eq(enrollmentDates.kind, 'flex')));
  const enrolled = new Set(mine.map((r) => `${r.activityId}/${r.date}`));
  const out: DayState[] = [];
  for (const { a } of c.acts) {
    const daysOfWeek = a.daysOfWeek.split(',').map((d) => d.trim()).filter(Boolean);
    const start = a.startDate > c.pp.startDate ? a.startDate : c.pp.startDate;
    const end = a.endDate < c.pp.endDate ? a.endDate : c.pp.endDate;
    for (const date of dates) {
      const wd = weekdayOf(date);
      const holiday = holidays.find((h) => h.date === date);
      const seat = seatRows.find((r) => r.activityId === a.id && r.weekStart === date);
      const seatsLeft = Math.max(0, seat ? seat.total - seat.taken : a.capacity);
      const ahead = daysAhead(date, today);
      const facts = {
        program: { enableWeekendScheduling: c.pp.enableWeekendScheduling },
        activity: { daysOfWeek, activityTypeID: a.activityTypeID },
        date: { daysAhead: ahead, inPeriod: date >= start && date <= end, activityDay: daysOfWeek.includes(DOW[wd]), weekend: wd === 0 || wd === 6, holiday: Boolean(holiday) },
        settings: { cancellationWindowDays: window },
      };
      const isMine = enrolled.has(`${a.id}/${date}`);
      let reason = (evaluateRule(rules, 'flexCalendar.dateReason', facts) ?? null) as DayReason;
      if (!reason && !isMine && seatsLeft <= 0) reason = 'full';
      out.push({
        value: `${a.id}/${date}`,
        date,
        activityID: a.id,
        enrolled: isMine,
        reason,
        removeReason: isMine ? ((evaluateRule(rules, 'flexCalendar.removeReason', facts) ?? null) as RemoveReason) : null,
        seatsLeft,
        holiday: holiday ? textIn(holiday, 'name', lang) : null,
      });
    }
  }
  return out;
}

/** The child's open payment of flex dates in this program: the newest addition held or left to pay later. */
async function openPayment(deps: AppDeps, s: Owner, pp: ProgramRow) {
  const rows = await deps.db
    .select()
    .from(applicationDrafts)
    .where(
      and(
        eq(applicationDrafts.providerId, s.providerId),
        eq(applicationDrafts.accountId, s.accountId),
        eq(applicationDrafts.programPeriodId, pp.id),
        eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.calendar),
        inArray(applicationDrafts.paymentStatus, ['AWAITING', 'LATER']),
      ),
    )
    .orderBy(asc(applicationDrafts.id));
  for (const d of rows) if (d.paymentStatus === 'AWAITING') await releaseExpiredHolds(deps, { draftId: d.id });
  const ids = rows.map((d) => d.id);
  if (!ids.length) return null;
  const live = await deps.db.select().from(applicationDrafts).where(and(inArray(applicationDrafts.id, ids), inArray(applicationDrafts.paymentStatus, ['AWAITING', 'LATER']), sql`${applicationDrafts.amountDueCents} > 0`));
  const d = live.sort((x, y) => y.id - x.id)[0];
  return d ? { key: d.key, ...paymentOf(d, deps.clock()) } : null;
}

export interface CalendarQuery {
  programPeriodID: number;
  childID?: number;
  month?: string;
  showPast?: boolean;
}

/** A child's month of the calendar program: the days of each flex activity with their state, the other children, the open payment. */
export async function flexCalendar(deps: AppDeps, s: SessionInfo, q: CalendarQuery, lang: string) {
  const c = await contextOf(deps, s, q.programPeriodID, q.childID, lang);
  const today = isoDay(deps.today());
  const { window, p } = await providerOf(deps, s.providerId, lang);
  // the month asked for, else this month inside the program, else the program's first
  const first = c.pp.startDate.slice(0, 7);
  const lastMonth = c.pp.endDate.slice(0, 7);
  let month = q.month ?? today.slice(0, 7);
  if (month < first) month = first;
  if (month > lastMonth) month = lastMonth;
  const all = monthDays(month);
  const shown = q.showPast ? all : all.filter((d) => d >= today);
  const states = await dayStates(deps, s, c, shown, lang);
  return {
    programPeriodID: c.pp.id,
    programPeriod: textIn(c.pp, 'programPeriod', lang),
    childID: c.child.childID,
    childName: `${c.child.firstName} ${c.child.lastName}`,
    children: c.kids.map((k) => ({ childID: k.childID, childName: `${k.firstName} ${k.lastName}` })),
    month,
    monthLabel: new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${month}-01T00:00:00Z`)),
    chosen: states.filter((d) => d.enrolled).map((d) => d.value),
    prevMonth: month > first ? shiftMonth(month, -1) : null,
    nextMonth: month < lastMonth ? shiftMonth(month, 1) : null,
    showPast: Boolean(q.showPast),
    hiddenPast: all.length - shown.length,
    today,
    cancellationWindowDays: window,
    activities: c.acts.map(({ a, siteName, siteTranslations }) => ({
      activityID: a.id,
      activity: textIn(a, 'activity', lang),
      siteName: textIn({ siteName, translations: siteTranslations } as Parameters<typeof textIn>[0], 'siteName', lang),
      timing: a.timing,
      feeCents: a.feeCents,
    })),
    days: states.map((d) => {
      const a = c.acts.find((x) => x.a.id === d.activityID)!.a;
      const weekday = weekdayOf(d.date);
      return {
        ...d,
        weekday,
        // the day as the list says it: its weekday and date, the activity, its fee and the seats left
        // the child's own day says it is booked: a day that cannot be removed is shown locked
        label: deps.t(lang, d.enrolled ? 'flexCalendar.dates.optionBooked' : 'flexCalendar.dates.option', {
          weekday: new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(new Date(`${d.date}T00:00:00Z`)),
          date: dateInLanguage(d.date, lang),
          activity: textIn(a, 'activity', lang),
          fee: moneyText(a.feeCents, lang, p.countryCode),
          count: d.seatsLeft,
        }),
        // shown, not to be changed: a day not to be added, or the child's day not to be removed
        locked: d.enrolled ? d.removeReason !== null : d.reason !== null,
        windowDays: window ?? 0,
      };
    }),
    payment: await openPayment(deps, s, c.pp),
  };
}

class DateFull extends Error {
  constructor(readonly date: string) {
    super(`no seat left on ${date}`);
  }
}

/** A unique violation: the same date of the child taken by a request at the same moment. */
const isUniqueViolation = (e: unknown) => {
  const x = e as { code?: string; cause?: { code?: string } } | null;
  return x?.code === '23505' || x?.cause?.code === '23505';
};

/**
 * Adds flex dates for a child in one transaction: each date's seat taken by the conditional UPDATE (a
 * date whose last seat went refuses the whole addition with 409, nothing taken or charged), the dates
 * recorded and charged, and with something to pay the seats held while the parent pays.
 */
export async function addFlexDates(deps: AppDeps, s: SessionInfo, body: { programPeriodID: number; childID: number; dates: string[] }, lang: string) {
  const c = await contextOf(deps, s, body.programPeriodID, body.childID, lang);
  const picks = [...new Set(body.dates)].sort().map((v) => {
    const m = VALUE.exec(v);
    if (!m) return fail({ deps, lang }, 400, 'flexCalendar.errors.dateNotOpen');
    return { activityID: Number(m[1]), date: m[2], value: v };
  });
  if (!picks.length) fail({ deps, lang }, 400, 'flexCalendar.errors.chooseDates');
  const dates = [...new Set(picks.map((p) => p.date))].sort();
  const states = await dayStates(deps, s, c, dates, lang);
  for (const p of picks) {
    const st = states.find((x) => x.value === p.value);
    if (!st || st.enrolled || (st.reason && st.reason !== 'full')) fail({ deps, lang }, 400, 'flexCalendar.errors.dateNotOpen');
    if (st.reason === 'full') fail({ deps, lang }, 409, 'flexCalendar.errors.dateFull', { date: dateInLanguage(p.date, lang) });
  }
  const takes = picks
    .map((p) => ({ ...p, act: c.acts.find((x) => x.a.id === p.activityID)!.a }))
    .sort((x, y) => x.activityID - y.activityID || x.date.localeCompare(y.date));
  const total = takes.reduce((t, x) => t + x.act.feeCents, 0);
  const { p } = await providerOf(deps, s.providerId, lang);
  const holdMinutes = deps.settings(p.appName).payments.seatHoldMinutes;
  const owedBefore = (await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()))).balanceCents;
  const due = applicationOwes(total, owedBefore + total);
  const now = deps.clock();
  const key = randomBytes(16).toString('hex');
  const childName = `${c.child.firstName} ${c.child.lastName}`;
  const result: Confirmation = {
    key,
    programPeriodID: c.pp.id,
    programPeriod: textIn(c.pp, 'programPeriod', lang),
    submittedOn: isoDay(deps.today()),
    emailSent: false,
    parentName: `${s.firstName} ${s.lastName}`,
    children: [{ prChildID: c.child.childID, fullName: childName, status: 'REGISTERED', activities: takes.map((t) => ({ activityID: t.activityID, activity: textIn(t.act, 'activity', lang), weekStart: t.date, state: 'A' as const })) }],
  };
  try {
    await deps.db.transaction(async (tx) => {
      const [d] = await tx
        .insert(applicationDrafts)
        .values({
          key,
          providerId: s.providerId,
          accountId: s.accountId,
          programPeriodId: c.pp.id,
          applicationTypeId: APPLICATION_TYPE.calendar,
          status: 'submitted',
          step: 'submitted',
          data: {},
          result,
          createdAt: now,
          updatedAt: now,
          submittedAt: now,
          paymentStatus: due > 0 ? 'AWAITING' : 'NONE',
          holdUntil: due > 0 ? new Date(now.getTime() + holdMinutes * 60_000) : null,
          amountDueCents: due,
          chargedCents: total,
          ...(due > 0 ? { noticeEmail: s.email || null, noticeLocale: lang } : {}),
        })
        .returning({ id: applicationDrafts.id });
      for (const t of takes) {
        const seatId = await takeDateSeat(tx, s.providerId, t.activityID, t.date, t.act.capacity);
        if (seatId === null) throw new DateFull(t.date);
        await tx.insert(onetimeTakes).values({ providerId: s.providerId, accountId: s.accountId, draftId: d.id, childId: c.child.childID, activityId: t.activityID, seatId, date: t.date, feeCents: t.act.feeCents, kind: 'flex' });
        await tx.insert(enrollmentDates).values({ providerId: s.providerId, accountId: s.accountId, childId: c.child.childID, activityId: t.activityID, date: t.date, kind: 'flex' });
      }
      await postCharges(
        tx,
        deps,
        s,
        takes.map((t) => ({ firstName: c.child.firstName, feeName: `${textIn(t.act, 'activity', lang)} ${t.date}`, regularFee: t.act.feeCents })),
      );
    });
  } catch (e) {
    if (e instanceof DateFull) fail({ deps, lang }, 409, 'flexCalendar.errors.dateFull', { date: dateInLanguage(e.date, lang) });
    if (isUniqueViolation(e)) fail({ deps, lang }, 409, 'flexCalendar.errors.alreadyAdded');
    throw e;
  }
  const [row] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.key, key));
  return { key, dates: takes.map((t) => t.value), totalCents: total, ...paymentOf(row, deps.clock()) };
}

/** Pay later: the dates and their seats stay, the charges stay on the balance. */
export async function payLaterFlex(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.providerId, s.providerId), eq(applicationDrafts.accountId, s.accountId), eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.calendar)));
  if (!d) notFound(deps, lang);
  await releaseExpiredHolds(deps, { draftId: d.id });
  const row = await payLater(deps, d);
  if (row.paymentStatus !== 'LATER' && row.paymentStatus !== 'PAID') fail({ deps, lang }, 409, 'payment.errors.holdEnded');
  return { key, ...paymentOf(row, deps.clock()) };
}

/**
 * Removes a flex date of the child: outside the provider's cancellation window its seat is released,
 * the date leaves the child's plan and its fee is credited, in one transaction; inside it (or a date
 * not after today) it is refused with 409 and the reason.
 */
export async function removeFlexDate(deps: AppDeps, s: SessionInfo, body: { programPeriodID: number; childID: number; date: string }, lang: string) {
  const c = await contextOf(deps, s, body.programPeriodID, body.childID, lang);
  const m = VALUE.exec(body.date);
  if (!m) notFound(deps, lang);
  const activityID = Number(m[1]);
  const date = m[2];
  const [st] = (await dayStates(deps, s, c, [date], lang)).filter((x) => x.activityID === activityID);
  const [take] = await deps.db
    .select()
    .from(onetimeTakes)
    .where(and(eq(onetimeTakes.providerId, s.providerId), eq(onetimeTakes.accountId, s.accountId), eq(onetimeTakes.childId, c.child.childID), eq(onetimeTakes.activityId, activityID), eq(onetimeTakes.date, date), eq(onetimeTakes.kind, 'flex'), eq(onetimeTakes.status, 'held')));
  if (!st || !take) notFound(deps, lang);
  const { window } = await providerOf(deps, s.providerId, lang);
  if (st.removeReason) fail({ deps, lang }, 409, `flexCalendar.errors.remove.${st.removeReason}`, { date: dateInLanguage(date, lang), days: window ?? 0 });
  const act = c.acts.find((x) => x.a.id === activityID)!.a;
  const removed = await deps.db.transaction(async (tx) => {
    const [gone] = await tx
      .update(onetimeTakes)
      .set({ status: 'removed' })
      .where(and(eq(onetimeTakes.id, take.id), eq(onetimeTakes.status, 'held')))
      .returning();
    if (!gone) return false;
    await releaseSeat(tx, gone.seatId);
    await tx.delete(enrollmentDates).where(and(eq(enrollmentDates.childId, gone.childId), eq(enrollmentDates.activityId, gone.activityId), eq(enrollmentDates.date, gone.date), eq(enrollmentDates.kind, 'flex')));
    if (gone.feeCents > 0) {
      await tx.insert(ledgerEntries).values({ providerId: s.providerId, accountId: s.accountId, kind: 'CREDIT', amountCents: gone.feeCents, entryDate: isoDay(deps.today()), description: `${c.child.firstName}: ${textIn(act, 'activity', lang)} ${date} removed`, createdAt: deps.clock() });
    }
    // its addition no longer charges it: a hold ending later credits only what is left
    await tx
      .update(applicationDrafts)
      .set({
        chargedCents: sql`greatest(${applicationDrafts.chargedCents} - ${gone.feeCents}, 0)`,
        amountDueCents: sql`greatest(${applicationDrafts.amountDueCents} - ${gone.feeCents}, 0)`,
        paymentStatus: sql`case when ${applicationDrafts.paymentStatus} in ('AWAITING', 'LATER') and ${applicationDrafts.amountDueCents} - ${gone.feeCents} <= 0 then 'NONE' else ${applicationDrafts.paymentStatus} end`,
        holdUntil: sql`case when ${applicationDrafts.amountDueCents} - ${gone.feeCents} <= 0 then null else ${applicationDrafts.holdUntil} end`,
        updatedAt: deps.clock(),
      })
      .where(eq(applicationDrafts.id, gone.draftId));
    return true;
  });
  if (!removed) fail({ deps, lang }, 409, 'flexCalendar.errors.alreadyRemoved');
  return { removed: true, creditedCents: take.feeCents };
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const feedUrl = (deps: AppDeps, token: string) => `${(deps.linkBase ?? '').replace(/\/$/, '')}/api/Registration/flexcalendar/ical/${token}`;

/** Whether the account has a live feed (its address is shown only when made: only its hash is kept). */
export async function feedState(deps: AppDeps, s: Owner) {
  const [f] = await deps.db.select().from(calendarFeeds).where(and(eq(calendarFeeds.providerId, s.providerId), eq(calendarFeeds.accountId, s.accountId), isNull(calendarFeeds.revokedAt)));
  return { active: Boolean(f), createdOn: f ? isoDay(f.createdAt) : null, url: null as string | null };
}

/** Makes the account's feed address, revoking the one before: the old address answers no more. */
export async function createFeed(deps: AppDeps, s: Owner) {
  const token = randomBytes(32).toString('hex');
  const now = deps.clock();
  await deps.db.transaction(async (tx) => {
    await tx.update(calendarFeeds).set({ revokedAt: now }).where(and(eq(calendarFeeds.providerId, s.providerId), eq(calendarFeeds.accountId, s.accountId), isNull(calendarFeeds.revokedAt)));
    await tx.insert(calendarFeeds).values({ providerId: s.providerId, accountId: s.accountId, tokenHash: hashOf(token), createdAt: now });
  });
  return { active: true, createdOn: isoDay(now), url: feedUrl(deps, token) };
}

/** Revokes the account's feed address. */
export async function revokeFeed(deps: AppDeps, s: Owner) {
  await deps.db
    .update(calendarFeeds)
    .set({ revokedAt: deps.clock() })
    .where(and(eq(calendarFeeds.providerId, s.providerId), eq(calendarFeeds.accountId, s.accountId), isNull(calendarFeeds.revokedAt)));
  return { active: false, createdOn: null, url: null };
}

/** The feed of a live address: every dated day of the account's children (scheduled, enrolled, one-time and flex), as RFC 5545 text. */
export async function icalFeed(deps: AppDeps, token: string, lang: string): Promise<FileResult> {
  const [f] = await deps.db.select().from(calendarFeeds).where(and(eq(calendarFeeds.tokenHash, hashOf(token)), isNull(calendarFeeds.revokedAt)));
  if (!f) notFound(deps, lang);
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, f.providerId));
  const rows = await deps.db
    .select({ id: enrollmentDates.id, date: enrollmentDates.date, kind: enrollmentDates.kind, firstName: children.firstName, a: activities, siteName: sites.siteName, siteTranslations: sites.translations })
    .from(enrollmentDates)
    .innerJoin(children, eq(children.id, enrollmentDates.childId))
    .innerJoin(activities, eq(activities.id, enrollmentDates.activityId))
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(enrollmentDates.providerId, f.providerId), eq(enrollmentDates.accountId, f.accountId)))
    .orderBy(asc(enrollmentDates.date), asc(enrollmentDates.id));
  const events: IcalEvent[] = rows.map((r) => ({
    uid: `date-${r.id}@${p.appName}.parentportal`,
    date: r.date,
    summary: `${r.firstName}: ${textIn(r.a, 'activity', lang)}`,
    description: [deps.t(lang, `flexCalendar.ical.kind.${r.kind}`), r.a.timing].filter(Boolean).join('\n'),
    location: textIn({ siteName: r.siteName, translations: r.siteTranslations } as Parameters<typeof textIn>[0], 'siteName', lang),
  }));
  const text = icalCalendar(p.programName, events, deps.clock());
  return { file: new TextEncoder().encode(text), fileName: `${p.appName}-calendar.ics`, contentType: 'text/calendar; charset=utf-8' };
}

/**
 * Saves a child's flex dates of a month: the child's dates left out are removed first (outside the
 * cancellation window; one inside it is kept, its removal refused), then the dates added in one
 * transaction (addFlexDates).
 */
export async function saveFlexDates(deps: AppDeps, s: SessionInfo, body: { programPeriodID: number; childID: number; month: string; dates: string[] }, lang: string) {
  const c = await contextOf(deps, s, body.programPeriodID, body.childID, lang);
  const wanted = new Set(body.dates);
  for (const v of wanted) {
    const m = VALUE.exec(v);
    if (!m || m[2].slice(0, 7) !== body.month) fail({ deps, lang }, 400, 'flexCalendar.errors.dateNotOpen');
  }
  const states = await dayStates(deps, s, c, monthDays(body.month), lang);
  // a date gone by stays as it is (the month hides it unless asked), and so does a date inside the
  // cancellation window: the page shows both locked (its form leaves disabled days out), the removal
  // refused and said so in the answer's kept
  const leftOut = states.filter((d) => d.enrolled && !wanted.has(d.value));
  const toRemove = leftOut.filter((d) => d.removeReason === null);
  const kept = leftOut.filter((d) => d.removeReason === 'window').map((d) => d.value);
  const toAdd = [...wanted].filter((v) => !states.some((d) => d.value === v && d.enrolled));
  let creditedCents = 0;
  for (const d of toRemove) creditedCents += (await removeFlexDate(deps, s, { programPeriodID: body.programPeriodID, childID: c.child.childID, date: d.value }, lang)).creditedCents;
  if (toAdd.length) await addFlexDates(deps, s, { programPeriodID: body.programPeriodID, childID: c.child.childID, dates: toAdd }, lang);
  return { added: toAdd.sort(), removed: toRemove.map((d) => d.value), kept, creditedCents, payment: await openPayment(deps, s, c.pp) };
}

/** A calendar addition's payment: its dates with their fees, the total, and what is to be paid now. */
export async function flexPayment(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const [found] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.providerId, s.providerId), eq(applicationDrafts.accountId, s.accountId), eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.calendar)));
  if (!found) notFound(deps, lang);
  if (found.paymentStatus === 'AWAITING') await releaseExpiredHolds(deps, { draftId: found.id });
  const [d] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, found.id));
  const [pp] = await deps.db.select().from(programPeriods).where(eq(programPeriods.id, d.programPeriodId));
  const rows = await deps.db
    .select({ t: onetimeTakes, firstName: children.firstName, lastName: children.lastName, a: activities })
    .from(onetimeTakes)
    .innerJoin(children, eq(children.id, onetimeTakes.childId))
    .innerJoin(activities, eq(activities.id, onetimeTakes.activityId))
    .where(eq(onetimeTakes.draftId, d.id))
    .orderBy(asc(onetimeTakes.date), asc(onetimeTakes.id));
  const dates = rows.map((r) => ({ childName: `${r.firstName} ${r.lastName}`, date: r.t.date, activity: textIn(r.a, 'activity', lang), feeCents: r.t.feeCents, status: r.t.status as 'held' | 'released' | 'removed' }));
  return {
    key: d.key,
    programPeriodID: d.programPeriodId,
    programPeriod: pp ? textIn(pp, 'programPeriod', lang) : '',
    dates,
    totalCents: dates.filter((x) => x.status === 'held').reduce((n, x) => n + x.feeCents, 0),
    payment: paymentOf(d, deps.clock()),
  };
}
