// A provider's payment options (spec 3 payment options config, 2.12, 5.6, 9), from provider.json
// `payments`, checked on start against schemas/meta/provider.schema.json: a mistyped option stops the
// server rather than taking money wrongly.
import type { ProviderRecord } from './providerRecord';

export type MethodKind = 'CCD' | 'ECH';
export const METHOD_KINDS: readonly MethodKind[] = ['CCD', 'ECH'];

/**
 * Spec 9 processing fee: a percentage of the amount, a fixed amount, or both, never below the
 * minimum (all zero: no fee). Rounded half up to the cent.
 */
export interface ProcessingFee {
  percent: number;
  fixedCents: number;
  minimumCents: number;
}

export interface PaymentSettings {
  /** off: no pay now at all */
  paymentEnabled: boolean;
  autoPaymentForCCEnabled: boolean;
  autoPaymentForECheckEnabled: boolean;
  telephoneRequiredForPayment: boolean;
  emailRequiredForPayment: boolean;
  zipCodeRequiredForPayment: boolean;
  /** the gateway (its provider code) per method kind, cC_Onetime_PaymentGatewayID and eCheck_Onetime_PaymentGatewayID; 0: not offered */
  gateways: Record<MethodKind, number>;
  processingFee: Record<MethodKind, ProcessingFee>;
  /** minutes an application's seats are held while the parent pays (amendment 7) */
  seatHoldMinutes: number;
  /** spec 2.12 driver licence input on the payer page: M mandatory, O optional, H not asked */
  driverLicence: 'M' | 'O' | 'H';
  /**
   * the most one payment may be, in cents (Pay now's other amount, and the balance paid at once):
   * with the processing fee it must stay within what the gateway takes in one payment
   */
  maxPaymentCents: number;
  /** charged to the account when the bank returns a bank debit, in cents (0: none) */
  bankReturnFeeCents: number;
  /** spec 4 autopay form variant of the payer page (formCustomID): the SPM ones offer save-for-later */
  autopayForm: AutopayForm;
}

export type AutopayForm = 'OTP' | 'OTP_SPM' | 'OTP_APE' | 'APE' | 'OTP_APE_SPM' | 'OTP_APEA' | 'APEA' | 'OTP_APEA_SPM' | 'OTP_APM' | 'OTP_APMA';

const NO_FEE: ProcessingFee = { percent: 0, fixedCents: 0, minimumCents: 0 };

export const DEFAULT_PAYMENTS: PaymentSettings = {
  paymentEnabled: true,
  autoPaymentForCCEnabled: false,
  autoPaymentForECheckEnabled: false,
  telephoneRequiredForPayment: false,
  emailRequiredForPayment: true,
  zipCodeRequiredForPayment: true,
  gateways: { CCD: 1, ECH: 1 },
  processingFee: { CCD: NO_FEE, ECH: NO_FEE },
  seatHoldMinutes: 15,
  driverLicence: 'H',
  maxPaymentCents: 9_999_999,
  bankReturnFeeCents: 0,
  autopayForm: 'OTP',
};

/**
 * The largest maxPaymentCents a provider may set: $500,000.00, which with the largest processing fee
 * allowed (10% and $100.00) stays within a gateway's one payment ($1,000,000.00, the sandbox's too).
 */
export const MAX_PAYMENT_CENTS_LIMIT = 50_000_000;

/** The `payments` of a checked provider record, defaults filled in (a fee's field left out is 0). */
export function paymentsOf(given: ProviderRecord['payments']): PaymentSettings {
  const out: PaymentSettings = structuredClone(DEFAULT_PAYMENTS);
  if (given === undefined) return out;
  const { gateways, processingFee, ...rest } = given;
  Object.assign(out, rest);
  Object.assign(out.gateways, gateways);
  for (const kind of METHOD_KINDS) {
    const fee = processingFee?.[kind];
    if (fee) out.processingFee[kind] = { ...NO_FEE, ...fee };
  }
  return out;
}

/** Spec 9: the processing fee of a payment of `amountCents` by a method kind, in cents. */
export function processingFeeCents(fee: ProcessingFee, amountCents: number): number {
  if (amountCents <= 0) return 0;
  const raw = Math.round((amountCents * fee.percent) / 100) + fee.fixedCents;
  if (raw === 0 && fee.minimumCents === 0) return 0;
  return Math.max(fee.minimumCents, raw);
}
