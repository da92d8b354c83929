// View/enrol screen (spec 2.11): a weekly program's enrolments grouped by week, and a program's
// dated plan per kind (enrolled, one-time, scheduled and flex-scheduled dates). Every id is the
// signed-in provider's (program period) or account's (child); any other is not found.
import { and, asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type {
  RegistrationActivitiesByWeekQuery,
  RegistrationActivitiesByWeekResponse,
  RegistrationEnrolledDatesQuery,
  RegistrationEnrolledDatesResponse,
} from '../../../src/engine/contract.gen';
import { activities, children, enrollmentDates, enrollments, registrations, sites } from '../../db/schema';
import { isoDay } from '../../clock';
import { textIn } from '../../providerTexts';
import { dateInLanguage } from '../../../src/engine/formats';
import { checkChild, days, notFound, programPeriodOf } from './registration';

type Week = RegistrationActivitiesByWeekResponse[number]['weeks'][number];
type DatedRow = RegistrationEnrolledDatesResponse['enrolled'][number];

/**
 * A week the way the parent reads it: the enrolment's stored range (mm/dd/yyyy - mm/dd/yyyy), else its own
 * first and last days, each date in her language (11/23/2026 in English, 23/11/2026 in Spanish).
 */
function weekRangeIn(stored: string | null, start: string, end: string, lang: string): string {
  const m = /^(\d{2}\/\d{2}\/\d{4}) - (\d{2}\/\d{2}\/\d{4})$/.exec(stored ?? '');
  if (m) return `${dateInLanguage(m[1], lang)} - ${dateInLanguage(m[2], lang)}`;
  return stored || `${dateInLanguage(start, lang)} - ${dateInLanguage(end, lang)}`;
}

export const DATE_KINDS = ['enrolled', 'oneTime', 'scheduled', 'flex'] as const;

/** A weekly program's enrolments of the account's children, grouped by child and week. */
export async function activitiesByWeek(deps: AppDeps, s: SessionInfo, lang: string, query: RegistrationActivitiesByWeekQuery): Promise<RegistrationActivitiesByWeekResponse> {
  if (!(await programPeriodOf(deps, s.providerId, query.programPeriodID))) notFound(deps, lang);
  if (query.childID) await checkChild(deps, s, query.childID, lang);
  const byChild = (col: typeof enrollments.childId | typeof registrations.childId) => (query.childID ? [eq(col, query.childID)] : []);
  const rows = await deps.db
    .select({ e: enrollments, a: activities, c: children, site: sites })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .innerJoin(children, eq(children.id, enrollments.childId))
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(
      and(
        eq(enrollments.providerId, s.providerId),
        eq(enrollments.accountId, s.accountId),
        eq(activities.programPeriodId, query.programPeriodID),
        ...byChild(enrollments.childId),
      ),
    );
  const regs = await deps.db
    .select({ c: children })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(
      and(
        eq(registrations.providerId, s.providerId),
        eq(registrations.accountId, s.accountId),
        eq(registrations.programPeriodId, query.programPeriodID),
        ...byChild(registrations.childId),
      ),
    );
  const out = new Map<number, RegistrationActivitiesByWeekResponse[number] & { byWeek: Map<string, Week> }>();
  const childOf = (c: typeof children.$inferSelect) => {
    let g = out.get(c.id);
    if (!g) out.set(c.id, (g = { childID: c.id, childName: `${c.firstName} ${c.lastName}`, homeSiteID: c.homeSiteId, weeks: [], byWeek: new Map() }));
    return g;
  };
  for (const r of regs) childOf(r.c);
  for (const r of rows) {
    const g = childOf(r.c);
    // one enrolment row per week: it starts on its enrolment date and ends when it is
    // de-enrolled (the week's last day), else with the activity
    const weekStart = r.e.enrollmentDate;
    const weekEnd = r.e.deEnrollDate ?? r.a.endDate;
    const key = `${weekStart}/${weekEnd}`;
    let w = g.byWeek.get(key);
    if (!w) g.byWeek.set(key, (w = { weekRange: weekRangeIn(r.e.weekRange, weekStart, weekEnd, lang), weekStart, weekEnd, activities: [] }));
    w.activities.push({
      activityID: r.a.id,
      activity: textIn(r.a, 'activity', lang),
      activityTypeID: r.a.activityTypeID,
      siteID: r.a.siteId,
      siteName: textIn(r.site, 'siteName', lang),
      timing: r.a.timing,
      daysOfWeek: days(r.e.daysOfWeek || r.a.daysOfWeek),
      enrollmentDate: r.e.enrollmentDate,
    });
  }
  return [...out.values()]
    .sort((a, b) => a.childName.localeCompare(b.childName, lang))
    .map(({ byWeek, ...g }) => ({
      ...g,
      weeks: [...byWeek.values()]
        .sort((a, b) => a.weekStart.localeCompare(b.weekStart) || a.weekEnd.localeCompare(b.weekEnd))
        .map((w) => ({
          ...w,
          // spec 2.11: by enrolment date, then activity name
          activities: w.activities.sort((a, b) => a.enrollmentDate.localeCompare(b.enrollmentDate) || a.activity.localeCompare(b.activity, lang)),
        })),
    }));
}

/** A program's dated plan of the account's children per kind; dates before today only when asked for. */
export async function enrolledDates(deps: AppDeps, s: SessionInfo, lang: string, query: RegistrationEnrolledDatesQuery): Promise<RegistrationEnrolledDatesResponse> {
  if (!(await programPeriodOf(deps, s.providerId, query.programPeriodID))) notFound(deps, lang);
  if (query.childID) await checkChild(deps, s, query.childID, lang);
  const rows = await deps.db
    .select({ d: enrollmentDates, a: activities, c: children, site: sites })
    .from(enrollmentDates)
    .innerJoin(activities, eq(activities.id, enrollmentDates.activityId))
    .innerJoin(children, eq(children.id, enrollmentDates.childId))
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(
      and(
        eq(enrollmentDates.providerId, s.providerId),
        eq(enrollmentDates.accountId, s.accountId),
        eq(activities.programPeriodId, query.programPeriodID),
        ...(query.childID ? [eq(enrollmentDates.childId, query.childID)] : []),
      ),
    )
    .orderBy(asc(enrollmentDates.date), asc(children.firstName), asc(activities.activity));
  const today = isoDay(deps.today());
  const answer: RegistrationEnrolledDatesResponse = { enrolled: [], oneTime: [], scheduled: [], flex: [], olderCount: 0 };
  for (const r of rows) {
    const kind = DATE_KINDS.find((k) => k === r.d.kind);
    if (!kind) continue;
    // dates before today stay hidden until the parent asks for them
    if (r.d.date < today) {
      answer.olderCount++;
      if (!query.includeOlder) continue;
    }
    const row: DatedRow = {
      childID: r.c.id,
      childName: `${r.c.firstName} ${r.c.lastName}`,
      activityID: r.a.id,
      activity: textIn(r.a, 'activity', lang),
      siteName: textIn(r.site, 'siteName', lang),
      timing: r.a.timing,
      date: r.d.date,
    };
    answer[kind].push(row);
  }
  return answer;
}
