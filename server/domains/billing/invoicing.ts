// The billing job (spec 2.12 bills, 3 service period and invoice detail): a program's service periods
// from its dates and billing cycle, and per service period one invoice per account with one line per
// enrolment, each line posted once to the ledger as a CHARGE for its child; then late fees on invoices
// left open past their due date. The amounts come from src/engine/billing.ts and the provider's
// declared billing rules; this file gathers the facts and writes them.
//
// A child split between two accounts (split_children) has each line posted to both, the primary
// account's share by the split percentage (half a cent up), the other account the rest, fixed when
// posted: what one parent pays later never moves the other's share.
//
// Run twice, or on two instances at once, it posts once: an invoice is unique per account and
// period, a line per invoice and enrolment, a charge per line and a late fee per invoice, and each is
// inserted with ON CONFLICT DO NOTHING, its ledger entry only when the line itself was new.
import { and, asc, eq, gte, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index';
import { accounts, activities, autopayRegistrations, changeRequests, children, enrollments, invoiceLines, invoices, ledgerEntries, programPeriods, providers, servicePeriods, splitChildren } from '../../db/schema';
import { autopayDiscountCents, addDays, invoiceLines as linesOf, prorate, servicePeriodsOf, withChildOrder, type BillableEnrolment, type InvoiceLine, type PeriodType } from '../../../src/engine/billing';
import { isTrue, type RuleSet } from '../../../src/engine/logic';
import { dateInLanguage } from '../../../src/engine/formats';
import type { BillingSettings } from '../../billingSettings';
import type { AppDeps } from '../../context';
import { isoDay } from '../../clock';
import { ACTIVITY_TYPE } from '../../../src/engine/programCodes';
import { accountMoney } from './ledger';
import { textIn } from '../../providerTexts';

export interface BillingContext {
  db: Db;
  providerId: number;
  billing: BillingSettings;
  /** the provider's effective rules (base and overlays) */
  rules: RuleSet;
  /** the business day (yyyy-mm-dd) */
  today: string;
  now: Date;
}

const PERIOD_TYPES: ReadonlySet<string> = new Set(['W', 'T', 'M']);

/** The service periods of the provider's billed programs, made once (invoice and due dates by its settings). */
export async function ensureServicePeriods(c: Pick<BillingContext, 'db' | 'providerId' | 'billing'>): Promise<number> {
  const programs = await c.db
    .select({ id: programPeriods.id, startDate: programPeriods.startDate, endDate: programPeriods.endDate, cycle: programPeriods.billingCycle })
    .from(programPeriods)
    .where(and(eq(programPeriods.providerId, c.providerId), isNotNull(programPeriods.billingCycle)));
  const rows = programs.flatMap((p) => {
    if (!p.cycle || !PERIOD_TYPES.has(p.cycle)) return [];
    return servicePeriodsOf(p.startDate, p.endDate, p.cycle as PeriodType).map((sp) => {
      const invoiceDate = addDays(sp.start, -c.billing.invoiceDaysBefore);
      return { providerId: c.providerId, programPeriodId: p.id, periodType: p.cycle as string, startDate: sp.start, endDate: sp.end, invoiceDate, dueDate: addDays(invoiceDate, c.billing.dueDays) };
    });
  });
  if (!rows.length) return 0;
  const made = await c.db.insert(servicePeriods).values(rows).onConflictDoNothing({ target: [servicePeriods.programPeriodId, servicePeriods.startDate] }).returning({ id: servicePeriods.id });
  return made.length;
}

type PeriodRow = typeof servicePeriods.$inferSelect;

export interface InvoiceRunResult {
  periods: number;
  invoices: number;
  lines: number;
  postedCents: number;
}

/** The invoice text of a period: its program and dates (the documents write it in the reader's language from the dates). */
function periodLabel(program: string, p: PeriodRow): string {
  return `${program} ${p.startDate} – ${p.endDate}`;
}

/**
 * Invoices one service period: every account with an enrolment in its program on one of its days
 * gets its invoice and lines; lines already there are kept as they are (a rerun adds only
 * enrolments that are new to the period).
 */
export async function invoicePeriod(c: BillingContext, period: PeriodRow): Promise<InvoiceRunResult> {
  const [program] = await c.db.select({ name: programPeriods.programPeriod }).from(programPeriods).where(eq(programPeriods.id, period.programPeriodId));
  const rows = await c.db
    .select({
      enrollmentId: enrollments.id,
      accountId: enrollments.accountId,
      childId: enrollments.childId,
      activityId: enrollments.activityId,
      enrollmentDate: enrollments.enrollmentDate,
      deEnrollDate: enrollments.deEnrollDate,
      daysOfWeek: enrollments.daysOfWeek,
      birth: children.dateOfBirth,
      childName: sql<string>`${children.firstName} || ' ' || ${children.lastName}`,
      activityName: activities.activity,
      activity: {
        feeType: activities.feeType,
        feeCents: activities.feeCents,
        siblingFeeCents: activities.siblingFeeCents,
        feesBySP: activities.feesBySP,
        startDate: activities.startDate,
        endDate: activities.endDate,
        daysOfWeek: activities.daysOfWeek,
        isOneTime: activities.isOneTime,
        activityTypeID: activities.activityTypeID,
      },
    })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .innerJoin(children, eq(children.id, enrollments.childId))
    .where(
      and(
        eq(enrollments.providerId, c.providerId),
        eq(activities.programPeriodId, period.programPeriodId),
        eq(enrollments.status, 'A'),
        lte(enrollments.enrollmentDate, period.endDate),
        or(isNull(enrollments.deEnrollDate), gte(enrollments.deEnrollDate, period.startDate)),
      ),
    )
    .orderBy(asc(enrollments.accountId), asc(enrollments.id));
  // a period invoiced before: an enrolment a change of schedule began inside it is not billed here,
  // the change settled the difference for the rest of the period when it was sent
  // (src/engine/changeSchedule.ts); the daily rerun adds only enrolments begun otherwise
  const byChange = period.invoicedAt
    ? new Set(
        (
          await c.db
            .select({ accountId: changeRequests.accountId, effectiveDate: changeRequests.effectiveDate })
            .from(changeRequests)
            .where(and(eq(changeRequests.providerId, c.providerId), eq(changeRequests.programPeriodId, period.programPeriodId), inArray(changeRequests.status, ['scheduled', 'applied']), gte(changeRequests.effectiveDate, period.startDate), lte(changeRequests.effectiveDate, period.endDate)))
        ).map((r) => `${r.accountId}/${r.effectiveDate}`),
      )
    : new Set<string>();
  const byAccount = new Map<number, typeof rows>();
  for (const r of rows) {
    if (byChange.has(`${r.accountId}/${r.enrollmentDate}`)) continue;
    // a one-time or single-date activity is charged when its date is chosen, never by the period
    if (r.activity.isOneTime || r.activity.activityTypeID === ACTIVITY_TYPE.singleDate) continue;
    byAccount.set(r.accountId, [...(byAccount.get(r.accountId) ?? []), r]);
  }
  const holidays = new Set(c.billing.holidays.map((h) => h.date));
  // a split child's lines go to both accounts by share (spec 3 split-child record), fixed as posted
  const splits = new Map(
    (await c.db.select().from(splitChildren).where(eq(splitChildren.providerId, c.providerId))).map((r) => [r.childId, r]),
  );
  const perAccount = new Map<number, ShareLine[]>();
  const add = (accountId: number, line: ShareLine) => perAccount.set(accountId, [...(perAccount.get(accountId) ?? []), line]);
  for (const [accountId, list] of byAccount) {
    const ordered = withChildOrder(
      list.map((r) => ({ enrollmentId: r.enrollmentId, childId: r.childId, activityId: r.activityId, enrollmentDate: r.enrollmentDate, deEnrollDate: r.deEnrollDate, daysOfWeek: r.daysOfWeek, activity: r.activity })),
      new Map(list.map((r) => [r.childId, r.birth])),
    );
    for (const line of linesOf(c.rules, { start: period.startDate, end: period.endDate }, ordered satisfies BillableEnrolment[], holidays, { prorate: c.billing.prorate })) {
      const row = list.find((r) => r.enrollmentId === line.enrollmentId);
      // the ledger line names the child and the activity (statements, the invoice PDF, year-end documents)
      const text = row ? `${row.childName}: ${row.activityName}` : '';
      const split = splits.get(line.childId);
      if (!split || split.primaryAccountId !== accountId) {
        add(accountId, { ...line, sharePercent: 100, text });
        continue;
      }
      const primary = prorate(line.amountCents, split.splitPercentage, 100);
      if (primary > 0) add(accountId, { ...line, amountCents: primary, sharePercent: split.splitPercentage, text });
      if (line.amountCents - primary > 0) add(split.splitAccountId, { ...line, amountCents: line.amountCents - primary, sharePercent: 100 - split.splitPercentage, text });
    }
  }
  const result: InvoiceRunResult = { periods: 1, invoices: 0, lines: 0, postedCents: 0 };
  for (const accountId of [...perAccount.keys()].sort((a, b) => a - b)) {
    const lines = perAccount.get(accountId) ?? [];
    const made = await c.db.transaction((tx) => postInvoice(tx, c, period, accountId, periodLabel(program?.name ?? '', period), lines));
    result.invoices += made.newInvoice ? 1 : 0;
    result.lines += made.lines;
    result.postedCents += made.postedCents;
  }
  await c.db.update(servicePeriods).set({ invoicedAt: c.now }).where(and(eq(servicePeriods.id, period.id), isNull(servicePeriods.invoicedAt)));
  return result;
}

/** An invoice line as one account's share of it. */
type ShareLine = InvoiceLine & { sharePercent: number; text: string };

async function postInvoice(tx: Tx, c: BillingContext, period: PeriodRow, accountId: number, label: string, lines: ShareLine[]) {
  const inserted = await tx
    .insert(invoices)
    .values({ providerId: c.providerId, accountId, servicePeriodDetailID: period.id, servicePeriod: label, invoiceDate: period.invoiceDate, paymentDueDate: period.dueDate, amountCents: 0 })
    .onConflictDoNothing({ target: [invoices.providerId, invoices.accountId, invoices.servicePeriodDetailID] })
    .returning({ id: invoices.id });
  const [invoice] = inserted.length
    ? inserted
    : await tx
        .select({ id: invoices.id })
        .from(invoices)
        .where(and(eq(invoices.providerId, c.providerId), eq(invoices.accountId, accountId), eq(invoices.servicePeriodDetailID, period.id)));
  let posted = 0;
  let newLines = 0;
  for (const l of lines) {
    const [line] = await tx
      .insert(invoiceLines)
      .values({ providerId: c.providerId, accountId, invoiceId: invoice.id, enrollmentId: l.enrollmentId, childId: l.childId, activityId: l.activityId, kind: l.kind, feeType: l.feeType, rateCents: l.rateCents, days: l.days, scheduledDays: l.scheduledDays, prorated: l.prorated, sharePercent: l.sharePercent, amountCents: l.amountCents })
      .onConflictDoNothing({ target: [invoiceLines.invoiceId, invoiceLines.enrollmentId] })
      .returning({ id: invoiceLines.id });
    if (!line) continue;
    newLines++;
    posted += l.amountCents;
    await tx.insert(ledgerEntries).values({
      providerId: c.providerId,
      accountId,
      kind: 'CHARGE',
      amountCents: l.amountCents,
      entryDate: period.invoiceDate,
      dueDate: period.dueDate,
      invoiceId: invoice.id,
      childId: l.childId,
      invoiceLineId: line.id,
      description: l.text || label,
      createdAt: c.now,
    });
  }
  // the invoice's total and its autopay discount, from all its lines (old and new)
  const [{ total }] = await tx
    .select({ total: sql<number>`coalesce(sum(${invoiceLines.amountCents}), 0)::int` })
    .from(invoiceLines)
    .where(eq(invoiceLines.invoiceId, invoice.id));
  const [autopay] = await tx
    .select({ frequency: autopayRegistrations.frequency })
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, c.providerId), eq(autopayRegistrations.accountId, accountId), eq(autopayRegistrations.active, true), eq(autopayRegistrations.isAutoPay, true)))
    .limit(1);
  const discount = autopayDiscountCents(c.rules, {
    account: { isAutoPay: Boolean(autopay), frequency: autopay?.frequency ?? null },
    invoice: { tuitionCents: total },
    provider: { autopayDiscountPercent: c.billing.autopayDiscountPercent },
  });
  await tx.update(invoices).set({ amountCents: total, autoPayDiscountValueCents: discount }).where(eq(invoices.id, invoice.id));
  return { newInvoice: inserted.length > 0, lines: newLines, postedCents: posted };
}

