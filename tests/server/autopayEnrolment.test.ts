// Autopay enrolment, change and cancel (spec 2.12, 4, 7.1) through the API: the autopay pages' variant
// and the frequencies offered by the declared rule (the current one left out on the change page), an
// enrolment with a saved method validated with the autopay form (terms, an offered frequency, a method
// kind the provider takes autopay with), the agreement recorded, the lifecycle (enrolled, frequency
// changed, cancelled), and the refusals: another account's or provider's ids, a payment-only login,
// and a parent's cancel while a program makes autopay mandatory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { and, desc, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { apiClient, ANA, BACKENDS, KAREN, LINH, MARIA, createTestApp, tokenFor, type TestApp } from './helpers';

const brightpath = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../providers/brightpath/provider.json'), 'utf8')).payments;

describe.each(BACKENDS)('autopay enrolment on %s', (backend) => {
  let t: TestApp;
  const tokens = { maria: '', karen: '', linh: '', ana: '' };
  const api = apiClient(() => t.app);
  let mariaCard = 0;
  let mariaBank = 0;
  let karenCard = 0;
  let linhCard = 0;
  let mariaAccount = 0;
  let registration = 0;

  async function savedMethod(email: string, code: 'CCR' | 'ECR', token: string): Promise<number> {
    const db = t.db.handle.db;
    const [a] = await db.select().from(s.adults).where(eq(s.adults.email, email));
    const [m] = await db
      .insert(s.paymentMethods)
      .values({ providerId: a.providerId, accountId: a.accountId, adultId: a.id, paymentMethodCode: code, type: code === 'CCR' ? 'VISA' : 'CHECKING', last4Digits: code === 'CCR' ? '1111' : '6789', firstName: a.firstName, lastName: a.lastName, expiry: code === 'CCR' ? '12/31' : null, savedOn: '2026-11-01', token, gatewayCode: code === 'CCR' ? 1 : 2 })
      .returning();
    return m.id;
  }

  beforeAll(async () => {
    t = await createTestApp(backend, {
      // card autopay on, bank autopay off; the payer page's variant OTP_APEA_SPM (the autopay pages': APEA)
      providerSettings: { brightpath: { payments: { ...brightpath, autoPaymentForCCEnabled: true, autoPaymentForECheckEnabled: false, autopayForm: 'OTP_APEA_SPM' } }, northridge: { payments: { autoPaymentForCCEnabled: true } } },
    });
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    tokens.ana = await tokenFor(t.app, ...ANA);
    mariaCard = await savedMethod(MARIA[1], 'CCR', 'tok_maria_card');
    mariaBank = await savedMethod(MARIA[1], 'ECR', 'tok_maria_bank');
    karenCard = await savedMethod(KAREN[1], 'CCR', 'tok_karen_card');
    linhCard = await savedMethod(LINH[1], 'CCR', 'tok_linh_card');
    const [m] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, MARIA[1]));
    mariaAccount = m.accountId;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('answers the autopay pages\' variant and the service period details, weekly first and monthly last', async () => {
    const res = await api('Billing.autopayForm', { token: tokens.maria, query: { IsFromAutoPayEnrollmentScreen: true } });
    expect(res.statusCode, res.body).toBe(200);
    const form = res.json();
    expect(form.formCustomID).toBe('APEA');
    expect(form.showFrequency).toBe(true);
    const types = form.autoPayServicePeriodDetails.map((d: { periodType: string }) => d.periodType);
    expect(types[0]).toBe('W');
    expect(types.at(-1)).toBe('M');
    expect(form.autoPayServicePeriodDetails[0].servicePeriodDetailsText.split('*')).toHaveLength(4);
    // on the one-time payer page the provider's own variant
    expect((await api('Billing.autopayForm', { token: tokens.maria, query: { IsFromAutoPayEnrollmentScreen: false } })).json().formCustomID).toBe('OTP_APEA_SPM');
  });

  it('offers the frequencies by the declared rule', async () => {
    const offers = (await api('Billing.autopayFrequency', { token: tokens.maria, query: { paymentMethodCode: 'CCR' }, lang: 'es' })).json();
    expect(offers.map((o: { frequency: string }) => o.frequency)).toEqual(['W', 'M']);
    expect(offers[0].label).toBe('Semanal');
  });

  it('enrols only with the terms accepted, an offered frequency and a method kind the provider takes autopay with', async () => {
    const noTerms = await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaCard, autopay: true, frequency: 'W' } });
    expect(noTerms.statusCode).toBe(400);
    expect(noTerms.json().errors.map((e: { key: string }) => e.key)).toContain('errors.payment.terms');
    const noFrequency = await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaCard, autopay: true, termsAccepted: true } });
    expect(noFrequency.json().errors.map((e: { key: string }) => e.key)).toContain('errors.payment.frequency');
    const notOffered = await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaCard, autopay: true, frequency: 'T', termsAccepted: true } });
    expect(notOffered.json().errors.map((e: { key: string }) => e.key)).toContain('autopay.errors.frequencyNotOffered');
    // bank autopay is off: the form has no autopay for it and the server says why
    const bank = await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaBank, autopay: true, frequency: 'W', termsAccepted: true } });
    expect(bank.statusCode).toBe(409);
    expect(bank.json().key ?? bank.body).toContain('methodKindOff');
    expect(await t.db.handle.db.select().from(s.autopayAgreements)).toHaveLength(0);
  });

  it('refuses another account\'s or provider\'s method and a payment-only login', async () => {
    const body = { autopay: true, frequency: 'W', termsAccepted: true };
    expect((await api('Billing.autopayEnroll', { token: tokens.maria, body: { ...body, paymentMethodID: karenCard } })).statusCode).toBe(404);
    expect((await api('Billing.autopayEnroll', { token: tokens.maria, body: { ...body, paymentMethodID: linhCard } })).statusCode).toBe(404);
    expect((await api('Billing.autopayEnroll', { token: tokens.karen, body: { ...body, paymentMethodID: mariaCard } })).statusCode).toBe(404);
    expect((await api('Billing.autopayEnroll', { token: tokens.ana, body: { ...body, paymentMethodID: mariaCard } })).statusCode).toBe(403);
    expect(await t.db.handle.db.select().from(s.autopayAgreements)).toHaveLength(0);
  });

  it('enrols weekly, records the agreement and shows the registration as enrolled', async () => {
    const res = await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaCard, autopay: true, frequency: 'W', termsAccepted: true, maxCharge: '250.00' } });
    expect(res.statusCode, res.body).toBe(200);
    registration = res.json().automaticPaymentRegistrationID;
    const [method] = await t.db.handle.db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, mariaCard));
    expect(method).toMatchObject({ usedForAutoPay: true, automaticPaymentRegistrationId: registration });
    const [agreement] = await t.db.handle.db.select().from(s.autopayAgreements).where(eq(s.autopayAgreements.automaticPaymentRegistrationId, registration));
    expect(agreement).toMatchObject({ kind: 'ENROL', frequency: 'W', paymentMethodId: mariaCard, last4Digits: '1111', maxChargeCents: 250_00, payerName: 'Maria Garcia' });
    expect(agreement.termsVersion).toMatch(/^[0-9a-f]{16}$/);
    expect(agreement.termsHtml).not.toContain('<script');
    const details = (await api('Billing.autopayRegistration', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration } })).json();
    expect(details).toMatchObject({ status: 'ENROLLED', frequency: 'W', paymentMethodID: mariaCard, maxCharge: 250, mandatory: false, agreementID: agreement.id });
    expect((await api('Billing.autopayPeriodType', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration } })).json().periodType).toBe('W');
    // the same payer again is a change, not a second enrolment
    expect((await api('Billing.autopayEnroll', { token: tokens.maria, body: { paymentMethodID: mariaCard, autopay: true, frequency: 'M', termsAccepted: true } })).statusCode).toBe(409);
  });

  it('changes the frequency to monthly; weekly is then offered on the change page and monthly is not', async () => {
    const before = (await api('Billing.autopayFrequency', { token: tokens.maria, query: { FromPage: 'changeautopay' } })).json();
    expect(before.map((o: { frequency: string }) => o.frequency)).toEqual(['M']);
    // a change is a new agreement: its terms are accepted again
    const noTerms = await api('Billing.autopayChange', { token: tokens.maria, body: { automaticPaymentRegistrationID: registration, frequency: 'M' } });
    expect(noTerms.json().errors.map((e: { key: string }) => e.key)).toContain('errors.payment.terms');
    const same = await api('Billing.autopayChange', { token: tokens.maria, body: { automaticPaymentRegistrationID: registration, frequency: 'W', termsAccepted: true } });
    expect(same.statusCode).toBe(400);
    const res = await api('Billing.autopayChange', { token: tokens.maria, body: { automaticPaymentRegistrationID: registration, frequency: 'M', termsAccepted: true, maxCharge: '250.00' } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await api('Billing.autopayRegistration', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration } })).json()).toMatchObject({ status: 'ENROLLED', frequency: 'M' });
    const after = (await api('Billing.autopayFrequency', { token: tokens.maria, query: { FromPage: 'changeautopay' } })).json();
    expect(after.map((o: { frequency: string }) => o.frequency)).toEqual(['W']);
    const [last] = await t.db.handle.db.select().from(s.autopayAgreements).where(eq(s.autopayAgreements.automaticPaymentRegistrationId, registration)).orderBy(desc(s.autopayAgreements.id)).limit(1);
    expect(last).toMatchObject({ kind: 'CHANGE', frequency: 'M' });
  });

  it('e-mails the signed agreement as a PDF and answers it for download, in the reader\'s language', async () => {
    const mails = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'autopay-agreement'));
    // the enrolment's and the change's, to Maria
    expect(mails.length).toBe(2);
    expect(mails[0].toAddress).toBe(MARIA[1]);
    expect(mails[0].attachments?.[0]).toMatchObject({ filename: 'automatic-payment-agreement.pdf', contentType: 'application/pdf' });
    const res = await api('Billing.autopayAgreementPdf', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration }, lang: 'vi' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agreement-'));
    fs.writeFileSync(path.join(dir, 'a.pdf'), res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', path.join(dir, 'a.pdf'), '-'], { encoding: 'utf8' });
    // its first page as a picture, beside the browser tests' screenshots, to look at
    const shots = path.resolve(import.meta.dirname, '../../test-results/screens');
    fs.mkdirSync(shots, { recursive: true });
    execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', path.join(dir, 'a.pdf'), path.join(shots, `autopay-agreement-vi-${backend}`)]);
    expect(text).toContain('Thỏa thuận thanh toán tự động');
    expect(text).toContain('Hàng tháng');
    expect(text).toContain('1111');
    expect(text).toMatch(/250[.,]00/);
    const [last] = await t.db.handle.db.select().from(s.autopayAgreements).where(eq(s.autopayAgreements.automaticPaymentRegistrationId, registration)).orderBy(desc(s.autopayAgreements.id)).limit(1);
    expect(text).toContain(last.termsVersion);
    // another account's registration is not found
    expect((await api('Billing.autopayAgreementPdf', { token: tokens.karen, query: { AutomaticPaymentRegistrationID: registration } })).statusCode).toBe(404);
  });

  it('refuses a change or cancel of another account\'s registration and a payment-only login', async () => {
    const change = { automaticPaymentRegistrationID: registration, frequency: 'W', termsAccepted: true };
    expect((await api('Billing.autopayChange', { token: tokens.karen, body: change })).statusCode).toBe(404);
    expect((await api('Billing.autopayChange', { token: tokens.linh, body: change })).statusCode).toBe(404);
    expect((await api('Billing.autopayChange', { token: tokens.ana, body: change })).statusCode).toBe(403);
    expect((await api('Billing.autopayRegistration', { token: tokens.karen, query: { AutomaticPaymentRegistrationID: registration } })).statusCode).toBe(404);
    const [karenAdult] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, KAREN[1]));
    expect((await api('Billing.cancelAutopay', { token: tokens.karen, body: { accountID: karenAdult.accountId, automaticPaymentRegistrationID: registration } })).statusCode).toBe(404);
    expect((await api('Billing.cancelAutopay', { token: tokens.maria, body: { accountID: karenAdult.accountId, automaticPaymentRegistrationID: registration } })).statusCode).toBe(404);
    expect((await api('Billing.cancelAutopay', { token: tokens.ana, body: { accountID: mariaAccount, automaticPaymentRegistrationID: registration } })).statusCode).toBe(403);
    const [r] = await t.db.handle.db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.id, registration));
    expect(r).toMatchObject({ active: true, frequency: 'M' });
  });

  it('refuses the parent\'s cancel while a program makes autopay mandatory, then cancels', async () => {
    const db = t.db.handle.db;
    const [e] = await db
      .select({ pp: s.activities.programPeriodId })
      .from(s.enrollments)
      .innerJoin(s.activities, eq(s.activities.id, s.enrollments.activityId))
      .where(and(eq(s.enrollments.accountId, mariaAccount), eq(s.enrollments.status, 'A')))
      .limit(1);
    await db.update(s.programPeriods).set({ autopayMandatory: true }).where(eq(s.programPeriods.id, e.pp));
    expect((await api('Billing.autopayRegistration', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration } })).json().mandatory).toBe(true);
    const refused = await api('Billing.cancelAutopay', { token: tokens.maria, body: { accountID: mariaAccount, automaticPaymentRegistrationID: registration, cancellationScreen: 'changeautopay' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('provider');
    expect((await db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.id, registration)))[0].active).toBe(true);
    await db.update(s.programPeriods).set({ autopayMandatory: false }).where(eq(s.programPeriods.id, e.pp));
    const ok = await api('Billing.cancelAutopay', { token: tokens.maria, body: { accountID: mariaAccount, automaticPaymentRegistrationID: registration, cancellationScreen: 'changeautopay' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await api('Billing.autopayRegistration', { token: tokens.maria, query: { AutomaticPaymentRegistrationID: registration } })).json().status).toBe('CANCELLED');
    const [m] = await db.select().from(s.paymentMethods).where(eq(s.paymentMethods.id, mariaCard));
    expect(m.usedForAutoPay).toBe(false);
    // cancelled once: a second cancel changes nothing
    expect((await api('Billing.cancelAutopay', { token: tokens.maria, body: { accountID: mariaAccount, automaticPaymentRegistrationID: registration } })).statusCode).toBe(409);
  });
});
