// Billing service: the account's summary, invoices, payments and statements (billing domain),
// paying now and the receipts (payments domain).
import type { ServiceHandlers } from '../context';
import type { OperationId } from '../../src/engine/contract.gen';
import { isoDay } from '../clock';
import { accountSummary, invoicesOf, paymentsReceived } from '../domains/billing/billing';
import { accountServicePeriods } from '../domains/billing/invoicing';
import { projectedPayment } from '../domains/billing/projectedPayment';
import { autopayErrorsOf } from '../domains/payments/autopay';
import { taxDocumentPdf, taxYearSummary, taxYearsOf } from '../domains/billing/taxDocuments';
import { amountOfCents } from '../../src/engine/money';
import { payerFacts, payerList, payerRuleData, paymentOptions, paymentResult, processingFee, receiptAnswer, refundPolicy, startPayment } from '../domains/payments/payments';
import { invoicePdfFile, receiptPdfFile } from '../domains/payments/billingReports';
import { paymentHistoryFile, statementFile, statementPeriod } from '../domains/billing/statements';
import { agreementFile, autopayForm, autopayFrequencies, autopayPeriodType, autopayRegistration, autopayRequestOf, autopayWriteContext, cancelAutopay, changeAutopay, enrolAutopay } from '../domains/payments/autopayEnrolment';
import { removeSavedMethod, restApiPayment, savedCardFacts, savedMethodList, savedMethodPayer, updateSavedMethod } from '../domains/payments/savedMethods';

type BillingOp = Extract<OperationId, `Billing.${string}`>;

