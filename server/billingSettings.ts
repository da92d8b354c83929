// A provider's billing of tuition, from provider.json `billing` (checked on start against
// schemas/meta/provider.schema.json). A provider without it invoices nothing through the portal.
import type { ProviderRecord } from './providerRecord';
import type { PeriodType } from '../src/engine/billing';

export interface Holiday {
  date: string;
  name: Partial<Record<'en' | 'es' | 'pt' | 'vi', string>> & { en: string };
}

export interface BillingSettings {
  /** the first day the portal invoices (periods starting before it are the provider's own books) */
  from: string;
  invoiceDaysBefore: number;
  dueDays: number;
  prorate: boolean;
  lateFeeGraceDays: number;
  autopayDiscountPercent: Partial<Record<PeriodType, number>>;
  holidays: Holiday[];
  autopay: AutopaySettings;
}

/** The autopay run's schedule (provider.json billing.autopay), defaults filled in. */
export interface AutopaySettings {
  /** the charge is made this many business days before the due date */
  businessDaysBefore: number;
  /** a soft-declined card charge is tried again these many days after the first try */
  retryDays: number[];
  /** tries of one card charge at most, the first included */
  maxTries: number;
  /** the parent is told this many days before a charge */
  noticeDays: number;
  /** ...and this many before a bank debit whose amount differs from the last one */
  bankNoticeDays: number;
}

/** The autopay run's defaults: two business days before the due date; soft declines tried again 1, 3 and 5 days after, 4 tries at most; told 3 days ahead, 10 for a bank debit of a new amount. */
export const AUTOPAY_DEFAULTS: Readonly<AutopaySettings> = { businessDaysBefore: 2, retryDays: [1, 3, 5], maxTries: 4, noticeDays: 3, bankNoticeDays: 10 };

/** The billing settings of a checked record, defaults filled in; null when the provider does not bill through the portal. */
export function billingOf(given: ProviderRecord['billing']): BillingSettings | null {
  if (!given) return null;
  return {
    from: given.from,
    invoiceDaysBefore: given.invoiceDaysBefore ?? 0,
    dueDays: given.dueDays ?? 10,
    prorate: given.prorate ?? true,
    lateFeeGraceDays: given.lateFeeGraceDays ?? 0,
    autopayDiscountPercent: { ...given.autopayDiscountPercent },
    holidays: (given.holidays ?? []).map((h) => ({ date: h.date, name: h.name })),
    autopay: {
      businessDaysBefore: given.autopay?.businessDaysBefore ?? AUTOPAY_DEFAULTS.businessDaysBefore,
      retryDays: [...(given.autopay?.retryDays ?? AUTOPAY_DEFAULTS.retryDays)].sort((a, b) => a - b),
      maxTries: given.autopay?.maxTries ?? AUTOPAY_DEFAULTS.maxTries,
      noticeDays: given.autopay?.noticeDays ?? AUTOPAY_DEFAULTS.noticeDays,
      bankNoticeDays: given.autopay?.bankNoticeDays ?? AUTOPAY_DEFAULTS.bankNoticeDays,
    },
  };
}
