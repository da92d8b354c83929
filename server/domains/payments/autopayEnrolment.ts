// Autopay enrolment (spec 2.12, 4, 7.1): the autopay pages' form variant and service period details,
// the frequencies offered (the declared rule autopay.frequencyOffers), the account's registration and
// its lifecycle (not enrolled, enrolled, frequency changed, cancelled, declined), enrolling with a saved
// method, changing the frequency or the method, and cancelling. Every write is the signed-in account's
// (a payment-only login never reaches them: the contract does not let it), validated with the autopay
// form and its rules as the page validates it, and records the agreement the parent signed.
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNotNull } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type { DbOrTx } from '../../db/index';
import { accounts, activities, adults, autopayAgreements, autopayRegistrations, enrollments, paymentAttempts, paymentMethods, programPeriods, servicePeriods, type AutopayRequest } from '../../db/schema';
import { fail } from '../../errors';
import { isoDay } from '../../clock';
import { addDays, type PeriodType } from '../../../src/engine/billing';
import { dateInLanguage, isoToMdy } from '../../../src/engine/formats';
import { amountOfCents, centsOfAmount, moneyText } from '../../../src/engine/money';
import { evaluateRule } from '../../../src/engine/index';
import { preparedCustomText } from '../communication/customTexts';
import { adultOf } from '../people/shared';
import { agreementPdf, mailAgreement } from './autopayAgreement';
import { settingsOfSession } from './payments';
import { cardExpired, methodOfAccount, ON_FILE_ONLY } from './savedMethods';
import type { PaymentSettings } from '../../paymentSettings';
import type {
  BillingAutopayFormQuery,
  BillingAutopayFormResponse,
  BillingAutopayFrequencyResponse,
  BillingAutopayRegistrationResponse,
  BillingAutopayEnrollBody,
  BillingAutopayChangeBody,
  BillingAutopayEnrollResponse,
  BillingCancelAutopayBody,
} from '../../../src/engine/contract.gen';

/** The autopay form's checked values (schemas/autopay.json). */
interface AutopayFormValues {
  autopay?: boolean;
  frequency?: string;
  maxCharge?: string;
  termsAccepted?: boolean;
}

type Registration = typeof autopayRegistrations.$inferSelect;
type Method = typeof paymentMethods.$inferSelect;
type Detail = BillingAutopayFormResponse['autoPayServicePeriodDetails'][number];

const FREQUENCIES: readonly PeriodType[] = ['W', 'T', 'M'];

/**
 * The autopay pages' variant (spec 4: APE, APEA, APM there; the OTP ones on the one-time payer page)
 * for the provider's payer-page variant: the autopay-page part of it, APEA when the provider's variant
 * offers no autopay on the payer page (autopay is then limited by the method switches only).
 */
export function autopayPageForm(form: PaymentSettings['autopayForm']): 'APE' | 'APEA' | 'APM' {
  if (form === 'OTP_APE' || form === 'OTP_APE_SPM' || form === 'APE') return 'APE';
  if (form === 'OTP_APM' || form === 'OTP_APMA') return 'APM';
  return 'APEA';
}

/** The first day after `today` a period of the type starts: a Monday, the 1st or 16th, the 1st. */
function nextStart(type: PeriodType, today: string): string {
  let d = addDays(today, 1);
  for (let i = 0; i < 40; i++, d = addDays(d, 1)) {
    const day = Number(d.slice(8, 10));
    if (type === 'W' ? new Date(`${d}T00:00:00Z`).getUTCDay() === 1 : type === 'T' ? day === 1 || day === 16 : day === 1) return d;
  }
  return addDays(today, 1);
}

/** The end of a period of the type that starts on `start`. */
function periodEnd(type: PeriodType, start: string): string {
  if (type === 'W') return addDays(start, 6);
  const y = Number(start.slice(0, 4));
  const m = Number(start.slice(5, 7));
  const lastOfMonth = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  if (type === 'T' && Number(start.slice(8, 10)) === 1) return `${start.slice(0, 8)}15`;
  return lastOfMonth;
}

