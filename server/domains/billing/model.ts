// The billing domain's model: the payer a payment attempt keeps (payment_attempts.payer, a JSON
// column), read by the payment, its receipt and its refund.

/** The payer of a payment attempt, given by the payer form when the payment started. */
export type AttemptPayer = {
  /** the paying adult of the account; 0: someone else */
  paidByFamilyMemberID: number;
  firstName: string;
  lastName: string;
  streetAddress: string;
  apartmentNo: string;
  city: string;
  stateCode: string;
  zip: string;
  phone: string;
  email: string;
  /** spec 3 Driver licence value: state $$ number, or just the number */
  driverLicence: string;
};

/** A text field of an attempt's stored payer; '' when it has none. */
export function payerText(payer: Record<string, unknown>, key: Exclude<keyof AttemptPayer, 'paidByFamilyMemberID'>): string {
  const v = payer[key];
  return typeof v === 'string' ? v : '';
}
