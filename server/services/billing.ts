// Billing service: account summary, invoices and payments received of the signed-in account, from
// its ledger (server/services/ledger.ts).
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Handlers } from '../context';
import { accounts, invoices, payments, autopayRegistrations } from '../db/schema';
import { HttpError } from '../errors';
import { prepared } from '../db/prepared';
import { isoDay } from '../clock';
import { accountMoney, dollars } from './ledger';

export const billing = {
  'Billing.accountSummary': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const ids = { providerId: s.providerId, accountId: s.accountId };
      // four independent reads, run together
      const [[a], money, [last], [autopay]] = await Promise.all([
        prepared(deps.db, 'summary_account', (db) =>
          db
            .select()
            .from(accounts)
            .where(and(eq(accounts.id, sql.placeholder('accountId')), eq(accounts.providerId, sql.placeholder('providerId'))))
            .prepare('summary_account'),
        ).execute(ids),
        accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today())),
        prepared(deps.db, 'summary_last_payment', (db) =>
          db
            .select({ amount: payments.amount, date: payments.paymentDate })
            .from(payments)
            .where(and(eq(payments.providerId, sql.placeholder('providerId')), eq(payments.accountId, sql.placeholder('accountId')), eq(payments.status, 'APPROVED')))
            .orderBy(desc(payments.paymentDate), desc(payments.id))
            .limit(1)
            .prepare('summary_last_payment'),
        ).execute(ids),
        prepared(deps.db, 'summary_autopay', (db) =>
          db
            .select({ id: autopayRegistrations.id })
            .from(autopayRegistrations)
            .where(
              and(
                eq(autopayRegistrations.providerId, sql.placeholder('providerId')),
                eq(autopayRegistrations.accountId, sql.placeholder('accountId')),
                eq(autopayRegistrations.active, true),
                eq(autopayRegistrations.isAutoPay, true),
              ),
            )
            .limit(1)
            .prepare('summary_autopay'),
        ).execute(ids),
      ]);
      if (!a) throw new HttpError(404, 'Not Found');
      return {
        accountID: a.id,
        accountNo: a.accountNo,
        suspended: a.suspended,
        suspendedOn: a.suspendedOn,
        isCollection: a.collection,
        isLocked: a.locked,
        delinquent: a.delinquent || money.pastDueCents > 0,
        punchPass: a.punchPass,
        paymentDue: money.paymentDue,
        pastDueAmount: dollars(money.pastDueCents),
        currentBalance: dollars(money.balanceCents),
        lastPaymentAmount: last ? Number(last.amount) : 0,
        lastPaymentAmountDate: last?.date ?? null,
        lateFeeAfterDueDate: Number(a.lateFeeAfterDueDate),
        applyLatePayment: a.applyLatePayment,
        doNotApplyLateFee: a.doNotApplyLateFee,
        hideOtherAmount: a.hideOtherAmount,
        showProjectedPayment: a.showProjectedPayment,
        comEd: a.comEd,
        cC_Onetime_PaymentGatewayID: a.ccOnetimePaymentGatewayID,
        eCheck_Onetime_PaymentGatewayID: a.eCheckOnetimePaymentGatewayID,
        isAutoPay: Boolean(autopay),
      };
    },
  },

  'Billing.invoices': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
      const rows = await deps.db
        .select()
        .from(invoices)
        .where(and(eq(invoices.providerId, s.providerId), eq(invoices.accountId, s.accountId)))
        .orderBy(desc(invoices.invoiceDate), desc(invoices.id));
      return rows.map((r) => ({
        invoiceID: r.id,
        servicePeriodDetailID: r.servicePeriodDetailID,
        servicePeriod: r.servicePeriod,
        invoiceDate: r.invoiceDate,
        paymentDueDate: r.paymentDueDate,
        amount: Number(r.amount),
        balance: dollars(money.invoiceOpenCents.get(r.id) ?? 0),
        autoPayDiscountValue: Number(r.autoPayDiscountValue),
      }));
    },
  },

  'Billing.paymentsReceived': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const rows = await deps.db
        .select()
        .from(payments)
        .where(and(eq(payments.providerId, s.providerId), eq(payments.accountId, s.accountId)))
        .orderBy(desc(payments.paymentDate), desc(payments.id));
      return rows.map((r) => ({
        accountPaymentID: r.id,
        paymentDate: r.paymentDate,
        amount: Number(r.amount),
        paymentMethodCode: r.paymentMethodCode,
        last4Digits: r.last4Digits,
        payerName: r.payerName,
        status: r.status,
      }));
    },
  },
} satisfies Partial<Handlers>;