/**
 * Spec 3 autopay form details: the service period details autopay may start with, in the spec's
 * order: weekly first, then twice a month when the provider bills a program twice a month (else
 * monthly), then monthly. Each is the provider's next service period of its type after today (one the
 * billing job made, else the next one by the calendar), with its autopay discount. None when the
 * provider does not bill through the portal.
 */
export async function autopayPeriodDetails(deps: AppDeps, s: SessionInfo, lang: string): Promise<{ details: Detail[]; discounts: Record<PeriodType, number> }> {
  const { provider } = await settingsOfSession(deps, s);
  const billing = deps.settings(provider.appName).billing;
  const discounts = { W: billing?.autopayDiscountPercent.W ?? 0, T: billing?.autopayDiscountPercent.T ?? 0, M: billing?.autopayDiscountPercent.M ?? 0 };
  if (!billing) return { details: [], discounts };
  const today = isoDay(deps.today());
  const cycles = await deps.db.selectDistinct({ cycle: programPeriods.billingCycle }).from(programPeriods).where(eq(programPeriods.providerId, s.providerId));
  const types: PeriodType[] = ['W', cycles.some((c) => c.cycle === 'T') ? 'T' : 'M', 'M'];
  const details: Detail[] = [];
  for (const type of types) {
    const [row] = await deps.db
      .select()
      .from(servicePeriods)
      .where(and(eq(servicePeriods.providerId, s.providerId), eq(servicePeriods.periodType, type), gt(servicePeriods.startDate, today)))
      .orderBy(asc(servicePeriods.startDate), asc(servicePeriods.id))
      .limit(1);
    const start = row?.startDate ?? nextStart(type, today);
    const end = row?.endDate ?? periodEnd(type, start);
    const period = `${dateInLanguage(start, lang)} - ${dateInLanguage(end, lang)}`;
    details.push({
      servicePeriodDetailID: row?.id ?? 0,
      periodType: type,
      startDate: isoToMdy(start),
      endDate: isoToMdy(end),
      period,
      discountPercent: discounts[type],
      servicePeriodDetailsText: `${type}*${isoToMdy(start)}*${period}*${discounts[type]}`,
    });
  }
  return { details, discounts };
}

/** The account's registrations, the active ones first, newest first. */
async function registrationsOf(db: DbOrTx, s: SessionInfo): Promise<Registration[]> {
  return db
    .select()
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.accountId, s.accountId)))
    .orderBy(desc(autopayRegistrations.active), desc(autopayRegistrations.id));
}

/** The account's registration of this id, or 404 (another account's or provider's is not found). */
export async function registrationOfAccount(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<Registration> {
  const [r] = await deps.db
    .select()
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.id, id), eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.accountId, s.accountId)));
  if (!r) fail({ deps, lang }, 404, 'autopay.errors.notFound');
  return r;
}

/** Spec 4: a program the account's children are enrolled in makes autopay mandatory. */
export async function autopayMandatory(db: DbOrTx, providerId: number, accountId: number): Promise<boolean> {
  const rows = await db
    .select({ id: programPeriods.id })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .innerJoin(programPeriods, eq(programPeriods.id, activities.programPeriodId))
    .where(and(eq(enrollments.providerId, providerId), eq(enrollments.accountId, accountId), eq(enrollments.status, 'A'), eq(programPeriods.autopayMandatory, true)))
    .limit(1);
  return rows.length > 0;
}

/** The rule context the autopay form is validated with, on the page and here. */
async function autopayRuleContext(deps: AppDeps, s: SessionInfo, lang: string, methodCode: string, fromPage: string, currentFrequency: string) {
  const { settings } = await settingsOfSession(deps, s);
  const { details, discounts } = await autopayPeriodDetails(deps, s, lang);
  return {
    data: {
      paymentOptions: { autoPaymentForCCEnabled: settings.autoPaymentForCCEnabled, autoPaymentForECheckEnabled: settings.autoPaymentForECheckEnabled },
      autopayForm: { formCustomID: autopayPageForm(settings.autopayForm) },
      autopayPeriods: { autoPayServicePeriodDetails: details, discounts, currentFrequency },
    },
    flow: { data: { paymentMethodCode: methodCode } },
    query: { fromPage },
  };
}

