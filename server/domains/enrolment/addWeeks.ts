// Add weeks to a weekly (summer) program (spec 2.11 weekly card's add-weeks button, View/enrol
// activities 'add weeks'): per child registered in the program, the weeks of its activities the
// child does not have yet, each with its range, activity, days, timing, seats left and fee; a week
// already begun or inside the provider's notice (changeSchedule.minimumNoticeDays) is refused by the
// declared rule addWeeks.weekReason, a week without a seat is shown full. The parent's choice is kept
// as an open request of the change-schedule table (data.kind 'addWeeks', its random hex key), so what
// it leaves due is paid through the change's payment step (Billing.startPayment changeKey, the saved
// methods, the change's confirmation). Sending it takes every week's seat in one transaction by the
// conditional update (UPDATE seats ... WHERE taken < total): a week whose last seat went to another
// parent refuses the whole send (409), nothing taken or charged. The weeks are enrolled at once and
// charged once, as one ledger charge; a second send answers the request as sent. Every id is checked
// against the signed-in account and provider.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { DbOrTx, Tx } from '../../db/index';
import { accounts, activities, changeRequests, children, enrollments, ledgerEntries, programPeriods, providers, registrations, seats, seatTakes, sites, type ChangeData } from '../../db/schema';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { isoDay } from '../../clock';
import { fail } from '../../errors';
import { textIn } from '../../providerTexts';
import { evaluateRule, type RuleSet } from '../../../src/engine/logic';
import { dateInLanguage } from '../../../src/engine/formats';
import { moneyText } from '../../../src/engine/money';
import { ACTIVITY_TYPE } from '../../../src/engine/programCodes';
import { accountMoney } from '../billing/ledger';
import { addDays } from '../../../src/engine/billing';
import { isWeekly, weeksOf } from './applicationDraft';
import { accountHolders } from './holders';
import { takeDateSeat } from './seats';

type Owner = { providerId: number; accountId: number };
type Deps = Pick<AppDeps, 'db' | 'clock' | 'today' | 't' | 'settings' | 'declarations'> & { mailQueued?: () => void };
type ProgramRow = typeof programPeriods.$inferSelect;
type ActivityRow = typeof activities.$inferSelect;
export type WeekReason = 'past' | 'notice' | 'full' | null;
export type AddWeeksData = NonNullable<ChangeData['addWeeks']>;

/** Test hooks: a pause between reading a week's seats and taking them (many sends meet there). */
export const addWeeksHooks: { pauseBeforeSeatTakeMs?: number } = {};

const codes = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

function daysAhead(date: string, today: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

async function providerOf(deps: Deps, providerId: number, lang: string) {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!p || !decl) return fail({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  return { rules: decl.set.rules as RuleSet, noticeDays: deps.settings(p.appName).changeSchedule.minimumNoticeDays };
}

/** The provider's weekly program that takes enrolments online; any other is not found. */
async function weeklyProgram(deps: Deps, s: Owner, id: number, lang: string, db: DbOrTx = deps.db): Promise<ProgramRow> {
  const [pp] = await db.select().from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, s.providerId)));
  if (!pp || !isWeekly(pp)) return fail({ deps, lang }, 404, 'enrollment.addWeeks.errors.notFound');
  if (!pp.canEnrollOnline && !pp.enableEnrollmentInParentForm) return fail({ deps, lang }, 404, 'enrollment.addWeeks.errors.notFound');
  return pp;
}

/** The account's children registered in the program (a pending application's child has no weeks to add yet). */
async function programChildren(db: DbOrTx, s: Owner, pp: ProgramRow) {
  return db
    .select({ childID: children.id, firstName: children.firstName, lastName: children.lastName, registrationId: registrations.id })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId), eq(registrations.programPeriodId, pp.id), eq(registrations.status, 'REGISTERED'), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
}

