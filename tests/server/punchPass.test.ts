// Punch passes on both databases (server/domains/enrolment/punchPass.ts): the passes offered; a pass
// bought only with the parent's confirmation, charged once and paid once through the sandbox
// checkout; a cancelled checkout leaves nothing owed; a check-in in the covered program uses one punch
// of the oldest valid pass, once per check-in, and two check-ins at once never take the last punch
// twice; no valid pass: the check-in is kept without a punch; the two-visits-left e-mail goes once
// per pass in the holder's language; an expired pass punches nothing; another account's ids refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import type { BillingPaymentResultBody as PaymentResult } from '../../src/engine/contract.gen';
import { recordCheckIn, punchForCheckIn } from '../../server/domains/enrolment/punchPass';
import { apiClient, BACKENDS, createTestApp, freePort, testClock, tokenFor, KAREN, LINH, MARIA, type TestApp } from './helpers';

const SECRET = 'punch-pass-payment-secret-012345';

type Offer = { passID: number; name: string; scope: string; visits: number; priceCents: number; refundPolicy: string; children: { childID: number; childName: string }[] };
type Mine = { holdingID: number; name: string; visits: number; used: number; visitsLeft: number; expiresOn: string; status: string; key: string | null; uses: { date: string; childName: string }[] }[];

