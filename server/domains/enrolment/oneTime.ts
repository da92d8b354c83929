// One-time enrolment (spec 2.11 one-time enrolment summary, 4, 7.3, 9 application type 5): the
// program's single-date activities (type 4) offered to the account's registered children on the
// dates the provider set (onetime_dates), each date with its own seats. It is kept like an
// application: a draft under its key (applicationTypeId 5, one open per account and program), each
// child enrolled in dates, changed or skipped, then one submit that takes every chosen date's seat in
// one transaction (a date whose last seat went refuses the whole submit, nothing taken or charged),
// enrols and charges the dates and, with something to pay, holds the seats while the parent pays
// through the checkout (Billing.startPayment with the key: origin submitonetime). A hold that ends
// unpaid releases the dates (applicationPayment.ts releaseExpiredHolds, seats.ts releaseOneTimeTakes).
// Which programs offer it is the portal's own rule (programs.showOneTime, spec 4), evaluated here;
// which dates a child may choose is oneTime.dateOffered with the weekend rule (rules/oneTime.rules.json).
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/index';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { accounts, activities, applicationDrafts, enrollmentDates, onetimeDates, onetimeTakes, programPeriods, providers, seats, sites } from '../../db/schema';
import { isoDay } from '../../clock';
import { fail, httpError } from '../../errors';
import { textIn } from '../../providerTexts';
import { isTrue, type RuleSet } from '../../../src/engine/logic';
import { dateInLanguage } from '../../../src/engine/formats';
import { moneyText } from '../../../src/engine/money';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';
import type { OneTimeChoice } from '../../db/draftData';
import type { Confirmation } from './seats';
import { takeDateSeat } from './seats';
import type { DraftRow, ProgramRow } from './applicationDraft';
import { applicationOwes, payLater, paymentOf, postCharges } from './applicationPayment';
import { queueConfirmationMail, type ConfirmationMail } from './applicationCharges';
import { accountMoney } from '../billing/ledger';
import { programPeriodList } from './registration';
import type { RegistrationOneTimeActivitiesResponse, RegistrationOneTimeSaveBody, RegistrationOneTimeStartResponse } from '../../../src/engine/contract.gen';

type Summary = RegistrationOneTimeStartResponse;
type Owner = Pick<SessionInfo, 'providerId' | 'accountId'> & Partial<Pick<SessionInfo, 'email' | 'firstName' | 'lastName'>>;
const WEEKEND = new Set([0, 6]);

