// Seats held while the parent pays (amendment 7) are never dropped silently, on both databases: the
// sweeper warns the parent by e-mail when five minutes of the hold remain (once, however many sweeps
// or servers run), and tells her when the seats were released (once); both in her language, and
// with the confirmation and the receipts in her Emails/Texts history. Home and the programs list
// show the running hold. The programs list offers Register or Add child only while a child of the
// account can still be registered, and the children step offers no child already in the program.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import * as holds from '../../server/domains/enrolment/applicationPayment';
import { apiClient, BACKENDS, KAREN, LINH, createTestApp, freePort, testClock, tokenFor, type CallOptions, type TestApp } from './helpers';
import type { BillingPaymentResultBody as PaymentResult, OperationId } from '../../src/engine/contract.gen';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
const SECRET = 'hold-notices-secret-0123456789ab';
const MIN = 60_000;

describe.each(BACKENDS)('seat holds told to the parent on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  const time = testClock();
  const tokens: Record<string, string> = {};
  let preschool = 0;
  let activity: typeof s.activities.$inferSelect;
  let kids = { ada: 0, ben: 0 };
  // the sweeper's parts (absent before hold notices existed: the test fails, it does not crash)
  const sweep = () => (holds as unknown as { sweepHolds: (d: unknown) => Promise<unknown> }).sweepHolds(t.app.deps);

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: { '1': SECRET }, publicUrl: gwUrl, clock: time.clock, notify: { retryDelaysMs: [50] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const port = await freePort();
    t = await createTestApp(backend, {
      clock: time.clock,
      publicUrl: `http://127.0.0.1:${port}`,
      gateways: { 1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRET, clock: time.clock }) },
      providerSettings: { brightpath: { payments: { gateways: { CCD: 1, ECH: 1 }, seatHoldMinutes: 15 } } },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool'));
    preschool = pp.id;
    await db.update(s.programPeriods).set({ paymentOption: 'O' }).where(eq(s.programPeriods.id, pp.id));
    [activity] = await db.select().from(s.activities).where(eq(s.activities.programPeriodId, pp.id));
    const children = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    kids = { ada: children.find((c) => c.firstName === 'Ada')!.id, ben: children.find((c) => c.firstName === 'Ben')!.id };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  async function signIn(who: readonly [string, string, string]) {
    tokens[who[1]] = await tokenFor(t.app, ...who);
  }
  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const asAmara = <K extends OperationId>(id: K, opts: CallOptions<K> = {}) => api(id, { token: tokens[AMARA[1]], lang: 'es', ...opts });

  /** Amara applies for one child of the preschool (in Spanish) and submits. */
  async function submitted(childId: number) {
    const { key } = (await asAmara('ParentApplication.start', { body: { programPeriodID: preschool } })).json();
    expect((await asAmara('ParentApplication.setChildren', { query: { key }, body: { childIDs: [childId] } })).statusCode).toBe(200);
    const enrol = await asAmara('ParentApplication.saveEnrollment', { query: { key }, body: {
      children: [{ prChildID: childId, siteID: activity.siteId, selections: [{ activityID: activity.id, weekStart: null, daysOfWeek: activity.daysOfWeek.split(','), date: null }] }],
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    expect((await asAmara('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } })).statusCode).toBe(200);
    const res = await asAmara('ParentApplication.submit', { query: { key } });
    expect(res.statusCode, res.body).toBe(200);
    return { key: key as string, confirmation: res.json() };
  }

  const mails = (kind: string) => t.db.handle.db.select().from(s.outbox).where(and(eq(s.outbox.kind, kind), eq(s.outbox.toAddress, AMARA[1])));
  const history = async () => (await asAmara('Communication.history', { query: { Days: 90 } })).json() as { subject: string; from: string; description: string; isAutomatic: boolean }[];
  const preschoolCard = async () => ((await asAmara('Registration.programPeriods')).json() as Record<string, unknown>[]).find((p) => p.programPeriodID === preschool)!;

  it('warns once five minutes before the hold ends, in the parent language, on Home and in her history; tells her once when the seats went back', async () => {
    await signIn(AMARA);
    const { key, confirmation } = await submitted(kids.ben);
    expect(confirmation.payment.paymentStatus).toBe('AWAITING');
    // the confirmation e-mail is in her Emails/Texts history, in Spanish
    const subject = (await mails('application-confirmation'))[0]?.subject;
    expect(subject).toMatch(/^Inscripción recibida/);
    expect((await history()).some((h) => h.subject === subject && h.isAutomatic)).toBe(true);
    // Home and the programs list show the hold and what is due ($730.00 less the account's $40.00 credit)
    const held = await preschoolCard();
    expect(held.seatHold).toMatchObject({ amountDue: 690, children: 'Ben Mensah' });
    expect(Date.parse((held.seatHold as { holdUntil: string }).holdUntil)).toBe(time.clock().getTime() + 15 * MIN);

    // nine minutes on: more than five are left, nothing is sent
    time.advance(9 * MIN);
    await sweep();
    expect(await mails('application-hold-warning')).toHaveLength(0);
    // eleven minutes on: the warning, once, whatever the number of sweeps running at once
    time.advance(2 * MIN);
    await Promise.all([sweep(), sweep(), sweep()]);
    await sweep();
    const warned = await mails('application-hold-warning');
    expect(warned).toHaveLength(1);
    expect(warned[0].subject).toContain('Little Sprouts');
    expect(warned[0].textBody).toContain('Ben Mensah');
    expect(warned[0].textBody).toContain('$690.00');
    // in Spanish: 'Pagar ahora' is the portal's Pay now
    expect(warned[0].textBody).toMatch(/Pagar ahora/);
    expect((await history()).some((h) => h.subject === warned[0].subject)).toBe(true);

    // the hold ends: the seats go back, the parent is told once
    time.advance(5 * MIN);
    await Promise.all([sweep(), sweep()]);
    await sweep();
    await signIn(AMARA);
    expect((await asAmara('ParentApplication.confirmation', { query: { key } })).json().payment.paymentStatus).toBe('EXPIRED');
    const ended = await mails('application-hold-ended');
    expect(ended).toHaveLength(1);
    expect(ended[0].textBody).toContain('Ben Mensah');
    expect(ended[0].subject).toContain('Little Sprouts');
    expect((await history()).some((h) => h.subject === ended[0].subject)).toBe(true);
    expect((await preschoolCard()).seatHold).toBeNull();
    // Ben may be registered again
    expect((await preschoolCard()).childrenToRegister).toBe(2);
  });

  it('no warning after Pay later; a receipt goes into the history once', async () => {
    await signIn(AMARA);
    const before = (await mails('application-hold-warning')).length;
    const { key } = await submitted(kids.ada);
    expect((await asAmara('ParentApplication.payLater', { query: { key } })).json().payment.paymentStatus).toBe('LATER');
    time.advance(12 * MIN);
    await sweep();
    expect(await mails('application-hold-warning')).toHaveLength(before);
    expect((await preschoolCard()).seatHold).toBeNull();
    // Ada is in the preschool (Ben's seats went back): one child is left to add
    expect((await preschoolCard()).childrenToRegister).toBe(1);
    // she pays it by card: the receipt (in Spanish) is in her history too
    const payer = { paidByFamilyMemberID: -1, firstName: 'Amara', lastName: 'Mensah', streetAddress: '18 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0190', email: 'amara.mensah@example.com' };
    const started = await asAmara('Billing.startPayment', { body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD' } });
    expect(started.statusCode, started.body).toBe(200);
    const page = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Amara Mensah', number: '4111111111111111', expiry: '12/30', cvv: '123' }), redirect: 'manual' });
    const q = Object.fromEntries(new URL(page.headers.get('location')!).searchParams);
    expect((await asAmara('Billing.paymentResult', { body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } })).json().status).toBe('APPROVED');
    const [receipt] = await mails('payment-receipt');
    expect(receipt?.subject).toBeTruthy();
    // its date as a Spanish reader writes it, day first
    const [paid] = await t.db.handle.db.select().from(s.payments).where(eq(s.payments.payerName, 'Amara Mensah'));
    const d = String(paid.paymentDate);
    expect(receipt.textBody).toContain(t.app.deps.t('es', 'payment.email.date', { date: `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}` }));
    const h = await history();
    expect(h.filter((x) => x.subject === receipt.subject)).toHaveLength(1);
  });

  it('the programs list counts the children still to register: karen (her only child waitlisted) none, linh two', async () => {
    await signIn(KAREN);
    const db = t.db.handle.db;
    const [summer] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    const [karen] = await db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    await db.insert(s.registrations).values({ providerId: summer.providerId, accountId: karen.accountId, programPeriodId: summer.id, childId: karen.id, status: 'WAITLISTED', registrationDate: '2026-01-05', submittedOn: '2026-01-05' });
    const list = (await api('Registration.programPeriods', { token: tokens[KAREN[1]] })).json() as Record<string, unknown>[];
    expect(list.find((p) => p.programPeriodID === summer.id)).toMatchObject({ isApplicationInWaitList: true, childrenToRegister: 0 });
    await signIn(LINH);
    const linh = (await api('Registration.programPeriods', { token: tokens[LINH[1]], lang: 'vi' })).json() as Record<string, unknown>[];
    expect(linh.find((p) => p.programPeriod === 'Chăm sóc kỳ nghỉ xuân')).toMatchObject({ isApplicationInWaitList: true, childrenToRegister: 2 });
  });

  it('the children step says which child is already in the program', async () => {
    await signIn(AMARA);
    const { key } = (await asAmara('ParentApplication.start', { body: { programPeriodID: preschool } })).json();
    const list = (await asAmara('ParentApplication.children', { query: { key } })).json() as { prChildID: number; alreadyIn: boolean }[];
    expect(list.find((c) => c.prChildID === kids.ada)?.alreadyIn).toBe(true);
    // Ben's seats were released: he may be chosen again
    expect(list.find((c) => c.prChildID === kids.ben)?.alreadyIn).toBe(false);
    await asAmara('ParentApplication.discard', { query: { key } });
  });

  it('warns in Vietnamese a parent who applied in Vietnamese', async () => {
    await signIn(AMARA);
    const vi = <K extends OperationId>(id: K, opts: CallOptions<K> = {}) => asAmara(id, { lang: 'vi', ...opts });
    const { key } = (await vi('ParentApplication.start', { body: { programPeriodID: preschool } })).json();
    expect((await vi('ParentApplication.setChildren', { query: { key }, body: { childIDs: [kids.ben] } })).statusCode).toBe(200);
    await vi('ParentApplication.saveEnrollment', { query: { key }, body: {
      children: [{ prChildID: kids.ben, siteID: activity.siteId, selections: [{ activityID: activity.id, weekStart: null, daysOfWeek: activity.daysOfWeek.split(','), date: null }] }],
      enrollmentOption: 'Y',
    } });
    await vi('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } });
    expect((await vi('ParentApplication.submit', { query: { key } })).json().payment.paymentStatus).toBe('AWAITING');
    const before = (await mails('application-hold-warning')).length;
    time.advance(11 * MIN);
    await sweep();
    const all = await mails('application-hold-warning');
    expect(all).toHaveLength(before + 1);
    const last = all.sort((a, b) => a.id - b.id).at(-1)!;
    expect(last.textBody).toContain('quý vị');
    expect(last.subject).toContain('Little Sprouts');
    // both children are in the preschool now (Ben's seat held): neither Register nor Add child leads anywhere
    expect((await preschoolCard()).childrenToRegister).toBe(0);
  });
});
