// The billing job (server/domains/billing/invoicing.ts) on a program billed monthly through the
// portal: its service periods; an invoice per account and period with a line per enrolment, posted
// once however often (and however concurrently) the job runs; proration of a child who started
// mid-month, PER_DAY with a holiday, the sibling fee; late fees on and off; the autopay discount;
// each account's invoices its own in the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { ensureServicePeriods, invoicePeriod, postLateFees, runBilling, type BillingContext } from '../../server/domains/billing/invoicing';
import { accountMoney } from '../../server/domains/billing/ledger';
import { projectedPayment } from '../../server/domains/billing/projectedPayment';
import { AUTOPAY_DEFAULTS, type BillingSettings } from '../../server/billingSettings';
import { feesOf } from '../../server/domains/enrolment/fees';
import { isoDay } from '../../server/clock';
import { BACKENDS, KAREN, LINH, MARIA, apiClient, createTestApp, tokenFor, type TestApp } from './helpers';

const BILLING: BillingSettings = {
  from: '2026-09-01',
  invoiceDaysBefore: 0,
  dueDays: 10,
  prorate: true,
  lateFeeGraceDays: 2,
  autopayDiscountPercent: { M: 2 },
  holidays: [{ date: '2026-11-26', name: { en: 'Thanksgiving' } }],
  autopay: AUTOPAY_DEFAULTS,
};

describe('an application to a program invoiced by service period', () => {
  it('charges its registration fee but no tuition: the invoices do', () => {
    const fees = (billingCycle: string | null) =>
      feesOf({
        program: { capacityCheck: 'C', servicePeriodDefined: true, discountsNeedReview: false, billingCycle },
        lang: 'en',
        t: (_lang: string | undefined, key: string) => key,
        data: { children: [{ prPersonID: 0, prChildID: 7, childName: 'Sofia Garcia', selections: [{ activityID: 1, daysOfWeek: ['M', 'W'] }] }] } as never,
        activities: [{ activityID: 1, activity: 'After Care', activityTypeID: 2, feeType: 'PER_SP', fee: 300_00, firstChildRegFee: 40_00, secondChildRegFee: 30_00, thirdChildRegFee: 20_00, siblingFee: 0 }],
        misc: [],
        credit: 0,
        isFull: () => false,
      });
    expect(fees(null).rows.map((r) => [r.kind, r.regularFee])).toEqual([
      ['registration', 40_00],
      ['tuition', 300_00],
    ]);
    expect(fees('M').rows.map((r) => [r.kind, r.regularFee])).toEqual([['registration', 40_00]]);
  });
});

