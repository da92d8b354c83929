// Enrolling in autopay with a new card on the one-time payer page (spec 4 OTP variants, here
// OTP_APEA_SPM): the payment asks the enrolment (payment_attempts.autopay_request) with the terms
// accepted and an offered frequency; once the gateway approves it and saves the card, the account is
// enrolled on that card (the gateway's page keeps it without a box to tick), the agreement recorded
// and e-mailed. Without the terms, or with a frequency
// not offered, the payment does not start; a payment without the autopay box is a payment only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { apiClient, BACKENDS, KAREN, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const brightpath = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../providers/brightpath/provider.json'), 'utf8')).payments;
const SECRETS = { '1': 'autopay-new-method-secret-one-0123', '2': 'autopay-new-method-secret-two-0123' };

describe.each(BACKENDS)('autopay with a new card on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  let karen = '';
  const api = apiClient(() => t.app);
  const payer = { paidByFamilyMemberID: -1, firstName: 'Karen', lastName: 'Johnson', streetAddress: '9 Oak Ridge Dr', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62711', homecellphone: '(217)555-0177', email: 'karen.johnson@example.com' };
  const key = () => randomBytes(16).toString('hex');
  const start = (extra: Partial<StartPayment>) => api('Billing.startPayment', { token: karen, body: { ...payer, idempotencyKey: key(), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '10.00', ...extra } as StartPayment });

  /** Pays on the hosted page (save ticked or not), and answers the payment result's status. */
  async function payOnPage(checkoutUrl: string, number = '4111111111111111', save = true): Promise<string> {
    const res = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Karen Johnson', number, expiry: '12/30', cvv: '123', ...(save ? { saveMethod: '1' } : {}) }), redirect: 'manual' });
    expect(res.status).toBe(303);
    const q = Object.fromEntries(new URL(res.headers.get('location')!).searchParams);
    const result = await api('Billing.paymentResult', { token: karen, body: { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status as 'APPROVED', sig: q.sig } });
    return result.json().status;
  }

  beforeAll(async () => {
    const gwPort = await freePort();
    const gwUrl = `http://127.0.0.1:${gwPort}`;
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: gwUrl, notify: { retryDelaysMs: [50] } });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    const port = await freePort();
    t = await createTestApp(backend, {
      publicUrl: `http://127.0.0.1:${port}`,
      providerSettings: { brightpath: { payments: { ...brightpath, autoPaymentForCCEnabled: true, autoPaymentForECheckEnabled: false, autopayForm: 'OTP_APEA_SPM' } } },
      gateways: { 1: sandboxGateway({ code: 1, url: gwUrl, merchant: '1', secret: SECRETS['1'] }), 2: sandboxGateway({ code: 2, url: gwUrl, merchant: '2', secret: SECRETS['2'] }) },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    karen = await tokenFor(t.app, ...KAREN);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await gw?.app.close();
  });

  it('does not start without the terms accepted or with a frequency not offered', async () => {
    const noTerms = await start({ autopay: true, frequency: 'W' });
    expect(noTerms.statusCode).toBe(400);
    expect(JSON.stringify(noTerms.json())).toContain('errors.payment.terms');
    const notOffered = await start({ autopay: true, frequency: 'T', termsAccepted: true });
    expect(notOffered.statusCode).toBe(400);
    expect(notOffered.json().key).toBe('autopay.errors.frequencyNotOffered');
    expect(await t.db.handle.db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.adultId, (await karenAdult()).id))).toHaveLength(0);
  });

  async function karenAdult() {
    const [a] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, KAREN[1]));
    return a;
  }

  it('enrols weekly on the card the approved payment saved, records the agreement and e-mails it', async () => {
    const started = await start({ autopay: true, frequency: 'W', termsAccepted: true });
    expect(started.statusCode, started.body).toBe(200);
    const [attempt] = await t.db.handle.db.select().from(s.paymentAttempts).orderBy(desc(s.paymentAttempts.id)).limit(1);
    expect(attempt.saveMethod).toBe(true);
    expect(attempt.autopayRequest).toMatchObject({ frequency: 'W', signerEmail: KAREN[1] });
    // the gateway's page keeps the card for the autopay, with no box to tick, and says so
    const page = await (await fetch(started.json().checkoutUrl)).text();
    expect(page).toContain('id="save-method-note"');
    expect(page).not.toContain('name="saveMethod"');
    expect(await payOnPage(started.json().checkoutUrl, '4111111111111111', false)).toBe('APPROVED');
    const details = (await api('Billing.autopayRegistration', { token: karen })).json();
    expect(details).toMatchObject({ status: 'ENROLLED', frequency: 'W', paymentMethodCode: 'CCR', last4Digits: '1111', payerName: 'Karen Johnson' });
    expect(details.agreementID).toBeGreaterThan(0);
    const [method] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.automaticPaymentRegistrationId, details.automaticPaymentRegistrationID));
    expect(method).toMatchObject({ usedForAutoPay: true, last4Digits: '1111' });
    expect(method.token).toMatch(/\S/);
    const mails = await t.db.handle.db.select().from(s.outbox).where(and(eq(s.outbox.toAddress, KAREN[1]), eq(s.outbox.kind, 'autopay-agreement')));
    expect(mails).toHaveLength(1);
    // a second enrolment of the same payer is refused before any payment
    expect((await start({ autopay: true, frequency: 'M', termsAccepted: true })).statusCode).toBe(409);
  });

  it('a payment without the autopay box enrols nothing', async () => {
    const before = await t.db.handle.db.select().from(s.autopayRegistrations);
    const started = await start({ autopay: false });
    expect(started.statusCode, started.body).toBe(200);
    const [attempt] = await t.db.handle.db.select().from(s.paymentAttempts).orderBy(desc(s.paymentAttempts.id)).limit(1);
    expect(attempt.autopayRequest).toBeNull();
    expect(await payOnPage(started.json().checkoutUrl, '5555555555554444')).toBe('APPROVED');
    expect(await t.db.handle.db.select().from(s.autopayRegistrations)).toHaveLength(before.length);
  });
});
