// The sandbox gateway's test numbers and the rules that decide a payment's outcome. Pure functions:
// no clock, no store, no randomness of their own (the caller passes the time, the earlier attempts
// and the random bytes), so each rule can be unit-tested alone.
//
// ── Cards (any expiry date not in the past, any CVV of the right length: 3 digits, 4 for Amex) ──────
//   number                 brand        status    reasonCode
//   4111 1111 1111 1111    VISA         APPROVED
//   5555 5555 5555 4444    MASTERCARD   APPROVED
//   3782 822463 10005      AMEX         APPROVED
//   4000 0000 0000 0002    VISA         DECLINED  DECLINED   (generic decline)
//   4000 0000 0000 0127    VISA         DECLINED  CVV        (security code does not match)
//   4000 0000 0000 0069    VISA         DECLINED  EXPIRY     (the issuer says the card has expired)
//   4000 0000 0000 0010    VISA         DECLINED  AVS        (address / ZIP code mismatch)
//   4000 0000 0000 0408    VISA         ERROR     TIMEOUT    (the issuer did not answer in time)
//   any other Luhn-valid 13–19 digit number                  APPROVED
//   Saved for later, these approve on the page and decline when their token is charged (an autopay):
//   4000 0000 0000 9995    VISA         DECLINED  INSUFFICIENT_FUNDS  (soft: may be tried again)
//   4000 0000 0000 9961    VISA         DECLINED  ISSUER_UNAVAILABLE  (soft)
//   4000 0000 0000 9953    VISA         DECLINED  TRY_AGAIN_LATER     (soft)
//   4000 0000 0000 9979    VISA         DECLINED  STOLEN              (hard: never tried again)
//   4000 0000 0000 9987    VISA         DECLINED  LOST                (hard)
//   4000 0000 0000 9946    VISA         DECLINED  CLOSED              (hard)
//   4000 0000 0000 9938    VISA         DECLINED  DO_NOT_HONOR        (hard)
//   brand by prefix: 4 VISA; 51–55 and 2221–2720 MASTERCARD; 34, 37 AMEX; 6011, 65 DISCOVER; else OTHER
//
// ── Bank accounts (routing 021000021 or 011000015 for tests; any routing number with a valid ABA
//    checksum is accepted; account numbers are 4–17 digits) ─────────────────────────────────────────
//   A debit is validated on first use (the WEB debit rule): the A01 and X01 accounts are refused at
//   once. Every other account is accepted (APPROVED, settlement PENDING) and settles 3 business days
//   later (transaction.settled), except the return-code accounts, which come back then instead
//   (settlement RETURNED, transaction.returned with the returnCode), as real debits do.
//   account number   at once   3 business days later   meaning
//   000123456789     APPROVED  SETTLED                 (and any account number not in this table)
//   9900001          APPROVED  RETURNED R01            insufficient funds
//   9900002          APPROVED  RETURNED R02            account closed
//   9900003          APPROVED  RETURNED R03            no account / unable to locate account
//   9900004          APPROVED  RETURNED R04            invalid account number
//   9900005          APPROVED  RETURNED R05            unauthorized debit to consumer account
//   9900007          APPROVED  RETURNED R07            authorization revoked by customer
//   9900008          APPROVED  RETURNED R08            payment stopped
//   9900009          APPROVED  RETURNED R09            uncollected funds
//   9900010          APPROVED  RETURNED R10            customer advises not authorized
//   9900016          APPROVED  RETURNED R16            account frozen
//   9900020          APPROVED  RETURNED R20            non-transaction account
//   9900029          APPROVED  RETURNED R29            corporate customer advises not authorized
//   9900091          DECLINED BANK_A01                 invalid routing / account combination
//   9900092          APPROVED  RETURNED S01            stop payment
//   9900093          APPROVED  RETURNED U01            unauthorised
//   9900094          DECLINED BANK_X01                 bank not participating
//   (the form is 99000 followed by two digits NN: NN = the R code's number, 91–94 = A01, S01, U01, X01)
//   A saved account's status after a return: R02, R03, R04 INVALID (never charged again); R05, R07,
//   R10, R29 BLOCKED (until a new authorisation); any other code leaves it ACTIVE. A saved account
//   that is not ACTIVE is declined at once with BANK_<the code that changed it>.
//   brand: CHECKING or SAVINGS (the account type chosen on the page)
//
// ── Fraud filters (checked in this order, before the number's outcome; all DECLINED) ────────────────
//   amount over 500000 cents (5,000.00)                        FRAUD_AMOUNT
//   payer e-mail ending in @blocked.example                    FRAUD_EMAIL
//   payer street containing "13 Blocked Way" (any case)        FRAUD_ADDRESS
//   client IP in the gateway's blockedIps option               FRAUD_IP
//   6th attempt (or later) with the same card or bank account
//   (salted fingerprint) within 60 minutes                     FRAUD_VELOCITY
//
// Approved transactions get a 6-character authCode (A–Z without I and O, 2–9).