describe.each(BACKENDS)('punch passes on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  const time = testClock();
  const tokens = { maria: '', karen: '', linh: '' };
  let punchProgram = 0;
  let kids = { sofia: 0, lucas: 0, tyler: 0 };

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
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    const db = t.db.handle.db;
    [{ id: punchProgram }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Drop-in Punch Pass'));
    const all = await db.select().from(s.children);
    const kid = (first: string) => all.find((c) => c.firstName === first)!.id;
    kids = { sofia: kid('Sofia'), lucas: kid('Lucas'), tyler: kid('Tyler') };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app);
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '2418 Maple Avenue', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0198', email: 'maria.garcia@example.com' };
  const offers = async (token = tokens.maria) => (await api('Registration.punchPassOffers', { token })).json<Offer[]>();
  const mine = async (token = tokens.maria, lang = 'en') => (await api('Registration.punchPassMine', { token, lang })).json<Mine>();
  const balance = async () => (await api('Billing.accountSummary', { token: tokens.maria })).json().currentBalance as number;
  const checkIn = (childId: number, date: string) => recordCheckIn(t.app.deps, 'brightpath', childId, punchProgram, date);
  const today = () => time.clock().toISOString().slice(0, 10);

  async function payOnPage(checkoutUrl: string) {
    const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: '4111111111111111', expiry: '12/30', cvv: '123' }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get('location')!);
    expect(back.pathname).toBe('/punchpass/bluepayresponse');
    const q = Object.fromEntries(back.searchParams);
    return (await api('Billing.paymentResult', { token: tokens.maria, body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig } })).json();
  }

  it('offers the provider passes in the parent language, and none of another provider', async () => {
    const list = await offers();
    expect(list.map((p) => [p.name, p.scope, p.visits, p.priceCents])).toEqual([
      ['10-visit family pass', 'family', 10, 40000],
      ['5-visit child pass', 'child', 5, 21250],
    ]);
    expect(list[1].children.map((c) => c.childName)).toContain('Sofia Garcia');
    const vi = (await api('Registration.punchPassOffers', { token: tokens.maria, lang: 'vi' })).json<Offer[]>();
    expect(vi[0].name).toBe('Thẻ gia đình 10 lượt');
    expect(vi[1].refundPolicy).toBe('Thẻ này không được hoàn tiền.');
    expect(await offers(tokens.linh)).toEqual([]);
  });

  it('shows the family pass with 3 visits left and the 7 visits that used it', async () => {
    const [held] = await mine();
    expect(held).toMatchObject({ name: '10-visit family pass', visits: 10, used: 7, visitsLeft: 3, status: 'valid' });
    expect(held.uses.length).toBe(7);
    expect((await mine(tokens.karen)).length).toBe(0);
  });

  it('buys only with the confirmation; a child of another account or a pass of another provider is refused', async () => {
    const [family, child] = await offers();
    const unconfirmed = await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: family.passID, childID: null, confirmed: false } });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().errors[0].key).toBe('punchpass.errors.confirm');
    // a per-child pass for Karen's child, from Maria
    expect((await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: child.passID, childID: kids.tyler, confirmed: true } })).statusCode).toBe(404);
    // a family pass names no child; a per-child pass names one
    expect((await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: family.passID, childID: kids.sofia, confirmed: true } })).statusCode).toBe(400);
    expect((await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: child.passID, childID: null, confirmed: true } })).statusCode).toBe(400);
    // Bright Path's pass from Northridge's parent
    expect((await api('Registration.punchPassBuy', { token: tokens.linh, body: { passID: family.passID, childID: null, confirmed: true } })).statusCode).toBe(404);
    expect(await mine()).toHaveLength(1);
  });

  it('a cancelled checkout leaves nothing owed', async () => {
    const before = await balance();
    const [, child] = await offers();
    const bought = await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: child.passID, childID: kids.lucas, confirmed: true } });
    expect(bought.statusCode, bought.body).toBe(200);
    const { key } = bought.json();
    expect(await balance()).toBeCloseTo(before + 212.5, 2);
    // another account's purchase is not found
    expect((await api('Registration.punchPassCancel', { token: tokens.karen, query: { key } })).statusCode).toBe(404);
    const cancelled = (await api('Registration.punchPassCancel', { token: tokens.maria, query: { key } })).json();
    expect(cancelled.payment.paymentStatus).toBe('EXPIRED');
    expect(await balance()).toBeCloseTo(before, 2);
    // cancelling again credits nothing more
    await api('Registration.punchPassCancel', { token: tokens.maria, query: { key } });
    expect(await balance()).toBeCloseTo(before, 2);
    expect((await mine()).length).toBe(1);
  });

  it('a pass bought through the sandbox checkout is charged and paid once', async () => {
    const before = await balance();
    const [, child] = await offers();
    const { key } = (await api('Registration.punchPassBuy', { token: tokens.maria, body: { passID: child.passID, childID: kids.sofia, confirmed: true } })).json();
    expect((await mine()).find((m) => m.key === key)?.status).toBe('awaitingPayment');
    const started = await api('Billing.startPayment', { token: tokens.maria, body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD' } });
    expect(started.statusCode, started.body).toBe(200);
    const result = await payOnPage(started.json().checkoutUrl);
    expect(result).toMatchObject({ status: 'APPROVED', purpose: 'APPLICATION', referrer: `/payment?key=${key}` });
    expect((await api('Registration.punchPassPurchase', { token: tokens.maria, query: { key } })).json().payment.paymentStatus).toBe('PAID');
    expect(await balance()).toBeCloseTo(before, 2);
    // paying again is refused: paid once
    expect((await api('Billing.startPayment', { token: tokens.maria, body: { ...payer, applicationKey: key, paymentMethodCode: 'CCD' } })).statusCode).toBe(409);
    const sofias = (await mine()).find((m) => m.name === '5-visit child pass')!;
    expect(sofias).toMatchObject({ status: 'valid', visitsLeft: 5, key: null });
  });

  it('a check-in uses one punch of the oldest valid pass, once; the two-left e-mail goes once, in her language', async () => {
    const db = t.db.handle.db;
    const first = await checkIn(kids.lucas, today());
    expect(first.punch?.visitsLeft).toBe(2);
    // the same check-in again uses nothing more
    expect(await punchForCheckIn(t.app.deps, first.attendanceID)).toEqual(first.punch);
    const family = (await mine()).find((m) => m.name === '10-visit family pass')!;
    expect(family).toMatchObject({ used: 8, visitsLeft: 2 });
    expect(family.uses.at(-1)).toEqual({ date: today(), childName: 'Lucas Garcia' });
    const mails = await db.select().from(s.outbox).where(eq(s.outbox.kind, 'punchpass-two-left'));
    expect(mails.length).toBe(1);
    // Maria reads Spanish
    expect(mails[0].subject).toBe('Pase familiar de 10 visitas: quedan dos visitas');
    const history = await db.select().from(s.communications).where(eq(s.communications.subject, mails[0].subject));
    expect(history.length).toBe(1);
    // the next visit leaves one: no second e-mail
    expect((await checkIn(kids.sofia, today())).punch?.visitsLeft).toBe(1);
    expect((await db.select().from(s.outbox).where(eq(s.outbox.kind, 'punchpass-two-left'))).length).toBe(1);
  });

  it('two check-ins at once never take the last punch twice; then the child own pass, then none', async () => {
    const both = await Promise.all([checkIn(kids.lucas, today()), checkIn(kids.lucas, today())]);
    const punched = both.filter((b) => b.punch !== null);
    // the family pass's last visit went to one; Lucas has no pass of his own (his purchase was cancelled)
    expect(punched.length).toBe(1);
    const family = (await mine()).find((m) => m.name === '10-visit family pass')!;
    expect(family).toMatchObject({ used: 10, visitsLeft: 0, status: 'usedUp' });
    // the check-in with no punch is still recorded
    const unpunched = both.find((b) => b.punch === null)!;
    const [rec] = await t.db.handle.db.select().from(s.attendance).where(eq(s.attendance.id, unpunched.attendanceID));
    expect(rec.childId).toBe(kids.lucas);
    // Sofia's own pass punches her check-in
    expect((await checkIn(kids.sofia, today())).punch?.visitsLeft).toBe(4);
  });

  it('an expired pass punches nothing', async () => {
    const db = t.db.handle.db;
    const sofias = (await mine()).find((m) => m.name === '5-visit child pass')!;
    await db.update(s.punchHoldings).set({ expiresOn: '2020-01-01' }).where(eq(s.punchHoldings.id, sofias.holdingID));
    const r = await checkIn(kids.sofia, today());
    expect(r.punch).toBeNull();
    const after = (await mine()).find((m) => m.holdingID === sofias.holdingID)!;
    expect(after).toMatchObject({ used: 1, status: 'expired' });
    const uses = await db.select().from(s.punchUses).where(and(eq(s.punchUses.attendanceId, r.attendanceID)));
    expect(uses).toEqual([]);
  });
});