export const billingHandlers = {
  'Billing.accountSummary': {
    handler: ({ deps, session }) => accountSummary(deps.db, session.providerId, session.accountId, isoDay(deps.today())),
  },
  'Billing.invoices': {
    handler: ({ deps, session, lang }) => invoicesOf(deps.db, session.providerId, session.accountId, isoDay(deps.today()), lang),
  },
  'Billing.servicePeriods': {
    handler: ({ deps, session, query, lang }) => accountServicePeriods(deps.db, session.providerId, session.accountId, isoDay(deps.today()), query.IsCurrent === true, lang),
  },
  'Billing.autopayErrors': {
    handler: async ({ deps, session }) => {
      const e = await autopayErrorsOf(deps.db, session.providerId, session.accountId);
      // dollars at the API's edge (spec 7, 9)
      return {
        count: e.count,
        transactionStatusCode: e.transactionStatusCode,
        amount: amountOfCents(e.amountCents),
        paymentAmount: amountOfCents(e.paymentAmountCents),
        TransactionDate: e.transactionDate,
        paymentMethodCode: e.paymentMethodCode,
        paymentMethod: e.paymentMethod,
        bankAccountDetails: e.bankAccountDetails,
        reasonCode: e.reasonCode,
      };
    },
  },
  'Billing.projectedPayment': {
    handler: async ({ deps, session, lang }) => {
      const p = await projectedPayment(deps.db, session.providerId, session.accountId, isoDay(deps.today()), lang);
      // dollars at the API's edge (spec 7, 9)
      return {
        accountNo: p.accountNo,
        isAutoPay: p.isAutoPay,
        invoiceID: p.invoiceID,
        servicePeriod: p.servicePeriod,
        invoiceDate: p.invoiceDate,
        invoiceClosingBalance: amountOfCents(p.invoiceClosingBalanceCents),
        feeDetails: p.feeDetails.map(({ rateCents, amountCents, ...f }) => ({ ...f, kind: f.kind === 'SIBLING' ? ('SIBLING' as const) : ('TUITION' as const), rate: amountOfCents(rateCents), amount: amountOfCents(amountCents) })),
        transactionsPosted: p.transactionsPosted.map(({ amountCents, ...x }) => ({ ...x, amount: amountOfCents(amountCents) })),
        balanceDueDate: p.balanceDueDate,
        discountAmount: amountOfCents(p.discountAmountCents),
        projectedAmountDue: amountOfCents(p.projectedAmountDueCents),
        autopayDate: p.autopayDate,
      };
    },
  },
  'Billing.tax': {
    handler: async ({ deps, session, query }) => {
      const y = await taxYearSummary(deps, session, query.Year);
      // dollars at the API's edge (spec 7, 9)
      return { ...y, country: y.country === 'CA' ? ('CA' as const) : ('US' as const), payers: y.payers.map((p) => ({ ...p, children: p.children.map(({ careCents, ...c }) => ({ ...c, paidForCare: amountOfCents(careCents) })) })) };
    },
  },
  'Billing.taxYears': {
    handler: ({ deps, session }) => taxYearsOf(deps, session),
  },
  'Billing.taxPdf': {
    handler: async ({ deps, session, query, lang }) => ({ file: await taxDocumentPdf(deps, session, query.Year, lang), contentType: 'application/pdf', fileName: `tax-${query.Year}.pdf` }),
  },
  'Billing.paymentsReceived': {
    handler: ({ deps, session }) => paymentsReceived(deps.db, session.providerId, session.accountId),
  },
  'Billing.paymentOptions': {
    handler: ({ deps, session, lang }) => paymentOptions(deps, session, lang),
  },
  'Billing.configuration': {
    handler: ({ deps, session, lang }) => refundPolicy(deps.db, session.providerId, lang),
  },
  'Billing.processingFee': {
    handler: ({ deps, session, query, lang }) => processingFee(deps, session, query, lang),
  },
  'Billing.payers': {
    handler: ({ deps, session }) => payerList(deps, session),
  },
  'Billing.startPayment': {
    facts: ({ deps, session, body, lang }) => payerFacts(deps, session, body.paidByFamilyMemberID, lang),
    ruleData: ({ deps, session }) => payerRuleData(deps, session),
    // an enrolment in autopay asked with the payment (spec 4 OTP variants) is made once it is approved
    handler: async ({ deps, session, body, form, lang }) => startPayment(deps, session, body, form.data, lang, await autopayRequestOf(deps, session, body, body.paymentMethodCode, lang)),
  },
  'Billing.paymentResult': {
    handler: ({ deps, session, body, lang }) => paymentResult(deps, session, body, lang),
  },
  'Billing.receipt': {
    handler: ({ deps, session, params, lang }) => receiptAnswer(deps, session, params.accountpaymentid, lang),
  },
  'Billing.receiptPdf': {
    handler: ({ deps, session, query, lang }) => receiptPdfFile(deps, session, query.AccountPaymentID, lang),
  },
  'Billing.invoicePdf': {
    handler: ({ deps, session, query, lang }) => invoicePdfFile(deps, session, query.ServicePeriodDetailID, lang),
  },
  'Billing.statementPeriod': {
    handler: async ({ deps }) => statementPeriod(deps),
  },
  'Billing.statementPdf': {
    handler: ({ deps, session, query, lang }) => statementFile(deps, session, query, lang),
  },
  'Billing.paymentHistoryPdf': {
    handler: ({ deps, session, query, lang }) => paymentHistoryFile(deps, session, query, lang),
  },
  'Billing.savedMethods': {
    handler: ({ deps, session, query }) => savedMethodList(deps, session, query.IsAutoPay),
  },
  'Billing.removeSavedMethod': {
    handler: ({ deps, session, body, lang }) => removeSavedMethod(deps, session, body.paymentMethodID, lang),
  },
  'Billing.updateSavedMethod': {
    // the method must be the account's card before its form is validated
    facts: ({ deps, session, body, lang }) => savedCardFacts(deps, session, body.paymentMethodID, lang),
    handler: ({ deps, session, form, lang }) => updateSavedMethod(deps, session, form.data, lang),
  },
  'Billing.savedMethodPayer': {
    handler: ({ deps, session, query, lang }) => savedMethodPayer(deps, session, query.PaymentMethodID, lang),
  },
  'Billing.restApiPayment': {
    handler: ({ deps, session, body, lang }) => restApiPayment(deps, session, body, lang),
  },
  'Billing.autopayForm': {
    handler: ({ deps, session, query, lang }) => autopayForm(deps, session, query, lang),
  },
  'Billing.autopayFrequency': {
    handler: ({ deps, session, query, lang }) => autopayFrequencies(deps, session, query, lang),
  },
  'Billing.autopayPeriodType': {
    handler: ({ deps, session, query, lang }) => autopayPeriodType(deps, session, query.AutomaticPaymentRegistrationID, lang),
  },
  'Billing.autopayRegistration': {
    handler: ({ deps, session, query, lang }) => autopayRegistration(deps, session, query.AutomaticPaymentRegistrationID, lang),
  },
  'Billing.autopayEnroll': {
    // the page's variant, periods and the chosen method's kind, as the autopay page's rules read them
    ruleData: async ({ deps, session, body, lang }) => (await autopayWriteContext(deps, session, lang, body.paymentMethodID, undefined, body.fromPage ?? '')).data,
    ruleScreen: async ({ deps, session, body, lang }) => {
      const c = await autopayWriteContext(deps, session, lang, body.paymentMethodID, undefined, body.fromPage ?? '');
      return { flow: c.flow, query: c.query };
    },
    handler: ({ deps, session, body, form, lang }) => enrolAutopay(deps, session, body, form.data, lang),
  },
  'Billing.autopayChange': {
    ruleData: async ({ deps, session, body, lang }) => (await autopayWriteContext(deps, session, lang, body.paymentMethodID, body.automaticPaymentRegistrationID, 'changeautopay')).data,
    ruleScreen: async ({ deps, session, body, lang }) => {
      const c = await autopayWriteContext(deps, session, lang, body.paymentMethodID, body.automaticPaymentRegistrationID, 'changeautopay');
      return { flow: c.flow, query: c.query };
    },
    handler: ({ deps, session, body, form, lang }) => changeAutopay(deps, session, body, form.data, lang),
  },
  'Billing.autopayAgreementPdf': {
    handler: ({ deps, session, query, lang }) => agreementFile(deps, session, query.AutomaticPaymentRegistrationID, lang),
  },
  'Billing.cancelAutopay': {
    handler: ({ deps, session, body, lang }) => cancelAutopay(deps, session, body, lang),
  },
} satisfies ServiceHandlers<BillingOp>;
