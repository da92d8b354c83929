// Paying a sent change of schedule with a saved method (spec 2.12 on the change's payment step): what
// the change left due, charged server to server against the sandbox gateway once, even when the
// parent clicks twice; then nothing is left to pay; another account's method, and another account
// paying this change, are refused with nothing charged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import type { PaymentGateway } from '../../server/gateways/adapter';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, KAREN, MARIA, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const brightpath = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../providers/brightpath/provider.json'), 'utf8'));
const SECRETS = { '1': 'change-saved-secret-one-0123456', '2': 'change-saved-secret-two-0123456' };

describe.each(BACKENDS)('paying a change of schedule with a saved method on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  let maria = '';
  let karen = '';
  /** the transactions the card gateway's token charges made (a charge asked again answers its first) */
  const charged = new Set<string>();
  const charges = () => charged.size;

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: gwUrl });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const card = sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRETS['1'] });
    const counted: PaymentGateway = {
      ...card,
      code: card.code,
      chargeToken: async (req) => {
        const tx = await card.chargeToken(req);
        charged.add(tx.transactionId);
        return tx;
      },
    };
    const port = await freePort();
    t = await createTestApp(backend, {
      publicUrl: `http://127.0.0.1:${port}`,
      providerSettings: { brightpath: { payments: brightpath.payments } },
      gateways: { 1: counted, 2: sandboxGateway({ code: 2, url: gwUrl, merchant: '2', secret: SECRETS['2'] }) },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    maria = await tokenFor(t.app, ...MARIA);
    karen = await tokenFor(t.app, ...KAREN);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const key = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('');
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const balanceCents = async () => Math.round(((await api('Billing.accountSummary', { token: maria })).json().currentBalance as number) * 100);

  /** Pays 10.00 on the hosted page with "save for later" ticked: the card saved. */
  async function savedCard(): Promise<number> {
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '10.00', saveCard: true } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const res = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: '4111111111111111', expiry: '12/30', cvv: '123', saveMethod: '1' }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const result = await api('Billing.paymentResult', { token: maria, body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as 'APPROVED', sig: q.sig } });
    expect(result.json().status).toBe('APPROVED');
    const saved = (await api('Billing.savedMethods', { token: maria, query: { IsAutoPay: false } })).json() as Array<{ paymentMethodID: number; last4Digits: string }>;
    return saved.find((m) => m.last4Digits === '1111')!.paymentMethodID;
  }

  /** A sent change for Sofia (Before and After Care) that leaves an amount due now (the change fee): its key and that amount. */
  async function sentChange(): Promise<{ key: string; dueCents: number }> {
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    const acts = await db.select({ a: s.activities, site: s.sites }).from(s.activities).innerJoin(s.sites, eq(s.sites.id, s.activities.siteId)).where(eq(s.activities.programPeriodId, pp.id));
    const beforeCare = acts.find((x) => x.a.activity === 'Before Care' && x.site.siteName.includes('Lincoln'))!;
    const afterCare = acts.find((x) => x.a.activity === 'After Care' && x.site.siteName.includes('Lincoln'))!;
    const kids = await db.select().from(s.children).where(eq(s.children.providerId, pp.providerId));
    const kid = (name: string) => kids.find((k) => k.firstName === name)!.id;
    const { key: changeKey } = (await api('Registration.changeStart', { token: maria, body: { programPeriodID: pp.id } })).json();
    const saved = await api('Registration.changeSave', {
      token: maria,
      query: { key: changeKey },
      body: {
        children: [
          { prChildID: kid('Sofia'), noChange: false, siteID: beforeCare.site.id, selections: [{ activityID: beforeCare.a.id, daysOfWeek: [] }, { activityID: afterCare.a.id, daysOfWeek: [] }] },
          { prChildID: kid('Lucas'), noChange: true, siteID: null, selections: [] },
        ],
        effectiveDate: null,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const sent = await api('Registration.changeSubmit', { token: maria, query: { key: changeKey } });
    expect(sent.statusCode, sent.body).toBe(200);
    // the period's free change (nothing due now) made first: the next pays the change fee now
    if (sent.json().amountDue === 0) return sentChange();
    const fee = (await api('Billing.processingFee', { token: maria, query: { ChangeKey: changeKey, PaymentMethod: 'CCR' } })).json();
    expect(fee.valid).toBe(true);
    // a saved card's fee is a new card's
    expect(fee.methods.map((m: { paymentMethodCode: string }) => m.paymentMethodCode)).toEqual(['CCD']);
    return { key: changeKey, dueCents: Math.round(fee.amount * 100) };
  }

  it('charges what the change left due once, despite a double click; then nothing is left to pay', async () => {
    const methodId = await savedCard();
    const change = await sentChange();
    expect(change.dueCents).toBeGreaterThan(0);
    const before = await balanceCents();
    const chargesBefore = charges();
    const body = { idempotencyKey: key(), paymentMethodID: methodId, changeKey: change.key };
    // two clicks, each with a key of its own page load: the server's key for the change makes them one
    const [a, b] = await Promise.all([api('Billing.restApiPayment', { token: maria, body }), api('Billing.restApiPayment', { token: maria, body: { ...body, idempotencyKey: key() } })]);
    const answers = [a, b].filter((r) => r.statusCode === 200);
    expect(answers.length, `${a.body} ${b.body}`).toBeGreaterThanOrEqual(1);
    for (const r of answers) expect(r.json()).toMatchObject({ status: 'APPROVED', purpose: 'CHANGE', referrer: `/changeschedule/confirmation?key=${change.key}` });
    // a click after the first was paid finds nothing left due
    for (const r of [a, b].filter((x) => x.statusCode !== 200)) expect(r.json().key).toMatch(/payment\.errors\.(nothingToPay|inProgress)/);
    const attempts = await t.db.handle.db.select().from(s.paymentAttempts).where(and(eq(s.paymentAttempts.referrer, `/changeschedule/confirmation?key=${change.key}`), eq(s.paymentAttempts.status, 'APPROVED')));
    expect(attempts).toHaveLength(1);
    expect(attempts[0]).toMatchObject({ purpose: 'CHANGE', paymentMethodCode: 'CCR', paymentMethodId: methodId, amountCents: change.dueCents });
    const posted = await t.db.handle.db.select().from(s.payments).where(eq(s.payments.attemptId, attempts[0].id));
    expect(posted).toHaveLength(1);
    expect(charges() - chargesBefore).toBe(1);
    expect(await balanceCents()).toBe(before - change.dueCents);
    // asked again later: refused, nothing charged
    const again = await api('Billing.restApiPayment', { token: maria, body: { ...body, idempotencyKey: key() } });
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('payment.errors.nothingToPay');
    expect(charges() - chargesBefore).toBe(1);
    expect((await api('Billing.processingFee', { token: maria, query: { ChangeKey: change.key } })).json()).toMatchObject({ valid: false, methods: [] });
  });

  it('another account\'s method, and another account paying this change, are refused with nothing charged', async () => {
    const methodId = (await api('Billing.savedMethods', { token: maria, query: { IsAutoPay: false } })).json()[0].paymentMethodID as number;
    // a saved card of the Johnsons'
    const [tyler] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    const [karenAdult] = await t.db.handle.db.select().from(s.adults).where(and(eq(s.adults.accountId, tyler.accountId), eq(s.adults.firstName, 'Karen')));
    const [theirs] = await t.db.handle.db
      .insert(s.paymentMethods)
      .values({ providerId: karenAdult.providerId, accountId: karenAdult.accountId, adultId: karenAdult.id, paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '0005', firstName: 'Karen', lastName: 'Johnson', expiry: '12/30', savedOn: '2026-11-01', token: 'tok_johnson', gatewayCode: 1 })
      .returning();
    const change = await sentChange();
    const chargesBefore = charges();
    const before = await balanceCents();
    const withTheirs = await api('Billing.restApiPayment', { token: maria, body: { idempotencyKey: key(), paymentMethodID: theirs.id, changeKey: change.key } });
    expect(withTheirs.statusCode).toBe(404);
    expect(withTheirs.json().key).toBe('methods.errors.notFound');
    const byKaren = await api('Billing.restApiPayment', { token: karen, body: { idempotencyKey: key(), paymentMethodID: theirs.id, changeKey: change.key } });
    expect(byKaren.statusCode).toBe(404);
    const mariasByKaren = await api('Billing.restApiPayment', { token: karen, body: { idempotencyKey: key(), paymentMethodID: methodId, changeKey: change.key } });
    expect(mariasByKaren.statusCode).toBe(404);
    expect(charges()).toBe(chargesBefore);
    expect(await balanceCents()).toBe(before);
    const attempts = await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.referrer, `/changeschedule/confirmation?key=${change.key}`));
    expect(attempts).toHaveLength(0);
  });
});
