// The parent application's draft as every part of the application reads it (the handlers in
// application.ts, the seats, the fees, the charges and the payment): the draft's data, the refusal,
// the week of a weekly program, whether registration is open now, and the program's activities.
import { and, asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { activities, applicationDrafts, programPeriods, sites } from '../../db/schema';
import { isoDay } from '../../clock';
import { textIn } from '../../providerTexts';

export type DraftRow = typeof applicationDrafts.$inferSelect;
export type ProgramRow = typeof programPeriods.$inferSelect;

import type { Selection } from '../../db/draftData';
export type { ChildChoice, DraftData, Selection } from '../../db/draftData';

/** the week of a weekly program starts on Monday (spec 9: Monday = 2) */
const NOT_WEEKLY = '1900-01-01';

export const isWeekly = (pp: Pick<ProgramRow, 'category'>) => pp.category === 'summerCamp';
const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
const weekday = (iso: string) => new Date(`${iso}T00:00:00Z`).getUTCDay();
export const mondayOf = (iso: string) => addDays(iso, -((weekday(iso) + 6) % 7));

/** The weeks (Monday to Friday) of a weekly program that meet an activity's dates. */
export function weeksOf(start: string, end: string): { weekStart: string; weekEnd: string }[] {
  const out: { weekStart: string; weekEnd: string }[] = [];
  for (let w = mondayOf(start); w <= end; w = addDays(w, 7)) out.push({ weekStart: w, weekEnd: addDays(w, 4) });
  return out;
}

/** The seat key of a selection: its week for weekly programs, one seat otherwise. */
export const seatWeek = (pp: Pick<ProgramRow, 'category'>, s: Pick<Selection, 'weekStart'>) => (isWeekly(pp) ? (s.weekStart ?? NOT_WEEKLY) : NOT_WEEKLY);

export const daysOf = (s: string) => s.split(',').map((d) => d.trim()).filter(Boolean);

/**
 * Registration is open by the server's business clock (`deps.today`: the clock itself, or the fixed
 * day of PORTAL_TODAY at the clock's time of day), the clock the programs list and the demo data's
 * opening times use too.
 */
export function isOpenNow(deps: AppDeps, pp: ProgramRow): boolean {
  const now = deps.today();
  const today = isoDay(now);
  return pp.canRegisterOnline && pp.endDate >= today && (pp.registrationStartAt === null || pp.registrationStartAt <= now) && (pp.registrationEndDate === null || pp.registrationEndDate >= today);
}

/** The program's activities in the API's shape (money in cents, names in the request's language). */
export async function activitiesOf(deps: Pick<AppDeps, 'db'>, s: Pick<SessionInfo, 'providerId'>, pp: ProgramRow, lang: string) {
  const rows = await deps.db
    .select({ a: activities, site: sites })
    .from(activities)
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(activities.providerId, s.providerId), eq(activities.programPeriodId, pp.id), eq(activities.isOneTime, false)))
    .orderBy(asc(activities.id));
  return rows.map(({ a, site }) => {
    const reg = [a.firstChildRegFeeCents, a.secondChildRegFeeCents, a.thirdChildRegFeeCents];
    return {
      activityID: a.id,
      activity: textIn(a, 'activity', lang),
      activityTypeID: a.activityTypeID,
      siteID: site.id,
      siteName: textIn(site, 'siteName', lang),
      timing: a.timing,
      daysPerWeek: a.daysPerWeek,
      daysOfWeek: daysOf(a.daysOfWeek),
      timeOfferedCode: a.timeOfferedCode,
      startDate: a.startDate,
      endDate: a.endDate,
      feeType: a.feeType,
      fee: a.feeCents,
      firstChildRegFee: reg[0],
      secondChildRegFee: reg[1],
      thirdChildRegFee: reg[2],
      siblingFee: a.siblingFeeCents,
      isSameRegistrationFee: reg[0] === reg[1] && reg[1] === reg[2],
      capacity: a.capacity,
    };
  });
}
