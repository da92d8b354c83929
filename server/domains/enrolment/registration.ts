// Registration service's data: program periods with the account's children rows (programs list, home
// Registration section) and enrolled activities per child (home Childcare / Enrichment sections).
import { and, asc, eq, gt, gte, inArray, isNull, or } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type {
  RegistrationChildrenActivitiesQuery,
  RegistrationChildrenActivitiesResponse,
  RegistrationProgramPeriodsQuery,
  RegistrationProgramPeriodsResponse,
} from '../../../src/engine/contract.gen';
import { activities, applicationDrafts, children, enrollments, programPeriods, registrations, sites } from '../../db/schema';
import { httpError } from '../../errors';
import { isoDay } from '../../clock';
import { textIn } from '../../providerTexts';
import { providerOf } from '../provider/provider';
import { accountWaitlistPlaces, seatAvailability } from './seats';
import { eligibilityRules, eligibilityView, gradeListOf, ineligibility } from './eligibility';
import { amountOfCents } from '../../../src/engine/money';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';

type Category = 'schoolYear' | 'summerCamp' | 'preschool' | 'holidayCare' | 'other';
type Kind = 'childcare' | 'enrichment';
type Dow = 'S' | 'M' | 'T' | 'W' | 'TH' | 'F' | 'SA';

/** The provider's program period of that id, or undefined. */
export async function programPeriodOf(deps: AppDeps, providerId: number, id: number) {
  const [pp] = await deps.db.select({ id: programPeriods.id }).from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, providerId)));
  return pp;
}

export function notFound(deps: AppDeps, lang: string): never {
  throw httpError({ deps, lang }, 404, 'server.errors.notFound');
}

export const days = (s: string): Dow[] => s.split(',').map((d) => d.trim()).filter(Boolean) as Dow[];