/** The periods due for invoicing on `today`: invoice date reached, starting on or after the provider's billing start, not invoiced yet. */
export async function duePeriods(c: Pick<BillingContext, 'db' | 'providerId' | 'billing' | 'today'>): Promise<PeriodRow[]> {
  return c.db
    .select()
    .from(servicePeriods)
    .where(and(eq(servicePeriods.providerId, c.providerId), lte(servicePeriods.invoiceDate, c.today), gte(servicePeriods.startDate, c.billing.from), isNull(servicePeriods.invoicedAt)))
    .orderBy(asc(servicePeriods.startDate), asc(servicePeriods.id));
}

/** The invoiced periods holding `today` (from the provider's billing start). */
async function currentInvoicedPeriods(c: Pick<BillingContext, 'db' | 'providerId' | 'billing' | 'today'>): Promise<PeriodRow[]> {
  return c.db
    .select()
    .from(servicePeriods)
    .where(and(eq(servicePeriods.providerId, c.providerId), lte(servicePeriods.startDate, c.today), gte(servicePeriods.endDate, c.today), gte(servicePeriods.startDate, c.billing.from), isNotNull(servicePeriods.invoicedAt)))
    .orderBy(asc(servicePeriods.startDate), asc(servicePeriods.id));
}

/** The daily run for one provider: its periods made, the due ones invoiced, then late fees. */
export async function runBilling(c: BillingContext): Promise<InvoiceRunResult & { lateFees: number }> {
  await ensureServicePeriods(c);
  const total: InvoiceRunResult = { periods: 0, invoices: 0, lines: 0, postedCents: 0 };
  for (const p of await duePeriods(c)) {
    const r = await invoicePeriod(c, p);
    total.periods += 1;
    total.invoices += r.invoices;
    total.lines += r.lines;
    total.postedCents += r.postedCents;
  }
  // an enrolment that began after its period was invoiced (an application to a billed program charges
  // no tuition) gets its prorated line on the next run: the periods holding today are invoiced again,
  // which adds only the lines that are new
  for (const p of await currentInvoicedPeriods(c)) {
    const r = await invoicePeriod(c, p);
    total.invoices += r.invoices;
    total.lines += r.lines;
    total.postedCents += r.postedCents;
  }
  const lateFees = await postLateFees(c);
  return { ...total, lateFees };
}