/** The program's activities taken by the week: by the period, not one-time, not a single date. */
async function weeklyActivities(db: DbOrTx, s: Owner, pp: ProgramRow) {
  return db
    .select({ a: activities, site: sites })
    .from(activities)
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(activities.providerId, s.providerId), eq(activities.programPeriodId, pp.id), eq(activities.isOneTime, false), sql`${activities.activityTypeID} <> ${ACTIVITY_TYPE.singleDate}`))
    .orderBy(asc(activities.id));
}

/** A week's fee: the activity's fee per service period (a week), or per day times the week's days. */
export function weekFeeCents(a: Pick<ActivityRow, 'feeType' | 'feeCents'>, days: string[]): number {
  return a.feeType === 'PER_DAY' ? a.feeCents * days.length : a.feeCents;
}

/** The days a week of an activity holds: its days of the week, at most its days per week. */
function weekDays(a: Pick<ActivityRow, 'daysOfWeek' | 'daysPerWeek' | 'activityTypeID'>): string[] {
  const offered = codes(a.daysOfWeek);
  return a.activityTypeID === ACTIVITY_TYPE.selectableDays && a.daysPerWeek > 0 ? offered.slice(0, a.daysPerWeek) : offered;
}

export interface WeekOffer {
  value: string;
  label: string;
  childID: number;
  activityID: number;
  activity: string;
  siteName: string;
  timing: string;
  daysOfWeek: string[];
  weekStart: string;
  weekEnd: string;
  weekRange: string;
  fee: number;
  seatsLeft: number;
  reason: WeekReason;
  unavailable: boolean;
  /** the provider's notice in days (said beside a week inside it) */
  noticeDays: number;
}

/**
 * Every week of the program's weekly activities the child does not have, with the seats left now and
 * why it cannot be taken (addWeeks.weekReason: begun, inside the notice; or no seat left), sorted by
 * the week, then the activity's name.
 */
async function weekOffers(deps: Deps, s: Owner, pp: ProgramRow, childID: number, lang: string, db: DbOrTx = deps.db): Promise<WeekOffer[]> {
  const { rules, noticeDays } = await providerOf(deps, s.providerId, lang);
  const today = isoDay(deps.today());
  const acts = await weeklyActivities(db, s, pp);
  if (!acts.length) return [];
  const ids = acts.map((x) => x.a.id);
  const seatRows = await db.select().from(seats).where(and(eq(seats.providerId, s.providerId), inArray(seats.activityId, ids)));
  const mine = await db
    .select({ activityId: enrollments.activityId, date: enrollments.enrollmentDate })
    .from(enrollments)
    .where(and(eq(enrollments.providerId, s.providerId), eq(enrollments.accountId, s.accountId), eq(enrollments.childId, childID), inArray(enrollments.activityId, ids), eq(enrollments.status, 'A')));
  const out: WeekOffer[] = [];
  for (const { a, site } of acts) {
    const days = weekDays(a);
    for (const w of weeksOf(a.startDate, a.endDate)) {
      // a week the child has (an enrolment starting inside it) is not offered again
      if (mine.some((m) => m.activityId === a.id && m.date >= w.weekStart && m.date <= addDays(w.weekStart, 6))) continue;
      const seat = seatRows.find((r) => r.activityId === a.id && r.weekStart === w.weekStart);
      const seatsLeft = Math.max(0, seat ? seat.total - seat.taken : a.capacity);
      const facts = { week: { daysAhead: daysAhead(w.weekStart, today), seatsLeft, capacityCheck: pp.capacityCheck }, settings: { noticeDays } };
      const reason = (evaluateRule(rules, 'addWeeks.weekReason', facts) ?? null) as WeekReason;
      const fee = weekFeeCents(a, days);
      const weekRange = `${dateInLanguage(w.weekStart, lang)} - ${dateInLanguage(w.weekEnd, lang)}`;
      const activity = textIn(a, 'activity', lang);
      const dayNames = days.map((d) => deps.t(lang, `runtime.weekdays.short.${d}`)).join(' ');
      out.push({
        value: `${a.id}/${w.weekStart}`,
        // a week that cannot be taken says why beside it (the form's disabled note), not its seats
        label: deps.t(lang, reason ? 'enrollment.addWeeks.optionClosed' : 'enrollment.addWeeks.option', { range: weekRange, activity, days: dayNames, timing: a.timing, fee: moneyText(fee, lang), count: seatsLeft }),
        childID,
        activityID: a.id,
        activity,
        siteName: textIn(site, 'siteName', lang),
        timing: a.timing,
        daysOfWeek: days,
        weekStart: w.weekStart,
        weekEnd: w.weekEnd,
        weekRange,
        fee,
        seatsLeft,
        reason,
        unavailable: reason !== null,
        noticeDays,
      });
    }
  }
  return out.sort((x, y) => x.weekStart.localeCompare(y.weekStart) || x.activity.localeCompare(y.activity, lang));
}