/** A child of the account, or one enrolled through it (a split child); else 404. */
export async function checkChild(deps: AppDeps, s: { providerId: number; accountId: number }, childId: number, lang: string): Promise<void> {
  const [own] = await deps.db
    .select({ id: children.id })
    .from(children)
    .where(and(eq(children.id, childId), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  if (own) return;
  const [enrolled] = await deps.db
    .select({ id: enrollments.id })
    .from(enrollments)
    .where(and(eq(enrollments.childId, childId), eq(enrollments.providerId, s.providerId), eq(enrollments.accountId, s.accountId)))
    .limit(1);
  if (!enrolled) notFound(deps, lang);
}

/** The Mondays of the weeks a weekly (summer) program's activity meets, the weeks its seats are kept by. */
function mondays(start: string, end: string): string[] {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  const out: string[] = [];
  for (; d.toISOString().slice(0, 10) <= end; d.setUTCDate(d.getUTCDate() + 7)) out.push(d.toISOString().slice(0, 10));
  return out;
}

/** A registration in these states holds the child's place in the program (the application refuses the child again). */
const IN_PROGRAM = ['REGISTERED', 'WAITLISTED', 'PENDING', 'PROCESSED'];

/** The program periods with the account's children rows, seats, prices and holds (programs list, Home). */
export async function programPeriodList(deps: AppDeps, s: SessionInfo, lang: string, query: RegistrationProgramPeriodsQuery): Promise<RegistrationProgramPeriodsResponse> {
  // AccountID 0 = every program (school district or other-district mode); any other id must be
  // the signed-in account
  if (query.AccountID !== undefined && query.AccountID !== 0 && query.AccountID !== s.accountId) notFound(deps, lang);
  const provider = await providerOf(deps.db, s);
  const now = deps.today();
  const today = isoDay(now);
  const where = [eq(programPeriods.providerId, s.providerId)];
  if (query.programPeriodID) where.push(eq(programPeriods.id, query.programPeriodID));
  if (!provider.isSchoolDistrict && !query.otherDistrict) where.push(eq(programPeriods.isOtherDistrict, false));
  const pps = await deps.db.select().from(programPeriods).where(and(...where)).orderBy(asc(programPeriods.startDate), asc(programPeriods.id));
  if (query.programPeriodID && pps.length === 0) notFound(deps, lang);
  const ids = pps.map((p) => p.id);
  if (!ids.length) return [];

  const regs = await deps.db
    .select({ r: registrations, firstName: children.firstName, lastName: children.lastName })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId), inArray(registrations.programPeriodId, ids)))
    .orderBy(asc(children.firstName));
  const enrolled = await deps.db
    .select({ childId: enrollments.childId, pp: activities.programPeriodId, date: enrollments.enrollmentDate })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .where(and(eq(enrollments.providerId, s.providerId), eq(enrollments.accountId, s.accountId), inArray(activities.programPeriodId, ids)));
  const acts = await deps.db
    .select({ id: activities.id, pp: activities.programPeriodId, isOneTime: activities.isOneTime, feeCents: activities.feeCents, feeType: activities.feeType, capacity: activities.capacity, startDate: activities.startDate, endDate: activities.endDate })
    .from(activities)
    .where(and(eq(activities.providerId, s.providerId), inArray(activities.programPeriodId, ids)));

  // Register and Add child need a child of the account not in the program yet (spec 4: the
  // application refuses one registered, waitlisted or pending) whom the program takes (its ages
  // or grades, rules/eligibility.rules.json)
  const kids = await deps.db
    .select({ id: children.id, dateOfBirth: children.dateOfBirth, gradeLevelCode: children.gradeLevelCode })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  const grades = await gradeListOf(deps, s.providerId);
  const rules = pps.some((p) => p.eligibility) ? await eligibilityRules(deps, s.providerId, lang) : {};
  const inProgram = (ppId: number) => new Set(regs.filter((r) => r.r.programPeriodId === ppId && IN_PROGRAM.includes(r.r.status)).map((r) => r.r.childId));
  const toRegister = (p: (typeof pps)[number]) => {
    const taken = inProgram(p.id);
    return kids.filter((k) => !taken.has(k.id) && ineligibility(rules, p, k, grades) === null).length;
  };
  // the card's 'from' price: the lowest fee of the program's activities (an API amount, in dollars)
  const priceFrom = (ppId: number) => {
    const fees = acts.filter((a) => a.pp === ppId).sort((a, b) => a.feeCents - b.feeCents);
    return fees.length ? { amount: amountOfCents(fees[0].feeCents), perDay: fees[0].feeType === 'PER_DAY' } : null;
  };
  // seats left, when the provider shows them: the most children one more registration can seat
  // (the freest activity, and week of a weekly program), counted the way the application's seat step counts them
  const seatsLeft = async (p: (typeof pps)[number]): Promise<number | null> => {
    if (!p.showSeatsLeft || p.capacityCheck === 'N') return null;
    const offered = acts.filter((a) => a.pp === p.id && !a.isOneTime).map((a) => ({ activityID: a.id, capacity: a.capacity, startDate: a.startDate, endDate: a.endDate }));
    if (!offered.length) return null;
    const weeks = p.category === 'summerCamp' ? [...new Set(offered.flatMap((a) => mondays(a.startDate, a.endDate)))] : [];
    const rows = await seatAvailability(deps, s, p, offered, weeks);
    return rows.length ? Math.max(...rows.map((r) => r.available)) : null;
  };
  const seatsByProgram = new Map<number, number | null>();
  for (const p of pps) seatsByProgram.set(p.id, await seatsLeft(p));
  // seats held while the parent pays (amendment 7): Home and the card say until when
  const held = await deps.db
    .select({ pp: applicationDrafts.programPeriodId, holdUntil: applicationDrafts.holdUntil, amountDueCents: applicationDrafts.amountDueCents, result: applicationDrafts.result })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.providerId, s.providerId), eq(applicationDrafts.accountId, s.accountId), inArray(applicationDrafts.programPeriodId, ids), eq(applicationDrafts.paymentStatus, 'AWAITING'), gt(applicationDrafts.holdUntil, deps.clock())))
    .orderBy(asc(applicationDrafts.holdUntil));
  const seatHold = (ppId: number) => {
    const h = held.find((x) => x.pp === ppId);
    if (!h?.holdUntil) return null;
    const kids = ((h.result as { children?: { fullName: string; activities: { state: string }[] }[] } | null)?.children ?? []).filter((c) => c.activities.some((a) => a.state === 'A'));
    return { holdUntil: h.holdUntil.toISOString(), amountDue: amountOfCents(h.amountDueCents), children: kids.map((c) => c.fullName).join(', ') };
  };
  // the place on the waitlist shows on the programs list and Home (spec 4 enrolment and seats)
  const places = regs.some((r) => r.r.status === 'WAITLISTED' || r.r.status === 'REGISTERED' || r.r.status === 'PENDING') ? await accountWaitlistPlaces(deps, s) : new Map<string, number>();
  return pps.map((p) => {
    const rows = regs.filter((r) => r.r.programPeriodId === p.id);
    const firstEnrolment = (childId: number) =>
      enrolled
        .filter((e) => e.childId === childId && e.pp === p.id)
        .map((e) => e.date)
        .sort()[0] ?? null;
    const ended = p.endDate < today;
    const opensLater = p.registrationStartAt !== null && p.registrationStartAt > now;
    const closed = p.registrationEndDate !== null && p.registrationEndDate < today;
    return {
      programPeriodID: p.id,
      // title and description in the request's language (spec 2.8)
      programPeriod: textIn(p, 'programPeriod', lang),
      description: textIn(p, 'description', lang),
      category: p.category as Category,
      // the type image of the card (spec 2.8), one per program category
      image: `/parentportal/images/programs/${p.category}.svg`,
      programKind: p.programKind as Kind,
      programPeriodType: p.programPeriodType,
      enrollmentOption: p.enrollmentOption as 'W' | 'T' | 'D' | 'C',
      capacityCheck: p.capacityCheck as 'C' | 'W' | 'N',
      canRegisterOnline: p.canRegisterOnline,
      canEnrollOnline: p.canEnrollOnline,
      enableEnrollmentInParentForm: p.enableEnrollmentInParentForm,
      enableAutomaticRegistration: p.enableAutomaticRegistration,
      isProgramEnded: ended,
      calendarProgramPeriodID: p.calendarProgramPeriodID,
      startDate: p.startDate,
      endDate: p.endDate,
      eligibility: eligibilityView(p, grades, lang),
      priceFrom: priceFrom(p.id)?.amount ?? null,
      priceFromPerDay: priceFrom(p.id)?.perDay ?? false,
      seatsLeft: seatsByProgram.get(p.id) ?? null,
      minAvailableDate: ended ? null : p.startDate > today ? p.startDate : today,
      registrationStartDate: p.registrationStartAt ? p.registrationStartAt.toISOString() : null,
      isRegistered: rows.some((r) => r.r.status === 'REGISTERED'),
      isApplicationSubmitted: rows.some((r) => r.r.submittedOn !== null),
      isPendingApproval: rows.some((r) => r.r.isPendingApproval),
      isEnrollmentPending: rows.some((r) => r.r.isEnrollmentPending),
      isApplicationInWaitList: rows.some((r) => r.r.status === 'WAITLISTED'),
      isPunchPass: p.isPunchPass,
      prAccountID: 0,
      applicationTypeID: APPLICATION_TYPE.application,
      isAvailableToRegisterToday: p.canRegisterOnline && !ended && !opensLater && !closed,
      isRegistrationClosed: closed,
      haveRegistrationStartDate: opensLater,
      isOneTimeActivitiesExists: acts.some((a) => a.pp === p.id && a.isOneTime),
      isOtherDistrict: p.isOtherDistrict,
      childrenToRegister: toRegister(p),
      seatHold: seatHold(p.id),
      children: rows.map((r) => ({
        childID: r.r.childId,
        childName: `${r.firstName} ${r.lastName}`,
        programPeriodID: p.id,
        enrollmentDate: firstEnrolment(r.r.childId),
        registrationDate: r.r.registrationDate,
        submittedOn: r.r.submittedOn,
        isPending: r.r.status === 'PENDING' || r.r.isPendingApproval,
        isRegistered: r.r.status === 'REGISTERED',
        waitlistPosition: places.get(`${p.id}/${r.r.childId}`) ?? null,
      })),
    };
  });
}

