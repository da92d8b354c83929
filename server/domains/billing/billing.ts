// The signed-in account's summary, invoices and payments received, from its ledger
// (server/domains/billing/ledger.ts).
import { and, desc, eq, sql } from 'drizzle-orm';
import { accounts, invoices, payments } from '../../db/schema';
import type { Db } from '../../db/index';
import { KeyedError } from '../../errors';
import { prepared } from '../../db/prepared';
import { accountMoney, accountMoneyOf, type LedgerRow } from './ledger';
import { invoicePeriodTexts } from './invoicing';
import { amountOfCents } from '../../../src/engine/money';
import { alias } from 'drizzle-orm/pg-core';
import type { BillingAccountSummaryResponse, BillingInvoicesResponse, BillingPaymentsReceivedResponse } from '../../../src/engine/contract.gen';

/** The account's summary on the business day `today` (yyyy-mm-dd); another provider's account is not found. */
export async function accountSummary(db: Db, providerId: number, accountId: number, today: string): Promise<BillingAccountSummaryResponse> {
  // one query: the account, its ledger, its last payment and whether it pays by autopay (the
  // subqueries name the alias "acc": drizzle leaves a single table's own columns unqualified)
  const [a] = await prepared(db, 'account_summary', (d) => {
    const acc = alias(accounts, 'acc');
    return d
      .select({
        account: acc,
        ledger: sql<LedgerRow[]>`(select coalesce(json_agg(json_build_object('id', l.id, 'kind', l.kind, 'amountCents', l.amount_cents, 'entryDate', l.entry_date, 'dueDate', l.due_date, 'invoiceId', l.invoice_id) order by l.id), '[]'::json) from ledger_entries l where l.provider_id = acc.provider_id and l.account_id = acc.id)`,
        last: sql<{ amountCents: number; date: string } | null>`(select json_build_object('amountCents', p.amount_cents, 'date', p.payment_date) from payments p where p.provider_id = acc.provider_id and p.account_id = acc.id and p.status = 'APPROVED' and p.settlement <> 'RETURNED' order by p.payment_date desc, p.id desc limit 1)`,
        autopay: sql<boolean>`exists(select 1 from autopay_registrations r where r.provider_id = acc.provider_id and r.account_id = acc.id and r.active and r.is_auto_pay)`,
      })
      .from(acc)
      .where(and(eq(acc.id, sql.placeholder('accountId')), eq(acc.providerId, sql.placeholder('providerId'))))
      .prepare('account_summary');
  }).execute({ providerId, accountId });
  if (!a) throw new KeyedError(404, 'server.errors.notFound');
  const money = accountMoneyOf(a.ledger, today);
  const { account, last } = a;
  return {
    accountID: account.id,
    accountNo: account.accountNo,
    suspended: account.suspended,
    suspendedOn: account.suspendedOn,
    isCollection: account.collection,
    isLocked: account.locked,
    delinquent: account.delinquent || money.pastDueCents > 0,
    punchPass: account.punchPass,
    paymentDue: money.paymentDue,
    pastDueAmount: amountOfCents(money.pastDueCents),
    currentBalance: amountOfCents(money.balanceCents),
    lastPaymentAmount: last ? amountOfCents(last.amountCents) : 0,
    lastPaymentAmountDate: last?.date ?? null,
    lateFeeAfterDueDate: amountOfCents(account.lateFeeAfterDueDateCents),
    applyLatePayment: account.applyLatePayment,
    doNotApplyLateFee: account.doNotApplyLateFee,
    hideOtherAmount: account.hideOtherAmount,
    showProjectedPayment: account.showProjectedPayment,
    comEd: account.comEd,
    cC_Onetime_PaymentGatewayID: account.ccOnetimePaymentGatewayID,
    eCheck_Onetime_PaymentGatewayID: account.eCheckOnetimePaymentGatewayID,
    isAutoPay: Boolean(a.autopay),
  };
}

/** The account's invoices, newest first, each with its open rest from the ledger on `today` and its period in `lang`. */
export async function invoicesOf(db: Db, providerId: number, accountId: number, today: string, lang: string): Promise<BillingInvoicesResponse> {
  const money = await accountMoney(db, providerId, accountId, today);
  const rows = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.providerId, providerId), eq(invoices.accountId, accountId)))
    .orderBy(desc(invoices.invoiceDate), desc(invoices.id));
  const periodTexts = await invoicePeriodTexts(db, providerId, rows, lang);
  return rows.map((r) => ({
    invoiceID: r.id,
    servicePeriodDetailID: r.servicePeriodDetailID,
    servicePeriod: periodTexts.get(r.id) ?? r.servicePeriod,
    invoiceDate: r.invoiceDate,
    paymentDueDate: r.paymentDueDate,
    amount: amountOfCents(r.amountCents),
    balance: amountOfCents(money.invoiceOpenCents.get(r.id) ?? 0),
    autoPayDiscountValue: amountOfCents(r.autoPayDiscountValueCents),
  }));
}

/** The account's payments, newest first, a bank debit's status by its settlement. */
export async function paymentsReceived(db: Db, providerId: number, accountId: number): Promise<BillingPaymentsReceivedResponse> {
  const rows = await db
    .select()
    .from(payments)
    .where(and(eq(payments.providerId, providerId), eq(payments.accountId, accountId)))
    .orderBy(desc(payments.paymentDate), desc(payments.id));
  return rows.map((r) => ({
    accountPaymentID: r.id,
    paymentDate: r.paymentDate,
    amount: amountOfCents(r.amountCents),
    paymentMethodCode: r.paymentMethodCode,
    last4Digits: r.last4Digits,
    payerName: r.payerName,
    // a bank debit on its way through the banks is PENDING, one the bank sent back RETURNED
    status: r.status === 'APPROVED' && (r.settlement === 'PENDING' || r.settlement === 'RETURNED') ? r.settlement : r.status,
  }));
}