/** A week's seat of a program that does not check its capacity (N): counted, never refused. */
async function countSeat(tx: Tx, providerId: number, activityId: number, week: string, capacity: number): Promise<number> {
  await tx.insert(seats).values({ providerId, activityId, weekStart: week, total: capacity, taken: 0 }).onConflictDoNothing({ target: [seats.activityId, seats.weekStart] });
  const [row] = await tx
    .update(seats)
    .set({ taken: sql`${seats.taken} + 1` })
    .where(and(eq(seats.activityId, activityId), eq(seats.weekStart, week), eq(seats.providerId, providerId)))
    .returning({ id: seats.id });
  return row.id;
}

/** The account's open add-weeks request in the program, if any. */
async function openRequest(db: DbOrTx, s: Owner, pp: ProgramRow) {
  const rows = await db
    .select()
    .from(changeRequests)
    .where(and(eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId), eq(changeRequests.programPeriodId, pp.id), eq(changeRequests.status, 'open')))
    .orderBy(asc(changeRequests.id));
  return rows.find((r) => r.data.addWeeks) ?? null;
}

/** The add-weeks page: the child's weeks not taken yet (the first registered child unless one is named) and the account's other children there. */
export async function addWeeksOffered(deps: Deps, s: Owner, query: { programPeriodID: number; childID?: number }, lang: string) {
  const pp = await weeklyProgram(deps, s, query.programPeriodID, lang);
  const kids = await programChildren(deps.db, s, pp);
  const child = query.childID === undefined ? kids[0] : kids.find((k) => k.childID === query.childID);
  if (!child) return fail({ deps, lang }, 404, 'enrollment.addWeeks.errors.notFound');
  const open = await openRequest(deps.db, s, pp);
  const { noticeDays } = await providerOf(deps, s.providerId, lang);
  const weeks = await weekOffers(deps, s, pp, child.childID, lang);
  const offered = new Set(weeks.filter((w) => !w.unavailable).map((w) => w.value));
  return {
    programPeriodID: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    childID: child.childID,
    childName: `${child.firstName} ${child.lastName}`,
    children: kids.map((k) => ({ childID: k.childID, childName: `${k.firstName} ${k.lastName}`, current: k.childID === child.childID })),
    noticeDays,
    key: open?.key ?? null,
    // the child's weeks already chosen in the open request that can still be taken
    chosen: (open?.data.addWeeks?.weeks ?? []).filter((w) => w.childID === child.childID).map((w) => `${w.activityID}/${w.weekStart}`).filter((v) => offered.has(v)),
    weeks,
  };
}

/**
 * Keeps the child's chosen weeks in the account's open add-weeks request of the program (made on
 * first use): each must be a week offered to the child now (addWeeks.weekReason, a seat left), else
 * 400 naming it. The other children's choices stay as they are.
 */