import type { GatewayMethod, TransactionStatus } from './protocol';

export interface Outcome {
  status: TransactionStatus;
  /** empty when approved */
  reasonCode: string;
}

const APPROVED: Outcome = { status: 'APPROVED', reasonCode: '' };
const declined = (reasonCode: string): Outcome => ({ status: 'DECLINED', reasonCode });

/** Test cards with an outcome other than approval. */
export const CARD_OUTCOMES: Readonly<Record<string, Outcome>> = {
  '4000000000000002': declined('DECLINED'),
  '4000000000000127': declined('CVV'),
  '4000000000000069': declined('EXPIRY'),
  '4000000000000010': declined('AVS'),
  '4000000000000408': { status: 'ERROR', reasonCode: 'TIMEOUT' },
};

/** The approving test cards (any other Luhn-valid number approves too). */
export const APPROVING_CARDS = ['4111111111111111', '5555555555554444', '378282246310005'] as const;

/** The test routing numbers (both with a valid ABA checksum). */
export const TEST_ROUTING_NUMBERS = ['021000021', '011000015'] as const;

/** The approving test account number (any account number not in BANK_RETURN_CODES approves too). */
export const APPROVING_ACCOUNT = '000123456789';

/** Test bank account numbers → return code (reasonCode BANK_<code>) and what it means. */
export const BANK_RETURN_CODES: Readonly<Record<string, { code: string; meaning: string }>> = {
  '9900001': { code: 'R01', meaning: 'insufficient funds' },
  '9900002': { code: 'R02', meaning: 'account closed' },
  '9900003': { code: 'R03', meaning: 'no account / unable to locate account' },
  '9900004': { code: 'R04', meaning: 'invalid account number' },
  '9900005': { code: 'R05', meaning: 'unauthorized debit to consumer account' },
  '9900007': { code: 'R07', meaning: 'authorization revoked by customer' },
  '9900008': { code: 'R08', meaning: 'payment stopped' },
  '9900009': { code: 'R09', meaning: 'uncollected funds' },
  '9900010': { code: 'R10', meaning: 'customer advises not authorized' },
  '9900016': { code: 'R16', meaning: 'account frozen' },
  '9900020': { code: 'R20', meaning: 'non-transaction account' },
  '9900029': { code: 'R29', meaning: 'corporate customer advises not authorized' },
  '9900091': { code: 'A01', meaning: 'invalid routing / account combination' },
  '9900092': { code: 'S01', meaning: 'stop payment' },
  '9900093': { code: 'U01', meaning: 'unauthorised' },
  '9900094': { code: 'X01', meaning: 'bank not participating' },
};

export const FRAUD_AMOUNT_LIMIT_CENTS = 500_000;
export const BLOCKED_EMAIL_DOMAIN = '@blocked.example';
export const BLOCKED_STREET = '13 blocked way';
/** A 6th attempt within the window is refused: at most this many earlier attempts are allowed. */
export const VELOCITY_MAX_EARLIER_ATTEMPTS = 5;
export const VELOCITY_WINDOW_MS = 60 * 60 * 1000;

