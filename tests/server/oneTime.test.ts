// One-time enrolment (application type 5) on both databases (server/domains/enrolment/oneTime.ts): it
// starts only where the programs list offers one-time activities (spec 4, programs.showOneTime);
// each child is enrolled in dates, changed or skipped; the dates offered follow oneTime.dateOffered
// (from today, a Saturday only by the weekend rule) and a child's own dates are not offered again;
// the submit takes every date's seat at once, charges the dates and holds the seats while the parent
// pays; the last seat of a date goes to one of two parents submitting together; a hold that ends
// unpaid gives the seats and the dates back; its key is the account's only, and a parent
// application's key is not a one-time enrolment's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, KAREN, LINH, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { releaseExpiredHolds } from '../../server/domains/enrolment/applicationPayment';
import { addOneTimeDate, OneTimeDateError, oneTimeDateList, removeOneTimeDate } from '../../server/domains/enrolment/oneTime';

type Summary = { key: string; status: string; canSubmit: boolean; totalCents: number; children: { childID: number; childName: string; status: string; dates: { date: string; feeCents: number }[] }[]; payment: { paymentStatus: string; amountDue: number } };
type Activities = { childID: number; childName: string; status: string; activities: { activityID: number; activity: string; feeCents: number; dates: { date: string; seatsLeft: number; open: boolean; chosen: boolean; enrolled: boolean }[] }[] }[];

