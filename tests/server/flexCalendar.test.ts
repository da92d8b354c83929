// The calendar product's flex dates on both databases (server/domains/enrolment/flexCalendar.ts): a
// child's month of the calendar program (Bright Path's Robotics & Art Studio, option C) with its
// holiday, days that are not activity days, the weekend rule and older dates hidden until asked;
// dates added take their seats at once and are charged, held while the parent pays or left to pay
// later; the last seat of a date goes to one of two parents adding it together; a date removed
// outside the provider's cancellation window is released and credited, inside it kept (its removal
// refused, named in the answer); the iCal feed's content, a revoked address refused; another account's child and
// another provider's program are not found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, KAREN, LINH, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { releaseExpiredHolds } from '../../server/domains/enrolment/applicationPayment';

interface Day {
  value: string;
  date: string;
  weekday: number;
  activityID: number;
  enrolled: boolean;
  reason: string | null;
  removeReason: string | null;
  seatsLeft: number;
  holiday: string | null;
}
interface Month {
  childID: number;
  childName: string;
  month: string;
  today: string;
  hiddenPast: number;
  cancellationWindowDays: number | null;
  days: Day[];
  payment: { key: string; paymentStatus: string; amountDue: number } | null;
}

const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe.each(BACKENDS)('the calendar of flex dates on %s', (backend) => {
  let t: TestApp;
  const tokens = { maria: '', karen: '', linh: '' };
  const ids = { robotics: 0, school: 0, maker: 0, sofia: 0, tyler: 0, lucas: 0 };
  const api = apiClient(() => t.app);
  const db = () => t.db.handle.db;

  beforeAll(async () => {
    t = await createTestApp(backend);
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    const pp = async (name: string) => (await db().select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, name)))[0].id;
    const child = async (name: string) => (await db().select({ id: s.children.id }).from(s.children).where(eq(s.children.firstName, name)))[0].id;
    ids.robotics = await pp('Robotics & Art Studio');
    ids.school = await pp('School Year Before & After Care');
    [{ id: ids.maker }] = await db().select({ id: s.activities.id }).from(s.activities).where(eq(s.activities.activity, 'Maker Lab Flex Day'));
    ids.sofia = await child('Sofia');
    ids.tyler = await child('Tyler');
    ids.lucas = await child('Lucas');
    // Karen's Tyler joins the calendar program, so two families want the same date
    const [tyler] = await db().select().from(s.children).where(eq(s.children.id, ids.tyler));
    await db().insert(s.registrations).values({ providerId: tyler.providerId, accountId: tyler.accountId, programPeriodId: ids.robotics, childId: ids.tyler, status: 'REGISTERED', registrationDate: '2026-01-01', submittedOn: '2026-01-01' });
  });
  afterAll(async () => t?.close());

  const month = async (token: string, childID: number, m?: string, showPast?: boolean, lang?: string) =>
    api('Registration.flexCalendar', { token, query: { programPeriodID: ids.robotics, childID, ...(m ? { month: m } : {}), ...(showPast ? { showPast } : {}) }, ...(lang ? { lang } : {}) });
  const monthOf = async (token: string, childID: number, m?: string, showPast?: boolean) => {
    const r = await month(token, childID, m, showPast);
    expect(r.statusCode, r.body).toBe(200);
    return r.json<Month>();
  };
  const save = async (token: string, childID: number, m: string, dates: string[]) => api('Registration.flexCalendarSave', { token, body: { programPeriodID: ids.robotics, childID, month: m, dates } });
  /** the child's flex dates of a month, as the save takes them */
  const mine = (m: Month) => m.days.filter((d) => d.enrolled).map((d) => d.value);
  /** a day ahead the child may add, at least `from` days away, in one month with the next ones */
  const openDays = async (token: string, childID: number, from: number, n: number) => {
    const today = (await monthOf(token, childID)).today;
    for (let k = 0; k < 3; k++) {
      const m = await monthOf(token, childID, addDays(today, from + 28 * k).slice(0, 7));
      const open = m.days.filter((d) => d.reason === null && !d.enrolled && d.seatsLeft > 1 && d.date >= addDays(today, from));
      if (open.length >= n) return { m, open: open.slice(0, n) };
    }
    throw new Error('no open days');
  };
  const balance = async (token: string) => (await api('Billing.accountSummary', { token })).json<{ currentBalance: number }>().currentBalance;
  const seatOf = async (date: string) => (await db().select().from(s.seats).where(and(eq(s.seats.activityId, ids.maker), eq(s.seats.weekStart, date))))[0];

  it('answers a month of the child: the holiday, days that are not activity days, the weekend rule, and days before today only when asked', async () => {
    const first = await monthOf(tokens.maria, ids.sofia);
    expect(first.childName).toBe('Sofia Garcia');
    expect(first.cancellationWindowDays).toBe(2);
    expect(first.days.every((d) => d.date >= first.today)).toBe(true);
    const [holiday] = await db().select().from(s.calendarHolidays).where(eq(s.calendarHolidays.programPeriodId, ids.robotics));
    const withHoliday = await monthOf(tokens.maria, ids.sofia, holiday.date.slice(0, 7));
    const h = withHoliday.days.find((d) => d.date === holiday.date)!;
    expect(h).toMatchObject({ reason: 'holiday', holiday: 'Staff training day (no Maker Lab)' });
    // in Spanish, the provider's text in Spanish
    const es = (await month(tokens.maria, ids.sofia, holiday.date.slice(0, 7), false, 'es')).json<Month>();
    expect(es.days.find((d) => d.date === holiday.date)!.holiday).toBe('Día de capacitación del personal (sin taller Maker)');
    for (const d of withHoliday.days.filter((x) => x.date > withHoliday.today && x.date !== holiday.date)) {
      // Maker Lab meets Monday, Wednesday and Friday; a weekend day is offered by the weekend rule (type 2, weekend scheduling on)
      if ([1, 3, 5, 0, 6].includes(d.weekday)) expect(['full', null]).toContain(d.reason);
      else expect(d.reason).toBe('notActivityDay');
    }
    // outside the program's period
    const [pp] = await db().select().from(s.programPeriods).where(eq(s.programPeriods.id, ids.robotics));
    const end = await monthOf(tokens.maria, ids.sofia, pp.endDate.slice(0, 7));
    expect(end.days.filter((d) => d.date > pp.endDate).every((d) => d.reason === 'outsidePeriod')).toBe(true);
    // Sofia's date of last week shows only when older dates are asked for, not removable
    const [old] = await db().select().from(s.enrollmentDates).where(and(eq(s.enrollmentDates.childId, ids.sofia), eq(s.enrollmentDates.activityId, ids.maker), eq(s.enrollmentDates.kind, 'flex')));
    const oldMonth = old.date.slice(0, 7);
    const hidden = await monthOf(tokens.maria, ids.sofia, oldMonth);
    expect(hidden.days.some((d) => d.date === old.date)).toBe(false);
    const shown = await monthOf(tokens.maria, ids.sofia, oldMonth, true);
    expect(shown.days.find((d) => d.date === old.date && d.activityID === ids.maker)).toMatchObject({ enrolled: true, removeReason: 'past' });
    expect(shown.hiddenPast).toBe(0);
  });

  it('adds dates with their seats taken and fees charged, held while she pays, then pay later keeps them', async () => {
    const { m, open } = await openDays(tokens.maria, ids.sofia, 5, 2);
    const before = await balance(tokens.maria);
    const seats = await Promise.all(open.map((d) => seatOf(d.date)));
    const r = await save(tokens.maria, ids.sofia, m.month, [...mine(m), ...open.map((d) => d.value)]);
    expect(r.statusCode, r.body).toBe(200);
    const out = r.json<{ added: string[]; removed: string[]; payment: { key: string; paymentStatus: string; amountDue: number } }>();
    expect(out.added).toEqual(open.map((d) => d.value).sort());
    expect(out.removed).toEqual([]);
    expect(out.payment).toMatchObject({ paymentStatus: 'AWAITING' });
    expect(out.payment.amountDue).toBeGreaterThan(0);
    expect(await balance(tokens.maria)).toBeCloseTo(before + 130, 2);
    for (const [i, d] of open.entries()) expect((await seatOf(d.date)).taken).toBe((seats[i]?.taken ?? 0) + 1);
    const after = await monthOf(tokens.maria, ids.sofia, m.month);
    expect(after.days.filter((d) => open.some((o) => o.value === d.value)).every((d) => d.enrolled && d.removeReason === null)).toBe(true);
    expect(after.payment?.key).toBe(out.payment.key);
    const pay = await api('Registration.flexCalendarPayment', { token: tokens.maria, query: { key: out.payment.key } });
    expect(pay.statusCode, pay.body).toBe(200);
    expect(pay.json()).toMatchObject({ totalCents: 13000, payment: { paymentStatus: 'AWAITING' } });
    expect(pay.json().dates.map((x: { date: string; status: string }) => [x.date, x.status])).toEqual(open.map((d) => [d.date, 'held']));
    expect((await api('Registration.flexCalendarPayment', { token: tokens.karen, query: { key: out.payment.key } })).statusCode).toBe(404);
    // pay later: the dates stay hers, the charges on the balance
    const later = await api('Registration.flexCalendarPayLater', { token: tokens.maria, query: { key: out.payment.key } });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json()).toMatchObject({ paymentStatus: 'LATER' });
    // a date added again is refused
    const again = await api('Registration.flexCalendarSave', { token: tokens.maria, body: { programPeriodID: ids.robotics, childID: ids.sofia, month: m.month, dates: [...mine(after)] } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ added: [], removed: [] });
    // a day that is not open is refused, nothing taken
    const closed = after.days.find((d) => d.reason === 'notActivityDay')!;
    const refused = await save(tokens.maria, ids.sofia, m.month, [...mine(after), closed.value]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().key).toBe('flexCalendar.errors.dateNotOpen');
  });

  it('gives the last seat of a date to one of two parents adding it at the same moment', async () => {
    const [one] = await db().select().from(s.seats).where(and(eq(s.seats.activityId, ids.maker), eq(s.seats.total, 1)));
    const m = one.weekStart!.slice(0, 7);
    const value = `${ids.maker}/${one.weekStart}`;
    const [sofia, tyler] = await Promise.all([monthOf(tokens.maria, ids.sofia, m), monthOf(tokens.karen, ids.tyler, m)]);
    expect(sofia.days.find((d) => d.value === value)).toMatchObject({ reason: null, seatsLeft: 1 });
    const charges = async () => (await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.kind, 'CHARGE'))).length;
    const before = await charges();
    const answers = await Promise.all([save(tokens.maria, ids.sofia, m, [...mine(sofia), value]), save(tokens.karen, ids.tyler, m, [...mine(tyler), value])]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().key).toBe('flexCalendar.errors.dateFull');
    const seat = await seatOf(one.weekStart!);
    expect(seat).toMatchObject({ taken: 1, total: 1 });
    expect(await charges()).toBe(before + 1);
    expect((await db().select().from(s.onetimeTakes).where(and(eq(s.onetimeTakes.date, one.weekStart!), eq(s.onetimeTakes.activityId, ids.maker), eq(s.onetimeTakes.status, 'held')))).length).toBe(1);
    // now full for the other child, said so before trying
    const loser = answers[0].statusCode === 409 ? { token: tokens.maria, child: ids.sofia } : { token: tokens.karen, child: ids.tyler };
    expect((await monthOf(loser.token, loser.child, m)).days.find((d) => d.value === value)).toMatchObject({ reason: 'full', seatsLeft: 0 });
  });

  it('releases a date removed outside the cancellation window and credits its fee; refuses one inside it before anything changes', async () => {
    const { m, open } = await openDays(tokens.maria, ids.sofia, 6, 1);
    const added = await save(tokens.maria, ids.sofia, m.month, [...mine(m), open[0].value]);
    expect(added.statusCode, added.body).toBe(200);
    const taken = (await seatOf(open[0].date)).taken;
    const before = await balance(tokens.maria);
    const now = await monthOf(tokens.maria, ids.sofia, m.month);
    const removed = await save(tokens.maria, ids.sofia, m.month, mine(now).filter((v) => v !== open[0].value));
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ removed: [open[0].value], kept: [], creditedCents: 6500 });
    expect(await balance(tokens.maria)).toBeCloseTo(before - 65, 2);
    expect((await seatOf(open[0].date)).taken).toBe(taken - 1);
    expect((await db().select().from(s.enrollmentDates).where(and(eq(s.enrollmentDates.childId, ids.sofia), eq(s.enrollmentDates.date, open[0].date), eq(s.enrollmentDates.kind, 'flex')))).length).toBe(0);

    // Sofia's date within the next two days: shown as not removable, and refused
    const [inside] = await db()
      .select()
      .from(s.onetimeTakes)
      .where(and(eq(s.onetimeTakes.childId, ids.sofia), eq(s.onetimeTakes.kind, 'flex'), eq(s.onetimeTakes.status, 'held')));
    const soon = (await db().select().from(s.onetimeTakes).where(and(eq(s.onetimeTakes.childId, ids.sofia), eq(s.onetimeTakes.kind, 'flex'), eq(s.onetimeTakes.status, 'held')))).filter((x) => x.date > now.today && x.date <= addDays(now.today, 2));
    expect(soon.length, JSON.stringify(inside)).toBe(1);
    const soonMonth = await monthOf(tokens.maria, ids.sofia, soon[0].date.slice(0, 7));
    const day = soonMonth.days.find((d) => d.date === soon[0].date && d.activityID === ids.maker)!;
    expect(day).toMatchObject({ enrolled: true, removeReason: 'window' });
    const balanceBefore = await balance(tokens.maria);
    const seatBefore = (await seatOf(soon[0].date)).taken;
    const refused = await save(tokens.maria, ids.sofia, soonMonth.month, mine(soonMonth).filter((v) => v !== day.value));
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ removed: [], kept: [day.value], creditedCents: 0 });
    expect(await balance(tokens.maria)).toBeCloseTo(balanceBefore, 2);
    expect((await seatOf(soon[0].date)).taken).toBe(seatBefore);
    expect((await monthOf(tokens.maria, ids.sofia, soonMonth.month)).days.find((d) => d.value === day.value)!.enrolled).toBe(true);
  });

  it('releases the dates of a hold that ended unpaid', async () => {
    const { m, open } = await openDays(tokens.karen, ids.tyler, 7, 1);
    const r = await save(tokens.karen, ids.tyler, m.month, [...mine(m), open[0].value]);
    expect(r.statusCode, r.body).toBe(200);
    const key = r.json<{ payment: { key: string } }>().payment.key;
    const taken = (await seatOf(open[0].date)).taken;
    await db().update(s.applicationDrafts).set({ holdUntil: new Date(Date.now() - 60_000) }).where(eq(s.applicationDrafts.key, key));
    const [d] = await db().select().from(s.applicationDrafts).where(eq(s.applicationDrafts.key, key));
    expect(await releaseExpiredHolds(t.app.deps, { draftId: d.id })).toBe(1);
    expect((await seatOf(open[0].date)).taken).toBe(taken - 1);
    expect((await monthOf(tokens.karen, ids.tyler, m.month)).days.find((x) => x.value === open[0].value)!.enrolled).toBe(false);
  });

  it('serves the iCal feed of the account with no session, and refuses a revoked address', async () => {
    expect((await api('Registration.flexCalendarFeed', { token: tokens.maria })).json()).toMatchObject({ active: false, url: null });
    const made = (await api('Registration.flexCalendarFeedCreate', { token: tokens.maria })).json<{ active: boolean; url: string }>();
    expect(made.active).toBe(true);
    const token = /\/api\/Registration\/flexcalendar\/ical\/([0-9a-f]{64})$/.exec(made.url)![1];
    // only the hash is kept
    const rows = await db().select().from(s.calendarFeeds);
    expect(rows.some((f) => f.tokenHash === token)).toBe(false);
    expect((await api('Registration.flexCalendarFeed', { token: tokens.maria })).json()).toMatchObject({ active: true, url: null });
    const feed = await t.app.inject({ method: 'GET', url: `/api/Registration/flexcalendar/ical/${token}` });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toContain('text/calendar');
    const text = feed.body;
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, '');
    const flex = await db().select().from(s.enrollmentDates).where(and(eq(s.enrollmentDates.childId, ids.sofia), eq(s.enrollmentDates.kind, 'flex')));
    for (const f of flex) expect(unfolded).toContain(`DTSTART;VALUE=DATE:${f.date.replace(/-/g, '')}`);
    expect(unfolded).toContain('SUMMARY:Sofia: Maker Lab Flex Day');
    expect(unfolded).toContain('DESCRIPTION:Flex date\\n3:15 PM - 6:00 PM');
    // the school year's scheduled dates too; no other family's
    expect(unfolded).toContain('Scheduled date');
    expect(unfolded).not.toContain('Tyler');
    // a new address replaces the old one
    const next = (await api('Registration.flexCalendarFeedCreate', { token: tokens.maria })).json<{ url: string }>();
    expect((await t.app.inject({ method: 'GET', url: `/api/Registration/flexcalendar/ical/${token}` })).statusCode).toBe(404);
    const nextToken = next.url.split('/').at(-1)!;
    expect((await t.app.inject({ method: 'GET', url: `/api/Registration/flexcalendar/ical/${nextToken}` })).statusCode).toBe(200);
    // revoked: refused
    expect((await api('Registration.flexCalendarFeedRevoke', { token: tokens.maria })).json()).toMatchObject({ active: false });
    expect((await t.app.inject({ method: 'GET', url: `/api/Registration/flexcalendar/ical/${nextToken}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/Registration/flexcalendar/ical/${'0'.repeat(64)}` })).statusCode).toBe(404);
  });

  it("refuses another account's child, another provider's program and a program without the calendar", async () => {
    // Karen asking for Sofia
    expect((await month(tokens.karen, ids.sofia)).statusCode).toBe(404);
    const m = (await monthOf(tokens.maria, ids.sofia)).month;
    expect((await save(tokens.karen, ids.sofia, m, [])).statusCode).toBe(404);
    // a child of the account not registered in the program
    expect((await month(tokens.maria, ids.lucas)).statusCode).toBe(404);
    // the school year is option T: not a calendar
    expect((await api('Registration.flexCalendar', { token: tokens.maria, query: { programPeriodID: ids.school, childID: ids.sofia } })).statusCode).toBe(404);
    // another provider's parent
    expect((await api('Registration.flexCalendar', { token: tokens.linh, query: { programPeriodID: ids.robotics } })).statusCode).toBe(404);
    // another account's addition cannot be left to pay later
    const [d] = await db().select().from(s.applicationDrafts).where(and(eq(s.applicationDrafts.applicationTypeId, 6), eq(s.applicationDrafts.programPeriodId, ids.robotics)));
    expect((await api('Registration.flexCalendarPayLater', { token: tokens.linh, query: { key: d.key } })).statusCode).toBe(404);
    expect((await api('Registration.flexCalendarPayLater', { token: d.accountId === (await db().select().from(s.children).where(eq(s.children.id, ids.tyler)))[0].accountId ? tokens.maria : tokens.karen, query: { key: d.key } })).statusCode).toBe(404);
    // no session: refused
    expect((await api('Registration.flexCalendar', { query: { programPeriodID: ids.robotics } })).statusCode).toBe(401);
  });
});
