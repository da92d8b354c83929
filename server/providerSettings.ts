// Per-provider protection settings from provider.json (checked on start against
// schemas/meta/provider.schema.json): how sign-in locks after failed attempts, and how many contacts,
// absence notices and messages an account may create.
import { and, count, eq, gte } from 'drizzle-orm';
import type { Db } from './db/index';
import type { Clock } from './clock';
import type { Translator } from './i18n';
import { absenceNotices, adults, communications, providers } from './db/schema';
import { httpError, type HttpError } from './errors';
import { DEFAULT_PAYMENTS, paymentsOf, type PaymentSettings } from './paymentSettings';
import type { ProviderRecord } from './providerRecord';
import { billingOf, type BillingSettings } from './billingSettings';
import { taxSettingsOf, type TaxSettings } from './taxSettings';
import { changePolicyOf } from './changeScheduleSettings';
import { DEFAULT_CHANGE_POLICY, type ChangePolicy } from '../src/engine/changeSchedule';

export interface SignInSettings {
  /**
   * 0 (the default, spec 8.2): after the failed attempts a login is locked until a new password is
   * created, and an e-mail says so. N > 0: locked for N minutes after that many failures instead,
   * so nobody who only knows her e-mail can lock a parent out for good.
   */
  temporaryLockMinutes: number;
}

export interface AccountLimits {
  /** contacts (other adults) an account may hold */
  contactsPerAccount: number;
  /** absence notices an account may send in an hour */
  absenceNoticesPerHour: number;
  /** contact-us messages an account may send in an hour */
  messagesPerHour: number;
}

export interface ProviderSettings {
  signIn: SignInSettings;
  limits: AccountLimits;
  payments: PaymentSettings;
  /** null: the provider does not bill through the portal */
  billing: BillingSettings | null;
  /** null: the provider offers no year-end tax documents */
  taxDocuments: TaxSettings | null;
  /** a parent's change of schedule: notice, effective days, free changes and the change fee */
  changeSchedule: ChangePolicy;
}

export const DEFAULT_SETTINGS: ProviderSettings = {
  signIn: { temporaryLockMinutes: 0 },
  limits: { contactsPerAccount: 30, absenceNoticesPerHour: 20, messagesPerHour: 10 },
  payments: DEFAULT_PAYMENTS,
  billing: null,
  taxDocuments: null,
  changeSchedule: DEFAULT_CHANGE_POLICY,
};

/** The settings of a checked provider record (its `signIn`, `limits`, `payments`, `billing` and `changeSchedule`), defaults filled in. */
export function settingsOf(rec: Pick<ProviderRecord, 'signIn' | 'limits' | 'payments' | 'billing' | 'changeSchedule'> & Partial<Parameters<typeof taxSettingsOf>[0]>): ProviderSettings {
  return {
    signIn: { ...DEFAULT_SETTINGS.signIn, ...rec.signIn },
    limits: { ...DEFAULT_SETTINGS.limits, ...rec.limits },
    payments: paymentsOf(rec.payments),
    billing: billingOf(rec.billing),
    taxDocuments: rec.organisation ? taxSettingsOf(rec as Parameters<typeof taxSettingsOf>[0]) : null,
    changeSchedule: changePolicyOf(rec.changeSchedule),
  };
}

const HOUR_MS = 60 * 60 * 1000;

/** What the limit checks read of the app's dependencies (AppDeps has them; context.ts imports this file's types). */
type LimitDeps = { db: Db; t: Translator; today: Clock; settings: (appName: string) => ProviderSettings };

/** The limits of the provider a session belongs to. */
async function limitsOf(deps: LimitDeps, providerId: number): Promise<AccountLimits> {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, providerId));
  return deps.settings(p?.appName ?? '').limits;
}

const LIMIT_KEYS = {
  contacts: 'server.errors.limit.contacts',
  absenceNotices: 'server.errors.limit.absenceNotices',
  messages: 'server.errors.limit.messages',
} as const;

function limitReached(deps: LimitDeps, lang: string, what: 'contacts' | 'absenceNotices' | 'messages', max: number): HttpError {
  return httpError({ deps, lang }, 429, LIMIT_KEYS[what], { max });
}

/** Refuses a new contact when the account already holds the provider's maximum. */
export async function checkContactLimit(deps: LimitDeps, lang: string, s: { providerId: number; accountId: number }): Promise<void> {
  const max = (await limitsOf(deps, s.providerId)).contactsPerAccount;
  const [r] = await deps.db
    .select({ n: count() })
    .from(adults)
    .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)));
  if (Number(r.n) >= max) throw limitReached(deps, lang, 'contacts', max);
}

/** Refuses an absence notice beyond the provider's number per account and hour. */
export async function checkAbsenceNoticeLimit(deps: LimitDeps, lang: string, s: { providerId: number; accountId: number }): Promise<void> {
  const max = (await limitsOf(deps, s.providerId)).absenceNoticesPerHour;
  // records carry business time (deps.today), so the hour is counted on the same clock
  const since = new Date(deps.today().getTime() - HOUR_MS);
  const [r] = await deps.db
    .select({ n: count() })
    .from(absenceNotices)
    .where(and(eq(absenceNotices.providerId, s.providerId), eq(absenceNotices.accountId, s.accountId), gte(absenceNotices.createdAt, since)));
  if (Number(r.n) >= max) throw limitReached(deps, lang, 'absenceNotices', max);
}

/** Refuses a contact-us message beyond the provider's number per account and hour. */
export async function checkMessageLimit(deps: LimitDeps, lang: string, s: { providerId: number; accountId: number }): Promise<void> {
  const max = (await limitsOf(deps, s.providerId)).messagesPerHour;
  // records carry business time (deps.today), so the hour is counted on the same clock
  const since = new Date(deps.today().getTime() - HOUR_MS);
  const [r] = await deps.db
    .select({ n: count() })
    .from(communications)
    .where(
      and(
        eq(communications.providerId, s.providerId),
        eq(communications.accountId, s.accountId),
        eq(communications.isAutomatic, false),
        gte(communications.createdOn, since),
      ),
    );
  if (Number(r.n) >= max) throw limitReached(deps, lang, 'messages', max);
}
