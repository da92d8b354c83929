// Billing service: account summary, invoices and payments received of the signed-in account, from
// its ledger (server/services/ledger.ts).
import { and, desc, eq } from 'drizzle-orm';
import type { Handlers } from '../context';
import { accounts, invoices, payments, autopayRegistrations } from '../db/schema';
import { HttpError } from '../errors';
import { isoDay } from '../clock';
import { accountMoney, dollars } from './ledger';

export const billing = {
  'Billing.accountSummary': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const [acc] = await deps.db
        .select()
        .from(accounts)
        .where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
      if (!acc) throw new HttpError(404, 'Not Found');
      const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
      const [last] = await deps.db
        .select({ amount: payments.amount, date: payments.paymentDate })
        .from(payments)
        .where(and(eq(payments.providerId, s.providerId), eq(payments.accountId, s.accountId), eq(payments.status, 'APPROVED')))
        .orderBy(desc(payments.paymentDate), desc(payments.id))
        .limit(1);
      const [autopay] = await deps.db
        .select({ id: autopayRegistrations.id })
        .from(autopayRegistrations)
        .where(and(eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.accountId, s.accountId), eq(autopayRegistrations.active, true), eq(autopayRegistrations.isAutoPay, true)))
        .limit(1);
      return {
        accountID: acc.id,
        accountNo: acc.accountNo,
        suspended: acc.suspended,
        suspendedOn: acc.suspendedOn,
        isCollection: acc.collection,
        isLocked: acc.locked,
        delinquent: acc.delinquent || money.pastDueCents > 0,
        punchPass: acc.punchPass,
        paymentDue: money.paymentDue,
        pastDueAmount: dollars(money.pastDueCents),
        currentBalance: dollars(money.balanceCents),
        lastPaymentAmount: last ? Number(last.amount) : 0,
        lastPaymentAmountDate: last?.date ?? null,
        lateFeeAfterDueDate: Number(acc.lateFeeAfterDueDate),
        applyLatePayment: acc.applyLatePayment,
        doNotApplyLateFee: acc.doNotApplyLateFee,
        hideOtherAmount: acc.hideOtherAmount,
        showProjectedPayment: acc.showProjectedPayment,
        comEd: acc.comEd,
        cC_Onetime_PaymentGatewayID: acc.ccOnetimePaymentGatewayID,
        eCheck_Onetime_PaymentGatewayID: acc.eCheckOnetimePaymentGatewayID,
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
