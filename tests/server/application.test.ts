// The parent application on both databases: start or resume a draft under its key, children, each
// child's activities, fees in integer cents with credit, submit (seats taken atomically, a full
// week waitlisted with its place, a retried submit answered with the first confirmation), another
// account's key refused, and many simultaneous submits for the last seat taking it exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, KAREN, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { createSession } from '../../server/auth';
import { ApprovalError, approveApplication, pendingApplications, rejectApplication } from '../../server/domains/enrolment/approvals';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;

describe.each(BACKENDS)('parent application on %s', (backend) => {
  let t: TestApp;
  let amara = '';
  let karen = '';
  let summer = 0;
  let adventure = 0;
  let kids: { ada: number; ben: number } = { ada: 0, ben: 0 };
  let weeks: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(backend);
    amara = await tokenFor(t.app, ...AMARA);
    karen = await tokenFor(t.app, ...KAREN);
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    summer = pp.id;
    const [a] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'Adventure Week')));
    adventure = a.id;
    const children = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    kids = { ada: children.find((c) => c.firstName === 'Ada')!.id, ben: children.find((c) => c.firstName === 'Ben')!.id };
  });
  afterAll(async () => t?.close());

  const api = apiClient(() => t.app);

  it('a draft is started once per account and program, and resumed from any session', async () => {
    const first = await api('ParentApplication.start', { token: amara, body: { programPeriodID: summer } });
    expect(first.statusCode, first.body).toBe(200);
    const app = first.json();
    expect(app).toMatchObject({ programPeriodID: summer, step: 'children', status: 'open', isWeekly: true, paymentOption: 'N', isOpen: true });
    expect(app.key).toMatch(/^[0-9a-f]{32}$/);
    // another sign-in (another device) continues the same application
    const other = await tokenFor(t.app, ...AMARA);
    const again = await api('ParentApplication.start', { token: other, body: { programPeriodID: summer } });
    expect(again.json().key).toBe(app.key);
    // the key is no credential: another account's session cannot read it
    expect((await api('ParentApplication.draft', { token: karen, query: { key: app.key } })).statusCode).toBe(404);
  });

  it('registration opens at its declared time by the server clock: a submit before it is refused with when it opens', async () => {
    const [winter] = await t.db.handle.db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Winter Break Holiday Care'));
    // later than now by the server's business clock (PORTAL_TODAY at the clock's time of day), which decides
    expect(winter.registrationStartAt!.getTime()).toBeGreaterThan(t.app.deps.today().getTime());
    const started = await api('ParentApplication.start', { token: amara, body: { programPeriodID: winter.id } });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ isOpen: false });
    const early = await api('ParentApplication.submit', { token: amara, query: { key: started.json().key } });
    expect(early.statusCode).toBe(409);
    expect(early.json().key).toBe('application.errors.notOpen');
  });

  it('children, activities, fees in cents with credit, then submit: one registered, one waitlisted with its place', async () => {
    const { key } = (await api('ParentApplication.start', { token: amara, body: { programPeriodID: summer } })).json();
    // another account's child is refused
    const [tyler] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    expect((await api('ParentApplication.setChildren', { token: amara, query: { key }, body: { childIDs: [tyler.id] } })).statusCode).toBe(404);
    const set = await api('ParentApplication.setChildren', { token: amara, query: { key }, body: { childIDs: [kids.ada, kids.ben] } });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().step).toBe('enrollment');

    const acts = (await api('ParentApplication.activities', { token: amara, params: { prChildID: kids.ada }, query: { key } })).json();
    weeks = acts.weeks.map((w: { weekStart: string }) => w.weekStart);
    const adv = acts.activities.find((a: { activityID: number }) => a.activityID === adventure);
    expect(adv).toMatchObject({ fee: 21000, firstChildRegFee: 7500, secondChildRegFee: 6000, siblingFee: 19000, isSameRegistrationFee: false });
    // the first week is full (seeded), the second has seats
    expect(acts.seats.find((x: { activityID: number; weekStart: string }) => x.activityID === adventure && x.weekStart === weeks[0]).isFull).toBe(true);
    expect(acts.seats.find((x: { activityID: number; weekStart: string }) => x.activityID === adventure && x.weekStart === weeks[1]).isFull).toBe(false);

    const site = adv.siteID;
    const enrol = (option: string | null, adaDays?: string[]) =>
      api('ParentApplication.saveEnrollment', { token: amara, query: { key }, body: {
        children: [
          { prChildID: kids.ada, siteID: site, selections: [{ activityID: adventure, weekStart: weeks[1], daysOfWeek: adaDays ?? ['M', 'T', 'W', 'TH', 'F'], date: null }] },
          { prChildID: kids.ben, siteID: site, selections: [{ activityID: adventure, weekStart: weeks[0], daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null }] },
        ],
        enrollmentOption: option,
      } });
    // the enrolment option is mandatory (spec 5.5)
    const missing = await enrol(null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toContain('/enrollmentOption');
    // a week that is not one of the activity's is refused
    const badWeek = await api('ParentApplication.saveEnrollment', { token: amara, query: { key }, body: { children: [{ prChildID: kids.ada, siteID: site, selections: [{ activityID: adventure, weekStart: '2020-01-06', daysOfWeek: [], date: null }] }], enrollmentOption: 'Y' } });
    expect(badWeek.statusCode).toBe(400);
    const ok = await enrol('Y');
    expect(ok.statusCode, ok.body).toBe(200);

    const misc = (await api('ParentApplication.fees', { token: amara, query: { key } })).json().miscOptions;
    const shirt = misc.find((m: { feeName: string }) => m.feeName === 'Camp T-shirt');
    const fee = await api('ParentApplication.saveFee', { token: amara, query: { key }, body: { miscCharges: [shirt.miscChargeID], isCreditBalanceApplied: true, isOptedFinancialAssistance: false, agencies: [] } });
    expect(fee.statusCode, fee.body).toBe(200);
    const fees = (await api('ParentApplication.fees', { token: amara, query: { key } })).json();
    // Ada: 1st child registration $75 + week $210; Ben's week is full: waitlisted, no registration fee and his week not charged (spec 4); T-shirt $15
    expect(fees.rows.map((r: { kind: string; regularFee: number; status: string }) => `${r.kind} ${r.status} ${r.regularFee}`)).toEqual(['registration CHARGED 7500', 'tuition CHARGED 21000', 'tuition WAITLIST 0', 'misc CHARGED 1500']);
    expect(fees).toMatchObject({ totalCost: 30000, creditBalance: 4000, creditBalanceApplied: 4000, isCreditBalanceApplied: true, totalDue: 26000 });

    const seatOf = async (week: string) => (await t.db.handle.db.select().from(s.seats).where(and(eq(s.seats.activityId, adventure), eq(s.seats.weekStart, week))))[0];
    const takenBefore = (await seatOf(weeks[1]))?.taken ?? 0;
    const submitted = await api('ParentApplication.submit', { token: amara, query: { key } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const c = submitted.json();
    const ada = c.children.find((x: { prChildID: number }) => x.prChildID === kids.ada);
    const ben = c.children.find((x: { prChildID: number }) => x.prChildID === kids.ben);
    // the submit answers the statuses; the places are counted when the confirmation is read
    expect(ada).toMatchObject({ status: 'REGISTERED', waitlistPosition: null });
    expect(ben).toMatchObject({ status: 'WAITLISTED', waitlistPosition: null });
    expect(c.emailSent).toBe(true);
    const read = (await api('ParentApplication.confirmation', { token: amara, query: { key } })).json();
    expect(read.children.find((x: { prChildID: number }) => x.prChildID === kids.ben)).toMatchObject({ status: 'WAITLISTED', waitlistPosition: 1 });
    expect(read.children.find((x: { prChildID: number }) => x.prChildID === kids.ada)).toMatchObject({ status: 'REGISTERED', waitlistPosition: null });
    // a retried submit takes nothing again and answers the same confirmation
    const retry = await api('ParentApplication.submit', { token: amara, query: { key } });
    expect(retry.json().children).toEqual(c.children);
    expect((await seatOf(weeks[1])).taken).toBe(takenBefore + 1);
    // the programs list and the status show the waitlist place
    const status = (await api('ParentApplication.status', { token: amara, query: { programPeriodID: summer } })).json();
    expect(status.find((r: { childID: number }) => r.childID === kids.ben)).toMatchObject({ status: 'WAITLISTED', waitlistPosition: 1 });
    // a submitted application cannot be changed
    expect((await enrol('Y')).statusCode).toBe(409);
    const mail = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'application-confirmation'));
    expect(mail.some((m) => m.toAddress === 'amara.mensah@example.com')).toBe(true);
  });

  /** Adventure Week's seat row of `week` with the given counts (made or reset). */
  async function seatOfWeek(week: string, total: number, taken: number) {
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.id, summer));
    const [seat] = await db
      .insert(s.seats)
      .values({ providerId: pp.providerId, activityId: adventure, weekStart: week, total, taken })
      .onConflictDoUpdate({ target: [s.seats.activityId, s.seats.weekStart], set: { total, taken } })
      .returning();
    return seat;
  }

  /** n new families, each with one child and a draft for the given week of Adventure Week, ready to submit. */
  async function familiesReadyToSubmit(n: number, week: string, tag: string) {
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.id, summer));
    const drafts: { token: string; key: string }[] = [];
    for (let i = 0; i < n; i++) {
      const [acct] = await db.insert(s.accounts).values({ providerId: pp.providerId, accountNo: `${tag}-${backend}-${i}` }).returning();
      const [adult] = await db.insert(s.adults).values({ providerId: pp.providerId, accountId: acct.id, accountHolder: 1, firstName: `P${i}`, lastName: tag, email: `${tag.toLowerCase()}${i}@example.com` }).returning();
      const [login] = await db.insert(s.logins).values({ providerId: pp.providerId, adultId: adult.id, email: `${tag.toLowerCase()}${i}-${backend}@example.com`, passwordHash: 'x' }).returning();
      const [child] = await db.insert(s.children).values({ providerId: pp.providerId, accountId: acct.id, firstName: `C${i}`, lastName: tag, dateOfBirth: '2018-05-01' }).returning();
      const token = await createSession(db, t.app.deps.clock, { providerId: pp.providerId, loginId: login.id, adultId: adult.id, accountId: acct.id, locale: 'en' });
      const key = randomBytes(16).toString('hex');
      const now = new Date();
      await db.insert(s.applicationDrafts).values({
        key,
        providerId: pp.providerId,
        accountId: acct.id,
        programPeriodId: summer,
        step: 'review',
        status: 'open',
        createdAt: now,
        updatedAt: now,
        data: { childIDs: [child.id], enrollmentOption: 'Y', children: [{ prChildID: child.id, childName: `C${i} ${tag}`, siteID: 0, selections: [{ activityID: adventure, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null, daysPerWeek: 5, activityTypeID: 1 }] }] },
      });
      drafts.push({ token, key });
    }
    return drafts;
  }

  it('many simultaneous submits for the last seat, paused between reading and taking, take it exactly once', async () => {
    const db = t.db.handle.db;
    const week = weeks[4];
    // one seat left in that week
    await seatOfWeek(week, 5, 4);
    const N = 8;
    const drafts = await familiesReadyToSubmit(N, week, 'Rush');
    // each submit its own transaction (no batching), so they race for the seat
    t.app.deps.hooks = { pauseBeforeSeatTakeMs: 25, submitBatch: 1 };
    try {
      const answers = await Promise.all(drafts.map((d) => api('ParentApplication.submit', { token: d.token, query: { key: d.key } })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
      const statuses = answers.map((a) => a.json().children[0].status);
      expect(statuses.filter((x) => x === 'REGISTERED')).toHaveLength(1);
      expect(statuses.filter((x) => x === 'WAITLISTED')).toHaveLength(N - 1);
      // the places, read once every submit is answered (as the confirmation page reads them), follow the entries' sequence
      const confirmations = await Promise.all(drafts.map((d) => api('ParentApplication.confirmation', { token: d.token, query: { key: d.key } })));
      const places = confirmations.map((c) => c.json().children[0].waitlistPosition).filter((p) => p !== null).sort((a, b) => a - b);
      expect(places).toEqual(Array.from({ length: N - 1 }, (_, i) => i + 1));
    } finally {
      t.app.deps.hooks = undefined;
    }
    const [seat] = await db.select().from(s.seats).where(and(eq(s.seats.activityId, adventure), eq(s.seats.weekStart, week)));
    expect(seat.taken).toBe(seat.total);
  });

  it('submits of one moment go to the database together: seats taken once each, places in order, a draft submitted twice in one batch takes once', async () => {
    const db = t.db.handle.db;
    const week = weeks[2];
    await seatOfWeek(week, 3, 0);
    const drafts = await familiesReadyToSubmit(6, week, 'Batch');
    t.app.deps.hooks = { submitBatch: 4 };
    try {
      // seven calls in one moment: two batches (4 and 3), the first family's draft twice in the first
      const [first, twice, ...rest] = await Promise.all([drafts[0], ...drafts].map((d) => api('ParentApplication.submit', { token: d.token, query: { key: d.key } })));
      expect([first, twice, ...rest].map((a) => a.statusCode)).toEqual(Array(7).fill(200));
      const statuses = [first, ...rest].map((a) => a.json().children[0].status);
      expect(statuses.filter((x) => x === 'REGISTERED')).toHaveLength(3);
      expect(statuses.filter((x) => x === 'WAITLISTED')).toHaveLength(3);
      // the second submit of the first draft, in the same transaction, answers the first one's confirmation
      expect(twice.json().children).toEqual(first.json().children);
      const confirmations = await Promise.all(drafts.map((d) => api('ParentApplication.confirmation', { token: d.token, query: { key: d.key } })));
      const places = confirmations.map((c) => c.json().children[0].waitlistPosition).filter((p) => p !== null).sort((a, b) => a - b);
      expect(places).toEqual([1, 2, 3]);
    } finally {
      t.app.deps.hooks = undefined;
    }
    const [seat] = await db.select().from(s.seats).where(and(eq(s.seats.activityId, adventure), eq(s.seats.weekStart, week)));
    expect(seat.taken).toBe(3);
    const regs = await db.select().from(s.registrations).where(inArray(s.registrations.draftId, (await db.select().from(s.applicationDrafts).where(inArray(s.applicationDrafts.key, drafts.map((d) => d.key)))).map((d) => d.id)));
    expect(regs).toHaveLength(6);
  });

  it('a submit for a week already full joins its waitlist without waiting for the row of a seat another submit is taking', async () => {
    const db = t.db.handle.db;
    const week = weeks[3];
    const seat = await seatOfWeek(week, 3, 3);
    const [family] = await familiesReadyToSubmit(1, week, 'Late');
    if (backend === 'pglite') {
      // one connection: nothing else can hold the row; the answer is the same
      const answer = await api('ParentApplication.submit', { token: family.token, query: { key: family.key } });
      expect(answer.json().children[0].status).toBe('WAITLISTED');
      return;
    }
    // another transaction holds the full seat's row (a release or an approval, until it commits)
    let answered = false;
    await db.transaction(async (tx) => {
      await tx.execute(sql`UPDATE seats SET taken = taken WHERE id = ${seat.id}`);
      const submit = api('ParentApplication.submit', { token: family.token, query: { key: family.key } }).then((a) => ((answered = true), a));
      const heldFor = new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000));
      const answer = await Promise.race([submit, heldFor]);
      expect(answered, 'the submit waited for the locked row of a full seat').toBe(true);
      expect(answer!.statusCode).toBe(200);
      expect(answer!.json().children[0].status).toBe('WAITLISTED');
    });
    const [after] = await db.select().from(s.seats).where(eq(s.seats.id, seat.id));
    expect(after.taken).toBe(3);
  }, 30_000);

  it('a claimed financial assistance waits as Approval Pending until the provider approves (enrolled) or rejects (seats back)', async () => {
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.id, summer));
    const [agency] = await db.select().from(s.assistanceAgencies).where(eq(s.assistanceAgencies.providerId, pp.providerId));
    const week = weeks[5];
    const seatNow = async () => (await db.select().from(s.seats).where(and(eq(s.seats.activityId, adventure), eq(s.seats.weekStart, week))))[0];
    const before = (await seatNow())?.taken ?? 0;
    const families: { token: string; key: string; child: number }[] = [];
    for (const i of [0, 1]) {
      const [acct] = await db.insert(s.accounts).values({ providerId: pp.providerId, accountNo: `FA-${backend}-${i}` }).returning();
      const [adult] = await db.insert(s.adults).values({ providerId: pp.providerId, accountId: acct.id, accountHolder: 1, firstName: `F${i}`, lastName: 'Assist', email: `fa${i}@example.com` }).returning();
      const [login] = await db.insert(s.logins).values({ providerId: pp.providerId, adultId: adult.id, email: `fa${i}-${backend}@example.com`, passwordHash: 'x' }).returning();
      const [child] = await db.insert(s.children).values({ providerId: pp.providerId, accountId: acct.id, firstName: `K${i}`, lastName: 'Assist', dateOfBirth: '2018-05-01' }).returning();
      const token = await createSession(db, t.app.deps.clock, { providerId: pp.providerId, loginId: login.id, adultId: adult.id, accountId: acct.id, locale: 'en' });
      const { key } = (await api('ParentApplication.start', { token, body: { programPeriodID: summer } })).json();
      expect((await api('ParentApplication.setChildren', { token, query: { key }, body: { childIDs: [child.id] } })).statusCode).toBe(200);
      const site = (await api('ParentApplication.activities', { token, params: { prChildID: child.id }, query: { key } })).json().activities.find((a: { activityID: number }) => a.activityID === adventure).siteID;
      const enrol = await api('ParentApplication.saveEnrollment', { token, query: { key }, body: { children: [{ prChildID: child.id, siteID: site, selections: [{ activityID: adventure, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null }] }], enrollmentOption: 'Y' } });
      expect(enrol.statusCode, enrol.body).toBe(200);
      // opting in needs an agency
      const noAgency = await api('ParentApplication.saveFee', { token, query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: true, agencies: [] } });
      expect(noAgency.statusCode).toBe(400);
      const fee = await api('ParentApplication.saveFee', { token, query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: true, agencies: [agency.id] } });
      expect(fee.statusCode, fee.body).toBe(200);
      const done = await api('ParentApplication.submit', { token, query: { key } });
      expect(done.json().children[0].status).toBe('PENDING');
      families.push({ token, key, child: child.id });
    }
    expect((await seatNow()).taken).toBe(before + 2);
    // not enrolled while pending
    expect(await db.select().from(s.enrollments).where(eq(s.enrollments.childId, families[0].child))).toHaveLength(0);

    const pending = (await pendingApplications(db, 'brightpath')).filter((p) => p.childName.endsWith('Assist'));
    expect(pending.map((p) => p.childName)).toEqual(['K0 Assist', 'K1 Assist']);
    expect(pending[0]).toMatchObject({ claimsDiscount: true, seats: [{ activity: 'Adventure Week', weekStart: week }] });
    // another provider's name does not reach them
    await expect(approveApplication(t.app.deps, 'northridge', pending[0].registrationID, { discount: true, today: '2026-11-23' })).rejects.toBeInstanceOf(ApprovalError);

    expect(await approveApplication(t.app.deps, 'brightpath', pending[0].registrationID, { discount: true, today: '2026-11-23' })).toMatchObject({ enrolled: 1 });
    const [enrolment] = await db.select().from(s.enrollments).where(eq(s.enrollments.childId, families[0].child));
    expect(enrolment).toMatchObject({ activityId: adventure, enrollmentDate: week, daysOfWeek: 'M,T,W,TH,F' });
    const status = (await api('ParentApplication.status', { token: families[0].token, query: { programPeriodID: summer } })).json();
    expect(status.find((r: { childID: number }) => r.childID === families[0].child)).toMatchObject({ status: 'REGISTERED' });
    // a second approval changes nothing
    await expect(approveApplication(t.app.deps, 'brightpath', pending[0].registrationID, { discount: true, today: '2026-11-23' })).rejects.toBeInstanceOf(ApprovalError);
    expect(await db.select().from(s.enrollments).where(eq(s.enrollments.childId, families[0].child))).toHaveLength(1);

    expect(await rejectApplication(db, 'brightpath', pending[1].registrationID)).toEqual({ released: 1 });
    expect((await seatNow()).taken).toBe(before + 1);
    const [removed] = await db.select().from(s.registrations).where(eq(s.registrations.id, pending[1].registrationID));
    expect(removed.status).toBe('REMOVED');
    expect(await db.select().from(s.enrollments).where(eq(s.enrollments.childId, families[1].child))).toHaveLength(0);
  });
});