export async function saveAddWeeks(deps: Deps, s: Owner, body: { programPeriodID: number; childID: number; weeks: string[] }, lang: string) {
  const pp = await weeklyProgram(deps, s, body.programPeriodID, lang);
  const kids = await programChildren(deps.db, s, pp);
  const child = kids.find((k) => k.childID === body.childID);
  if (!child) return fail({ deps, lang }, 404, 'enrollment.addWeeks.errors.notFound');
  const offers = await weekOffers(deps, s, pp, child.childID, lang);
  const picked = [...new Set(body.weeks)].map((v) => {
    const o = offers.find((x) => x.value === v);
    if (!o) return fail({ deps, lang }, 400, 'enrollment.addWeeks.errors.unknownWeek');
    if (o.reason) return fail({ deps, lang }, o.reason === 'full' ? 409 : 400, `enrollment.addWeeks.errors.${o.reason}`, { range: o.weekRange, activity: o.activity });
    return { childID: child.childID, activityID: o.activityID, weekStart: o.weekStart, daysOfWeek: o.daysOfWeek };
  });
  const open = await openRequest(deps.db, s, pp);
  const now = deps.clock();
  const others = (open?.data.addWeeks?.weeks ?? []).filter((w) => w.childID !== child.childID && kids.some((k) => k.childID === w.childID));
  const weeks = [...others, ...picked];
  if (!weeks.length) return fail({ deps, lang }, 400, 'enrollment.addWeeks.errors.noWeek');
  const data: ChangeData = { addWeeks: { weeks } };
  const first = weeks.map((w) => w.weekStart).sort()[0];
  if (open) {
    const [row] = await deps.db.update(changeRequests).set({ data, effectiveDate: first, updatedAt: now }).where(and(eq(changeRequests.id, open.id), eq(changeRequests.status, 'open'))).returning();
    if (!row) return fail({ deps, lang }, 409, 'application.errors.change.submitted');
    return { key: row.key };
  }
  const [row] = await deps.db
    .insert(changeRequests)
    .values({ key: randomBytes(16).toString('hex'), providerId: s.providerId, accountId: s.accountId, programPeriodId: pp.id, data, effectiveDate: first, createdAt: now, updatedAt: now })
    .returning();
  return { key: row.key };
}

/** The account's add-weeks request under this key (a change of schedule's key, another account's or provider's key is not found). */
async function requestOf(deps: Deps, s: Owner, key: string, lang: string) {
  const [r] = await deps.db.select().from(changeRequests).where(and(eq(changeRequests.key, key), eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId)));
  if (!r || r.status === 'discarded' || !r.data.addWeeks) return fail({ deps, lang }, 404, 'enrollment.addWeeks.errors.notFound');
  return r;
}

/** What each chosen week costs and the total (the fee of each week; the account's credit pays first). */
async function costOf(db: DbOrTx, deps: Deps, s: Owner, pp: ProgramRow, data: AddWeeksData, lang: string) {
  const acts = await weeklyActivities(db, s, pp);
  const kids = await programChildren(db, s, pp);
  const rows = data.weeks.flatMap((w) => {
    const x = acts.find((y) => y.a.id === w.activityID);
    const k = kids.find((y) => y.childID === w.childID);
    if (!x || !k) return [];
    const weekEnd = addDays(w.weekStart, 4);
    return [
      {
        childID: k.childID,
        childName: `${k.firstName} ${k.lastName}`,
        activityID: x.a.id,
        activity: textIn(x.a, 'activity', lang),
        siteName: textIn(x.site, 'siteName', lang),
        timing: x.a.timing,
        daysOfWeek: w.daysOfWeek,
        weekStart: w.weekStart,
        weekEnd,
        weekRange: `${dateInLanguage(w.weekStart, lang)} - ${dateInLanguage(weekEnd, lang)}`,
        fee: weekFeeCents(x.a, w.daysOfWeek),
        a: x.a,
        registrationId: k.registrationId,
      },
    ];
  });
  rows.sort((x, y) => x.childName.localeCompare(y.childName, lang) || x.weekStart.localeCompare(y.weekStart) || x.activity.localeCompare(y.activity, lang));
  const total = rows.reduce((n, r) => n + r.fee, 0);
  return { rows, total };
}