describe.each(BACKENDS)('the billing job on %s', (backend) => {
  let t: TestApp;
  let c: BillingContext;
  let program: number;
  let garcia: number;
  let johnson: number;
  const db = () => t.db.handle.db;
  const ctx = (today: string): BillingContext => ({ ...c, today, now: new Date(`${today}T11:00:00Z`) });
  const november = async () => {
    const [p] = await db()
      .select()
      .from(s.servicePeriods)
      .where(and(eq(s.servicePeriods.programPeriodId, program), eq(s.servicePeriods.startDate, '2026-11-01')));
    return p;
  };

  beforeAll(async () => {
    t = await createTestApp(backend);
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const kids = await db().select().from(s.children).where(eq(s.children.providerId, bp.id));
    const sofia = kids.find((k) => k.firstName === 'Sofia')!;
    const lucas = kids.find((k) => k.firstName === 'Lucas')!;
    const tyler = kids.find((k) => k.firstName === 'Tyler')!;
    garcia = sofia.accountId;
    johnson = tyler.accountId;
    // this file's own billed program only: the demo's billed programs and the bills the seed made are taken out
    const demoPeriods = (await db().select({ id: s.servicePeriods.id }).from(s.servicePeriods).where(eq(s.servicePeriods.providerId, bp.id))).map((p) => p.id);
    const demoInvoices = (await db().select({ id: s.invoices.id }).from(s.invoices).where(eq(s.invoices.providerId, bp.id))).map((i) => i.id);
    if (demoInvoices.length) {
      await db().delete(s.ledgerEntries).where(inArray(s.ledgerEntries.invoiceId, demoInvoices));
      await db().delete(s.invoiceLines).where(inArray(s.invoiceLines.invoiceId, demoInvoices));
      await db().delete(s.invoices).where(inArray(s.invoices.id, demoInvoices));
    }
    if (demoPeriods.length) await db().delete(s.servicePeriods).where(inArray(s.servicePeriods.id, demoPeriods));
    await db().update(s.programPeriods).set({ billingCycle: null }).where(eq(s.programPeriods.providerId, bp.id));
    const [pp] = await db()
      .insert(s.programPeriods)
      .values({ providerId: bp.id, programPeriod: 'Billed School Year', category: 'schoolYear', programKind: 'childcare', enrollmentOption: 'T', startDate: '2026-09-01', endDate: '2027-06-30', billingCycle: 'M' })
      .returning();
    program = pp.id;
    const [care, dropIn] = await db()
      .insert(s.activities)
      .values([
        { providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Billed After Care', startDate: '2026-09-01', endDate: '2027-06-30', feeCents: 300_00, siblingFeeCents: 250_00, feeType: 'PER_SP' },
        { providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Billed Drop-in', startDate: '2026-09-01', endDate: '2027-06-30', feeCents: 20_00, feeType: 'PER_DAY', daysOfWeek: 'T,TH' },
      ])
      .returning();
    await db()
      .insert(s.enrollments)
      .values([
        { providerId: bp.id, accountId: garcia, childId: sofia.id, activityId: care.id, enrollmentDate: '2026-09-01', daysOfWeek: 'M,T,W,TH,F' },
        // Lucas from Monday 16 November: 11 of November's 21 weekdays (Thanksgiving, Thursday 26, is a holiday: 10 of 20)
        { providerId: bp.id, accountId: garcia, childId: lucas.id, activityId: care.id, enrollmentDate: '2026-11-16', daysOfWeek: 'M,T,W,TH,F' },
        { providerId: bp.id, accountId: garcia, childId: sofia.id, activityId: dropIn.id, enrollmentDate: '2026-09-01', daysOfWeek: 'T,TH' },
        { providerId: bp.id, accountId: johnson, childId: tyler.id, activityId: care.id, enrollmentDate: '2026-10-01', daysOfWeek: 'M,T,W,TH,F' },
      ]);
    // Maria's account pays by autopay monthly (the demo's registration); Karen's has a late fee and Maria's says not to apply one
    await db().update(s.accounts).set({ lateFeeAfterDueDateCents: 25_00, applyLatePayment: true, doNotApplyLateFee: false }).where(eq(s.accounts.id, johnson));
    await db().update(s.accounts).set({ doNotApplyLateFee: true }).where(eq(s.accounts.id, garcia));
    const rules = t.app.deps.declarations.get('brightpath')!.set.rules;
    c = { db: db(), providerId: bp.id, billing: BILLING, rules, today: '2026-11-01', now: new Date('2026-11-01T11:00:00Z') };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('runs every morning', () => {
    expect(t.app.jobs.recurring()).toContain('billing.run');
  });

  it('makes the program\'s monthly service periods once, due ten days after the invoice date', async () => {
    expect(await ensureServicePeriods(c)).toBe(10);
    expect(await ensureServicePeriods(c)).toBe(0);
    const nov = await november();
    expect(nov).toMatchObject({ periodType: 'M', endDate: '2026-11-30', invoiceDate: '2026-11-01', dueDate: '2026-11-11' });
  });

  it('invoices a period once, run twice at once and again', async () => {
    const nov = await november();
    const both = await Promise.all([invoicePeriod(c, nov), invoicePeriod(c, nov)]);
    const first = { invoices: both[0].invoices + both[1].invoices, lines: both[0].lines + both[1].lines, postedCents: both[0].postedCents + both[1].postedCents };
    expect(first).toMatchObject({ invoices: 2, lines: 4 });
    expect(await invoicePeriod(c, nov)).toMatchObject({ invoices: 0, lines: 0, postedCents: 0 });
    const inv = await db().select().from(s.invoices).where(eq(s.invoices.servicePeriodDetailID, nov.id));
    expect(inv.map((i) => i.accountId).sort()).toEqual([garcia, johnson].sort());
    const lines = await db().select().from(s.invoiceLines).where(inArray(s.invoiceLines.invoiceId, inv.map((i) => i.id)));
    expect(lines).toHaveLength(4);
    const posted = await db().select().from(s.ledgerEntries).where(inArray(s.ledgerEntries.invoiceId, inv.map((i) => i.id)));
    expect(posted).toHaveLength(4);
    expect(posted.every((e) => e.kind === 'CHARGE' && e.dueDate === '2026-11-11' && e.childId !== null)).toBe(true);
    expect(first.postedCents).toBe(posted.reduce((n, e) => n + e.amountCents, 0));
  });

  it('prorates a child who started mid-month, charges PER_DAY days less the holiday, and the second child the sibling fee', async () => {
    const nov = await november();
    const [inv] = await db().select().from(s.invoices).where(and(eq(s.invoices.servicePeriodDetailID, nov.id), eq(s.invoices.accountId, garcia)));
    const lines = await db().select().from(s.invoiceLines).where(eq(s.invoiceLines.invoiceId, inv.id));
    const kids = await db().select().from(s.children).where(eq(s.children.accountId, garcia));
    const of = (name: string, feeType: string) => lines.find((l) => l.childId === kids.find((k) => k.firstName === name)!.id && l.feeType === feeType)!;
    // Sofia, the older: the whole month's fee
    expect(of('Sofia', 'PER_SP')).toMatchObject({ kind: 'TUITION', amountCents: 300_00, prorated: false, days: 20, scheduledDays: 20 });
    // Lucas: the sibling fee for 10 of 20 days (the holiday counts in neither)
    expect(of('Lucas', 'PER_SP')).toMatchObject({ kind: 'SIBLING', rateCents: 250_00, prorated: true, days: 10, scheduledDays: 20, amountCents: 125_00 });
    // Sofia's drop-in: 8 Tuesdays and Thursdays less Thanksgiving
    expect(of('Sofia', 'PER_DAY')).toMatchObject({ days: 7, amountCents: 140_00 });
    expect(inv.amountCents).toBe(300_00 + 125_00 + 140_00);
    // Maria's account pays by autopay monthly: 2% off the invoice's tuition
    expect(inv.autoPayDiscountValueCents).toBe(11_30);
  });

  it('adds an enrolment new to an invoiced period on a rerun, nothing else', async () => {
    const nov = await november();
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const [emma] = await db().select().from(s.children).where(and(eq(s.children.accountId, garcia), eq(s.children.firstName, 'Emma')));
    const [dropIn] = await db().select().from(s.activities).where(eq(s.activities.activity, 'Billed Drop-in'));
    await db().insert(s.enrollments).values({ providerId: bp.id, accountId: garcia, childId: emma.id, activityId: dropIn.id, enrollmentDate: '2026-11-24', deEnrollDate: '2026-11-30', daysOfWeek: 'T,TH' });
    const r = await invoicePeriod(c, nov);
    // Tuesday 24 only (Thursday 26 is the holiday): one day
    expect(r).toMatchObject({ invoices: 0, lines: 1, postedCents: 20_00 });
    const [inv] = await db().select().from(s.invoices).where(and(eq(s.invoices.servicePeriodDetailID, nov.id), eq(s.invoices.accountId, garcia)));
    expect(inv.amountCents).toBe(300_00 + 125_00 + 140_00 + 20_00);
  });

  it('posts a late fee once on an open invoice after its due date and grace days, never where it is switched off', async () => {
    // due 11 November, two grace days: the 13th is not late yet, the 14th is
    expect(await postLateFees(ctx('2026-11-13'))).toBe(0);
    expect(await postLateFees(ctx('2026-11-14'))).toBe(1);
    expect(await postLateFees(ctx('2026-11-20'))).toBe(0);
    const fees = await db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.kind, 'LATE_FEE'));
    const mine = fees.filter((f) => f.accountId === johnson && f.invoiceId !== null);
    expect(mine).toHaveLength(1);
    expect(mine[0].amountCents).toBe(25_00);
    // Maria's account: doNotApplyLateFee
    expect(fees.filter((f) => f.accountId === garcia && f.entryDate >= '2026-11-14')).toHaveLength(0);
  });

  it('posts no late fee on an invoice paid in full', async () => {
    const today = '2026-12-20';
    const r = await runBilling(ctx('2026-12-01'));
    expect(r.periods).toBeGreaterThanOrEqual(1);
    // Karen pays her whole balance before December's invoice falls due
    const owed = (await accountMoney(db(), c.providerId, johnson, '2026-12-05')).balanceCents;
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    await db().insert(s.ledgerEntries).values({ providerId: bp.id, accountId: johnson, kind: 'PAYMENT', amountCents: owed, entryDate: '2026-12-05', createdAt: new Date('2026-12-05T12:00:00Z') });
    const before = (await db().select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.accountId, johnson), eq(s.ledgerEntries.kind, 'LATE_FEE')))).length;
    await postLateFees(ctx(today));
    const after = (await db().select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.accountId, johnson), eq(s.ledgerEntries.kind, 'LATE_FEE')))).length;
    expect(after).toBe(before);
  });

  it('the daily run takes only the periods due and from the provider\'s billing start; a second run posts nothing', async () => {
    const r = await runBilling(ctx('2026-12-01'));
    expect(r).toMatchObject({ periods: 0, invoices: 0, lines: 0, postedCents: 0 });
    const invoiced = await db().select().from(s.servicePeriods).where(eq(s.servicePeriods.programPeriodId, program));
    // September to December are invoiced (September and October by the first run, November by hand, December on its day); January is not due
    expect(invoiced.filter((p) => p.invoicedAt).map((p) => p.startDate)).toEqual(['2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']);
  });

  it('the daily run charges an enrolment that began after its period was invoiced, once', async () => {
    const [bp] = await db().select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const [lucas] = await db().select().from(s.children).where(and(eq(s.children.accountId, garcia), eq(s.children.firstName, 'Lucas')));
    const [dropIn] = await db().select().from(s.activities).where(eq(s.activities.activity, 'Billed Drop-in'));
    // Lucas on Tuesdays from Monday 14 December: the 15th, 22nd and 29th
    await db().insert(s.enrollments).values({ providerId: bp.id, accountId: garcia, childId: lucas.id, activityId: dropIn.id, enrollmentDate: '2026-12-14', daysOfWeek: 'T' });
    expect(await runBilling(ctx('2026-12-15'))).toMatchObject({ periods: 0, invoices: 0, lines: 1, postedCents: 3 * 20_00 });
    expect(await runBilling(ctx('2026-12-16'))).toMatchObject({ periods: 0, invoices: 0, lines: 0, postedCents: 0 });
  });

  it('each account sees its own invoices in the API, with the open rest from the ledger', async () => {
    const maria = apiClient(t.app, { token: await tokenFor(t.app, ...MARIA) });
    const karen = apiClient(t.app, { token: await tokenFor(t.app, ...KAREN) });
    const nov = await november();
    const mine = (await maria('Billing.invoices')).json<{ invoiceID: number; servicePeriodDetailID: number; amount: number; balance: number }[]>();
    const theirs = (await karen('Billing.invoices')).json<{ invoiceID: number; servicePeriodDetailID: number }[]>();
    const marias = mine.find((i) => i.servicePeriodDetailID === nov.id);
    expect(marias?.amount).toBe(585);
    const ids = new Set(mine.map((i) => i.invoiceID));
    expect(theirs.some((i) => ids.has(i.invoiceID))).toBe(false);
    expect(theirs.some((i) => i.servicePeriodDetailID === nov.id)).toBe(true);
  });

  it("posts a split child's charges to both accounts by share, fixed when posted whatever one parent pays", async () => {
    const [tyler] = await db().select().from(s.children).where(and(eq(s.children.accountId, johnson), eq(s.children.firstName, 'Tyler')));
    // Tyler's charges: 60 to his own account (Karen's), 40 to Maria's
    await db().insert(s.splitChildren).values({ providerId: c.providerId, childId: tyler.id, primaryAccountId: johnson, splitAccountId: garcia, splitPercentage: 60 });
    const [jan] = await db()
      .select()
      .from(s.servicePeriods)
      .where(and(eq(s.servicePeriods.programPeriodId, program), eq(s.servicePeriods.startDate, '2027-01-01')));
    await invoicePeriod(ctx('2027-01-01'), jan);
    const lines = await db().select().from(s.invoiceLines).where(eq(s.invoiceLines.childId, tyler.id));
    const janLines = lines.filter((l) => l.rateCents === 300_00 && l.days === 21);
    expect(janLines.map((l) => [l.accountId, l.sharePercent, l.amountCents]).sort((a, b) => a[0] - b[0])).toEqual(
      [
        [johnson, 60, 180_00],
        [garcia, 40, 120_00],
      ].sort((a, b) => a[0] - b[0]),
    );
    const mariaBefore = (await accountMoney(db(), c.providerId, garcia, '2027-01-05')).balanceCents;
    // Karen pays her whole balance: Maria's share of Tyler stays what it was
    const karenOwes = (await accountMoney(db(), c.providerId, johnson, '2027-01-05')).balanceCents;
    await db().insert(s.ledgerEntries).values({ providerId: c.providerId, accountId: johnson, kind: 'PAYMENT', amountCents: karenOwes, entryDate: '2027-01-05', createdAt: new Date('2027-01-05T12:00:00Z') });
    expect((await accountMoney(db(), c.providerId, garcia, '2027-01-05')).balanceCents).toBe(mariaBefore);
    expect((await accountMoney(db(), c.providerId, johnson, '2027-01-05')).balanceCents).toBe(0);
    // a rerun posts neither share again
    expect(await invoicePeriod(ctx('2027-01-02'), jan)).toMatchObject({ lines: 0, postedCents: 0 });
    // each account's invoice holds its own share only
    const maria = apiClient(t.app, { token: await tokenFor(t.app, ...MARIA) });
    const invoicesOfMaria = (await maria('Billing.invoices')).json<{ servicePeriodDetailID: number; amount: number }[]>();
    const mariaJan = (await db().select().from(s.invoices).where(and(eq(s.invoices.servicePeriodDetailID, jan.id), eq(s.invoices.accountId, garcia))))[0];
    expect(invoicesOfMaria.find((i) => i.servicePeriodDetailID === jan.id)?.amount).toBe(mariaJan.amountCents / 100);
  });

  it('projects the next autopay from the latest invoice: closing balance, its fees, what was posted since, less the discount', async () => {
    const [jan] = await db()
      .select()
      .from(s.invoices)
      .where(and(eq(s.invoices.accountId, garcia), eq(s.invoices.invoiceDate, '2027-01-01')));
    await db().insert(s.ledgerEntries).values({ providerId: c.providerId, accountId: garcia, kind: 'PAYMENT', amountCents: 50_00, entryDate: '2027-01-04', description: 'Payment', createdAt: new Date('2027-01-04T12:00:00Z') });
    const p = await projectedPayment(db(), c.providerId, garcia, '2027-01-06', 'en');
    expect(p).toMatchObject({ invoiceID: jan.id, invoiceDate: '2027-01-01', balanceDueDate: '2027-01-11', isAutoPay: true, discountAmountCents: jan.autoPayDiscountValueCents });
    expect(p.discountAmountCents).toBeGreaterThan(0);
    // Tyler's share on Maria's invoice: 40%
    expect(p.feeDetails.find((f) => f.childName.startsWith('Tyler'))).toMatchObject({ sharePercent: 40, amountCents: 120_00 });
    expect(p.transactionsPosted).toEqual([{ date: '2027-01-04', kind: 'PAYMENT', description: 'Payment', amountCents: -50_00 }]);
    const balance = (await accountMoney(db(), c.providerId, garcia, '2027-01-06')).balanceCents;
    expect(p.invoiceClosingBalanceCents).toBe(balance + 50_00);
    expect(p.projectedAmountDueCents).toBe(balance - p.discountAmountCents);
    // Karen's account is another account: her projection holds nothing of Maria's
    const k = await projectedPayment(db(), c.providerId, johnson, '2027-01-06', 'en');
    expect(k.feeDetails.every((f) => f.sharePercent === 60 || f.sharePercent === 100)).toBe(true);
    expect(k.transactionsPosted.some((x) => x.amountCents === -50_00 && x.date === '2027-01-04')).toBe(false);
  });

  it('answers the projected payment and the service periods through the API, in dollars, for the signed-in account', async () => {
    const maria = apiClient(t.app, { token: await tokenFor(t.app, ...MARIA) });
    const karen = apiClient(t.app, { token: await tokenFor(t.app, ...KAREN) });
    const p = (await maria('Billing.projectedPayment')).json<{ accountNo: string; projectedAmountDue: number; discountAmount: number; feeDetails: { childName: string }[] }>();
    // the API answers on the app's business day
    const mine = await projectedPayment(db(), c.providerId, garcia, isoDay(t.app.deps.today()), 'en');
    expect(p.accountNo).toBe(mine.accountNo);
    expect(p.projectedAmountDue).toBe(mine.projectedAmountDueCents / 100);
    expect(p.discountAmount).toBe(mine.discountAmountCents / 100);
    const all = (await maria('Billing.servicePeriods')).json<{ servicePeriodDetailID: number; programPeriodID: number; isCurrent: boolean; startDate: string }[]>();
    expect(all.filter((x) => x.programPeriodID === program)).toHaveLength(10);
    // the current period is the month of the app's business day (the program runs September 2026 to June 2027)
    const day = isoDay(t.app.deps.today());
    const current = (await maria('Billing.servicePeriods', { query: { IsCurrent: true } })).json<{ programPeriodID: number; startDate: string; isCurrent: boolean }[]>();
    const inProgram = day >= '2026-09-01' && day <= '2027-06-30';
    expect(current.filter((x) => x.programPeriodID === program)).toEqual(inProgram ? [expect.objectContaining({ startDate: `${day.slice(0, 7)}-01`, isCurrent: true })] : []);
    // Karen sees the billed program through Tyler; an account without a billed enrolment sees none of it
    expect((await karen('Billing.servicePeriods')).json<{ programPeriodID: number }[]>().some((x) => x.programPeriodID === program)).toBe(true);
    const linh = apiClient(t.app, { token: await tokenFor(t.app, ...LINH) });
    expect((await linh('Billing.servicePeriods')).json<{ programPeriodID: number }[]>().some((x) => x.programPeriodID === program)).toBe(false);
  });
});
