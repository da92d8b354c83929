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
}

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
  };
}