/** A date's day of the week, 0 Sunday to 6 Saturday. */
const weekdayOf = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
/** Whole days from today to the date (negative before today). */
const daysAhead = (iso: string, today: string) => Math.round((Date.parse(`${iso}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);

function notFound(deps: AppDeps, lang: string): never {
  throw httpError({ deps, lang }, 404, 'application.errors.notFound');
}

async function rulesOf(deps: AppDeps, providerId: number, lang: string): Promise<RuleSet> {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!decl) return fail({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  return decl.set.rules as RuleSet;
}

async function programOf(deps: AppDeps, s: Owner, id: number, lang: string): Promise<ProgramRow> {
  const [pp] = await deps.db.select().from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, s.providerId)));
  if (!pp) notFound(deps, lang);
  return pp;
}

/**
 * The program as the programs list shows it to the account, when it offers one-time activities to
 * it (spec 4: children, option T or D, one-time activities, a running program, online enrolment and
 * an account that is not suspended; the list's own rule programs.showOneTime), with the account's
 * registered children; refused with 403 otherwise.
 */
async function offeredProgram(deps: AppDeps, s: SessionInfo, ppId: number, lang: string) {
  const rules = await rulesOf(deps, s.providerId, lang);
  const [item] = (await programPeriodList(deps, s, lang, { programPeriodID: ppId, otherDistrict: true })).filter((p) => p.programPeriodID === ppId);
  const [acct] = await deps.db.select({ suspended: accounts.suspended }).from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  if (!item) notFound(deps, lang);
  if (!isTrue(rules, 'programs.showOneTime', { item, data: { accountSummary: { suspended: acct?.suspended ?? false } } })) fail({ deps, lang }, 403, 'onetime.errors.notOffered');
  return { item, children: item.children.filter((c) => c.isRegistered).map((c) => ({ childID: c.childID, childName: c.childName })), rules };
}

/** The account's one-time enrolment under this key (another account's, provider's or an application's key is not found). */
async function draftOf(deps: AppDeps, s: Owner, key: string, lang: string): Promise<DraftRow> {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(
      and(
        eq(applicationDrafts.key, key),
        eq(applicationDrafts.providerId, s.providerId),
        eq(applicationDrafts.accountId, s.accountId),
        eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.oneTime),
      ),
    );
  if (!d || d.status === 'discarded') notFound(deps, lang);
  return d;
}

interface OfferedActivity {
  activityID: number;
  activity: string;
  siteName: string;
  timing: string;
  feeCents: number;
  capacity: number;
  daysOfWeek: string[];
  activityTypeID: number;
  dates: { date: string; seatsLeft: number; offered: boolean }[];
}

/** The program's one-time activities with their dates from today, seats left and whether each is offered (oneTime.dateOffered). */
async function offeredActivities(deps: AppDeps, providerId: number, pp: ProgramRow, rules: RuleSet, lang: string): Promise<OfferedActivity[]> {
  const today = isoDay(deps.today());
  const acts = await deps.db
    .select({ a: activities, siteName: sites.siteName, siteTranslations: sites.translations })
    .from(activities)
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(activities.providerId, providerId), eq(activities.programPeriodId, pp.id), eq(activities.isOneTime, true)))
    .orderBy(asc(activities.activity), asc(activities.id));
  if (!acts.length) return [];
  const ids = acts.map((r) => r.a.id);
  const dates = await deps.db.select().from(onetimeDates).where(and(eq(onetimeDates.providerId, providerId), inArray(onetimeDates.activityId, ids))).orderBy(asc(onetimeDates.date));
  const seatRows = await deps.db.select().from(seats).where(and(eq(seats.providerId, providerId), inArray(seats.activityId, ids)));
  return acts.map(({ a, siteName, siteTranslations }) => {
    const daysOfWeek = a.daysOfWeek.split(',').map((d) => d.trim()).filter(Boolean);
    const facts = { program: { enableWeekendScheduling: pp.enableWeekendScheduling }, activity: { daysOfWeek, activityTypeID: a.activityTypeID } };
    return {
      activityID: a.id,
      activity: textIn(a, 'activity', lang),
      siteName: textIn({ siteName, translations: siteTranslations }, 'siteName', lang),
      timing: a.timing,
      feeCents: a.feeCents,
      capacity: a.capacity,
      daysOfWeek,
      activityTypeID: a.activityTypeID,
      dates: dates
        .filter((d) => d.activityId === a.id && d.date >= today && d.date <= pp.endDate)
        .map((d) => {
          const total = d.capacity ?? a.capacity;
          const seat = seatRows.find((r) => r.activityId === a.id && r.weekStart === d.date);
          const seatsLeft = Math.max(0, seat ? seat.total - seat.taken : total);
          const offered = isTrue(rules, 'oneTime.dateOffered', { ...facts, date: { daysAhead: daysAhead(d.date, today), weekend: WEEKEND.has(weekdayOf(d.date)) } });
          return { date: d.date, seatsLeft, offered };
        }),
    };
  });
}

/** The one-time dates each child has already (kept by the account's earlier enrolments). */
async function enrolledDatesOf(deps: AppDeps, s: Owner, childIDs: number[]): Promise<Set<string>> {
  if (!childIDs.length) return new Set();
  const rows = await deps.db
    .select({ childId: enrollmentDates.childId, activityId: enrollmentDates.activityId, date: enrollmentDates.date })
    .from(enrollmentDates)
    .where(and(eq(enrollmentDates.providerId, s.providerId), eq(enrollmentDates.accountId, s.accountId), inArray(enrollmentDates.childId, childIDs), eq(enrollmentDates.kind, 'oneTime')));
  return new Set(rows.map((r) => `${r.childId}/${r.activityId}/${r.date}`));
}

function choicesOf(d: DraftRow): OneTimeChoice[] {
  return d.data.oneTime ?? [];
}

/** The enrolment's summary: per child the dates chosen (or skipped) with their fees, the total, and its payment. */
async function summaryOf(deps: AppDeps, s: Owner, d: DraftRow, pp: ProgramRow, kids: { childID: number; childName: string }[], acts: OfferedActivity[], lang: string): Promise<Summary> {
  const chosen = choicesOf(d);
  // a submitted enrolment lists what it took (its children as they were then)
  const submitted = d.status === 'submitted' ? (d.result?.children ?? []) : null;
  const children = (submitted ? submitted.map((c) => ({ childID: c.prChildID, childName: c.fullName })) : kids).map((k) => {
    const c = chosen.find((x) => x.childID === k.childID);
    const dates = (c?.status === 'enrol' ? c.picks : []).flatMap((p) => {
      const a = acts.find((x) => x.activityID === p.activityID);
      return a ? [{ date: p.date, activityID: a.activityID, activity: a.activity, siteName: a.siteName, timing: a.timing, feeCents: a.feeCents }] : [];
    });
    return {
      childID: k.childID,
      childName: k.childName,
      status: (c?.status ?? 'pending') as 'pending' | 'enrol' | 'skip',
      dates,
      totalCents: dates.reduce((t, x) => t + x.feeCents, 0),
    };
  });
  const totalCents = children.reduce((t, c) => t + c.totalCents, 0);
  return {
    key: d.key,
    programPeriodID: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    applicationTypeID: APPLICATION_TYPE.oneTime,
    status: d.status === 'submitted' ? 'submitted' : d.status === 'discarded' ? 'discarded' : 'open',
    submittedOn: d.submittedAt ? isoDay(d.submittedAt) : null,
    children,
    totalCents,
    canSubmit: d.status === 'open' && children.length > 0 && children.every((c) => c.status !== 'pending') && children.some((c) => c.dates.length > 0),
    payment: paymentOf(d, deps.clock()),
  };
}

/** What every answer needs: the draft, its program, children and activities. */
async function contextOf(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const d = await draftOf(deps, s, key, lang);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  // a submitted enrolment is read back whatever the program offers today
  if (d.status !== 'open') {
    const rules = await rulesOf(deps, s.providerId, lang);
    return { d, pp, children: [], acts: await offeredActivities(deps, s.providerId, pp, rules, lang) };
  }
  const offer = await offeredProgram(deps, s, pp.id, lang);
  return { d, pp, children: offer.children, acts: await offeredActivities(deps, s.providerId, pp, offer.rules, lang) };
}

/** Starts the account's one-time enrolment of the program, or answers its open one (spec 4: only where the program offers it). */
export async function startOneTime(deps: AppDeps, s: SessionInfo, programPeriodID: number, lang: string): Promise<Summary> {
  const pp = await programOf(deps, s, programPeriodID, lang);
  const offer = await offeredProgram(deps, s, pp.id, lang);
  const [open] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(
      and(
        eq(applicationDrafts.providerId, s.providerId),
        eq(applicationDrafts.accountId, s.accountId),
        eq(applicationDrafts.programPeriodId, pp.id),
        eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.oneTime),
        eq(applicationDrafts.status, 'open'),
      ),
    )
    .orderBy(asc(applicationDrafts.id))
    .limit(1);
  const now = deps.clock();
  const d =
    open ??
    (
      await deps.db
        .insert(applicationDrafts)
        .values({ key: randomBytes(16).toString('hex'), providerId: s.providerId, accountId: s.accountId, programPeriodId: pp.id, applicationTypeId: APPLICATION_TYPE.oneTime, step: 'children', data: { oneTime: [] }, status: 'open', createdAt: now, updatedAt: now })
        .returning()
    )[0];
  return summaryOf(deps, s, d, pp, offer.children, await offeredActivities(deps, s.providerId, pp, offer.rules, lang), lang);
}

/** The enrolment's summary (onetimeenrollment-enrollmentsubmission once submitted). */
export async function oneTimeSummary(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<Summary> {
  const { d, pp, children, acts } = await contextOf(deps, s, key, lang);
  return summaryOf(deps, s, d, pp, children, acts, lang);
}

/** Per child, the one-time activities and their dates: seats left, offered, chosen here, or the child's already. */
export async function oneTimeActivities(deps: AppDeps, s: SessionInfo, key: string, childID: number | undefined, lang: string): Promise<RegistrationOneTimeActivitiesResponse> {
  const { d, children, acts } = await contextOf(deps, s, key, lang);
  if (childID !== undefined && !children.some((c) => c.childID === childID)) notFound(deps, lang);
  const kids = children.filter((c) => childID === undefined || c.childID === childID);
  const had = await enrolledDatesOf(deps, s, kids.map((k) => k.childID));
  const chosen = choicesOf(d);
  return kids.map((k) => {
    const c = chosen.find((x) => x.childID === k.childID);
    return {
      childID: k.childID,
      childName: k.childName,
      status: c?.status ?? 'pending',
      activities: acts.map((a) => ({
        activityID: a.activityID,
        activity: a.activity,
        siteName: a.siteName,
        timing: a.timing,
        feeCents: a.feeCents,
        dates: a.dates.map((x) => {
          const enrolled = had.has(`${k.childID}/${a.activityID}/${x.date}`);
          return { date: x.date, seatsLeft: x.seatsLeft, open: x.offered && x.seatsLeft > 0 && !enrolled, chosen: c?.status === 'enrol' && c.picks.some((p) => p.activityID === a.activityID && p.date === x.date), enrolled };
        }),
      })),
    };
  });
}

/** A child of the enrolment with the dates chosen for it (the child page's form), as <activityID>/<date>. */
export async function oneTimeChild(deps: AppDeps, s: SessionInfo, key: string, childID: number, lang: string) {
  const { d, children } = await contextOf(deps, s, key, lang);
  const kid = children.find((c) => c.childID === childID);
  if (!kid) notFound(deps, lang);
  const c = choicesOf(d).find((x) => x.childID === childID);
  return { childID, childName: kid.childName, status: c?.status ?? ('pending' as const), dates: (c?.picks ?? []).map((p) => `${p.activityID}/${p.date}`) };
}

/** The dates a child may be enrolled in, one option per activity and date, labelled in the request's language; the others disabled with their reason. */
export async function oneTimeDateOptions(deps: AppDeps, s: SessionInfo, key: string, childID: number, lang: string) {
  const [kid] = await oneTimeActivities(deps, s, key, childID, lang);
  const [p] = await deps.db.select({ countryCode: providers.countryCode }).from(providers).where(eq(providers.id, s.providerId));
  return kid.activities.flatMap((a) =>
    a.dates.map((x) => ({
      value: `${a.activityID}/${x.date}`,
      label: deps.t(lang, 'onetime.child.option', { date: dateInLanguage(x.date, lang), activity: a.activity, timing: a.timing, fee: moneyText(a.feeCents, lang, p?.countryCode ?? 'US'), seats: x.seatsLeft }),
      date: x.date,
      activityID: a.activityID,
      seatsLeft: x.seatsLeft,
      unavailable: !x.open && !x.chosen,
      reason: x.enrolled ? ('enrolled' as const) : x.open || x.chosen ? null : x.seatsLeft <= 0 ? ('full' as const) : ('notOffered' as const),
    })),
  );
}

/** Enrols a child in dates of the one-time activities, changes them, or skips the child. */
export async function saveOneTime(deps: AppDeps, s: SessionInfo, key: string, body: RegistrationOneTimeSaveBody, lang: string): Promise<Summary> {
  const { d, pp, children, acts } = await contextOf(deps, s, key, lang);
  if (d.status !== 'open') fail({ deps, lang }, 409, 'application.errors.submitted');
  if (!children.some((c) => c.childID === body.childID)) notFound(deps, lang);
  let choice: OneTimeChoice;
  if (body.skip) choice = { childID: body.childID, status: 'skip', picks: [] };
  else {
    const picks = [...new Set(body.dates ?? [])].sort().map((v) => {
      const [id, date] = v.split('/');
      return { activityID: Number(id), date };
    });
    if (!picks.length) fail({ deps, lang }, 400, 'onetime.errors.chooseDates');
    const had = await enrolledDatesOf(deps, s, [body.childID]);
    for (const { activityID, date } of picks) {
      const offered = acts.find((x) => x.activityID === activityID)?.dates.find((x) => x.date === date);
      // a date its activity does not offer the child (past, a weekend day the rule refuses, hers already)
      if (!offered || !offered.offered || had.has(`${body.childID}/${activityID}/${date}`)) fail({ deps, lang }, 400, 'onetime.errors.dateNotOffered');
      if (offered.seatsLeft <= 0) fail({ deps, lang }, 409, 'onetime.errors.dateFull', { date: dateInLanguage(date, lang) });
    }
    choice = { childID: body.childID, status: 'enrol', picks };
  }
  const oneTime = [...choicesOf(d).filter((c) => c.childID !== body.childID), choice];
  const [row] = await deps.db
    .update(applicationDrafts)
    .set({ data: { ...d.data, oneTime }, step: 'summary', updatedAt: deps.clock() })
    .where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')))
    .returning();
  if (!row) fail({ deps, lang }, 409, 'application.errors.submitted');
  return summaryOf(deps, s, row, pp, children, acts, lang);
}

/** Pay later: the dates and their seats stay, the charges stay on the balance (a hold not waiting for a payment is left as it is). */
export async function payLaterOneTime(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<Summary> {
  const d = await draftOf(deps, s, key, lang);
  if (d.status !== 'submitted') fail({ deps, lang }, 409, 'payment.errors.nothingToPay');
  await payLater(deps, d);
  return oneTimeSummary(deps, s, key, lang);
}

/** Discards the open enrolment (Exit, return). */
export async function discardOneTime(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<{ discarded: boolean }> {
  const d = await draftOf(deps, s, key, lang);
  if (d.status !== 'open') fail({ deps, lang }, 409, 'application.errors.submitted');
  await deps.db.update(applicationDrafts).set({ status: 'discarded', updatedAt: deps.clock() }).where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')));
  return { discarded: true };
}

class DateFull extends Error {
  constructor(readonly date: string) {
    super(`no seat left on ${date}`);
  }
}

/**
 * Submits the enrolment once. One transaction claims the draft (open to submitted), takes each chosen
 * date's seat (in activity and date order, so two submits never wait on each other in a circle),
 * records the dates, charges them and sets what is to be paid now with the seats held; a date
 * without a seat rolls everything back (409). A second submit answers the first one's summary.
 */
export async function submitOneTime(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<Summary> {
  const { d, pp, children, acts } = await contextOf(deps, s, key, lang);
  if (d.status !== 'open') return summaryOf(deps, s, d, pp, children, acts, lang);
  const before = await summaryOf(deps, s, d, pp, children, acts, lang);
  if (!before.canSubmit) fail({ deps, lang }, 400, 'onetime.errors.nothingChosen');
  const had = await enrolledDatesOf(deps, s, children.map((k) => k.childID));
  const takes = before.children
    .flatMap((c) => c.dates.map((x) => ({ child: c, date: x.date, feeCents: x.feeCents, activity: acts.find((a) => a.activityID === x.activityID) })))
    .sort((a, b) => (a.activity?.activityID ?? 0) - (b.activity?.activityID ?? 0) || a.date.localeCompare(b.date) || a.child.childID - b.child.childID);
  for (const t of takes) {
    const offered = t.activity?.dates.find((x) => x.date === t.date);
    if (!t.activity || !offered?.offered || had.has(`${t.child.childID}/${t.activity.activityID}/${t.date}`)) fail({ deps, lang }, 400, 'onetime.errors.dateNotOffered');
  }
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, s.providerId));
  const holdMinutes = deps.settings(p.appName).payments.seatHoldMinutes;
  const caps = await deps.db.select({ activityId: onetimeDates.activityId, date: onetimeDates.date, capacity: onetimeDates.capacity }).from(onetimeDates).where(eq(onetimeDates.providerId, s.providerId));
  const total = before.totalCents;
  const owedBefore = (await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()))).balanceCents;
  const due = applicationOwes(total, owedBefore + total);
  const now = deps.clock();
  const result: Confirmation = {
    key: d.key,
    programPeriodID: pp.id,
    programPeriod: before.programPeriod,
    submittedOn: isoDay(deps.today()),
    emailSent: false,
    parentName: `${s.firstName} ${s.lastName}`,
    children: before.children.map((c) => ({
      prChildID: c.childID,
      fullName: c.childName,
      status: 'REGISTERED',
      activities: c.dates.map((x) => ({ activityID: x.activityID, activity: x.activity, weekStart: x.date, state: 'A' as const })),
    })),
  };
  const mail = await submittedMail(deps, s, d, before, due, holdMinutes, lang);
  if (mail) result.emailSent = true;
  let queued = false;
  try {
    await deps.db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(applicationDrafts)
        .set({
          status: 'submitted',
          step: 'submitted',
          submittedAt: now,
          updatedAt: now,
          result,
          paymentStatus: due > 0 ? 'AWAITING' : 'NONE',
          holdUntil: due > 0 ? new Date(now.getTime() + holdMinutes * 60_000) : null,
          amountDueCents: due,
          chargedCents: total,
          ...(due > 0 ? { noticeEmail: s.email || null, noticeLocale: lang } : {}),
        })
        .where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')))
        .returning({ id: applicationDrafts.id });
      if (!claimed) return;
      for (const t of takes) {
        const a = t.activity!;
        const capacity = caps.find((c) => c.activityId === a.activityID && c.date === t.date)?.capacity ?? a.capacity;
        const seatId = await takeDateSeat(tx, s.providerId, a.activityID, t.date, capacity);
        if (seatId === null) throw new DateFull(t.date);
        await tx.insert(onetimeTakes).values({ providerId: s.providerId, accountId: s.accountId, draftId: d.id, childId: t.child.childID, activityId: a.activityID, seatId, date: t.date, feeCents: t.feeCents });
        await tx.insert(enrollmentDates).values({ providerId: s.providerId, accountId: s.accountId, childId: t.child.childID, activityId: a.activityID, date: t.date, kind: 'oneTime' }).onConflictDoNothing();
      }
      const firstName = (id: number) => (before.children.find((c) => c.childID === id)?.childName ?? '').split(' ')[0];
      await postCharges(
        tx,
        deps,
        s,
        takes.map((t) => ({ firstName: firstName(t.child.childID), feeName: `${t.activity!.activity} ${t.date}`, regularFee: t.feeCents })),
      );
      if (mail) {
        await queueConfirmationMail(tx, deps, mail);
        queued = true;
      }
    });
  } catch (e) {
    if (e instanceof DateFull) fail({ deps, lang }, 409, 'onetime.errors.dateFull', { date: dateInLanguage(e.date, lang) });
    throw e;
  }
  if (queued) deps.mailQueued();
  return oneTimeSummary(deps, s, key, lang);
}

/**
 * The e-mail a submitted one-time enrolment sends the parent who submitted it, in her language, with a
 * row in the account's Emails/Texts history: per child the dates enrolled (or skipped), the total,
 * and what is to be paid now while the seats are held.
 */
async function submittedMail(deps: AppDeps, s: Owner, d: DraftRow, summary: Summary, dueCents: number, holdMinutes: number, lang: string): Promise<ConfirmationMail | null> {
  if (!s.email) return null;
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, d.providerId));
  if (!p) return null;
  const t = (k: string, params?: Record<string, unknown>) => deps.t(lang, `onetime.email.${k}`, params);
  const money = (cents: number) => moneyText(cents, lang, p.countryCode);
  const lines: string[] = [];
  for (const c of summary.children) {
    lines.push(c.status === 'skip' ? t('skipped', { child: c.childName }) : `${c.childName}:`);
    for (const x of c.dates) lines.push(`  ${t('date', { date: dateInLanguage(x.date, lang), activity: x.activity, timing: x.timing, fee: money(x.feeCents) })}`);
  }
  lines.push('', t('total', { amount: money(summary.totalCents) }));
  if (dueCents > 0) lines.push('', t('due', { amount: money(dueCents), minutes: holdMinutes }));
  const name = `${s.firstName ?? ''} ${s.lastName ?? ''}`.trim();
  return {
    providerId: d.providerId,
    accountId: d.accountId,
    kind: 'onetime-confirmation',
    to: s.email,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    programName: p.programName,
    subject: t('subject', { program: summary.programPeriod }),
    text: [t('intro', { name }), '', t('body', { program: summary.programPeriod }), '', ...lines, '', t('footer')].join('\n'),
  };
}

/** A provider's one-time dates refused by its own operations (an unknown activity, a date held). */
export class OneTimeDateError extends Error {}

/** The provider's one-time activities with the dates they are offered on: seats taken and total per date. */
export async function oneTimeDateList(db: Db, appName?: string) {
  const rows = await db
    .select({ provider: providers.appName, activityID: activities.id, activity: activities.activity, program: programPeriods.programPeriod, date: onetimeDates.date, capacity: onetimeDates.capacity, defaultCapacity: activities.capacity, taken: seats.taken })
    .from(onetimeDates)
    .innerJoin(activities, eq(activities.id, onetimeDates.activityId))
    .innerJoin(programPeriods, eq(programPeriods.id, activities.programPeriodId))
    .innerJoin(providers, eq(providers.id, onetimeDates.providerId))
    .leftJoin(seats, and(eq(seats.activityId, onetimeDates.activityId), eq(seats.weekStart, onetimeDates.date)))
    .where(appName ? eq(providers.appName, appName) : undefined)
    .orderBy(asc(providers.appName), asc(activities.id), asc(onetimeDates.date));
  return rows.map((r) => ({ provider: r.provider, activityID: r.activityID, activity: r.activity, program: r.program, date: r.date, total: r.capacity ?? r.defaultCapacity, taken: r.taken ?? 0 }));
}

async function oneTimeActivityOf(db: Db, appName: string, activityID: number) {
  const [row] = await db
    .select({ a: activities, providerId: providers.id, endDate: programPeriods.endDate, startDate: programPeriods.startDate })
    .from(activities)
    .innerJoin(providers, eq(providers.id, activities.providerId))
    .innerJoin(programPeriods, eq(programPeriods.id, activities.programPeriodId))
    .where(and(eq(activities.id, activityID), eq(providers.appName, appName)));
  if (!row || !row.a.isOneTime) throw new OneTimeDateError(`Activity ${activityID} is not a one-time activity of ${appName}.`);
  return row;
}

/** Offers a one-time activity on a date of its program (its own number of seats, or the activity's); offering it again changes its seats. */
export async function addOneTimeDate(db: Db, appName: string, activityID: number, date: string, capacity?: number): Promise<void> {
  const row = await oneTimeActivityOf(db, appName, activityID);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new OneTimeDateError(`${date} is not a date (YYYY-MM-DD).`);
  if (date < row.startDate || date > row.endDate) throw new OneTimeDateError(`${date} is outside the program (${row.startDate} to ${row.endDate}).`);
  if (capacity !== undefined && (!Number.isInteger(capacity) || capacity < 1)) throw new OneTimeDateError('The number of seats must be a whole number of at least 1.');
  await db.transaction(async (tx) => {
    await tx
      .insert(onetimeDates)
      .values({ providerId: row.providerId, activityId: activityID, date, capacity: capacity ?? null })
      .onConflictDoUpdate({ target: [onetimeDates.activityId, onetimeDates.date], set: { capacity: capacity ?? null } });
    // a date whose seats were taken already keeps them: its total follows, never below what is taken
    await tx
      .update(seats)
      .set({ total: sql`greatest(${capacity ?? row.a.capacity}, ${seats.taken})` })
      .where(and(eq(seats.activityId, activityID), eq(seats.weekStart, date)));
  });
}

/** Withdraws a date nobody holds (a date a parent holds or enrolled in stays: refused). */
export async function removeOneTimeDate(db: Db, appName: string, activityID: number, date: string): Promise<void> {
  await oneTimeActivityOf(db, appName, activityID);
  await db.transaction(async (tx) => {
    const [seat] = await tx.select().from(seats).where(and(eq(seats.activityId, activityID), eq(seats.weekStart, date))).for('update');
    if (seat && seat.taken > 0) throw new OneTimeDateError(`${date} has ${seat.taken} seat(s) taken: it cannot be withdrawn.`);
    const gone = await tx.delete(onetimeDates).where(and(eq(onetimeDates.activityId, activityID), eq(onetimeDates.date, date))).returning({ id: onetimeDates.id });
    if (!gone.length) throw new OneTimeDateError(`Activity ${activityID} is not offered on ${date}.`);
  });
}
