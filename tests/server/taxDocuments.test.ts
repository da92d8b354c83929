// Year-end tax documents (server/domains/billing/taxDocuments.ts): what each payer paid per child for
// care in a calendar year from a billed program, the billing job and payments (a late fee and an
// item not care left out, a refund taken back in its year, a January payment of December's invoice
// counted in January's year), the US statement's text, the Canadian receipt and a Québec provider's
// RL-24, and never another account's payments.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { postLateFees, runBilling, type BillingContext } from '../../server/domains/billing/invoicing';
import { taxDocumentPdf, taxYearSummary } from '../../server/domains/billing/taxDocuments';
import { AUTOPAY_DEFAULTS, type BillingSettings } from '../../server/billingSettings';
import type { SessionInfo } from '../../server/auth';
import { taxSettingsErrors } from '../../server/taxSettings';
import { BACKENDS, KAREN, MARIA, apiClient, createTestApp, tokenFor, type TestApp } from './helpers';

const BILLING: BillingSettings = { from: '2026-09-01', invoiceDaysBefore: 0, dueDays: 10, prorate: true, lateFeeGraceDays: 2, autopayDiscountPercent: {}, holidays: [], autopay: AUTOPAY_DEFAULTS };

function pdfText(file: Uint8Array): string {
  const at = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tax-')), 'doc.pdf');
  fs.writeFileSync(at, file);
  return execFileSync('pdftotext', ['-layout', at, '-']).toString().replace(/\s+/g, ' ');
}

describe('a provider\'s tax settings', () => {
  const base = { organisation: 'X', city: 'Y', supportPhone: '', taxDocuments: { street: '1 Main St', postalCode: '62703', signatory: { name: 'A', title: 'B' } } };
  it('need an EIN or Tax-Exempt in the US, a business number in Canada, and a Québec number in Québec', () => {
    expect(taxSettingsErrors({ ...base, countryCode: 'US', stateCode: 'IL' })).toHaveLength(1);
    expect(taxSettingsErrors({ ...base, countryCode: 'US', stateCode: 'IL', taxDocuments: { ...base.taxDocuments, taxExempt: true } })).toEqual([]);
    expect(taxSettingsErrors({ ...base, countryCode: 'CA', stateCode: 'AB', taxDocuments: { ...base.taxDocuments, businessNumber: '874512396' } })).toEqual([]);
    expect(taxSettingsErrors({ ...base, countryCode: 'CA', stateCode: 'QC', taxDocuments: { ...base.taxDocuments, businessNumber: '874512396' } })).toHaveLength(1);
  });
});