// ── number checks ──────────────────────────────────────────────────────────────────────────────────

/** The digits of a number typed with optional spaces and dashes; null when anything else is in it. */
export function digitsOf(typed: string): string | null {
  const stripped = typed.replace(/[\s-]/g, '');
  return /^\d*$/.test(stripped) ? stripped : null;
}

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** ABA routing number: 9 digits, 3·(d1+d4+d7) + 7·(d2+d5+d8) + (d3+d6+d9) ≡ 0 (mod 10). */
export function abaValid(routing: string): boolean {
  if (!/^\d{9}$/.test(routing)) return false;
  const d = [...routing].map(Number);
  const sum = 3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8]);
  return sum % 10 === 0;
}

export function cardBrand(digits: string): string {
  if (/^4/.test(digits)) return 'VISA';
  if (/^5[1-5]/.test(digits)) return 'MASTERCARD';
  const four = Number(digits.slice(0, 4));
  if (digits.length >= 4 && four >= 2221 && four <= 2720) return 'MASTERCARD';
  if (/^3[47]/.test(digits)) return 'AMEX';
  if (/^(6011|65)/.test(digits)) return 'DISCOVER';
  return 'OTHER';
}

// ── form checks ────────────────────────────────────────────────────────────────────────────────────

export type FieldName = 'name' | 'number' | 'expiry' | 'cvv' | 'routing' | 'account' | 'accountType';

export type FieldError =
  | 'cardNameRequired'
  | 'bankNameRequired'
  | 'nameTooLong'
  | 'nameDigits'
  | 'numberRequired'
  | 'numberInvalid'
  | 'expiryRequired'
  | 'expiryFormat'
  | 'expiryPast'
  | 'cvvRequired'
  | 'cvvInvalid'
  | 'cvvAmex'
  | 'routingRequired'
  | 'routingInvalid'
  | 'accountRequired'
  | 'accountInvalid'
  | 'accountTypeRequired';

export type FieldErrors = Partial<Record<FieldName, FieldError>>;

export interface CheckedCard {
  holderName: string;
  /** digits only; never stored, never logged */
  number: string;
  /** MM/YY */
  expiry: string;
  brand: string;
  last4: string;
}