/** The frequencies the declared rule offers for a context (autopay.frequencyOffers). */
function offersOf(deps: AppDeps, appName: string, ctx: unknown): string[] {
  const decl = deps.declarations.get(appName);
  if (!decl) return [];
  const v = evaluateRule(decl.set.rules, 'autopay.frequencyOffers', ctx);
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** GET form-autopay-periods: the page's variant, whether it asks the frequency, the details and the current frequency. */
export async function autopayForm(deps: AppDeps, s: SessionInfo, q: BillingAutopayFormQuery, lang: string): Promise<BillingAutopayFormResponse> {
  // the payer asked about must be an adult of the account
  if (q.paidByFamilyMemberId) await adultOf({ deps, session: s, lang }, q.paidByFamilyMemberId);
  const { settings } = await settingsOfSession(deps, s);
  const { details, discounts } = await autopayPeriodDetails(deps, s, lang);
  const [current] = (await registrationsOf(deps.db, s)).filter((r) => r.active);
  const formCustomID = q.IsFromAutoPayEnrollmentScreen === false ? settings.autopayForm : autopayPageForm(settings.autopayForm);
  return {
    formCustomID,
    showFrequency: ['OTP_APEA', 'APEA', 'OTP_APEA_SPM', 'OTP_APMA'].includes(formCustomID),
    autoPayServicePeriodDetails: details,
    discounts,
    currentFrequency: current?.frequency ?? '',
  };
}

/** GET autopay-frequency: the offered frequencies with their start and discount, by the declared rule. */
export async function autopayFrequencies(deps: AppDeps, s: SessionInfo, q: { paymentMethodCode?: string; FromPage?: string }, lang: string): Promise<BillingAutopayFrequencyResponse> {
  const { provider } = await settingsOfSession(deps, s);
  const [current] = (await registrationsOf(deps.db, s)).filter((r) => r.active);
  const ctx = await autopayRuleContext(deps, s, lang, q.paymentMethodCode ?? '', q.FromPage ?? '', current?.frequency ?? '');
  const offers = offersOf(deps, provider.appName, ctx);
  const details = ctx.data.autopayPeriods.autoPayServicePeriodDetails;
  return offers.map((f) => {
    const d = details.find((x) => x.periodType === f) ?? details[details.length - 1];
    return {
      frequency: f as PeriodType,
      label: deps.t(lang, `autopay.frequency.${f}`),
      startDate: d?.startDate ?? '',
      period: d?.period ?? '',
      servicePeriodDetailID: d?.servicePeriodDetailID ?? 0,
      discountPercent: ctx.data.autopayPeriods.discounts[f as PeriodType] ?? 0,
    };
  });
}

/** Spec 4 lifecycle of a registration (or of none). */
function statusOf(r: Registration | undefined, declined: boolean): BillingAutopayRegistrationResponse['status'] {
  if (r?.active) return 'ENROLLED';
  if (declined) return 'DECLINED';
  if (r?.cancelledAt || r) return 'CANCELLED';
  return 'NOT_ENROLLED';
}

/** GET autopay-registration-details: the registration asked (or the account's current one) as the pages show it. */
export async function autopayRegistration(deps: AppDeps, s: SessionInfo, id: number | undefined, lang: string): Promise<BillingAutopayRegistrationResponse> {
  const r = id ? await registrationOfAccount(deps, s, id, lang) : (await registrationsOf(deps.db, s))[0];
  // an enrolment asked on the gateway's page (spec 4 OTP variants) that the gateway declined, after the last registration
  const [asked] = await deps.db
    .select({ status: paymentAttempts.status, createdAt: paymentAttempts.createdAt })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.providerId, s.providerId), eq(paymentAttempts.accountId, s.accountId), isNotNull(paymentAttempts.autopayRequest), inArray(paymentAttempts.status, ['APPROVED', 'DECLINED'])))
    .orderBy(desc(paymentAttempts.id))
    .limit(1);
  const declined = asked?.status === 'DECLINED' && !r?.active;
  const mandatory = await autopayMandatory(deps.db, s.providerId, s.accountId);
  if (!r) {
    return { status: statusOf(undefined, declined), automaticPaymentRegistrationID: null, frequency: '', frequencyLabel: '', paymentMethodID: null, paymentMethodCode: '', methodType: '', last4Digits: '', payerName: '', startDate: '', maxCharge: null, mandatory, agreementID: null, signedOn: '' };
  }
  const [m] = await deps.db.select().from(paymentMethods).where(and(eq(paymentMethods.automaticPaymentRegistrationId, r.id), eq(paymentMethods.accountId, s.accountId))).orderBy(desc(paymentMethods.id)).limit(1);
  const [payer] = await deps.db.select({ firstName: adults.firstName, lastName: adults.lastName }).from(adults).where(eq(adults.id, r.adultId));
  const [agreement] = await deps.db
    .select({ id: autopayAgreements.id, signedAt: autopayAgreements.signedAt })
    .from(autopayAgreements)
    .where(and(eq(autopayAgreements.automaticPaymentRegistrationId, r.id), eq(autopayAgreements.accountId, s.accountId)))
    .orderBy(desc(autopayAgreements.id))
    .limit(1);
  return {
    status: statusOf(r, declined),
    automaticPaymentRegistrationID: r.id,
    frequency: r.frequency,
    frequencyLabel: deps.t(lang, `autopay.frequency.${r.frequency}`),
    paymentMethodID: m?.id ?? null,
    paymentMethodCode: m?.paymentMethodCode ?? (r.paymentMethodCode === 'ECH' ? 'ECR' : 'CCR'),
    methodType: m?.type ?? '',
    last4Digits: m?.last4Digits ?? '',
    payerName: payer ? `${payer.firstName} ${payer.lastName}` : '',
    startDate: isoToMdy(r.startDate),
    maxCharge: r.maxChargeCents === null ? null : amountOfCents(r.maxChargeCents),
    mandatory,
    agreementID: agreement?.id ?? null,
    signedOn: agreement ? isoToMdy(isoDay(agreement.signedAt)) : '',
  };
}