/**
 * A late fee (the account's lateFeeAfterDueDate) on each invoice the job made that is still open
 * after its due date and the provider's grace days, by the rule billing.lateFeeApplies; once per invoice.
 */
export async function postLateFees(c: BillingContext): Promise<number> {
  const candidates = await c.db
    .selectDistinct({
      invoiceId: invoices.id,
      accountId: invoices.accountId,
      dueDate: invoices.paymentDueDate,
      servicePeriod: invoices.servicePeriod,
      lateFeeCents: accounts.lateFeeAfterDueDateCents,
      applyLatePayment: accounts.applyLatePayment,
      doNotApplyLateFee: accounts.doNotApplyLateFee,
    })
    .from(invoices)
    .innerJoin(accounts, eq(accounts.id, invoices.accountId))
    .innerJoin(invoiceLines, eq(invoiceLines.invoiceId, invoices.id))
    .where(
      and(
        eq(invoices.providerId, c.providerId),
        sql`${invoices.paymentDueDate} < ${c.today}`,
        sql`not exists (select 1 from ${ledgerEntries} l where l.invoice_id = ${invoices.id} and l.kind = 'LATE_FEE')`,
      ),
    );
  const accountsSeen = new Map<number, Awaited<ReturnType<typeof accountMoney>>>();
  let posted = 0;
  for (const inv of candidates) {
    const money = accountsSeen.get(inv.accountId) ?? (await accountMoney(c.db, c.providerId, inv.accountId, c.today));
    accountsSeen.set(inv.accountId, money);
    const facts = {
      account: { lateFeeAfterDueDateCents: inv.lateFeeCents, applyLatePayment: inv.applyLatePayment, doNotApplyLateFee: inv.doNotApplyLateFee },
      invoice: { openCents: money.invoiceOpenCents.get(inv.invoiceId) ?? 0, daysPastDue: daysBetween(inv.dueDate, c.today) },
      provider: { lateFeeGraceDays: c.billing.lateFeeGraceDays },
    };
    if (!isTrue(c.rules, 'billing.lateFeeApplies', facts)) continue;
    const made = await c.db
      .insert(ledgerEntries)
      .values({ providerId: c.providerId, accountId: inv.accountId, kind: 'LATE_FEE', amountCents: inv.lateFeeCents, entryDate: c.today, dueDate: c.today, invoiceId: inv.invoiceId, description: inv.servicePeriod, createdAt: c.now })
      .onConflictDoNothing()
      .returning({ id: ledgerEntries.id });
    posted += made.length;
  }
  return posted;
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The providers (id, appName) of the given appNames, or all. */
export async function providerIds(db: Db, appNames?: string[]): Promise<{ id: number; appName: string }[]> {
  const q = db.select({ id: providers.id, appName: providers.appName }).from(providers);
  return appNames?.length ? q.where(inArray(providers.appName, appNames)) : q;
}

/** The daily run for every provider that bills through the portal, with its effective rules. */
export async function runBillingForAll(deps: AppDeps): Promise<void> {
  for (const p of await providerIds(deps.db)) {
    const billing = deps.settings(p.appName).billing;
    if (!billing) continue;
    const decl = deps.declarations.get(p.appName);
    if (!decl) {
      deps.log?.warn({ appName: p.appName }, 'billing: the provider\'s declarations are not loaded; its billing waits for the next run');
      continue;
    }
    await runBilling({ db: deps.db, providerId: p.id, billing, rules: decl.set.rules, today: isoDay(deps.today()), now: deps.clock() });
  }
}

/**
 * The service periods of the billed programs the account's enrolments are in (its own children's, and a
 * child it shares by a split record), oldest first; `currentOnly`: the periods holding `today`.
 */
export async function accountServicePeriods(db: Db, providerId: number, accountId: number, today: string, currentOnly: boolean, lang: string) {
  const shared = db.select({ childId: splitChildren.childId }).from(splitChildren).where(and(eq(splitChildren.providerId, providerId), eq(splitChildren.splitAccountId, accountId)));
  const programs = db
    .selectDistinct({ id: activities.programPeriodId })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .where(and(eq(enrollments.providerId, providerId), eq(enrollments.status, 'A'), or(eq(enrollments.accountId, accountId), inArray(enrollments.childId, shared))));
  const rows = await db
    .select({ sp: servicePeriods, programPeriod: programPeriods.programPeriod, translations: programPeriods.translations })
    .from(servicePeriods)
    .innerJoin(programPeriods, eq(programPeriods.id, servicePeriods.programPeriodId))
    .where(and(eq(servicePeriods.providerId, providerId), inArray(servicePeriods.programPeriodId, programs), ...(currentOnly ? [lte(servicePeriods.startDate, today), gte(servicePeriods.endDate, today)] : [])))
    .orderBy(asc(servicePeriods.startDate), asc(servicePeriods.programPeriodId));
  return rows.map(({ sp, programPeriod, translations }) => ({
    servicePeriodDetailID: sp.id,
    programPeriodID: sp.programPeriodId,
    programPeriod: textIn({ programPeriod, translations }, 'programPeriod', lang),
    periodType: sp.periodType as PeriodType,
    startDate: sp.startDate,
    endDate: sp.endDate,
    invoiceDate: sp.invoiceDate,
    dueDate: sp.dueDate,
    isCurrent: sp.startDate <= today && today <= sp.endDate,
  }));
}

/**
 * The text of the service period an invoice bills, in `lang` (its program's name and dates): an invoice
 * the job made has lines and its servicePeriodDetailID is a service period; any other keeps its own text.
 */
export async function invoicePeriodTexts(db: Db, providerId: number, rows: { id: number; servicePeriodDetailID: number; servicePeriod: string }[], lang: string): Promise<Map<number, string>> {
  const out = new Map(rows.map((r) => [r.id, r.servicePeriod]));
  if (!rows.length) return out;
  const made = await db
    .selectDistinct({ invoiceId: invoiceLines.invoiceId })
    .from(invoiceLines)
    .where(and(eq(invoiceLines.providerId, providerId), inArray(invoiceLines.invoiceId, rows.map((r) => r.id))));
  const byJob = rows.filter((r) => made.some((m) => m.invoiceId === r.id));
  if (!byJob.length) return out;
  const periods = await db
    .select({ id: servicePeriods.id, startDate: servicePeriods.startDate, endDate: servicePeriods.endDate, programPeriod: programPeriods.programPeriod, translations: programPeriods.translations })
    .from(servicePeriods)
    .innerJoin(programPeriods, eq(programPeriods.id, servicePeriods.programPeriodId))
    .where(and(eq(servicePeriods.providerId, providerId), inArray(servicePeriods.id, byJob.map((r) => r.servicePeriodDetailID))));
  for (const r of byJob) {
    const p = periods.find((x) => x.id === r.servicePeriodDetailID);
    if (p) out.set(r.id, `${textIn({ programPeriod: p.programPeriod, translations: p.translations }, 'programPeriod', lang)}: ${dateInLanguage(p.startDate, lang)} – ${dateInLanguage(p.endDate, lang)}`);
  }
  return out;
}