/** The request as its review and the payment step read it: each chosen week with its fee, the total, the credit applied and what is due now. */
export async function addWeeksRequest(deps: Deps, s: Owner, key: string, lang: string) {
  const r = await requestOf(deps, s, key, lang);
  const [pp] = await deps.db.select().from(programPeriods).where(eq(programPeriods.id, r.programPeriodId));
  const { rows, total } = await costOf(deps.db, deps, s, pp, r.data.addWeeks!, lang);
  const open = r.status === 'open';
  const credit = open ? (await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()))).creditCents : 0;
  const sentCost = r.cost as { total?: number; creditApplied?: number } | null;
  const creditApplied = open ? Math.min(total, credit) : (sentCost?.creditApplied ?? 0);
  return {
    key: r.key,
    programPeriodID: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    status: r.status as 'open' | 'applied',
    weeks: rows.map(({ a: _a, registrationId: _r, ...w }) => w),
    total: open ? total : (sentCost?.total ?? r.chargedCents),
    creditApplied,
    amountDue: open ? total - creditApplied : r.amountDueCents,
  };
}

/**
 * Sends the request once: in one transaction (the account's row locked, so its sends follow each
 * other) every week is checked again by addWeeks.weekReason and not already the child's, its seat
 * taken by the conditional update (a week without a seat refuses the whole send: 409 naming it,
 * nothing taken or charged), the child enrolled for the week, and the weeks charged as one ledger
 * charge. A second send answers the request as sent, charging nothing again.
 */
export async function submitAddWeeks(deps: Deps, s: Owner, key: string, lang: string) {
  const r = await requestOf(deps, s, key, lang);
  let mailed = false;
  if (r.status === 'open') {
    const { rules, noticeDays } = await providerOf(deps, s.providerId, lang);
    const today = isoDay(deps.today());
    await deps.db.transaction(async (tx) => {
      await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, s.accountId)).for('update');
      const [again] = await tx.select().from(changeRequests).where(eq(changeRequests.id, r.id)).for('update');
      if (!again || again.status !== 'open' || !again.data.addWeeks) return;
      const pp = await weeklyProgram(deps, s, again.programPeriodId, lang, tx);
      const { rows, total } = await costOf(tx, deps, s, pp, again.data.addWeeks, lang);
      if (!rows.length) fail({ deps, lang }, 400, 'enrollment.addWeeks.errors.noWeek');
      for (const w of rows) {
        const taken = await tx
          .select({ id: enrollments.id })
          .from(enrollments)
          .where(and(eq(enrollments.childId, w.childID), eq(enrollments.activityId, w.activityID), eq(enrollments.status, 'A'), gte(enrollments.enrollmentDate, w.weekStart), lte(enrollments.enrollmentDate, addDays(w.weekStart, 6))));
        if (taken.length) fail({ deps, lang }, 409, 'enrollment.addWeeks.errors.taken', { range: w.weekRange, activity: w.activity });
        const facts = { week: { daysAhead: daysAhead(w.weekStart, today), seatsLeft: 1, capacityCheck: pp.capacityCheck }, settings: { noticeDays } };
        const reason = (evaluateRule(rules, 'addWeeks.weekReason', facts) ?? null) as WeekReason;
        if (reason) fail({ deps, lang }, 400, `enrollment.addWeeks.errors.${reason}`, { range: w.weekRange, activity: w.activity });
        if (addWeeksHooks.pauseBeforeSeatTakeMs) await new Promise((res) => setTimeout(res, addWeeksHooks.pauseBeforeSeatTakeMs));
        // the week's seat row is made with the activity's capacity when first taken; one conditional UPDATE takes it
        const seat = pp.capacityCheck === 'N' ? await countSeat(tx, s.providerId, w.activityID, w.weekStart, w.a.capacity) : await takeDateSeat(tx, s.providerId, w.activityID, w.weekStart, w.a.capacity);
        if (seat === null) fail({ deps, lang }, 409, 'enrollment.addWeeks.errors.full', { range: w.weekRange, activity: w.activity });
        await tx.insert(seatTakes).values({ providerId: s.providerId, seatId: seat, registrationId: w.registrationId, changeRequestId: again.id });
        await tx.insert(enrollments).values({
          providerId: s.providerId,
          accountId: s.accountId,
          childId: w.childID,
          activityId: w.activityID,
          enrollmentDate: w.weekStart,
          deEnrollDate: w.weekEnd,
          daysOfWeek: w.daysOfWeek.join(','),
          weekRange: `${mdy(w.weekStart)} - ${mdy(w.weekEnd)}`,
        });
      }
      const credit = (await accountMoney(tx, s.providerId, s.accountId, today)).creditCents;
      const creditApplied = Math.min(total, credit);
      const now = deps.clock();
      // a program the portal invoices by service period bills the weeks on its invoices, not here
      const charged = pp.billingCycle ? 0 : total;
      if (charged > 0) {
        const what = textIn(pp, 'programPeriod', 'en');
        await tx.insert(ledgerEntries).values({ providerId: s.providerId, accountId: s.accountId, kind: 'CHARGE', amountCents: charged, entryDate: today, dueDate: today, description: `${what}: ${rows.length} week(s) added`, createdAt: now });
      }
      await tx
        .update(changeRequests)
        .set({
          status: 'applied',
          cost: { total: charged, creditApplied: Math.min(charged, creditApplied) },
          chargedCents: charged,
          amountDueCents: charged - Math.min(charged, creditApplied),
          appliesItself: true,
          submittedAt: deps.today(),
          appliedAt: now,
          updatedAt: now,
        })
        .where(and(eq(changeRequests.id, again.id), eq(changeRequests.status, 'open')));
      mailed = await weeksMail(deps, tx, s, pp, rows, charged, charged - Math.min(charged, creditApplied), lang);
    });
    if (mailed) deps.mailQueued?.();
  }
  return addWeeksRequest(deps, s, key, lang);
}