export interface CheckedBank {
  holderName: string;
  routing: string;
  /** digits only; never stored, never logged */
  account: string;
  brand: 'CHECKING' | 'SAVINGS';
  last4: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export type FormFields = Record<string, string | undefined>;

const field = (form: FormFields, name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '').trim();

function checkName(typed: string, requiredError: FieldError): FieldError | null {
  if (!typed) return requiredError;
  if (typed.length > 200) return 'nameTooLong';
  // a number typed into the name box must not end up stored as a name
  if ((typed.match(/\d/g) ?? []).length > 4) return 'nameDigits';
  return null;
}

/** MM/YY (spaces around the slash allowed) → [month, two-digit year], or null. */
export function parseExpiry(typed: string): [number, number] | null {
  // MM/YY, and as typed on a phone's number pad: 1130, 11 30, 11-30
  const m = /^(\d{1,2})\s*[/\-\s]?\s*(\d{2})$/.exec(typed.trim());
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  return [month, Number(m[2])];
}

/** A card is good through the last day of its expiry month (UTC). */
export function expiryInPast(month: number, yy: number, now: Date): boolean {
  const year = 2000 + yy;
  return year * 12 + month < now.getUTCFullYear() * 12 + (now.getUTCMonth() + 1);
}

export function checkCardForm(form: FormFields, now: Date): Checked<CheckedCard> {
  const errors: FieldErrors = {};
  const holderName = field(form, 'name');
  const nameError = checkName(holderName, 'cardNameRequired');
  if (nameError) errors.name = nameError;

  const typedNumber = field(form, 'number');
  const number = digitsOf(typedNumber);
  if (!typedNumber) errors.number = 'numberRequired';
  else if (number === null || number.length < 13 || number.length > 19 || !luhnValid(number)) errors.number = 'numberInvalid';

  const typedExpiry = field(form, 'expiry');
  const expiry = parseExpiry(typedExpiry);
  if (!typedExpiry) errors.expiry = 'expiryRequired';
  else if (!expiry) errors.expiry = 'expiryFormat';
  else if (expiryInPast(expiry[0], expiry[1], now)) errors.expiry = 'expiryPast';

  const cvv = field(form, 'cvv');
  const amex = !errors.number && number !== null && cardBrand(number) === 'AMEX';
  if (!cvv) errors.cvv = 'cvvRequired';
  else if (errors.number ? !/^\d{3,4}$/.test(cvv) : amex ? !/^\d{4}$/.test(cvv) : !/^\d{3}$/.test(cvv)) errors.cvv = amex ? 'cvvAmex' : 'cvvInvalid';

  if (Object.keys(errors).length > 0 || number === null || !expiry) return { ok: false, errors };
  return {
    ok: true,
    value: {
      holderName,
      number,
      expiry: `${String(expiry[0]).padStart(2, '0')}/${String(expiry[1]).padStart(2, '0')}`,
      brand: cardBrand(number),
      last4: number.slice(-4),
    },
  };
}

export function checkBankForm(form: FormFields): Checked<CheckedBank> {
  const errors: FieldErrors = {};
  const holderName = field(form, 'name');
  const nameError = checkName(holderName, 'bankNameRequired');
  if (nameError) errors.name = nameError;

  const typedRouting = field(form, 'routing');
  const routing = digitsOf(typedRouting);
  if (!typedRouting) errors.routing = 'routingRequired';
  else if (routing === null || !abaValid(routing)) errors.routing = 'routingInvalid';

  const typedAccount = field(form, 'account');
  const account = digitsOf(typedAccount);
  if (!typedAccount) errors.account = 'accountRequired';
  else if (account === null || account.length < 4 || account.length > 17) errors.account = 'accountInvalid';

  const type = field(form, 'accountType');
  if (type !== 'checking' && type !== 'savings') errors.accountType = 'accountTypeRequired';

  if (Object.keys(errors).length > 0 || routing === null || account === null) return { ok: false, errors };
  return {
    ok: true,
    value: { holderName, routing, account, brand: type === 'savings' ? 'SAVINGS' : 'CHECKING', last4: account.slice(-4) },
  };
}

// ── the decision ───────────────────────────────────────────────────────────────────────────────────

export interface DecisionInput {
  method: GatewayMethod;
  amountCents: number;
  payerEmail: string;
  payerStreet: string;
  clientIp: string;
  blockedIps: readonly string[];
  /** attempts with the same card or bank account fingerprint within VELOCITY_WINDOW_MS before this one */
  earlierAttempts: number;
  /** the card's digits (method CARD) */
  cardNumber?: string;
  /** the account number's digits (method BANK) */
  accountNumber?: string;
}

/** An IPv4 address mapped into IPv6 (::ffff:1.2.3.4) compares as the IPv4 address. */
export function normalizeIp(ip: string): string {
  const t = ip.trim().toLowerCase();
  return t.startsWith('::ffff:') && t.includes('.') ? t.slice(7) : t;
}

export function fraudReason(input: DecisionInput): string | null {
  if (input.amountCents > FRAUD_AMOUNT_LIMIT_CENTS) return 'FRAUD_AMOUNT';
  if (input.payerEmail.trim().toLowerCase().endsWith(BLOCKED_EMAIL_DOMAIN)) return 'FRAUD_EMAIL';
  if (input.payerStreet.toLowerCase().replace(/\s+/g, ' ').includes(BLOCKED_STREET)) return 'FRAUD_ADDRESS';
  const ip = normalizeIp(input.clientIp);
  if (input.blockedIps.some((b) => normalizeIp(b) === ip)) return 'FRAUD_IP';
  if (input.earlierAttempts >= VELOCITY_MAX_EARLIER_ATTEMPTS) return 'FRAUD_VELOCITY';
  return null;
}

export function cardOutcome(digits: string): Outcome {
  return CARD_OUTCOMES[digits] ?? APPROVED;
}

/** Test cards that approve on the page and decline once saved, when their token is charged (an autopay). */
export const SAVED_CARD_OUTCOMES: Readonly<Record<string, Outcome>> = {
  '4000000000009995': declined('INSUFFICIENT_FUNDS'),
  '4000000000009961': declined('ISSUER_UNAVAILABLE'),
  '4000000000009953': declined('TRY_AGAIN_LATER'),
  '4000000000009979': declined('STOLEN'),
  '4000000000009987': declined('LOST'),
  '4000000000009946': declined('CLOSED'),
  '4000000000009938': declined('DO_NOT_HONOR'),
};

/** What a saved card's token charge answers: its own outcome when it has one, else its number's. */
export function savedCardOutcome(digits: string): Outcome {
  return SAVED_CARD_OUTCOMES[digits] ?? cardOutcome(digits);
}

/** Codes the account validation on first use answers at once; the others come back as returns. */
export const VALIDATION_CODES: readonly string[] = ['A01', 'X01'];

/** The outcome at once: only the validation codes are refused; other debits are accepted (PENDING). */
export function bankOutcome(account: string): Outcome {
  const entry = BANK_RETURN_CODES[account];
  return entry && VALIDATION_CODES.includes(entry.code) ? declined(`BANK_${entry.code}`) : APPROVED;
}

/** The code an accepted debit from this account comes back with, '' when it settles. */
export function bankReturnCode(account: string): string {
  const entry = BANK_RETURN_CODES[account];
  return entry && !VALIDATION_CODES.includes(entry.code) ? entry.code : '';
}

/** What a return does to the saved account: closed or unknown accounts are dead, revoked ones blocked. */
export function tokenStatusAfterReturn(code: string): 'INVALID' | 'BLOCKED' | null {
  if (['R02', 'R03', 'R04'].includes(code)) return 'INVALID';
  if (['R05', 'R07', 'R10', 'R29'].includes(code)) return 'BLOCKED';
  return null;
}

export const SETTLEMENT_BUSINESS_DAYS = 3;

/** When a debit taken at `takenAt` settles or comes back: 3 business days (Monday to Friday, UTC) later, same time of day. */
export function settlementDue(takenAt: Date, businessDays = SETTLEMENT_BUSINESS_DAYS): Date {
  const d = new Date(takenAt.getTime());
  let left = businessDays;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const day = d.getUTCDay();
    if (day !== 0 && day !== 6) left--;
  }
  return d;
}

export function decide(input: DecisionInput): Outcome {
  const fraud = fraudReason(input);
  if (fraud) return declined(fraud);
  return input.method === 'CARD' ? cardOutcome(input.cardNumber ?? '') : bankOutcome(input.accountNumber ?? '');
}

/** Count of attempts within the velocity window before `nowMs` (the timestamps of earlier attempts). */
export function attemptsWithinWindow(timestamps: readonly number[], nowMs: number): number {
  return timestamps.filter((t) => t <= nowMs && nowMs - t < VELOCITY_WINDOW_MS).length;
}

const AUTH_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'; // 32 characters: a byte modulo 32 is unbiased

/** A 6-character approval code from 6 random bytes. */
export function authCodeFrom(bytes: Uint8Array): string {
  if (bytes.length < 6) throw new Error('authCodeFrom needs 6 bytes');
  let out = '';
  for (let i = 0; i < 6; i++) out += AUTH_ALPHABET[bytes[i] % 32];
  return out;
}
