// The projected payment (spec 2.12 /viewprojectedpayment, 7.1 /projected-payment): what the next
// autopay will take. From the account's latest invoice (with the other billed programs' invoices of
// the same date): its closing balance (the ledger up to its
// invoice date), its fee details (its lines), the transactions posted since, its due date, the
// autopay discount it carries for an account on autopay, and the projected amount: today's balance
// less that discount, never below zero. In cents; the handler answers dollars.
import { and, asc, desc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../db/index';
import { accounts, activities, autopayRegistrations, children, invoiceLines, invoices, ledgerEntries } from '../../db/schema';
import { KeyedError } from '../../errors';
import { accountMoneyOf, ledgerRows } from './ledger';
import { textIn } from '../../providerTexts';
import { invoicePeriodTexts } from './invoicing';

export interface ProjectedFee {
  childName: string;
  activity: string;
  kind: string;
  feeType: string;
  rateCents: number;
  days: number;
  scheduledDays: number;
  prorated: boolean;
  sharePercent: number;
  amountCents: number;
}

export interface ProjectedTransaction {
  date: string;
  kind: string;
  description: string;
  /** positive raises the balance, negative lowers it */
  amountCents: number;
}

export interface ProjectedPayment {
  accountNo: string;
  isAutoPay: boolean;
  invoiceID: number | null;
  servicePeriod: string | null;
  invoiceDate: string | null;
  invoiceClosingBalanceCents: number;
  feeDetails: ProjectedFee[];
  transactionsPosted: ProjectedTransaction[];
  balanceDueDate: string | null;
  discountAmountCents: number;
  /** on the autopay date (the balance due date until the autopay run sets its own) */
  projectedAmountDueCents: number;
  autopayDate: string | null;
}

const LOWERS: ReadonlySet<string> = new Set(['PAYMENT', 'CREDIT']);

/** The signed-in account's projected payment on the business day `today`, names in `lang`; another provider's account is not found. */
export async function projectedPayment(db: Db, providerId: number, accountId: number, today: string, lang: string): Promise<ProjectedPayment> {
  const [account] = await db
    .select({ accountNo: accounts.accountNo })
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.providerId, providerId)));
  if (!account) throw new KeyedError(404, 'server.errors.notFound');
  // the latest invoice, with the other invoices of its date (each billed program has its own invoice
  // for the same period): the projection covers all of them
  const dated = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.providerId, providerId), eq(invoices.accountId, accountId), lte(invoices.invoiceDate, today)))
    .orderBy(desc(invoices.invoiceDate), desc(invoices.id))
    .limit(20);
  const invoice = dated[0];
  const latest = invoice ? dated.filter((i) => i.invoiceDate === invoice.invoiceDate).sort((a, b) => a.id - b.id) : [];
  const [autopay] = await db
    .select({ id: autopayRegistrations.id })
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, providerId), eq(autopayRegistrations.accountId, accountId), eq(autopayRegistrations.active, true), eq(autopayRegistrations.isAutoPay, true)))
    .limit(1);
  const rows = await ledgerRows(db, providerId, accountId);
  const now = accountMoneyOf(rows, today);
  const closing = invoice ? accountMoneyOf(rows.filter((r) => r.entryDate <= invoice.invoiceDate), invoice.invoiceDate).balanceCents : 0;
  const feeDetails = invoice
    ? await db
        .select({
          firstName: children.firstName,
          lastName: children.lastName,
          activity: activities.activity,
          translations: activities.translations,
          kind: invoiceLines.kind,
          feeType: invoiceLines.feeType,
          rateCents: invoiceLines.rateCents,
          days: invoiceLines.days,
          scheduledDays: invoiceLines.scheduledDays,
          prorated: invoiceLines.prorated,
          sharePercent: invoiceLines.sharePercent,
          amountCents: invoiceLines.amountCents,
        })
        .from(invoiceLines)
        .innerJoin(children, eq(children.id, invoiceLines.childId))
        .innerJoin(activities, eq(activities.id, invoiceLines.activityId))
        .where(and(inArray(invoiceLines.invoiceId, latest.map((i) => i.id)), eq(invoiceLines.accountId, accountId)))
        .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.id))
    : [];
  const since = invoice
    ? await db
        .select({ date: ledgerEntries.entryDate, kind: ledgerEntries.kind, description: ledgerEntries.description, amountCents: ledgerEntries.amountCents, id: ledgerEntries.id })
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.providerId, providerId), eq(ledgerEntries.accountId, accountId)))
        .orderBy(asc(ledgerEntries.entryDate), asc(ledgerEntries.id))
    : [];
  const discount = autopay ? latest.reduce((n, i) => n + i.autoPayDiscountValueCents, 0) : 0;
  const texts = await invoicePeriodTexts(db, providerId, latest, lang);
  const periodText = latest.length ? latest.map((i) => texts.get(i.id) ?? i.servicePeriod).join('; ') : null;
  return {
    accountNo: account.accountNo,
    isAutoPay: Boolean(autopay),
    invoiceID: invoice?.id ?? null,
    servicePeriod: periodText ?? null,
    invoiceDate: invoice?.invoiceDate ?? null,
    invoiceClosingBalanceCents: closing,
    feeDetails: feeDetails.map((f) => ({ childName: `${f.firstName} ${f.lastName}`, activity: textIn({ activity: f.activity, translations: f.translations }, 'activity', lang), kind: f.kind, feeType: f.feeType, rateCents: f.rateCents, days: f.days, scheduledDays: f.scheduledDays, prorated: f.prorated, sharePercent: f.sharePercent, amountCents: f.amountCents })),
    transactionsPosted: since
      .filter((e) => invoice && e.date > invoice.invoiceDate && e.date <= today)
      .map((e) => ({ date: e.date, kind: e.kind, description: e.description, amountCents: LOWERS.has(e.kind) ? -e.amountCents : e.amountCents })),
    balanceDueDate: latest.length ? latest.map((i) => i.paymentDueDate).sort()[0] : now.paymentDue,
    discountAmountCents: discount,
    projectedAmountDueCents: Math.max(0, now.balanceCents - discount),
    autopayDate: autopay ? (latest.length ? latest.map((i) => i.paymentDueDate).sort()[0] : now.paymentDue) : null,
  };
}