describe.each(BACKENDS)('tax documents on %s', (backend) => {
  let t: TestApp;
  const db = () => t.db.handle.db;
  let maria: SessionInfo;
  let karen: SessionInfo;
  let linh: SessionInfo;
  let sofia: typeof s.children.$inferSelect;
  let lucas: typeof s.children.$inferSelect;
  let david: typeof s.adults.$inferSelect;

  async function pay(providerId: number, accountId: number, adultId: number, payerName: string, day: string, cents: number) {
    const [p] = await db().insert(s.payments).values({ providerId, accountId, adultId, paymentDate: day, amountCents: cents, paymentMethodCode: 'CCD', payerName }).returning();
    await db().insert(s.ledgerEntries).values({ providerId, accountId, kind: 'PAYMENT', amountCents: cents, entryDate: day, paymentId: p.id, createdAt: new Date(`${day}T12:00:00Z`) });
    return p;
  }

  beforeAll(async () => {
    t = await createTestApp(backend, {
      providerSettings: {
        northridge: {
          stateCode: 'QC',
          taxDocuments: { street: '1200 rue Sainte-Catherine Ouest', postalCode: 'H3B 1K9', businessNumber: '874512396RT0001', quebecId: '1234567890RS0001', signatory: { name: 'Gordon MacLeod', title: 'Directeur général' } },
        },
      },
    });
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const kids = await db().select().from(s.children).where(eq(s.children.providerId, bp.id));
    sofia = kids.find((k) => k.firstName === 'Sofia')!;
    lucas = kids.find((k) => k.firstName === 'Lucas')!;
    const tyler = kids.find((k) => k.firstName === 'Tyler')!;
    const people = await db().select().from(s.adults).where(inArray(s.adults.accountId, [sofia.accountId, tyler.accountId]));
    const mariaAdult = people.find((a) => a.firstName === 'Maria')!;
    david = people.find((a) => a.firstName === 'David')!;
    const karenAdult = people.find((a) => a.firstName === 'Karen')!;
    maria = { providerId: bp.id, accountId: sofia.accountId, adultId: mariaAdult.id } as SessionInfo;
    karen = { providerId: bp.id, accountId: tyler.accountId, adultId: karenAdult.id } as SessionInfo;
    // a clean ledger for both accounts: only what this test posts
    await db().delete(s.ledgerEntries).where(inArray(s.ledgerEntries.accountId, [maria.accountId, karen.accountId]));

    const [pp] = await db()
      .insert(s.programPeriods)
      .values({ providerId: bp.id, programPeriod: 'Billed Year', category: 'schoolYear', programKind: 'childcare', enrollmentOption: 'T', startDate: '2026-09-01', endDate: '2027-06-30', billingCycle: 'M' })
      .returning();
    const acts = await db()
      .insert(s.activities)
      .values([
        { providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Care A', startDate: '2026-09-01', endDate: '2027-06-30', feeCents: 300_00, feeType: 'PER_SP' },
        { providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Care B', startDate: '2026-09-01', endDate: '2027-06-30', feeCents: 250_00, feeType: 'PER_SP' },
        { providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Field trips', startDate: '2026-09-01', endDate: '2027-06-30', feeCents: 50_00, feeType: 'PER_SP', isCare: false },
      ])
      .returning();
    await db()
      .insert(s.enrollments)
      .values([
        { providerId: bp.id, accountId: maria.accountId, childId: sofia.id, activityId: acts[0].id, enrollmentDate: '2026-09-01', daysOfWeek: 'M,T,W,TH,F' },
        { providerId: bp.id, accountId: maria.accountId, childId: lucas.id, activityId: acts[1].id, enrollmentDate: '2026-09-01', daysOfWeek: 'M,T,W,TH,F' },
        { providerId: bp.id, accountId: maria.accountId, childId: sofia.id, activityId: acts[2].id, enrollmentDate: '2026-09-01', daysOfWeek: 'M,T,W,TH,F' },
      ]);
    await db().update(s.accounts).set({ lateFeeAfterDueDateCents: 25_00, applyLatePayment: true, doNotApplyLateFee: false }).where(eq(s.accounts.id, maria.accountId));
    const rules = t.app.deps.declarations.get('brightpath')!.set.rules;
    const c: BillingContext = { db: db(), providerId: bp.id, billing: BILLING, rules, today: '2026-12-01', now: new Date('2026-12-01T11:00:00Z') };
    // September to December: 600 a month (Sofia 300 care and 50 field trips, Lucas 250)
    await runBilling(c);
    // Maria pays September to November in November, 300 of it is refunded; December stays open and gets a late fee
    const first = await pay(bp.id, maria.accountId, mariaAdult.id, 'Maria Garcia', '2026-11-05', 1800_00);
    await db().insert(s.ledgerEntries).values({ providerId: bp.id, accountId: maria.accountId, kind: 'REFUND', amountCents: 300_00, entryDate: '2026-11-20', dueDate: '2026-11-20', paymentId: first.id, refundId: 'tax-test-refund', createdAt: new Date() });
    expect(await postLateFees({ ...c, today: '2026-12-20', now: new Date('2026-12-20T11:00:00Z') })).toBe(1);
    // David pays in January what is left: the refund, December and the late fee
    await pay(bp.id, maria.accountId, david.id, 'David Garcia', '2027-01-10', 300_00 + 600_00 + 25_00);
    // Karen's account pays too: never on Maria's documents
    await db().insert(s.ledgerEntries).values({ providerId: bp.id, accountId: karen.accountId, kind: 'CHARGE', amountCents: 777_00, entryDate: '2026-10-01', dueDate: '2026-10-01', childId: tyler.id, description: 'Tuition', createdAt: new Date() });
    await pay(bp.id, karen.accountId, karenAdult.id, 'Karen Johnson', '2026-10-02', 777_00);

    // Northridge (here in Québec): an application's charges, one named after a misc charge marked not care
    const [nr] = await db().select().from(s.providers).where(eq(s.providers.appName, 'northridge'));
    const [child] = await db().select().from(s.children).where(eq(s.children.providerId, nr.id));
    const [nrAdult] = await db().select().from(s.adults).where(and(eq(s.adults.accountId, child.accountId), eq(s.adults.accountHolder, 1)));
    linh = { providerId: nr.id, accountId: child.accountId, adultId: nrAdult.id } as SessionInfo;
    const [nrProgram] = await db().select().from(s.programPeriods).where(eq(s.programPeriods.providerId, nr.id));
    await db().insert(s.miscCharges).values({ providerId: nr.id, programPeriodId: nrProgram.id, feeName: 'Zoo outing', amountCents: 40_00, isCare: false });
    await db().delete(s.ledgerEntries).where(eq(s.ledgerEntries.accountId, linh.accountId));
    await db().insert(s.ledgerEntries).values([
      { providerId: nr.id, accountId: linh.accountId, kind: 'CHARGE', amountCents: 400_00, entryDate: '2026-03-01', dueDate: '2026-03-01', description: `${child.firstName}: Registration fee`, createdAt: new Date() },
      { providerId: nr.id, accountId: linh.accountId, kind: 'CHARGE', amountCents: 40_00, entryDate: '2026-03-01', dueDate: '2026-03-01', description: `${child.firstName}: Zoo outing`, createdAt: new Date() },
    ]);
    await pay(nr.id, linh.accountId, nrAdult.id, `${nrAdult.firstName} ${nrAdult.lastName}`, '2026-03-02', 440_00);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const amounts = (summary: Awaited<ReturnType<typeof taxYearSummary>>) =>
    Object.fromEntries(summary.payers.flatMap((p) => p.children.map((c) => [`${p.payerName}/${c.childName}`, c.careCents])));

  it('counts care paid per payer and child in the year: refund taken back, late fee and field trips left out', async () => {
    const y2026 = await taxYearSummary(t.app.deps, maria, 2026);
    expect(y2026.years).toEqual([2027, 2026]);
    // 1800 paid: Sofia 3 × 300 care, Lucas 3 × 250, the field trips (150) not care; 300 of Sofia's refunded
    expect(amounts(y2026)).toEqual({ [`Maria Garcia/Sofia ${sofia.lastName}`]: 600_00, [`Maria Garcia/Lucas ${lucas.lastName}`]: 750_00 });
    const sofiaRow = y2026.payers[0].children.find((c) => c.childName.startsWith('Sofia'))!;
    expect(sofiaRow).toMatchObject({ from: '2026-09-01', to: '2026-12-31' });
    expect(sofiaRow.days).toBeGreaterThan(60);
  });

  it('counts a January payment of December\'s invoice in the year it was paid, by the adult who paid', async () => {
    const y2027 = await taxYearSummary(t.app.deps, maria, 2027);
    // 925 paid: the refunded 300 paid again (Sofia's care), December's 300 and 250; 50 trips and the 25 late fee left out
    expect(amounts(y2027)).toEqual({ [`${david.firstName} ${david.lastName}/Sofia ${sofia.lastName}`]: 600_00, [`${david.firstName} ${david.lastName}/Lucas ${lucas.lastName}`]: 250_00 });
  });

  it('writes the US statement: provider, EIN, child, dates and the amount paid', async () => {
    const text = pdfText(await taxDocumentPdf(t.app.deps, maria, 2026, 'en', 'US'));
    expect(text).toContain('Child care tax statement 2026');
    expect(text).toContain('BrightPath Learning Centers, Inc.');
    expect(text).toContain('37-1829456');
    expect(text).toContain('1200 South Sixth Street');
    expect(text).toContain(`Sofia ${sofia.lastName}`);
    expect(text).toContain('$600.00');
    expect(text).toContain('$750.00');
    expect(text).not.toContain('Karen');
    expect(text).not.toContain('777');
    const vi = pdfText(await taxDocumentPdf(t.app.deps, maria, 2026, 'vi'));
    expect(vi).toContain('Bản kê thuế chi phí giữ trẻ 2026');
    await expect(taxDocumentPdf(t.app.deps, maria, 2026, 'en', 'CA')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('never includes another account', async () => {
    const k = await taxYearSummary(t.app.deps, karen, 2026);
    expect(amounts(k)).toEqual({ [`Karen Johnson/${k.payers[0]?.children[0]?.childName}`]: 777_00 });
    expect(JSON.stringify(k)).not.toContain('Sofia');
  });

  it('answers /tax and /report/tax through the API for the signed-in account only, in dollars', async () => {
    const api = apiClient(t.app, { token: await tokenFor(t.app, ...MARIA) });
    const direct = await taxYearSummary(t.app.deps, maria, 2026);
    const res = await api('Billing.tax', { query: { Year: 2026 } });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ years: number[]; country: string; payers: { payerName: string; children: { childName: string; paidForCare: number }[] }[] }>();
    expect(body.country).toBe('US');
    expect(body.years).toEqual(direct.years);
    expect(body.payers.flatMap((p) => p.children.map((c) => c.paidForCare))).toEqual(direct.payers.flatMap((p) => p.children.map((c) => c.careCents / 100)));
    const pdf = await api('Billing.taxPdf', { query: { Year: 2026 } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // a year out of range is refused by the contract
    expect((await api('Billing.tax', { query: { Year: 1999 } })).statusCode).toBe(400);
    // Karen's answer holds nothing of Maria's
    const karenApi = apiClient(t.app, { token: await tokenFor(t.app, ...KAREN) });
    expect(JSON.stringify((await karenApi('Billing.tax', { query: { Year: 2026 } })).json())).not.toContain('Sofia');
  });

  it('writes the Canadian receipt and the RL-24 slip of a provider in Québec', async () => {
    const summary = await taxYearSummary(t.app.deps, linh, 2026);
    expect(summary).toMatchObject({ country: 'CA', quebec: true });
    const [row] = summary.payers[0].children;
    expect(row.careCents).toBe(400_00);
    expect(row.receiptNumber).toMatch(/^\d+-2026-.+-\d+$/);
    // stable: the same number asked again
    expect((await taxYearSummary(t.app.deps, linh, 2026)).payers[0].children[0].receiptNumber).toBe(row.receiptNumber);
    const text = pdfText(await taxDocumentPdf(t.app.deps, linh, 2026, 'en', 'CA'));
    expect(text).toContain('Child care expense receipt 2026');
    expect(text).toContain('874512396RT0001');
    expect(text).toContain(row.receiptNumber);
    expect(text).toContain('RL-24');
    expect(text).toContain('1234567890RS0001');
    expect(text).toMatch(/Slip code R \(original\)/);
    expect(text).toMatch(/Box C: childcare expenses paid \$440\.00/);
    expect(text).toMatch(/Box D: expenses not qualifying or reimbursed \$40\.00/);
    expect(text).toMatch(/Box E: qualifying childcare expenses \$400\.00/);
    const amended = pdfText(await taxDocumentPdf(t.app.deps, linh, 2026, 'en', 'CA', 'A'));
    expect(amended).toMatch(/Slip code A \(amended\)/);
    expect(amended).toMatch(/Box E: qualifying childcare expenses \$400\.00/);
    fs.writeFileSync(path.join(os.tmpdir(), `tax-ca-${backend}.pdf`), await taxDocumentPdf(t.app.deps, linh, 2026, 'vi', 'CA'));
    fs.writeFileSync(path.join(os.tmpdir(), `tax-us-${backend}.pdf`), await taxDocumentPdf(t.app.deps, maria, 2026, 'en', 'US'));
  });
});