describe.each(BACKENDS)('one-time enrolment on %s', (backend) => {
  let t: TestApp;
  const tokens = { maria: '', karen: '', linh: '' };
  let schoolYear = 0;
  let summer = 0;
  let camp = 0;
  const api = apiClient(() => t.app);

  beforeAll(async () => {
    t = await createTestApp(backend);
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    const db = t.db.handle.db;
    [{ id: schoolYear }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    [{ id: summer }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    [{ id: camp }] = await db.select({ id: s.activities.id }).from(s.activities).where(eq(s.activities.activity, 'No-School Day Camp'));
  });
  afterAll(async () => t?.close());

  const start = async (token: string, programPeriodID = schoolYear) => api('Registration.oneTimeStart', { token, body: { programPeriodID } });
  const activitiesOf = async (token: string, key: string) => (await api('Registration.oneTimeActivities', { token, query: { key } })).json<Activities>();
  const seatOf = async (date: string) => (await t.db.handle.db.select().from(s.seats).where(and(eq(s.seats.activityId, camp), eq(s.seats.weekStart, date))))[0];

  it('starts only where the programs list offers one-time activities, and answers the open enrolment again', async () => {
    const first = await start(tokens.maria);
    expect(first.statusCode, first.body).toBe(200);
    const summary = first.json<Summary>();
    expect(summary).toMatchObject({ applicationTypeID: 5, status: 'open', canSubmit: false, totalCents: 0 });
    expect(summary.children.map((c) => [c.childName, c.status])).toEqual([
      ['Lucas Garcia', 'pending'],
      ['Sofia Garcia', 'pending'],
    ]);
    expect((await start(tokens.maria)).json<Summary>().key).toBe(summary.key);
    // the summer camp (option W) offers none: refused, in the request's language
    const summerCamp = await api('Registration.oneTimeStart', { token: tokens.maria, body: { programPeriodID: summer }, lang: 'es' });
    expect(summerCamp.statusCode).toBe(403);
    expect(summerCamp.json().message).toBe('Este programa no ofrece actividades de un solo día.');
    // another provider's program is not found
    expect((await start(tokens.linh)).statusCode).toBe(404);
  });

  it('offers the dates from today, a Saturday only by the weekend rule, and not a date the child has', async () => {
    const { key } = (await start(tokens.maria)).json<Summary>();
    const kids = await activitiesOf(tokens.maria, key);
    const sofia = kids.find((k) => k.childName === 'Sofia Garcia')!;
    const days = sofia.activities.find((a) => a.activityID === camp)!.dates;
    expect(days.length).toBe(5);
    const saturday = days.find((d) => new Date(`${d.date}T00:00:00Z`).getUTCDay() === 6)!;
    // the school year has no weekend scheduling
    expect(saturday.open).toBe(false);
    // the Friday Sofia has already
    expect(days.filter((d) => d.enrolled).length).toBe(1);
    expect(days.find((d) => d.enrolled)!.open).toBe(false);
    const refused = await api('Registration.oneTimeSave', { token: tokens.maria, query: { key }, body: { childID: sofia.childID, skip: false, dates: [`${camp}/${saturday.date}`] } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().key).toBe('onetime.errors.dateNotOffered');
    const mine = await api('Registration.oneTimeSave', { token: tokens.maria, query: { key }, body: { childID: sofia.childID, skip: false, dates: [`${camp}/${days.find((d) => d.enrolled)!.date}`] } });
    expect(mine.statusCode).toBe(400);
  });

  it('enrols, changes and skips each child, then submits once: seats taken, dates enrolled and charged, held while she pays', async () => {
    const { key } = (await start(tokens.maria)).json<Summary>();
    const kids = await activitiesOf(tokens.maria, key);
    const [lucas, sofia] = kids;
    const open = sofia.activities.find((a) => a.activityID === camp)!.dates.filter((d) => d.open && d.seatsLeft > 1);
    expect(open.length).toBeGreaterThanOrEqual(2);
    const save = (childID: number, body: { skip: boolean; dates?: string[] }) => api('Registration.oneTimeSave', { token: tokens.maria, query: { key }, body: { childID, ...body } });
    expect((await save(sofia.childID, { skip: false, dates: [`${camp}/${open[0].date}`] })).statusCode).toBe(200);
    // not yet: Lucas is neither enrolled nor skipped
    expect((await api('Registration.oneTimeSubmit', { token: tokens.maria, query: { key } })).json().key).toBe('onetime.errors.nothingChosen');
    // change Sofia's dates, skip Lucas
    const changed = (await save(sofia.childID, { skip: false, dates: [`${camp}/${open[1].date}`, `${camp}/${open[0].date}`] })).json<Summary>();
    expect(changed.children.find((c) => c.childID === sofia.childID)!.dates.map((d) => d.date)).toEqual([open[0].date, open[1].date].sort());
    const ready = (await save(lucas.childID, { skip: true })).json<Summary>();
    expect(ready).toMatchObject({ canSubmit: true, totalCents: 2 * 48_00 });
    const seatsBefore = await Promise.all(open.slice(0, 2).map((d) => seatOf(d.date)));
    const balanceBefore = (await api('Billing.accountSummary', { token: tokens.maria })).json().currentBalance;

    const submitted = await api('Registration.oneTimeSubmit', { token: tokens.maria, query: { key } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const done = submitted.json<Summary>();
    expect(done.status).toBe('submitted');
    expect(done.payment.paymentStatus).toBe('AWAITING');
    expect(done.payment.amountDue).toBeGreaterThan(0);
    for (const [i, d] of open.slice(0, 2).entries()) expect((await seatOf(d.date)).taken).toBe((seatsBefore[i]?.taken ?? 0) + 1);
    const planned = await t.db.handle.db.select().from(s.enrollmentDates).where(and(eq(s.enrollmentDates.childId, sofia.childID), eq(s.enrollmentDates.kind, 'oneTime')));
    expect(planned.map((p) => p.date)).toEqual(expect.arrayContaining([open[0].date, open[1].date]));
    expect((await api('Billing.accountSummary', { token: tokens.maria })).json().currentBalance).toBeCloseTo(balanceBefore + 96, 2);
    // the parent is told, in her language, with a row in her Emails/Texts history
    const [mail] = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'onetime-confirmation'));
    expect(mail.toAddress).toBe(MARIA[1]);
    expect(mail.textBody).toContain('Sofia Garcia:');
    expect(mail.textBody).toContain('$96.00');
    expect((await t.db.handle.db.select().from(s.communications).where(eq(s.communications.subject, mail.subject))).length).toBe(1);
    // a second submit answers the first; a change after it is refused
    expect((await api('Registration.oneTimeSubmit', { token: tokens.maria, query: { key } })).json<Summary>().status).toBe('submitted');
    expect((await save(lucas.childID, { skip: true })).statusCode).toBe(409);
    // the dates are hers now: not offered to her again
    const next = (await start(tokens.maria)).json<Summary>();
    expect(next.key).not.toBe(key);
    const again = (await activitiesOf(tokens.maria, next.key)).find((k) => k.childID === sofia.childID)!.activities[0].dates;
    expect(again.filter((d) => d.date === open[0].date || d.date === open[1].date).every((d) => d.enrolled && !d.open)).toBe(true);
    await api('Registration.oneTimeDiscard', { token: tokens.maria, query: { key: next.key } });

    // the hold ends unpaid: the seats and the dates go back, the charges are credited
    await t.db.handle.db.update(s.applicationDrafts).set({ holdUntil: new Date(Date.now() - 1000) }).where(eq(s.applicationDrafts.key, key));
    expect(await releaseExpiredHolds(t.app.deps)).toBeGreaterThanOrEqual(1);
    for (const [i, d] of open.slice(0, 2).entries()) expect((await seatOf(d.date)).taken).toBe(seatsBefore[i]?.taken ?? 0);
    const left = await t.db.handle.db.select().from(s.enrollmentDates).where(and(eq(s.enrollmentDates.childId, sofia.childID), eq(s.enrollmentDates.kind, 'oneTime')));
    expect(left.some((p) => p.date === open[0].date || p.date === open[1].date)).toBe(false);
    expect((await api('Registration.oneTimeSummary', { token: tokens.maria, query: { key } })).json<Summary>().payment.paymentStatus).toBe('EXPIRED');
    expect((await api('Billing.accountSummary', { token: tokens.maria })).json().currentBalance).toBeCloseTo(balanceBefore, 2);
  });

  it('the last seat of a date goes to one of two parents submitting at once; the other is refused and charged nothing', async () => {
    const ready = async (token: string) => {
      const { key } = (await start(token)).json<Summary>();
      const kids = await activitiesOf(token, key);
      const last = kids[0].activities.find((a) => a.activityID === camp)!.dates.find((d) => d.seatsLeft === 1)!;
      expect(last.open).toBe(true);
      for (const [i, k] of kids.entries()) {
        const r = await api('Registration.oneTimeSave', { token, query: { key }, body: i === 0 ? { childID: k.childID, skip: false, dates: [`${camp}/${last.date}`] } : { childID: k.childID, skip: true } });
        expect(r.statusCode, r.body).toBe(200);
      }
      return { key, date: last.date };
    };
    const m = await ready(tokens.maria);
    const k = await ready(tokens.karen);
    expect(k.date).toBe(m.date);
    const charges = async () => (await t.db.handle.db.select().from(s.ledgerEntries).where(eq(s.ledgerEntries.kind, 'CHARGE'))).length;
    const before = await charges();
    const answers = await Promise.all([api('Registration.oneTimeSubmit', { token: tokens.maria, query: { key: m.key } }), api('Registration.oneTimeSubmit', { token: tokens.karen, query: { key: k.key } })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().key).toBe('onetime.errors.dateFull');
    const seat = await seatOf(m.date);
    expect(seat.taken).toBe(1);
    expect(seat.total).toBe(1);
    expect(await charges()).toBe(before + 1);
    // the refused enrolment is still open, nothing taken
    const refusedKey = answers[0].statusCode === 409 ? m.key : k.key;
    const refusedToken = answers[0].statusCode === 409 ? tokens.maria : tokens.karen;
    expect((await api('Registration.oneTimeSummary', { token: refusedToken, query: { key: refusedKey } })).json<Summary>().status).toBe('open');
    expect((await t.db.handle.db.select().from(s.onetimeTakes).where(eq(s.onetimeTakes.date, m.date))).length).toBe(1);
  });

  it('a child page reads the dates chosen and offers every date, the ones not to be chosen disabled with their reason', async () => {
    const { key } = (await start(tokens.maria)).json<Summary>();
    const sofia = (await activitiesOf(tokens.maria, key)).find((k) => k.childName === 'Sofia Garcia')!;
    const options = (await api('Registration.oneTimeDateOptions', { token: tokens.maria, query: { key, childID: sofia.childID }, lang: 'es' })).json<{ value: string; label: string; unavailable: boolean; reason: string | null }[]>();
    expect(options.length).toBe(5);
    expect(options.filter((o) => o.reason === 'enrolled').length).toBe(1);
    expect(options.filter((o) => o.reason === 'notOffered').length).toBe(1);
    expect(options.every((o) => o.unavailable === (o.reason !== null))).toBe(true);
    // in the request's language: the date as Spanish writes it, the fee in dollars
    expect(options[0].label).toMatch(/^\d{2}\/\d{2}\/\d{4}: Campamento/);
    expect(options[0].label).toContain('$48.00');
    const first = options.find((o) => !o.unavailable)!;
    await api('Registration.oneTimeSave', { token: tokens.maria, query: { key }, body: { childID: sofia.childID, skip: false, dates: [first.value] } });
    expect((await api('Registration.oneTimeChild', { token: tokens.maria, query: { key, childID: sofia.childID } })).json()).toMatchObject({ status: 'enrol', dates: [first.value] });
    await api('Registration.oneTimeDiscard', { token: tokens.maria, query: { key } });
  });

  it('the provider offers and withdraws dates (npm run provider -- onetime): a date held stays, seats follow what is taken', async () => {
    const db = t.db.handle.db;
    const listed = await oneTimeDateList(db, 'brightpath');
    expect(listed.every((r) => r.provider === 'brightpath' && r.activityID === camp)).toBe(true);
    const last = listed[listed.length - 1];
    const fresh = new Date(Date.parse(`${last.date}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    await addOneTimeDate(db, 'brightpath', camp, fresh, 2);
    expect((await oneTimeDateList(db, 'brightpath')).find((r) => r.date === fresh)).toMatchObject({ total: 2, taken: 0 });
    // offered to the parent, with its own seats
    const { key } = (await start(tokens.maria)).json<Summary>();
    const offered = (await activitiesOf(tokens.maria, key))[0].activities[0].dates.find((d) => d.date === fresh);
    expect(offered).toMatchObject({ seatsLeft: 2, open: true });
    await api('Registration.oneTimeDiscard', { token: tokens.maria, query: { key } });
    await removeOneTimeDate(db, 'brightpath', camp, fresh);
    expect((await oneTimeDateList(db, 'brightpath')).some((r) => r.date === fresh)).toBe(false);
    // a date whose last seat a parent took cannot be withdrawn, and its seats never fall below what is taken
    const full = (await oneTimeDateList(db, 'brightpath')).find((r) => r.taken > 0 && r.taken === r.total)!;
    await expect(removeOneTimeDate(db, 'brightpath', camp, full.date)).rejects.toBeInstanceOf(OneTimeDateError);
    await addOneTimeDate(db, 'brightpath', camp, full.date, 1);
    expect((await seatOf(full.date)).total).toBe(1);
    // another provider's activity, an activity that is not one-time, a date outside the program
    await expect(addOneTimeDate(db, 'northridge', camp, fresh)).rejects.toBeInstanceOf(OneTimeDateError);
    const [before] = await db.select().from(s.activities).where(eq(s.activities.activity, 'Before Care'));
    await expect(addOneTimeDate(db, 'brightpath', before.id, fresh)).rejects.toBeInstanceOf(OneTimeDateError);
    await expect(addOneTimeDate(db, 'brightpath', camp, '2099-01-01')).rejects.toBeInstanceOf(OneTimeDateError);
  });

  it('the key is the account’s only, and a parent application’s key is not a one-time enrolment’s', async () => {
    const { key } = (await start(tokens.maria)).json<Summary>();
    for (const token of [tokens.karen, tokens.linh]) {
      expect((await api('Registration.oneTimeSummary', { token, query: { key } })).statusCode).toBe(404);
      expect((await api('Registration.oneTimeActivities', { token, query: { key } })).statusCode).toBe(404);
      expect((await api('Registration.oneTimeSubmit', { token, query: { key } })).statusCode).toBe(404);
      expect((await api('Registration.oneTimeDiscard', { token, query: { key } })).statusCode).toBe(404);
    }
    // another account's child in one's own enrolment
    const [tyler] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    expect((await api('Registration.oneTimeSave', { token: tokens.maria, query: { key }, body: { childID: tyler.id, skip: true } })).statusCode).toBe(404);
    expect((await api('Registration.oneTimeActivities', { token: tokens.maria, query: { key, childID: tyler.id } })).statusCode).toBe(404);
    // the parent application does not take it, nor does the one-time enrolment take an application's
    expect((await api('ParentApplication.draft', { token: tokens.maria, query: { key } })).statusCode).toBe(404);
    const app = (await api('ParentApplication.start', { token: tokens.maria, body: { programPeriodID: summer } })).json();
    expect(app.key).not.toBe(key);
    expect((await api('Registration.oneTimeSummary', { token: tokens.maria, query: { key: app.key } })).statusCode).toBe(404);
  });
});