/** The account's children's current activities, grouped by child and program. */
export async function childrenActivities(deps: AppDeps, s: SessionInfo, lang: string, query: RegistrationChildrenActivitiesQuery): Promise<RegistrationChildrenActivitiesResponse> {
  const asOn = query.asOnDate ?? isoDay(deps.today());
  const where = [
    eq(enrollments.providerId, s.providerId),
    eq(enrollments.accountId, s.accountId),
    or(isNull(enrollments.deEnrollDate), gte(enrollments.deEnrollDate, asOn)),
    gte(activities.endDate, asOn),
  ];
  // an id that is not the provider's program period, or not a child of the account, is not found
  if (query.programPeriodID && !(await programPeriodOf(deps, s.providerId, query.programPeriodID))) notFound(deps, lang);
  if (query.childID) await checkChild(deps, s, query.childID, lang);
  if (query.siteID) {
    const [site] = await deps.db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, query.siteID), eq(sites.providerId, s.providerId)));
    if (!site) notFound(deps, lang);
    where.push(eq(activities.siteId, query.siteID));
  }
  if (query.programPeriodID) where.push(eq(activities.programPeriodId, query.programPeriodID));
  if (query.childID) where.push(eq(enrollments.childId, query.childID));
  const rows = await deps.db
    .select({ e: enrollments, a: activities, pp: programPeriods, c: children, site: sites })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .innerJoin(programPeriods, eq(programPeriods.id, activities.programPeriodId))
    .innerJoin(children, eq(children.id, enrollments.childId))
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(...where))
    .orderBy(asc(children.firstName), asc(programPeriods.startDate), asc(enrollments.enrollmentDate), asc(activities.activity));
  const groups = new Map<string, ReturnType<typeof group>>();
  function group(r: Pick<(typeof rows)[number], 'c' | 'pp'>) {
    const activities: RegistrationChildrenActivitiesResponse[number]['activities'] = [];
    return {
      childID: r.c.id,
      childName: `${r.c.firstName} ${r.c.lastName}`,
      programPeriodID: r.pp.id,
      programPeriod: textIn(r.pp, 'programPeriod', lang),
      category: r.pp.category as Category,
      programKind: r.pp.programKind as Kind,
      homeSiteID: r.c.homeSiteId,
      enableWeekendScheduling: r.pp.enableWeekendScheduling,
      activities,
    };
  }
  for (const r of rows) {
    const key = `${r.c.id}:${r.pp.id}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = group(r)));
    g.activities.push({
      activityID: r.a.id,
      activity: textIn(r.a, 'activity', lang),
      activityTypeID: r.a.activityTypeID,
      siteID: r.a.siteId,
      siteName: textIn(r.site, 'siteName', lang),
      startDate: r.a.startDate,
      endDate: r.a.endDate,
      enrollmentDate: r.e.enrollmentDate,
      deEnrollDate: r.e.deEnrollDate,
      timing: r.a.timing,
      daysPerWeek: r.a.daysPerWeek,
      daysOfWeek: days(r.e.daysOfWeek || r.a.daysOfWeek),
      timeOfferedCode: r.a.timeOfferedCode,
      weekRange: r.e.weekRange,
      status: r.e.status,
    });
  }
  if (query.programPeriodID) {
    // the program's registered children without a current enrolment: an empty schedule
    const regs = await deps.db
      .select({ c: children, pp: programPeriods })
      .from(registrations)
      .innerJoin(children, eq(children.id, registrations.childId))
      .innerJoin(programPeriods, eq(programPeriods.id, registrations.programPeriodId))
      .where(
        and(
          eq(registrations.providerId, s.providerId),
          eq(registrations.accountId, s.accountId),
          eq(registrations.programPeriodId, query.programPeriodID),
          ...(query.childID ? [eq(registrations.childId, query.childID)] : []),
        ),
      )
      .orderBy(asc(children.firstName));
    for (const r of regs) if (!groups.has(`${r.c.id}:${r.pp.id}`)) groups.set(`${r.c.id}:${r.pp.id}`, group(r));
    return [...groups.values()].sort((a, b) => a.childName.localeCompare(b.childName));
  }
  return [...groups.values()];
}
