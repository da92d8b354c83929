// Adding weeks to the weekly summer camp on both databases (server/domains/enrolment/addWeeks.ts):
// Lucas's weeks not taken yet with their fee and seats, the full first week and a week inside the
// notice said why; the chosen weeks reviewed with their total, sent once (seats taken, enrolled,
// charged once, a second send charging nothing), what they left due paid on the hosted checkout
// through the change's payment step, the weekly card listing the new weeks; the last seat of a week
// goes to one of two parents sending at the same moment, the other charged nothing; another
// account's child, program and key are refused with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { addWeeksHooks } from '../../server/domains/enrolment/addWeeks';
import { apiClient, BACKENDS, createTestApp, freePort, KAREN, LINH, MARIA, tokenFor, type TestApp } from './helpers';
import { changedTables, snapshotDb } from './snapshot';

const SECRET = 'add-weeks-secret-one-0123456789';

interface Offer {
  childID: number;
  childName: string;
  children: { childID: number; childName: string; current: boolean }[];
  noticeDays: number;
  key: string | null;
  chosen: string[];
  weeks: { value: string; label: string; activityID: number; activity: string; weekStart: string; weekRange: string; fee: number; seatsLeft: number; reason: string | null; unavailable: boolean; daysOfWeek: string[] }[];
}

const addDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe.each(BACKENDS)('adding weeks to a weekly program on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  const tokens = { maria: '', karen: '', linh: '' };
  const ids = { summer: 0, school: 0, adventure: 0, swim: 0, lucas: 0, sofia: 0, tyler: 0 };
  const api = apiClient(() => t.app, { lang: 'en' });
  const db = () => t.db.handle.db;

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: { '1': SECRET }, publicUrl: gwUrl });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    t = await createTestApp(backend, {
      gateways: { 1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRET }) },
      providerSettings: { brightpath: { payments: { gateways: { CCD: 1, ECH: 1 } } } },
    });
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    const pp = async (name: string) => (await db().select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, name)))[0].id;
    const child = async (name: string) => (await db().select({ id: s.children.id }).from(s.children).where(eq(s.children.firstName, name)))[0].id;
    const act = async (name: string) => (await db().select({ id: s.activities.id }).from(s.activities).where(eq(s.activities.activity, name)))[0].id;
    ids.summer = await pp('Summer Adventure Camp');
    ids.school = await pp('School Year Before & After Care');
    ids.adventure = await act('Adventure Week');
    ids.swim = await act('Swim & Splash');
    ids.lucas = await child('Lucas');
    ids.sofia = await child('Sofia');
    ids.tyler = await child('Tyler');
    // Karen's Tyler is registered in the summer camp too, so two families want the same week
    const [tyler] = await db().select().from(s.children).where(eq(s.children.id, ids.tyler));
    await db().insert(s.registrations).values({ providerId: tyler.providerId, accountId: tyler.accountId, programPeriodId: ids.summer, childId: ids.tyler, status: 'REGISTERED', registrationDate: '2026-01-01', submittedOn: '2026-01-01' });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const offered = async (token: string, childID?: number, lang = 'en') => {
    const r = await api('Registration.addWeeksOffered', { token, lang, query: { programPeriodID: ids.summer, ...(childID ? { childID } : {}) } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<Offer>();
  };
  const seatOf = async (activityId: number, week: string) => (await db().select().from(s.seats).where(and(eq(s.seats.activityId, activityId), eq(s.seats.weekStart, week))))[0];
  const charges = async (accountId?: number) => (await db().select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.kind, 'CHARGE'), accountId ? eq(s.ledgerEntries.accountId, accountId) : undefined))).length;

  it('offers the weeks Lucas does not have, with fee and seats; the full first week and one inside the notice said why', async () => {
    const o = await offered(tokens.maria);
    // only the registered child (Sofia's application waits for the provider)
    expect(o.children.map((c) => c.childName)).toEqual(['Lucas Garcia']);
    expect(o.childID).toBe(ids.lucas);
    expect(o.noticeDays).toBe(3);
    expect(o.weeks.length).toBeGreaterThan(10);
    // by the week, then the activity's name
    const order = o.weeks.map((w) => `${w.weekStart}/${w.activity}`);
    expect(order).toEqual([...order].sort());
    // the camp's first Adventure Week is sold out
    const [first] = o.weeks.filter((w) => w.activityID === ids.adventure);
    expect(first).toMatchObject({ reason: 'full', unavailable: true, seatsLeft: 0, fee: 210_00 });
    const open = o.weeks.find((w) => w.activityID === ids.adventure && !w.unavailable)!;
    // the seats left are the week's own (the second week holds one for Sofia's application waiting for the provider)
    const left = 20 - ((await seatOf(ids.adventure, open.weekStart))?.taken ?? 0);
    expect(open).toMatchObject({ reason: null, seatsLeft: left, fee: 210_00, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'] });
    expect(open.label).toContain('Adventure Week');
    expect(open.label).toContain('$210.00');
    expect(open.label).toContain(`${left} seats left`);
    // Swim & Splash: 2 days a week
    expect(o.weeks.find((w) => w.activityID === ids.swim)).toMatchObject({ daysOfWeek: ['T', 'TH'], fee: 40_00 });
    // in Spanish: dates and amounts in the language
    const es = await offered(tokens.maria, undefined, 'es');
    expect(es.weeks.find((w) => w.value === open.value)!.label).toContain(`quedan ${left} lugares`);

    // a week whose Monday is inside the provider's notice, and one already begun
    const [adv] = await db().select().from(s.activities).where(eq(s.activities.id, ids.adventure));
    const today = t.app.deps.today();
    const todayIso = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    const dow = new Date(`${todayIso}T00:00:00Z`).getUTCDay();
    const thisMonday = addDays(todayIso, -((dow + 6) % 7));
    await db().update(s.activities).set({ startDate: thisMonday }).where(eq(s.activities.id, ids.adventure));
    try {
      const soon = await offered(tokens.maria);
      const byWeek = (w: string) => soon.weeks.find((x) => x.activityID === ids.adventure && x.weekStart === w);
      expect(byWeek(thisMonday)).toMatchObject({ reason: 'past', unavailable: true });
      const next = addDays(thisMonday, 7);
      const ahead = Math.round((Date.parse(next) - Date.parse(todayIso)) / 86_400_000);
      expect(byWeek(next)).toMatchObject({ reason: ahead < 3 ? 'notice' : null });
      // the send is refused too when the week is not offered
      const refused = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [`${ids.adventure}/${thisMonday}`] } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().key).toBe('enrollment.addWeeks.errors.past');
      // a provider asking two weeks' notice: next week is inside it, the week after next is not
      const policy = t.app.deps.settings('brightpath').changeSchedule;
      const notice = policy.minimumNoticeDays;
      policy.minimumNoticeDays = 14;
      try {
        const later = await offered(tokens.maria);
        const at = (w: string) => later.weeks.find((x) => x.activityID === ids.adventure && x.weekStart === w);
        expect(at(next)).toMatchObject({ reason: 'notice', unavailable: true });
        expect(at(addDays(next, 14))).toMatchObject({ reason: null });
        expect(later.weeks.find((x) => x.reason === 'notice')!.label).toContain('Adventure Week');
        const tooSoon = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [`${ids.adventure}/${next}`] } });
        expect(tooSoon.statusCode).toBe(400);
        expect(tooSoon.json().key).toBe('enrollment.addWeeks.errors.notice');
      } finally {
        policy.minimumNoticeDays = notice;
      }
    } finally {
      await db().update(s.activities).set({ startDate: adv.startDate }).where(eq(s.activities.id, ids.adventure));
    }
  });

  it('reviews the chosen weeks with their total, sends them once (seats, enrolments, one charge) and the change payment step takes the amount due on the checkout', async () => {
    const o = await offered(tokens.maria);
    const picks = o.weeks.filter((w) => !w.unavailable).slice(0, 2);
    const saved = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: picks.map((w) => w.value) } });
    expect(saved.statusCode, saved.body).toBe(200);
    const { key } = saved.json<{ key: string }>();
    // the same open request is kept: choosing again replaces the child's weeks
    expect((await offered(tokens.maria)).chosen.sort()).toEqual(picks.map((w) => w.value).sort());
    const review = await api('Registration.addWeeksRequest', { token: tokens.maria, query: { key } });
    expect(review.statusCode, review.body).toBe(200);
    const total = picks.reduce((n, w) => n + w.fee, 0);
    expect(review.json()).toMatchObject({ status: 'open', total, weeks: picks.map((w) => ({ childName: 'Lucas Garcia', activityID: w.activityID, weekStart: w.weekStart, fee: w.fee })) });
    // a full week is refused before anything is kept
    const full = o.weeks.find((w) => w.reason === 'full')!;
    const refused = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [full.value] } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().key).toBe('enrollment.addWeeks.errors.full');

    const seatsBefore = await Promise.all(picks.map((w) => seatOf(w.activityID, w.weekStart)));
    const [garcia] = await db().select().from(s.children).where(eq(s.children.id, ids.lucas));
    const chargesBefore = await charges(garcia.accountId);
    const sent = await api('Registration.addWeeksSubmit', { token: tokens.maria, query: { key } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ status: 'applied', total });
    // sent twice (a double click): the second answers the same, charging nothing
    const again = await api('Registration.addWeeksSubmit', { token: tokens.maria, query: { key } });
    expect(again.statusCode).toBe(200);
    expect(await charges(garcia.accountId)).toBe(chargesBefore + 1);
    // e-mailed once to the account holder, each week with its fee, and kept in the Emails/Texts history
    const mails = await db().select().from(s.outbox).where(and(eq(s.outbox.kind, 'weeks-added'), eq(s.outbox.toAddress, 'maria.garcia@example.com')));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe('Weeks added: Summer Adventure Camp');
    for (const w of picks) expect(mails[0].textBody).toContain(`${w.activity}, week ${w.weekRange}`);
    expect(mails[0].textBody).toContain(`Total: $${(total / 100).toFixed(2)}`);
    expect(await db().select().from(s.communications).where(and(eq(s.communications.accountId, garcia.accountId), eq(s.communications.subject, 'Weeks added: Summer Adventure Camp')))).toHaveLength(1);
    const [charge] = await db().select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.accountId, garcia.accountId), eq(s.ledgerEntries.kind, 'CHARGE'), eq(s.ledgerEntries.amountCents, total)));
    expect(charge).toBeDefined();
    for (const [i, w] of picks.entries()) expect((await seatOf(w.activityID, w.weekStart)).taken).toBe((seatsBefore[i]?.taken ?? 0) + 1);
    // the weeks are Lucas's now, no longer offered, and on the weekly card
    expect((await offered(tokens.maria)).weeks.some((w) => picks.some((p) => p.value === w.value))).toBe(false);
    const card = (await api('Registration.activitiesByWeek', { token: tokens.maria, query: { programPeriodID: ids.summer } })).json<{ childID: number; weeks: { weekStart: string; activities: { activityID: number }[] }[] }[]>();
    const lucas = card.find((c) => c.childID === ids.lucas)!;
    for (const w of picks) expect(lucas.weeks.find((x) => x.weekStart === w.weekStart)?.activities.some((a) => a.activityID === w.activityID)).toBe(true);

    // the change's payment step: its view, and the checkout for what is due
    const view = (await api('Registration.change', { token: tokens.maria, query: { key } })).json();
    expect(view).toMatchObject({ kind: 'addWeeks', status: 'applied', cost: { total, changeFee: 0 } });
    const due = view.amountDue as number;
    expect(due).toBeGreaterThan(0);
    const chosen = (await api('Registration.changeSubmittedActivities', { token: tokens.maria, query: { key } })).json();
    expect(chosen.children[0].activities).toHaveLength(2);
    expect(chosen.children[0].activities[0].activity).toContain(', week ');
    // a change of schedule's operations do not take it
    expect((await api('Registration.changeSubmit', { token: tokens.maria, query: { key } })).statusCode).toBe(404);
    const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
    const fee = (await api('Billing.processingFee', { token: tokens.maria, query: { ChangeKey: key, PaymentMethod: 'CCD' } })).json();
    expect(fee.valid).toBe(true);
    const started = await api('Billing.startPayment', { token: tokens.maria, body: { ...payer, idempotencyKey: crypto.randomUUID().replace(/-/g, ''), paymentMethodCode: 'CCD', changeKey: key } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: '4111111111111111', expiry: '12/30', cvv: '123' }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const result = await api('Billing.paymentResult', { token: tokens.maria, body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as 'APPROVED', sig: q.sig } });
    expect(result.json()).toMatchObject({ status: 'APPROVED', purpose: 'CHANGE', referrer: `/changeschedule/confirmation?key=${key}` });
    // nothing left to pay for it
    expect((await api('Billing.processingFee', { token: tokens.maria, query: { ChangeKey: key } })).json()).toMatchObject({ valid: false });
  });

  it('gives the last seat of a week to one of two parents sending at the same moment; the other is charged nothing', async () => {
    const lucasWeeks = await offered(tokens.maria);
    const tylerWeeks = await offered(tokens.karen);
    const week = lucasWeeks.weeks.find((w) => w.activityID === ids.adventure && !w.unavailable && tylerWeeks.weeks.some((x) => x.value === w.value && !x.unavailable))!;
    // one seat left in that week
    const [adv] = await db().select().from(s.activities).where(eq(s.activities.id, ids.adventure));
    await db().insert(s.seats).values({ providerId: adv.providerId, activityId: adv.id, weekStart: week.weekStart, total: adv.capacity, taken: adv.capacity - 1 }).onConflictDoUpdate({ target: [s.seats.activityId, s.seats.weekStart], set: { taken: adv.capacity - 1, total: adv.capacity } });
    expect((await offered(tokens.maria)).weeks.find((w) => w.value === week.value)).toMatchObject({ seatsLeft: 1, reason: null });
    const keyOf = async (token: string, childID: number) => {
      const r = await api('Registration.addWeeksSave', { token, body: { programPeriodID: ids.summer, childID, weeks: [week.value] } });
      expect(r.statusCode, r.body).toBe(200);
      return r.json<{ key: string }>().key;
    };
    const [mKey, kKey] = [await keyOf(tokens.maria, ids.lucas), await keyOf(tokens.karen, ids.tyler)];
    const before = await charges();
    addWeeksHooks.pauseBeforeSeatTakeMs = 50;
    let answers;
    try {
      answers = await Promise.all([api('Registration.addWeeksSubmit', { token: tokens.maria, query: { key: mKey } }), api('Registration.addWeeksSubmit', { token: tokens.karen, query: { key: kKey } })]);
    } finally {
      addWeeksHooks.pauseBeforeSeatTakeMs = 0;
    }
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const loser = answers.find((a) => a.statusCode === 409)!;
    expect(loser.json().key).toBe('enrollment.addWeeks.errors.full');
    expect((await seatOf(ids.adventure, week.weekStart))).toMatchObject({ taken: adv.capacity, total: adv.capacity });
    expect(await charges()).toBe(before + 1);
    const enrolled = await db().select().from(s.enrollments).where(and(eq(s.enrollments.activityId, ids.adventure), eq(s.enrollments.enrollmentDate, week.weekStart)));
    expect(enrolled).toHaveLength(1);
    // the loser's request stays open, and the week is now shown full to her
    const loserToken = answers[0].statusCode === 409 ? tokens.maria : tokens.karen;
    expect((await offered(loserToken)).weeks.find((w) => w.value === week.value)).toMatchObject({ reason: 'full', seatsLeft: 0 });
  });

  it('counts a full week of a program that does not check its capacity (N) without refusing it', async () => {
    const o = await offered(tokens.karen);
    const week = o.weeks.find((w) => w.activityID === ids.swim && !w.unavailable)!;
    const [swim] = await db().select().from(s.activities).where(eq(s.activities.id, ids.swim));
    await db().insert(s.seats).values({ providerId: swim.providerId, activityId: swim.id, weekStart: week.weekStart, total: 1, taken: 1 }).onConflictDoUpdate({ target: [s.seats.activityId, s.seats.weekStart], set: { taken: 1, total: 1 } });
    expect((await offered(tokens.karen)).weeks.find((w) => w.value === week.value)).toMatchObject({ reason: 'full' });
    await db().update(s.programPeriods).set({ capacityCheck: 'N' }).where(eq(s.programPeriods.id, ids.summer));
    try {
      expect((await offered(tokens.karen)).weeks.find((w) => w.value === week.value)).toMatchObject({ reason: null });
      const saved = await api('Registration.addWeeksSave', { token: tokens.karen, body: { programPeriodID: ids.summer, childID: ids.tyler, weeks: [week.value] } });
      expect(saved.statusCode, saved.body).toBe(200);
      const sent = await api('Registration.addWeeksSubmit', { token: tokens.karen, query: { key: saved.json<{ key: string }>().key } });
      expect(sent.statusCode, sent.body).toBe(200);
      expect(await seatOf(ids.swim, week.weekStart)).toMatchObject({ taken: 2, total: 1 });
    } finally {
      await db().update(s.programPeriods).set({ capacityCheck: 'W' }).where(eq(s.programPeriods.id, ids.summer));
    }
  });

  it("refuses another account's child and key, another provider's program and a program that is not weekly, changing nothing", async () => {
    const saved = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [(await offered(tokens.maria)).weeks.find((w) => !w.unavailable)!.value] } });
    const { key } = saved.json<{ key: string }>();
    const before = await snapshotDb(db());
    const tries = [
      await api('Registration.addWeeksOffered', { token: tokens.karen, query: { programPeriodID: ids.summer, childID: ids.lucas } }),
      await api('Registration.addWeeksSave', { token: tokens.karen, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [`${ids.adventure}/2030-06-03`] } }),
      await api('Registration.addWeeksRequest', { token: tokens.karen, query: { key } }),
      await api('Registration.addWeeksSubmit', { token: tokens.karen, query: { key } }),
      await api('Registration.addWeeksSubmit', { token: tokens.linh, query: { key } }),
      await api('Registration.addWeeksOffered', { token: tokens.linh, query: { programPeriodID: ids.summer } }),
      await api('Registration.addWeeksOffered', { token: tokens.maria, query: { programPeriodID: ids.school } }),
      await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.sofia, weeks: [`${ids.adventure}/2030-06-03`] } }),
    ];
    expect(tries.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    // a week of another program's activity is not offered
    const [after] = await db().select({ id: s.activities.id }).from(s.activities).where(eq(s.activities.activity, 'Before Care'));
    const foreign = await api('Registration.addWeeksSave', { token: tokens.maria, body: { programPeriodID: ids.summer, childID: ids.lucas, weeks: [`${after.id}/2027-06-14`] } });
    expect(foreign.statusCode).toBe(400);
    expect(changedTables(before, await snapshotDb(db()))).toEqual([]);
  });
});
