// A provider's payment options (spec 3 payment options config, 2.12, 5.6, 9), from provider.json
// `payments`, checked on start: a mistyped option stops the server rather than taking money wrongly.

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
}

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
};

/**
 * The largest maxPaymentCents a provider may set: $500,000.00, which with the largest processing fee
 * allowed (10% and $100.00) stays within a gateway's one payment ($1,000,000.00, the sandbox's too).
 */
export const MAX_PAYMENT_CENTS_LIMIT = 50_000_000;

const FLAGS = ['paymentEnabled', 'autoPaymentForCCEnabled', 'autoPaymentForECheckEnabled', 'telephoneRequiredForPayment', 'emailRequiredForPayment', 'zipCodeRequiredForPayment'] as const;

/** The `payments` of a provider.json, defaults filled in; a bad value throws naming the file and field. */
export function paymentsOf(name: string, given: unknown): PaymentSettings {
  const where = `providers/${name}/provider.json: payments`;
  const out: PaymentSettings = structuredClone(DEFAULT_PAYMENTS);
  if (given === undefined) return out;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new Error(`${where} must be an object`);
  const g = given as Record<string, unknown>;
  for (const [k, v] of Object.entries(g)) {
    if ((FLAGS as readonly string[]).includes(k)) {
      if (typeof v !== 'boolean') throw new Error(`${where}.${k} must be true or false`);
      (out as unknown as Record<string, boolean>)[k] = v;
    } else if (k === 'gateways') {
      for (const [kind, code] of Object.entries(obj(v, `${where}.gateways`))) {
        if (!METHOD_KINDS.includes(kind as MethodKind)) throw new Error(`${where}.gateways: unknown method kind "${kind}" (CCD, ECH)`);
        if (!Number.isInteger(code) || (code as number) < 0 || (code as number) > 4) throw new Error(`${where}.gateways.${kind} must be a gateway code from 1 to 4, or 0 (not offered)`);
        out.gateways[kind as MethodKind] = code as number;
      }
    } else if (k === 'processingFee') {
      for (const [kind, fee] of Object.entries(obj(v, `${where}.processingFee`))) {
        if (!METHOD_KINDS.includes(kind as MethodKind)) throw new Error(`${where}.processingFee: unknown method kind "${kind}" (CCD, ECH)`);
        const f = { ...NO_FEE };
        for (const [fk, fv] of Object.entries(obj(fee, `${where}.processingFee.${kind}`))) {
          if (!(fk in f)) throw new Error(`${where}.processingFee.${kind}: unknown field "${fk}" (percent, fixedCents, minimumCents)`);
          const max = fk === 'percent' ? 10 : 10_000;
          if (typeof fv !== 'number' || fv < 0 || fv > max || (fk !== 'percent' && !Number.isInteger(fv))) throw new Error(`${where}.processingFee.${kind}.${fk} must be a number from 0 to ${max}${fk === 'percent' ? '' : ' (whole cents)'}`);
          (f as Record<string, number>)[fk] = fv;
        }
        out.processingFee[kind as MethodKind] = f;
      }
    } else if (k === 'seatHoldMinutes') {
      if (!Number.isInteger(v) || (v as number) < 1 || (v as number) > 120) throw new Error(`${where}.seatHoldMinutes must be a whole number from 1 to 120`);
      out.seatHoldMinutes = v as number;
    } else if (k === 'maxPaymentCents') {
      if (!Number.isInteger(v) || (v as number) < 100 || (v as number) > MAX_PAYMENT_CENTS_LIMIT) throw new Error(`${where}.maxPaymentCents must be a whole number of cents from 100 to ${MAX_PAYMENT_CENTS_LIMIT}`);
      out.maxPaymentCents = v as number;
    } else if (k === 'driverLicence') {
      if (v !== 'M' && v !== 'O' && v !== 'H') throw new Error(`${where}.driverLicence must be M, O or H`);
      out.driverLicence = v;
    } else {
      throw new Error(`${where}: unknown option "${k}"`);
    }
  }
  return out;
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error(`${where} must be an object`);
  return v as Record<string, unknown>;
}

/** Spec 9: the processing fee of a payment of `amountCents` by a method kind, in cents. */
export function processingFeeCents(fee: ProcessingFee, amountCents: number): number {
  if (amountCents <= 0) return 0;
  const raw = Math.round((amountCents * fee.percent) / 100) + fee.fixedCents;
  if (raw === 0 && fee.minimumCents === 0) return 0;
  return Math.max(fee.minimumCents, raw);
}
