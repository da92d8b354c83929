// What a provider's year-end tax documents say of it, from provider.json `taxDocuments` (checked on
// start against schemas/meta/provider.schema.json; the rules across fields are checked here, on
// start too). A provider without it offers no tax documents.
import type { ProviderRecord } from './providerRecord';

export interface TaxSettings {
  /** the name the tax authorities know the provider by */
  legalName: string;
  street: string;
  city: string;
  /** state or province, two letters (QC: Québec's RL-24 slips too) */
  stateCode: string;
  postalCode: string;
  phone: string;
  country: 'US' | 'CA';
  /** US: the EIN; '' when the provider is tax-exempt */
  ein: string;
  taxExempt: boolean;
  /** Canada: the CRA business number */
  businessNumber: string;
  /** Québec: the identification number at Revenu Québec */
  quebecId: string;
  signatory: { name: string; title: string };
}

type Rec = Pick<ProviderRecord, 'taxDocuments' | 'organisation' | 'city' | 'stateCode' | 'countryCode' | 'supportPhone'>;

/** The rules across fields a schema cannot say: what each country's documents cannot go without. */
export function taxSettingsErrors(rec: Rec): string[] {
  const tax = rec.taxDocuments;
  if (!tax) return [];
  const out: string[] = [];
  if (rec.countryCode === 'US' && !tax.ein && !tax.taxExempt) out.push('taxDocuments: a provider in the US needs its "ein" or "taxExempt": true (Form 2441 asks for one)');
  if (rec.countryCode === 'US' && tax.ein && tax.taxExempt) out.push('taxDocuments: "ein" and "taxExempt" exclude each other');
  if (rec.countryCode === 'CA' && !tax.businessNumber) out.push('taxDocuments: a provider in Canada needs its "businessNumber"');
  if (rec.countryCode === 'CA' && rec.stateCode === 'QC' && !tax.quebecId) out.push('taxDocuments: a provider in Québec needs its "quebecId" (RL-24 slips)');
  return out;
}

/** The tax settings of a checked record, defaults filled in; null when the provider offers no tax documents. Throws on a record the cross-field rules refuse. */
export function taxSettingsOf(rec: Rec & { appName?: string }): TaxSettings | null {
  const tax = rec.taxDocuments;
  if (!tax) return null;
  const errors = taxSettingsErrors(rec);
  if (errors.length) throw new Error(`providers/${rec.appName ?? '?'}/provider.json: ${errors.join('; ')}`);
  return {
    legalName: tax.legalName ?? rec.organisation,
    street: tax.street,
    city: rec.city,
    stateCode: rec.stateCode,
    postalCode: tax.postalCode,
    phone: tax.phone ?? rec.supportPhone ?? '',
    country: rec.countryCode === 'CA' ? 'CA' : 'US',
    ein: tax.ein ?? '',
    taxExempt: tax.taxExempt ?? false,
    businessNumber: tax.businessNumber ?? '',
    quebecId: tax.quebecId ?? '',
    signatory: { ...tax.signatory },
  };
}