/** GET autopay-account-periodtype: the registration's frequency. */
export async function autopayPeriodType(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<{ periodType: string; label: string }> {
  const r = await registrationOfAccount(deps, s, id, lang);
  return { periodType: r.frequency, label: deps.t(lang, `autopay.frequency.${r.frequency}`) };
}

/** A saved method that can pay an autopay: the gateway keeps it, it is usable, and the provider takes autopay with its kind. */
function requireAutopayMethod(deps: AppDeps, lang: string, m: Method, settings: PaymentSettings): void {
  if (!m.token || !m.gatewayCode) fail({ deps, lang }, 409, 'autopay.errors.methodNotKept', { reason: ON_FILE_ONLY });
  if (m.status !== 'ACTIVE' || (m.paymentMethodCode === 'CCR' && cardExpired(m.expiry, deps.today()))) fail({ deps, lang }, 409, 'autopay.errors.methodNotUsable');
  const allowed = m.paymentMethodCode === 'ECR' ? settings.autoPaymentForECheckEnabled : settings.autoPaymentForCCEnabled;
  if (!allowed) fail({ deps, lang }, 409, 'autopay.errors.methodKindOff');
}

/** The rule context of an enrolment or change (the ruleScreen of the autopay operations). */
export async function autopayWriteContext(deps: AppDeps, s: SessionInfo, lang: string, paymentMethodID: number | undefined, registrationID: number | undefined, fromPage: string) {
  let methodCode = '';
  if (paymentMethodID) methodCode = (await methodOfAccount(deps, s, paymentMethodID, lang)).paymentMethodCode;
  let current = '';
  if (registrationID) {
    const r = await registrationOfAccount(deps, s, registrationID, lang);
    current = r.frequency;
    if (!methodCode) methodCode = r.paymentMethodCode === 'ECH' ? 'ECR' : 'CCR';
  }
  return autopayRuleContext(deps, s, lang, methodCode, fromPage, current);
}

/** The autopay terms as the parent read them (sanitised HTML) and their version (a hash of that text). */
export async function termsOf(deps: AppDeps, s: SessionInfo, payerAdultId: number, lang: string): Promise<{ html: string; version: string }> {
  // no terms of the provider's own: the portal's standard wording stands (the agreement says so)
  const html = await preparedCustomText({ deps, session: s, lang }, { contenttype: 'AUTOMATIC_PAYMENT_TERMSANDCONDITIONS', referenceId: payerAdultId }).then(
    (t) => t.body,
    () => '',
  );
  return { html, version: createHash('sha256').update(html).digest('hex').slice(0, 16) };
}

interface AgreementInput {
  kind: 'ENROL' | 'CHANGE';
  registration: Registration;
  method: Method;
  frequency: string;
  maxChargeCents: number | null;
}

/** What an agreement states beyond its registration, read before its transaction (one connection on PGlite). */
interface AgreementFacts {
  startDate: string | null;
  discountPercent: number;
  terms: { html: string; version: string };
  payer: { name: string; email: string } | null;
}

/** Reads what the agreement of a method and frequency states: the start, the discount, the terms as shown, the payer. */
export async function agreementFacts(deps: AppDeps, s: SessionInfo, lang: string, m: Method, frequency: string): Promise<AgreementFacts> {
  const { details, discounts } = await autopayPeriodDetails(deps, s, lang);
  const detail = details.find((d) => d.periodType === frequency);
  const terms = await termsOf(deps, s, m.adultId, lang);
  const [payer] = await deps.db.select().from(adults).where(eq(adults.id, m.adultId));
  return {
    startDate: detail ? mdyToIso(detail.startDate) : null,
    discountPercent: discounts[frequency as PeriodType] ?? 0,
    terms,
    payer: payer ? { name: `${payer.firstName} ${payer.lastName}`, email: payer.email } : null,
  };
}

/** Records the agreement the parent signed: payer, method, time, terms version and text, amount rule, start. */
export async function recordAgreement(deps: AppDeps, db: DbOrTx, s: SessionInfo, lang: string, a: AgreementInput, f: AgreementFacts): Promise<number> {
  const [row] = await db
    .insert(autopayAgreements)
    .values({
      providerId: s.providerId,
      accountId: s.accountId,
      automaticPaymentRegistrationId: a.registration.id,
      kind: a.kind,
      payerAdultId: a.method.adultId,
      signedByAdultId: s.adultId,
      payerName: f.payer?.name ?? `${a.method.firstName} ${a.method.lastName}`,
      payerEmail: f.payer?.email ?? '',
      paymentMethodId: a.method.id,
      paymentMethodCode: a.method.paymentMethodCode,
      methodType: a.method.type,
      last4Digits: a.method.last4Digits,
      frequency: a.frequency,
      startDate: f.startDate ?? a.registration.startDate,
      maxChargeCents: a.maxChargeCents,
      discountPercent: String(f.discountPercent),
      termsVersion: f.terms.version,
      termsHtml: f.terms.html,
      locale: lang,
      signedAt: deps.clock(),
    })
    .returning({ id: autopayAgreements.id });
  return row.id;
}

function mdyToIso(mdy: string): string {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(mdy);
  return m ? `${m[3]}-${m[1]}-${m[2]}` : mdy;
}

/** The parent's maximum per charge in cents, or null (the form's autopay.maxChargeValid checked it). */
function maxChargeOf(v: unknown): number | null {
  if (typeof v !== 'string' || !v.trim()) return null;
  const c = centsOfAmount(v);
  return Number.isFinite(c) && c > 0 ? c : null;
}

/** Once signed (committed), the agreement goes to the payer as a PDF; a mail that cannot be queued does not undo the enrolment. */
async function sendAgreement(deps: AppDeps, s: SessionInfo, agreementId: number): Promise<void> {
  try {
    await mailAgreement(deps, agreementId, s.email);
  } catch (err) {
    deps.log?.error({ err, agreementId }, 'autopay agreement e-mail not queued');
  }
}

/**
 * Spec 4 OTP variants: an enrolment in autopay asked on the one-time payer page with a new card or bank
 * account (the payer form's autopay checkbox, by the declared rule autopay.chosen over the provider's
 * variant and the method): its frequency (one offered; the first offer where the variant asks none),
 * the terms accepted and the agreement's facts as the parent accepted them. Null when autopay was not
 * chosen; refused when the terms were not accepted, the frequency is not offered or the payer pays an
 * autopay already. The registration is made once the payment is approved (payments.applyTransaction).
 */
export async function autopayRequestOf(deps: AppDeps, s: SessionInfo, values: { autopay?: boolean; frequency?: string; termsAccepted?: boolean; paidByFamilyMemberID?: number }, methodCode: string, lang: string): Promise<AutopayRequest | null> {
  const { settings, provider } = await settingsOfSession(deps, s);
  const decl = deps.declarations.get(provider.appName);
  if (!decl) return null;
  const { details, discounts } = await autopayPeriodDetails(deps, s, lang);
  const ctx = {
    form: { autopay: values.autopay === true, frequency: values.frequency ?? '' },
    data: { paymentOptions: { autoPaymentForCCEnabled: settings.autoPaymentForCCEnabled, autoPaymentForECheckEnabled: settings.autoPaymentForECheckEnabled }, autopayForm: { formCustomID: settings.autopayForm }, autopayPeriods: { autoPayServicePeriodDetails: details, discounts, currentFrequency: '' } },
    flow: { data: { paymentMethodCode: methodCode } },
    query: {},
  };
  if (evaluateRule(decl.set.rules, 'autopay.chosen', ctx) !== true) return null;
  if (values.termsAccepted !== true) fail({ deps, lang }, 400, 'errors.payment.terms');
  const offers = offersOf(deps, provider.appName, ctx);
  const frequency = values.frequency || offers[0];
  if (!frequency) fail({ deps, lang }, 409, 'autopay.errors.noPeriods');
  if (!offers.includes(frequency)) fail({ deps, lang }, 400, 'autopay.errors.frequencyNotOffered');
  const payerId = Number(values.paidByFamilyMemberID ?? 0) > 0 ? Number(values.paidByFamilyMemberID) : s.adultId;
  if ((await registrationsOf(deps.db, s)).some((r) => r.active && r.adultId === payerId)) fail({ deps, lang }, 409, 'autopay.errors.alreadyEnrolled');
  const detail = details.find((d) => d.periodType === frequency);
  const terms = await termsOf(deps, s, payerId, lang);
  const [payer] = await deps.db.select().from(adults).where(eq(adults.id, payerId));
  return {
    frequency,
    maxChargeCents: null,
    termsVersion: terms.version,
    termsHtml: terms.html,
    ...(detail ? { startDate: mdyToIso(detail.startDate) } : {}),
    discountPercent: discounts[frequency as PeriodType] ?? 0,
    payerName: payer ? `${payer.firstName} ${payer.lastName}` : '',
    payerEmail: payer?.email ?? '',
    signerEmail: s.email,
  };
}

/** GET /report/automatic-payment-agreement: the latest agreement of one of the account's registrations, as a PDF. */
export async function agreementFile(deps: AppDeps, s: SessionInfo, registrationId: number, lang: string): Promise<{ file: Uint8Array; fileName: string; contentType: string }> {
  const r = await registrationOfAccount(deps, s, registrationId, lang);
  const [a] = await deps.db
    .select()
    .from(autopayAgreements)
    .where(and(eq(autopayAgreements.automaticPaymentRegistrationId, r.id), eq(autopayAgreements.accountId, s.accountId), eq(autopayAgreements.providerId, s.providerId)))
    .orderBy(desc(autopayAgreements.id))
    .limit(1);
  if (!a) fail({ deps, lang }, 404, 'autopay.errors.noAgreement');
  return { file: await agreementPdf(deps, a, lang), fileName: 'automatic-payment-agreement.pdf', contentType: 'application/pdf' };
}

/** POST autopay-enrollment: enrols the account with a saved method, its payer the method's adult. */
export async function enrolAutopay(deps: AppDeps, s: SessionInfo, body: BillingAutopayEnrollBody, values: AutopayFormValues, lang: string): Promise<BillingAutopayEnrollResponse> {
  const { settings, provider } = await settingsOfSession(deps, s);
  const m = await methodOfAccount(deps, s, body.paymentMethodID, lang);
  requireAutopayMethod(deps, lang, m, settings);
  const ctx = await autopayWriteContext(deps, s, lang, m.id, undefined, body.fromPage ?? '');
  const decl = deps.declarations.get(provider.appName);
  if (!decl || !(evaluateRule(decl.set.rules, 'autopay.chosen', { ...ctx, form: values }) === true)) fail({ deps, lang }, 400, 'autopay.errors.notChosen');
  const frequency = typeof values.frequency === 'string' && values.frequency ? values.frequency : offersOf(deps, provider.appName, ctx)[0];
  if (!frequency) fail({ deps, lang }, 409, 'autopay.errors.noPeriods');
  const active = (await registrationsOf(deps.db, s)).filter((r) => r.active && r.adultId === m.adultId);
  if (active.length) fail({ deps, lang }, 409, 'autopay.errors.alreadyEnrolled');
  const maxChargeCents = maxChargeOf(values.maxCharge);
  const detail = ctx.data.autopayPeriods.autoPayServicePeriodDetails.find((d) => d.periodType === frequency);
  const facts = await agreementFacts(deps, s, lang, m, frequency);
  const { registration, agreementId } = await deps.db.transaction(async (t) => {
    const [registration] = await t
      .insert(autopayRegistrations)
      .values({
        providerId: s.providerId,
        accountId: s.accountId,
        adultId: m.adultId,
        paymentMethodCode: m.paymentMethodCode === 'ECR' ? 'ECH' : 'CCD',
        frequency,
        startDate: detail ? mdyToIso(detail.startDate) : isoDay(deps.today()),
        maxChargeCents,
      })
      .returning();
    await t.update(paymentMethods).set({ usedForAutoPay: true, automaticPaymentRegistrationId: registration.id }).where(eq(paymentMethods.id, m.id));
    const agreementId = await recordAgreement(deps, t, s, lang, { kind: 'ENROL', registration, method: m, frequency, maxChargeCents }, facts);
    return { registration, agreementId };
  });
  await sendAgreement(deps, s, agreementId);
  return { automaticPaymentRegistrationID: registration.id, agreementID: agreementId, status: 'ENROLLED', frequency: registration.frequency };
}

/** POST change-autopay-frequency: a new frequency (not the current one) and/or another saved method. */
export async function changeAutopay(deps: AppDeps, s: SessionInfo, body: BillingAutopayChangeBody, values: AutopayFormValues, lang: string): Promise<BillingAutopayEnrollResponse> {
  const { settings } = await settingsOfSession(deps, s);
  const r = await registrationOfAccount(deps, s, body.automaticPaymentRegistrationID, lang);
  if (!r.active) fail({ deps, lang }, 409, 'autopay.errors.notEnrolled');
  const [oldMethod] = await deps.db.select().from(paymentMethods).where(and(eq(paymentMethods.automaticPaymentRegistrationId, r.id), eq(paymentMethods.accountId, s.accountId))).orderBy(desc(paymentMethods.id)).limit(1);
  const m = body.paymentMethodID ? await methodOfAccount(deps, s, body.paymentMethodID, lang) : oldMethod;
  if (!m) fail({ deps, lang }, 409, 'autopay.errors.methodNotKept');
  if (m.id !== oldMethod?.id) requireAutopayMethod(deps, lang, m, settings);
  const frequency = typeof values.frequency === 'string' && values.frequency ? values.frequency : r.frequency;
  if (frequency === r.frequency && m.id === oldMethod?.id && maxChargeOf(values.maxCharge) === r.maxChargeCents) fail({ deps, lang }, 400, 'autopay.errors.nothingChanged');
  const maxChargeCents = maxChargeOf(values.maxCharge);
  const facts = await agreementFacts(deps, s, lang, m, frequency);
  const agreementId = await deps.db.transaction(async (t) => {
    const [updated] = await t
      .update(autopayRegistrations)
      .set({ frequency, adultId: m.adultId, paymentMethodCode: m.paymentMethodCode === 'ECR' ? 'ECH' : 'CCD', maxChargeCents })
      .where(and(eq(autopayRegistrations.id, r.id), eq(autopayRegistrations.active, true)))
      .returning();
    if (!updated) fail({ deps, lang }, 409, 'autopay.errors.notEnrolled');
    if (oldMethod && oldMethod.id !== m.id) await t.update(paymentMethods).set({ usedForAutoPay: false, automaticPaymentRegistrationId: null }).where(eq(paymentMethods.id, oldMethod.id));
    await t.update(paymentMethods).set({ usedForAutoPay: true, automaticPaymentRegistrationId: r.id }).where(eq(paymentMethods.id, m.id));
    return recordAgreement(deps, t, s, lang, { kind: 'CHANGE', registration: updated, method: m, frequency, maxChargeCents }, facts);
  });
  await sendAgreement(deps, s, agreementId);
  return { automaticPaymentRegistrationID: r.id, agreementID: agreementId, status: 'ENROLLED', frequency };
}

/** PUT cancel-autopay-onfile: the parent cancels the account's autopay (not while a program makes it mandatory). */
export async function cancelAutopay(deps: AppDeps, s: SessionInfo, body: BillingCancelAutopayBody, lang: string): Promise<{ cancelled: boolean }> {
  if (body.accountID !== s.accountId) fail({ deps, lang }, 404, 'autopay.errors.notFound');
  const r = await registrationOfAccount(deps, s, body.automaticPaymentRegistrationID, lang);
  if (!r.active) fail({ deps, lang }, 409, 'autopay.errors.notEnrolled');
  if (await autopayMandatory(deps.db, s.providerId, s.accountId)) fail({ deps, lang }, 409, 'autopay.errors.mandatory');
  await deps.db.transaction(async (t) => {
    const [done] = await t
      .update(autopayRegistrations)
      .set({ active: false, isAutoPay: false, isPaymentOnFile: body.paymentOnFile === true ? false : r.isPaymentOnFile, cancelledAt: deps.clock() })
      .where(and(eq(autopayRegistrations.id, r.id), eq(autopayRegistrations.active, true)))
      .returning({ id: autopayRegistrations.id });
    if (!done) fail({ deps, lang }, 409, 'autopay.errors.notEnrolled');
    // the method stays saved (Pay now may use it), no longer paying an autopay
    await t.update(paymentMethods).set({ usedForAutoPay: false }).where(and(eq(paymentMethods.automaticPaymentRegistrationId, r.id), eq(paymentMethods.accountId, s.accountId)));
  });
  return { cancelled: true };
}

/** Money as the agreement says it (the parent's maximum). */
export function maxChargeText(cents: number | null, lang: string, country: string): string {
  return cents === null ? '' : moneyText(cents, lang, country);
}

/** The account's number (the agreement names it). */
export async function accountNoOf(db: DbOrTx, accountId: number): Promise<string> {
  const [a] = await db.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.id, accountId));
  return a?.accountNo ?? '';
}

export { FREQUENCIES };