/**
 * The e-mail of weeks added, in the sender's language, to the primary account holder's sign-in
 * address and address on file, and in the account's Emails/Texts history, in the send's transaction:
 * each week with its child, activity, timing and fee, the total and what is due now.
 */
async function weeksMail(deps: Deps, tx: Tx, s: Owner, pp: ProgramRow, rows: { childName: string; activity: string; weekRange: string; timing: string; fee: number }[], totalCents: number, dueCents: number, lang: string): Promise<boolean> {
  const [p] = await tx.select().from(providers).where(eq(providers.id, s.providerId));
  const { holders, to } = await accountHolders(tx, s.providerId, s.accountId);
  if (!p || !to.length) return false;
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `mail.weeksAdded.${key}`, params);
  const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
  const program = textIn(pp, 'programPeriod', lang);
  const holder = holders[0];
  const lines = [
    t('greeting', { name: holder ? `${holder.firstName} ${holder.lastName}` : '' }),
    '',
    t('intro', { program }),
    '',
    ...rows.map((w) => t('week', { child: w.childName, activity: w.activity, range: w.weekRange, timing: w.timing, fee: fmt(w.fee) })),
    '',
    t('total', { amount: fmt(totalCents) }),
    dueCents > 0 ? t('due', { amount: fmt(dueCents) }) : t('nothingDue'),
    '',
    t('footer', { organisation: p.organisation }),
  ];
  const subject = t('subject', { program });
  for (const address of to) {
    await enqueueMail(tx, deps.clock, { providerId: s.providerId, kind: 'weeks-added', to: address, from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`, subject, text: lines.join('\n') });
  }
  await recordInHistory(tx, deps.today(), { providerId: s.providerId, accountId: s.accountId, subject, text: lines.join('\n'), from: p.programName });
  return true;
}
