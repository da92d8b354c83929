// The view/enrol operations (spec 2.11): a weekly program's weeks per child, a program's dated plan
// by kind with older dates on request, the current schedule by program, child and site, in the
// parent's language; ids outside the account or provider are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, tokenFor, MARIA, KAREN, LINH, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { isoDay } from '../../server/clock';

interface DatedRow {
  childName: string;
  activity: string;
  siteName: string;
  date: string;
}
interface Dates {
  enrolled: DatedRow[];
  oneTime: DatedRow[];
  scheduled: DatedRow[];
  flex: DatedRow[];
  olderCount: number;
}

describe.each(BACKENDS)('view/enrol operations on %s', (backend) => {
  let t: TestApp;
  let maria = '';
  let karen = '';
  let linh = '';
  const ids = { school: 0, summer: 0, lucas: 0, sofia: 0, tyler: 0, nrProgram: 0, nrChild: 0, lincoln: 0, nrSite: 0 };
  const get = (url: string, token: string, lang = 'en') => t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-language': lang } });

  beforeAll(async () => {
    t = await createTestApp(backend);
    [maria, karen, linh] = await Promise.all([tokenFor(t.app, ...MARIA), tokenFor(t.app, ...KAREN), tokenFor(t.app, ...LINH)]);
    const db = t.db.handle.db;
    const pp = async (name: string) => (await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, name)))[0].id;
    const child = async (first: string) => (await db.select().from(s.children).where(eq(s.children.firstName, first)))[0].id;
    const site = async (name: string) => (await db.select().from(s.sites).where(eq(s.sites.siteName, name)))[0].id;
    ids.school = await pp('School Year Before & After Care');
    ids.summer = await pp('Summer Adventure Camp');
    ids.nrProgram = await pp('Extended Day Before & After School');
    ids.lucas = await child('Lucas');
    ids.sofia = await child('Sofia');
    ids.tyler = await child('Tyler');
    ids.nrChild = await child('An');
    ids.lincoln = await site('Lincoln Elementary');
    ids.nrSite = await site('Maple Grove School');
  });
  afterAll(async () => t?.close());

  it('groups a weekly program by week, activities by enrolment date then name, every registered child listed', async () => {
    const res = await get(`/api/Registration/children/activities-by-week?programPeriodID=${ids.summer}`, maria);
    expect(res.statusCode).toBe(200);
    const rows = res.json() as { childName: string; weeks: { weekRange: string; weekStart: string; weekEnd: string; activities: { activity: string; daysOfWeek: string[] }[] }[] }[];
    expect(rows.map((r) => r.childName)).toEqual(['Lucas Garcia', 'Sofia Garcia']);
    const [lucas, sofia] = rows;
    // the pending child has no weeks yet
    expect(sofia.weeks).toEqual([]);
    expect(lucas.weeks).toHaveLength(3);
    const starts = lucas.weeks.map((w) => w.weekStart);
    expect([...starts].sort()).toEqual(starts);
    for (const w of lucas.weeks) {
      expect(new Date(`${w.weekStart}T12:00:00`).getDay()).toBe(1);
      expect(w.weekRange).toBe(`${w.weekStart.slice(5, 7)}/${w.weekStart.slice(8)}/${w.weekStart.slice(0, 4)} - ${w.weekEnd.slice(5, 7)}/${w.weekEnd.slice(8)}/${w.weekEnd.slice(0, 4)}`);
    }
    expect(lucas.weeks[1].activities.map((a) => a.activity)).toEqual(['Adventure Week', 'Swim & Splash']);
    expect(lucas.weeks[1].activities[1].daysOfWeek).toEqual(['T', 'TH']);
    // one child, in Spanish: sorted by the names in that language
    const es = (await get(`/api/Registration/children/activities-by-week?programPeriodID=${ids.summer}&childID=${ids.lucas}`, maria, 'es')).json();
    expect(es).toHaveLength(1);
    expect(es[0].weeks[1].activities.map((a: { activity: string }) => a.activity)).toEqual(['Natación y juegos de agua', 'Semana de aventura']);
    expect(es[0].weeks[0].activities[0].siteName).toBe('Bright Path - Centro de la ciudad');
    // its weeks' dates as a Spanish reader writes them, day first
    const dmy = (iso: string) => `${iso.slice(8)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
    for (const w of es[0].weeks as { weekRange: string; weekStart: string; weekEnd: string }[]) expect(w.weekRange).toBe(`${dmy(w.weekStart)} - ${dmy(w.weekEnd)}`);
  });

  it('answers the dated plan by kind, dates before today only on request', async () => {
    const today = isoDay(t.app.deps.today());
    const upcoming = (await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}`, maria)).json() as Dates;
    const all = (await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}&includeOlder=true`, maria)).json() as Dates;
    const kinds = ['enrolled', 'oneTime', 'scheduled', 'flex'] as const;
    for (const k of kinds) {
      expect(upcoming[k].length, k).toBeGreaterThan(0);
      expect(upcoming[k].every((r) => r.date >= today), k).toBe(true);
      expect(all[k].some((r) => r.date < today), k).toBe(true);
      const dates = all[k].map((r) => r.date);
      expect([...dates].sort(), k).toEqual(dates);
    }
    const older = kinds.reduce((n, k) => n + all[k].filter((r) => r.date < today).length, 0);
    expect(upcoming.olderCount).toBe(older);
    expect(all.olderCount).toBe(older);
    expect(upcoming.enrolled.every((r) => r.childName === 'Lucas Garcia' && r.activity === 'Early Release Day')).toBe(true);
    expect(upcoming.oneTime[0]).toMatchObject({ childName: 'Sofia Garcia', activity: 'No-School Day Camp', siteName: 'Bright Path Center - Downtown' });
    // one child only
    const sofia = (await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}&childID=${ids.sofia}&includeOlder=true`, maria)).json() as Dates;
    expect([...sofia.enrolled, ...sofia.oneTime, ...sofia.scheduled, ...sofia.flex].every((r) => r.childName === 'Sofia Garcia')).toBe(true);
    expect(sofia.enrolled).toEqual([]);
    // Vietnamese names
    const vi = (await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}`, maria, 'vi')).json() as Dates;
    expect(vi.oneTime[0].activity).toBe('Trại ngày nghỉ học');
    // another family of the provider has no dates in it
    const other = (await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}&includeOlder=true`, karen)).json() as Dates;
    expect(other).toEqual({ enrolled: [], oneTime: [], scheduled: [], flex: [], olderCount: 0 });
  });

  it('answers the current schedule by program, child and site, with children not enrolled', async () => {
    const rows = (await get(`/api/Registration/children/activities?programPeriodID=${ids.school}`, maria)).json();
    expect(rows.map((r: { childName: string }) => r.childName)).toEqual(['Lucas Garcia', 'Sofia Garcia']);
    const lucas = rows[0];
    expect(lucas.enableWeekendScheduling).toBe(false);
    expect(lucas.activities.map((a: { activity: string }) => a.activity).sort()).toEqual(['After Care', 'Early Release Day']);
    expect(lucas.activities.find((a: { activity: string }) => a.activity === 'Early Release Day').activityTypeID).toBe(4);
    const bySite = (await get(`/api/Registration/children/activities?programPeriodID=${ids.school}&childID=${ids.sofia}&siteID=${ids.lincoln}`, maria)).json();
    expect(bySite).toHaveLength(1);
    expect(bySite[0].activities.map((a: { activity: string }) => a.activity).sort()).toEqual(['After Care', 'Before Care']);
    // the pending child of the summer camp is listed with an empty schedule
    const summer = (await get(`/api/Registration/children/activities?programPeriodID=${ids.summer}`, maria)).json();
    expect(summer.find((r: { childName: string }) => r.childName === 'Sofia Garcia').activities).toEqual([]);
    const robotics = (await get('/api/Registration/children/activities', maria)).json().find((r: { programPeriod: string }) => r.programPeriod === 'Robotics & Art Studio');
    expect(robotics.enableWeekendScheduling).toBe(true);
    const pt = (await get(`/api/Registration/children/activities?programPeriodID=${ids.school}&childID=${ids.sofia}`, maria, 'pt')).json();
    expect(pt[0].activities.map((a: { activity: string }) => a.activity).sort()).toEqual(['Cuidado antes da aula', 'Cuidado depois da aula']);
  });

  it('refuses ids of another account or provider with 404', async () => {
    const urls = [
      `/api/Registration/children/activities-by-week?programPeriodID=${ids.nrProgram}`,
      `/api/Registration/children/activities-by-week?programPeriodID=${ids.summer}&childID=${ids.tyler}`,
      `/api/Registration/children/activities-by-week?programPeriodID=${ids.summer}&childID=${ids.nrChild}`,
      `/api/Registration/children/enrolled-dates?programPeriodID=${ids.nrProgram}`,
      `/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}&childID=${ids.tyler}`,
      `/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}&childID=${ids.nrChild}`,
      `/api/Registration/children/activities?programPeriodID=${ids.nrProgram}`,
      `/api/Registration/children/activities?siteID=${ids.nrSite}`,
      `/api/Registration/children/activities?childID=${ids.tyler}`,
    ];
    for (const url of urls) expect((await get(url, maria)).statusCode, url).toBe(404);
    // and the other provider's parent cannot read this provider's program
    expect((await get(`/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}`, linh)).statusCode).toBe(404);
    expect((await get(`/api/Registration/children/activities-by-week?programPeriodID=${ids.summer}`, linh)).statusCode).toBe(404);
    // no session: 401
    expect((await t.app.inject({ method: 'GET', url: `/api/Registration/children/enrolled-dates?programPeriodID=${ids.school}` })).statusCode).toBe(401);
  });
});
