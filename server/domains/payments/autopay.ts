// The autopay run (spec 2.12, 3 autopay errors, 9 business days; the job autopay.run and `npm run
// autopay -- run`): each account enrolled in autopay has its invoice charged to its autopay method the
// provider's number of business days before the due date (weekends and its holidays skipped): what
// the account owes, the invoice's autopay discount taken off, at most the parent's maximum per
// charge. A failed charge is an autopay error (the alert on Home and Pay now) and an e-mail to the
// parent in her language; the declared rules (rules/autopayRun.rules.json) say whether it is tried
// again: a card's soft decline on the provider's schedule, a bank return R01 or R09 presented again.
//
// It charges once, however often and on however many instances it runs: a try is a row of
// autopay_charges, unique per account, service period and try, inserted with ON CONFLICT DO NOTHING
// in the transaction that opens its payment attempt, so only the run that inserted it charges; the
// gateway is asked with the attempt's key (a repeated ask answers the first charge), and
// applyTransaction posts the payment and its receipt once. What follows a try's answer (its status,
// the discount credit, the error, the e-mail, the next try) is claimed by a conditional UPDATE of the
// try's row, so it is done once too; a try whose answer was lost is asked again by the payments
// reconciler and settled by the next run.
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lte, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Tx } from '../../db/index';
import { accounts, adults, autopayCharges, autopayErrors, autopayNotices, autopayRegistrations, invoices, ledgerEntries, logins, paymentAttempts, paymentMethods, payments, providers } from '../../db/schema';
import { isoDay } from '../../clock';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { accountMoney } from '../billing/ledger';
import { addDays, businessDaysBefore, nextBusinessDay } from '../../../src/engine/billing';
import { evaluateRule, isTrue, type RuleSet } from '../../../src/engine/logic';
import { moneyText } from '../../../src/engine/money';
import { dateInLanguage } from '../../../src/engine/formats';
import type { BillingSettings } from '../../billingSettings';
import { linkedScreenPaths } from '../../links';
import { GatewayUnavailable } from '../../gateways/adapter';
import { attemptById, chargeSavedMethod } from './payments';
import { accountLanguage, primaryAddress } from './settlement';
import { attemptPayerOf, cardExpired } from './savedMethods';

type Charge = typeof autopayCharges.$inferSelect;
type Registration = typeof autopayRegistrations.$inferSelect;
type Method = typeof paymentMethods.$inferSelect;

export interface AutopayContext {
  deps: AppDeps;
  providerId: number;
  appName: string;
  billing: BillingSettings;
  /** the provider's effective rules (base and overlays) */
  rules: RuleSet;
  /** the business day the run is for (yyyy-mm-dd) */
  today: string;
}

export interface AutopayRunResult {
  /** tries made (first presentations, retries and re-presentations) */
  charged: number;
  approved: number;
  declined: number;
  /** bank debits found returned */
  returned: number;
  /** tries whose gateway answer is not in yet (asked again by the reconciler) */
  pending: number;
  /** charges that could not be made (no chargeable method) */
  notScheduled: number;
  /** pre-charge notices sent */
  notices: number;
}

/** The spec's autopay error statuses (spec 2.12's alert shows for them). */
export const PAYMENT_FAILED = 'PAYMENT FAILED';
export const SCHEDULING_FAILED = 'SCHEDULING FAILED';

/** The reason of a try that could not be made: the registration has no method the gateway can charge. */
export const NO_CHARGEABLE_METHOD = 'NO_CHARGEABLE_METHOD';

const holidaySet = (c: AutopayContext) => new Set(c.billing.holidays.map((h) => h.date));

/** The day an invoice due on `dueDate` is charged: the provider's number of business days before it. */
export function chargeDateOf(c: Pick<AutopayContext, 'billing'>, dueDate: string): string {
  return businessDaysBefore(dueDate, c.billing.autopay.businessDaysBefore, new Set(c.billing.holidays.map((h) => h.date)));
}

/** Whole days from `from` to `to` (yyyy-mm-dd). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The decline class of a gateway reason (rules autopayRun.declineClass): SOFT may be tried again, HARD never. */
export function declineClassOf(rules: RuleSet, reasonCode: string): 'SOFT' | 'HARD' {
  return evaluateRule(rules, 'autopayRun.declineClass', { decline: { reasonCode } }) === 'SOFT' ? 'SOFT' : 'HARD';
}

/**
 * The account's active autopay registration, or none: the newest, the one the autopay pages show and
 * change (autopay-registration-details without an id), when an account has several.
 */
async function registrationOf(c: AutopayContext, accountId: number): Promise<Registration | undefined> {
  const [reg] = await c.deps.db
    .select()
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, c.providerId), eq(autopayRegistrations.accountId, accountId), eq(autopayRegistrations.active, true), eq(autopayRegistrations.isAutoPay, true)))
    .orderBy(desc(autopayRegistrations.id));
  return reg;
}

/** The registration's method on the day: its newest saved method that pays it (a method changed since the last try is the one charged). */
async function methodOf(c: AutopayContext, reg: Registration): Promise<Method | undefined> {
  const rows = await c.deps.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.providerId, c.providerId), eq(paymentMethods.accountId, reg.accountId), eq(paymentMethods.automaticPaymentRegistrationId, reg.id)))
    .orderBy(asc(paymentMethods.id));
  return rows.reverse().find((m) => m.usedForAutoPay) ?? rows[0];
}

/** Whether the gateway can charge the method today: it has a token, is not refused and, a card, not expired. */
function chargeable(m: Method | undefined, today: string): m is Method {
  return !!m && !!m.token && m.gatewayCode !== null && m.status === 'ACTIVE' && !(m.paymentMethodCode === 'CCR' && cardExpired(m.expiry, new Date(`${today}T12:00:00Z`)));
}

/** What the run would charge an account for an invoice: what is owed up to its due date less its discount, at most the maximum. */
async function amountsOf(c: AutopayContext, reg: Registration, invoice: typeof invoices.$inferSelect, withDiscount: boolean) {
  // what is owed up to the invoice's due date (its own rest and anything older), payments applied
  // oldest first: a later invoice already posted waits for its own charge
  const money = await accountMoney(c.deps.db, c.providerId, invoice.accountId, addDays(invoice.paymentDueDate, 1));
  const open = money.invoiceOpenCents.get(invoice.id) ?? 0;
  const dueCents = Math.max(0, money.pastDueCents);
  const discountCents = withDiscount ? Math.max(0, Math.min(invoice.autoPayDiscountValueCents, dueCents)) : 0;
  const amountDueCents = dueCents - discountCents;
  const amountCents = reg.maxChargeCents !== null && reg.maxChargeCents >= 0 ? Math.min(amountDueCents, reg.maxChargeCents) : amountDueCents;
  return { open, discountCents, amountDueCents, amountCents };
}

interface Presentation {
  reg: Registration;
  invoice: typeof invoices.$inferSelect;
  attempt: number;
  method: Method | undefined;
  amountDueCents: number;
  discountCents: number;
  amountCents: number;
  /** the earlier try this one follows (its next_try_date is cleared with the insert) */
  after?: Charge;
}

/**
 * Inserts a try and opens its payment attempt in one transaction; answers the try, or null when
 * another run inserted it first (or the account has a payment page open: the try waits for the next
 * run). A try that cannot be made (no chargeable method) is recorded as declined at once.
 */
async function insertTry(c: AutopayContext, p: Presentation): Promise<{ charge: Charge; attemptId: number | null } | null> {
  const { deps } = c;
  try {
    return await deps.db.transaction(async (t) => {
      const [charge] = await t
        .insert(autopayCharges)
        .values({
          providerId: c.providerId,
          accountId: p.invoice.accountId,
          automaticPaymentRegistrationId: p.reg.id,
          invoiceId: p.invoice.id,
          servicePeriodDetailID: p.invoice.servicePeriodDetailID,
          attempt: p.attempt,
          chargeDate: c.today,
          paymentMethodId: p.method?.id ?? null,
          paymentMethodCode: p.method?.paymentMethodCode ?? (p.reg.paymentMethodCode === 'ECH' ? 'ECR' : 'CCR'),
          amountDueCents: p.amountDueCents,
          discountCents: p.discountCents,
          amountCents: p.amountCents,
          createdAt: deps.clock(),
        })
        .onConflictDoNothing()
        .returning();
      if (!charge) return null;
      if (p.after) await t.update(autopayCharges).set({ nextTryDate: null }).where(eq(autopayCharges.id, p.after.id));
      if (!chargeable(p.method, c.today)) return { charge, attemptId: null };
      const m = p.method;
      const [a] = await t.select().from(adults).where(eq(adults.id, m.adultId));
      const payer = attemptPayerOf(m, a);
      const [p2] = await t.select().from(providers).where(eq(providers.id, c.providerId));
      const [attempt] = await t
        .insert(paymentAttempts)
        .values({
          providerId: c.providerId,
          accountId: p.invoice.accountId,
          adultId: p.reg.adultId,
          publicId: randomBytes(16).toString('hex'),
          // one per account, service period and try: the gateway's key is the attempt's publicId
          idempotencyKey: `autopay:${p.invoice.servicePeriodDetailID}:${p.attempt}`,
          purpose: 'AUTOPAY',
          amountCents: p.amountCents,
          feeCents: 0,
          paymentMethodCode: m.paymentMethodCode,
          paymentMethodId: m.id,
          gatewayCode: m.gatewayCode ?? 0,
          payer,
          referrer: '/paynow',
          locale: await accountLanguage(t, p2, p.invoice.accountId),
          createdAt: deps.clock(),
        })
        .returning();
      await t.update(autopayCharges).set({ paymentAttemptId: attempt.id }).where(eq(autopayCharges.id, charge.id));
      return { charge: { ...charge, paymentAttemptId: attempt.id }, attemptId: attempt.id };
    });
  } catch (e) {
    // payment_attempts_one_live: the parent has a payment page open; charging now could take the money twice
    if (isUniqueViolation(e)) {
      deps.log?.warn({ accountId: p.invoice.accountId, servicePeriodDetailID: p.invoice.servicePeriodDetailID }, 'autopay: the account has a payment open; its charge waits for the next run');
      return null;
    }
    throw e;
  }
}

function isUniqueViolation(e: unknown): boolean {
  for (let x: unknown = e; x && typeof x === 'object'; x = (x as { cause?: unknown }).cause) if ((x as { code?: unknown }).code === '23505') return true;
  return false;
}

/** Makes a try: inserted once, charged through its attempt, then settled. */
async function present(c: AutopayContext, p: Presentation, r: AutopayRunResult): Promise<void> {
  const made = await insertTry(c, p);
  if (!made) return;
  r.charged++;
  if (made.attemptId !== null) {
    try {
      await chargeSavedMethod(c.deps, await attemptById(c.deps.db, made.attemptId));
    } catch (e) {
      if (!(e instanceof GatewayUnavailable)) throw e;
      // charged or not: the reconciler asks again with the same key, the next run settles it
      c.deps.log?.warn({ err: e.message, charge: made.charge.id }, 'autopay: payment gateway unavailable; the charge is asked again later');
    }
  }
  await settle(c, made.charge.id, r);
}

/** The first try of one invoice that is due to be charged today (nothing when another run made it, or nothing is owed). */
async function presentInvoice(c: AutopayContext, invoice: typeof invoices.$inferSelect, r: AutopayRunResult): Promise<void> {
  const reg = await registrationOf(c, invoice.accountId);
  if (!reg || reg.startDate > c.today) return;
  const amounts = await amountsOf(c, reg, invoice, true);
  // paid already (by hand, or by an earlier invoice's charge)
  if (amounts.open <= 0 || amounts.amountCents <= 0) return;
  await present(c, { reg, invoice, attempt: 1, method: await methodOf(c, reg), ...amounts }, r);
}

/**
 * What follows a try's answer, claimed once by a conditional UPDATE of its row: an approved try is
 * APPROVED (its discount credited, earlier errors of the invoice resolved, the parent told when her
 * maximum left some due); a declined one DECLINED with its class and next try or final (an autopay
 * error, the parent told); an approved bank debit the bank returned since is RETURNED (its discount
 * taken back, presented again or final).
 */
async function settle(c: AutopayContext, chargeId: number, r: AutopayRunResult): Promise<void> {
  const { deps } = c;
  const [charge] = await deps.db.select().from(autopayCharges).where(eq(autopayCharges.id, chargeId));
  if (!charge) return;
  if (charge.status === 'PENDING') {
    const attempt = charge.paymentAttemptId ? await attemptById(deps.db, charge.paymentAttemptId) : null;
    if (attempt && attempt.status === 'CREATED') {
      r.pending++;
      return;
    }
    if (attempt?.status === 'APPROVED' && attempt.paymentId) {
      if (await approve(c, charge, attempt.paymentId)) r.approved++;
      return;
    }
    const reasonCode = attempt ? attempt.reasonCode || attempt.status : NO_CHARGEABLE_METHOD;
    if (await decline(c, charge, reasonCode, attempt ? PAYMENT_FAILED : SCHEDULING_FAILED)) {
      if (attempt) r.declined++;
      else r.notScheduled++;
    }
    return;
  }
  if (charge.status === 'APPROVED' && charge.paymentId) {
    const [pay] = await deps.db.select().from(payments).where(eq(payments.id, charge.paymentId));
    if (pay?.settlement === 'RETURNED' && (await returned(c, charge, pay))) r.returned++;
  }
}

async function approve(c: AutopayContext, charge: Charge, paymentId: number): Promise<boolean> {
  const { deps } = c;
  const done = await deps.db.transaction(async (t) => {
    const [claimed] = await t
      .update(autopayCharges)
      .set({ status: 'APPROVED', paymentId, completedAt: deps.clock() })
      .where(and(eq(autopayCharges.id, charge.id), eq(autopayCharges.status, 'PENDING')))
      .returning();
    if (!claimed) return false;
    // the discount goes with the payment that took it: one credit per payment
    if (claimed.discountCents > 0) {
      await t
        .insert(ledgerEntries)
        .values({ providerId: claimed.providerId, accountId: claimed.accountId, kind: 'CREDIT', amountCents: claimed.discountCents, entryDate: c.today, paymentId, invoiceId: claimed.invoiceId, description: 'Autopay discount', createdAt: deps.clock() })
        .onConflictDoNothing();
    }
    await t
      .update(autopayErrors)
      .set({ resolvedAt: deps.clock() })
      .where(and(eq(autopayErrors.providerId, claimed.providerId), eq(autopayErrors.accountId, claimed.accountId), isNull(autopayErrors.resolvedAt), inArray(autopayErrors.autopayChargeId, t.select({ id: autopayCharges.id }).from(autopayCharges).where(and(eq(autopayCharges.providerId, claimed.providerId), eq(autopayCharges.accountId, claimed.accountId), eq(autopayCharges.servicePeriodDetailID, claimed.servicePeriodDetailID))))));
    if (claimed.amountCents < claimed.amountDueCents) await tellParent(c, t, claimed, 'aboveMax');
    return true;
  });
  if (done) deps.mailQueued();
  return done;
}

/** The first try of the charge's invoice (its day starts the retry schedule and the 180 days of re-presentation). */
async function firstTryOf(c: AutopayContext, charge: Charge): Promise<Charge> {
  const [first] = await c.deps.db
    .select()
    .from(autopayCharges)
    .where(and(eq(autopayCharges.providerId, charge.providerId), eq(autopayCharges.accountId, charge.accountId), eq(autopayCharges.servicePeriodDetailID, charge.servicePeriodDetailID)))
    .orderBy(asc(autopayCharges.attempt))
    .limit(1);
  return first ?? charge;
}

async function decline(c: AutopayContext, charge: Charge, reasonCode: string, status: string): Promise<boolean> {
  const { deps, billing } = c;
  const declineClass = status === SCHEDULING_FAILED ? 'HARD' : declineClassOf(c.rules, reasonCode);
  const first = await firstTryOf(c, charge);
  const again = status === PAYMENT_FAILED && isTrue(c.rules, 'autopayRun.retryDecline', { decline: { reasonCode, tries: charge.attempt }, autopay: { maxTries: billing.autopay.maxTries, retryDays: billing.autopay.retryDays } });
  const nextTryDate = again ? addDays(first.chargeDate, billing.autopay.retryDays[charge.attempt - 1]) : null;
  const done = await deps.db.transaction(async (t) => {
    const [claimed] = await t
      .update(autopayCharges)
      .set({ status: 'DECLINED', reasonCode, declineClass, nextTryDate: nextTryDate && nextTryDate <= c.today ? addDays(c.today, 1) : nextTryDate, final: !again, completedAt: deps.clock() })
      .where(and(eq(autopayCharges.id, charge.id), eq(autopayCharges.status, 'PENDING')))
      .returning();
    if (!claimed) return false;
    await recordError(t, claimed, status, reasonCode);
    await tellParent(c, t, claimed, 'failed');
    return true;
  });
  if (done) deps.mailQueued();
  return done;
}

async function returned(c: AutopayContext, charge: Charge, pay: typeof payments.$inferSelect): Promise<boolean> {
  const { deps } = c;
  const first = await firstTryOf(c, charge);
  const [invoice] = await deps.db.select().from(invoices).where(eq(invoices.id, charge.invoiceId));
  const reg = await registrationOf(c, charge.accountId);
  // the same amount is still owed (the balance with the returned debit and its discount back, less the discount again)
  const now = reg && invoice ? await amountsOf(c, { ...reg, maxChargeCents: null }, invoice, true) : null;
  const again =
    !!now &&
    isTrue(c.rules, 'autopayRun.representReturn', {
      bankReturn: { returnCode: pay.returnCode, representations: charge.attempt - 1, daysSinceFirst: daysBetween(first.chargeDate, c.today), sameAmount: now.amountDueCents + charge.discountCents >= charge.amountCents },
    });
  const done = await deps.db.transaction(async (t) => {
    const [claimed] = await t
      .update(autopayCharges)
      .set({ status: 'RETURNED', reasonCode: pay.returnCode, declineClass: 'RETURN', nextTryDate: again ? nextBusinessDay(c.today, holidaySet(c)) : null, final: !again, completedAt: deps.clock() })
      .where(and(eq(autopayCharges.id, charge.id), eq(autopayCharges.status, 'APPROVED')))
      .returning();
    if (!claimed) return false;
    // the discount went with the returned payment: it is taken back (one charge per payment)
    if (claimed.discountCents > 0) {
      await t
        .insert(ledgerEntries)
        .values({ providerId: claimed.providerId, accountId: claimed.accountId, kind: 'CHARGE', amountCents: claimed.discountCents, entryDate: c.today, dueDate: c.today, paymentId: pay.id, invoiceId: claimed.invoiceId, description: 'Autopay discount of a returned payment', createdAt: deps.clock() })
        .onConflictDoNothing();
    }
    await recordError(t, claimed, PAYMENT_FAILED, pay.returnCode);
    await tellParent(c, t, claimed, 'failed');
    return true;
  });
  if (done) deps.mailQueued();
  return done;
}

/** Spec 3's autopay error of a failed try (one per try). */
async function recordError(t: Tx, charge: Charge, status: string, reasonCode: string): Promise<void> {
  const [m] = charge.paymentMethodId ? await t.select().from(paymentMethods).where(eq(paymentMethods.id, charge.paymentMethodId)) : [];
  await t
    .insert(autopayErrors)
    .values({
      providerId: charge.providerId,
      accountId: charge.accountId,
      autopayChargeId: charge.id,
      transactionStatusCode: status,
      paymentAmountCents: charge.amountCents,
      transactionDate: charge.completedAt ? isoDay(charge.completedAt) : charge.chargeDate,
      paymentMethodCode: charge.paymentMethodCode,
      paymentMethod: m?.type ?? '',
      bankAccountDetails: m?.last4Digits ?? '',
      reasonCode,
    })
    .onConflictDoNothing();
}

/** The words of a failure reason (methods.autopay.reasons.<code>, else the bank's return words, else the general ones). */
function reasonText(deps: AppDeps, lang: string, code: string): string {
  const known = (key: string): string | null => {
    try {
      return deps.t(lang, key);
    } catch {
      return null;
    }
  };
  return known(`methods.autopay.reasons.${code}`) ?? (/^R\d{2}$/.test(code) ? known(`methods.returns.${code}`) : null) ?? deps.t(lang, 'methods.autopay.reasons.OTHER');
}

/** A link to the provider's Pay now, through its entry (never from a request's Host). */
function payNowLink(deps: AppDeps, appName: string): string {
  const set = deps.declarations.get(appName)?.set;
  const base = (deps.linkBase ?? '').replace(/\/$/, '');
  if (!set) return `${base}/parentportal/paynow`;
  const { entry } = linkedScreenPaths(set.screens, `providers/${appName}`);
  return `${base}/parentportal${entry.replace(':appName', encodeURIComponent(appName))}?${new URLSearchParams({ next: '/paynow' }).toString()}`;
}

/** Who is told: the method's holder and the primary account holder. */
async function addressesOf(t: Tx, accountId: number, adultId: number | null): Promise<string[]> {
  const to = new Set<string>();
  if (adultId) {
    const [holder] = await t.select({ login: logins.email, email: adults.email }).from(adults).leftJoin(logins, eq(logins.adultId, adults.id)).where(eq(adults.id, adultId));
    const own = (holder?.login || holder?.email || '').toLowerCase();
    if (own) to.add(own);
  }
  const primary = await primaryAddress(t, accountId);
  if (primary) to.add(primary);
  return [...to];
}

/** The e-mail of a try: failed (the reason, what comes next, the link) or approved under the maximum (what stays due). */
async function tellParent(c: AutopayContext, t: Tx, charge: Charge, what: 'failed' | 'aboveMax'): Promise<void> {
  const { deps } = c;
  const [p] = await t.select().from(providers).where(eq(providers.id, charge.providerId));
  const lang = await accountLanguage(t, p, charge.accountId);
  const [m] = charge.paymentMethodId ? await t.select().from(paymentMethods).where(eq(paymentMethods.id, charge.paymentMethodId)) : [];
  const [reg] = await t.select().from(autopayRegistrations).where(eq(autopayRegistrations.id, charge.automaticPaymentRegistrationId));
  const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
  const k = (key: string, params: Record<string, unknown> = {}) => deps.t(lang, `methods.autopay.mail.${key}`, { organisation: p.organisation, ...params });
  const method = m ? k('method', { brand: m.type, last4: m.last4Digits }) : k('noMethod');
  const link = payNowLink(deps, p.appName);
  let subject: string;
  let lines: string[];
  if (what === 'aboveMax') {
    subject = k('aboveMax.subject', { amount: fmt(charge.amountCents) });
    lines = [
      k('aboveMax.intro', { amount: fmt(charge.amountCents), date: dateInLanguage(charge.chargeDate, lang), method }),
      k('aboveMax.rest', { max: fmt(reg?.maxChargeCents ?? charge.amountCents), rest: fmt(charge.amountDueCents - charge.amountCents) }),
      '',
      k('aboveMax.next', { link }),
    ];
  } else {
    const next = charge.nextTryDate ? k(charge.declineClass === 'RETURN' ? 'failed.nextRepresent' : 'failed.nextRetry', { date: dateInLanguage(charge.nextTryDate, lang) }) : k('failed.nextFinal', { link });
    const update = charge.nextTryDate || !m ? [] : [k(m.paymentMethodCode === 'ECR' ? 'failed.updateBank' : 'failed.updateCard', { link })];
    subject = k('failed.subject', { amount: fmt(charge.amountCents) });
    lines = [
      k('failed.intro', { amount: fmt(charge.amountCents), date: dateInLanguage(charge.chargeDate, lang), method }),
      k('failed.reason', { reason: reasonText(deps, lang, charge.reasonCode), code: charge.reasonCode }),
      '',
      next,
      ...update,
    ];
  }
  lines.push('', k('footer'));
  const text = lines.join('\n');
  const from = `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`;
  const to = await addressesOf(t, charge.accountId, m?.adultId ?? reg?.adultId ?? null);
  for (const address of to) await enqueueMail(t, deps.clock, { providerId: charge.providerId, kind: what === 'failed' ? 'autopay-failed' : 'autopay-above-max', to: address, from, subject, text });
  if (to.length) await recordInHistory(t, deps.today(), { providerId: charge.providerId, accountId: charge.accountId, subject, text, from: p.programName });
  await t.update(autopayCharges).set({ parentToldAt: deps.clock() }).where(eq(autopayCharges.id, charge.id));
}

/** The next try of a failed one whose day has come: the invoice's amount again (a card's on the day's balance, a bank's the same amount). */
async function presentRetry(c: AutopayContext, prev: Charge, r: AutopayRunResult): Promise<void> {
  const { deps } = c;
  const [invoice] = await deps.db.select().from(invoices).where(eq(invoices.id, prev.invoiceId));
  const reg = await registrationOf(c, prev.accountId);
  const stop = async () => void (await deps.db.update(autopayCharges).set({ nextTryDate: null, final: true }).where(and(eq(autopayCharges.id, prev.id), isNotNull(autopayCharges.nextTryDate))));
  // cancelled since: no more tries
  if (!invoice || !reg) return stop();
  const amounts = await amountsOf(c, reg, invoice, true);
  if (amounts.amountCents <= 0) {
    // paid by hand meanwhile: nothing to try again, the error is over
    await deps.db.update(autopayErrors).set({ resolvedAt: deps.clock() }).where(and(eq(autopayErrors.autopayChargeId, prev.id), isNull(autopayErrors.resolvedAt)));
    return stop();
  }
  // a bank debit is presented again for the same amount
  const same = prev.declineClass === 'RETURN' ? { amountDueCents: prev.amountDueCents, discountCents: prev.discountCents, amountCents: prev.amountCents } : amounts;
  await present(c, { reg, invoice, attempt: prev.attempt + 1, method: await methodOf(c, reg), ...same, after: prev }, r);
}

/** The errors of failed-for-good charges whose invoice was paid since (by hand): resolved, so the provider no longer lists them. */
async function resolvePaid(c: AutopayContext): Promise<void> {
  const { deps } = c;
  const rows = await deps.db
    .select({ id: autopayErrors.id, accountId: autopayCharges.accountId, invoiceId: autopayCharges.invoiceId })
    .from(autopayErrors)
    .innerJoin(autopayCharges, eq(autopayCharges.id, autopayErrors.autopayChargeId))
    .where(and(eq(autopayErrors.providerId, c.providerId), isNull(autopayErrors.resolvedAt), eq(autopayCharges.final, true)));
  for (const e of rows) {
    const money = await accountMoney(deps.db, c.providerId, e.accountId, c.today);
    if ((money.invoiceOpenCents.get(e.invoiceId) ?? 0) <= 0) await deps.db.update(autopayErrors).set({ resolvedAt: deps.clock() }).where(and(eq(autopayErrors.id, e.id), isNull(autopayErrors.resolvedAt)));
  }
}

/**
 * Invoices of accounts enrolled in autopay, issued by today and due from today on, for whose account
 * and service period no charge was tried yet (and, `withoutNotice`, no notice sent yet): what the run
 * presents and what the notices tell of, by due date.
 */
async function openInvoicesOfEnrolled(c: AutopayContext, withoutNotice: boolean): Promise<{ invoice: typeof invoices.$inferSelect }[]> {
  return c.deps.db
    .select({ invoice: invoices })
    .from(invoices)
    .innerJoin(autopayRegistrations, and(eq(autopayRegistrations.providerId, invoices.providerId), eq(autopayRegistrations.accountId, invoices.accountId), eq(autopayRegistrations.active, true), eq(autopayRegistrations.isAutoPay, true)))
    .where(
      and(
        eq(invoices.providerId, c.providerId),
        gte(invoices.paymentDueDate, c.today),
        lte(invoices.invoiceDate, c.today),
        sql`NOT EXISTS (SELECT 1 FROM ${autopayCharges} WHERE ${autopayCharges.providerId} = ${invoices.providerId} AND ${autopayCharges.accountId} = ${invoices.accountId} AND ${autopayCharges.servicePeriodDetailID} = ${invoices.servicePeriodDetailID})`,
        withoutNotice ? sql`NOT EXISTS (SELECT 1 FROM ${autopayNotices} WHERE ${autopayNotices.providerId} = ${invoices.providerId} AND ${autopayNotices.accountId} = ${invoices.accountId} AND ${autopayNotices.servicePeriodDetailID} = ${invoices.servicePeriodDetailID})` : undefined,
      ),
    )
    .orderBy(asc(invoices.paymentDueDate), asc(invoices.id));
}

/**
 * One run for a provider on the business day: first the tries whose answer came since (approved,
 * declined, returned by the bank) are settled; then the notices of charges ahead are sent; then every
 * invoice whose charge day has come (and whose due date has not passed) is presented, and every
 * failed try whose next day has come is tried again.
 */
export async function runAutopay(c: AutopayContext): Promise<AutopayRunResult> {
  const { deps } = c;
  const r: AutopayRunResult = { charged: 0, approved: 0, declined: 0, returned: 0, pending: 0, notScheduled: 0, notices: 0 };
  const open = await deps.db
    .select({ id: autopayCharges.id })
    .from(autopayCharges)
    .leftJoin(payments, eq(payments.id, autopayCharges.paymentId))
    .where(and(eq(autopayCharges.providerId, c.providerId), sql`(${autopayCharges.status} = 'PENDING' OR (${autopayCharges.status} = 'APPROVED' AND ${payments.settlement} = 'RETURNED'))`))
    .orderBy(asc(autopayCharges.id));
  for (const o of open) await settle(c, o.id, r);
  await resolvePaid(c);
  r.notices = await sendNotices(c);
  const candidates = await openInvoicesOfEnrolled(c, false);
  const seen = new Set<number>();
  for (const { invoice } of candidates) {
    if (seen.has(invoice.id) || chargeDateOf(c, invoice.paymentDueDate) > c.today) continue;
    seen.add(invoice.id);
    await presentInvoice(c, invoice, r);
  }
  const retries = await deps.db
    .select()
    .from(autopayCharges)
    .where(and(eq(autopayCharges.providerId, c.providerId), isNotNull(autopayCharges.nextTryDate), lte(autopayCharges.nextTryDate, c.today), eq(autopayCharges.final, false), ne(autopayCharges.status, 'PENDING')))
    .orderBy(asc(autopayCharges.id));
  for (const prev of retries) await presentRetry(c, prev, r);
  return r;
}

/**
 * Told before (beyond the spec): the parent is e-mailed the amount, day and method of each autopay
 * charge the provider's notice days ahead (a bank debit whose amount differs from the last one its
 * bank notice days ahead), once per account and service period (autopay_notices, unique).
 */
export async function sendNotices(c: AutopayContext): Promise<number> {
  const { deps } = c;
  const { noticeDays, bankNoticeDays } = c.billing.autopay;
  const farthest = Math.max(noticeDays, bankNoticeDays);
  // due within the longest notice (and the charge's business days) from today: the loop below decides
  const rows = await openInvoicesOfEnrolled(c, true);
  let sent = 0;
  for (const { invoice } of rows) {
    const chargeDate = chargeDateOf(c, invoice.paymentDueDate);
    const ahead = daysBetween(c.today, chargeDate);
    // the charge is today or past (the run charges it now), or too far off for any notice
    if (ahead <= 0 || ahead > farthest) continue;
    const reg = await registrationOf(c, invoice.accountId);
    if (!reg || reg.startDate > chargeDate) continue;
    const method = await methodOf(c, reg);
    if (!chargeable(method, chargeDate)) continue;
    const amounts = await amountsOf(c, reg, invoice, true);
    if (amounts.open <= 0 || amounts.amountCents <= 0) continue;
    // a bank debit whose amount differs from the account's last autopay is told its bank notice days ahead
    const [last] = await deps.db
      .select({ amountCents: autopayCharges.amountCents })
      .from(autopayCharges)
      .where(and(eq(autopayCharges.providerId, c.providerId), eq(autopayCharges.accountId, invoice.accountId), inArray(autopayCharges.status, ['APPROVED', 'RETURNED'])))
      .orderBy(sql`${autopayCharges.chargeDate} desc`, sql`${autopayCharges.id} desc`)
      .limit(1);
    const changed = !!last && last.amountCents !== amounts.amountCents;
    const daysAhead = method.paymentMethodCode === 'ECR' && (changed || !last) ? bankNoticeDays : noticeDays;
    // told as soon as the invoice is there when it came later than the notice's days
    if (ahead > daysAhead) continue;
    const done = await deps.db.transaction(async (t) => {
      const [claimed] = await t
        .insert(autopayNotices)
        .values({
          providerId: c.providerId,
          accountId: invoice.accountId,
          invoiceId: invoice.id,
          servicePeriodDetailID: invoice.servicePeriodDetailID,
          chargeDate,
          amountCents: amounts.amountCents,
          paymentMethodId: method.id,
          paymentMethodCode: method.paymentMethodCode,
          daysAhead,
          sentAt: deps.clock(),
        })
        .onConflictDoNothing()
        .returning();
      if (!claimed) return false;
      const [p] = await t.select().from(providers).where(eq(providers.id, c.providerId));
      const lang = await accountLanguage(t, p, invoice.accountId);
      const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
      const k = (key: string, params: Record<string, unknown> = {}) => deps.t(lang, `methods.autopay.mail.${key}`, { organisation: p.organisation, ...params });
      const amount = fmt(amounts.amountCents);
      const date = dateInLanguage(chargeDate, lang);
      const subject = k('notice.subject', { amount, date });
      const text = [
        k('notice.intro', { amount, date, method: k('method', { brand: method.type, last4: method.last4Digits }) }),
        ...(changed && last ? [k('notice.changed', { last: fmt(last.amountCents) })] : []),
        ...(amounts.amountCents < amounts.amountDueCents ? [k('notice.aboveMax', { rest: fmt(amounts.amountDueCents - amounts.amountCents) })] : []),
        '',
        k('notice.change', { link: payNowLink(deps, p.appName) }),
        '',
        k('footer'),
      ].join('\n');
      const from = `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`;
      const to = await addressesOf(t, invoice.accountId, method.adultId);
      let first: number | null = null;
      for (const address of to) {
        const id = await enqueueMail(t, deps.clock, { providerId: c.providerId, kind: 'autopay-notice', to: address, from, subject, text });
        first ??= id;
      }
      if (to.length) await recordInHistory(t, deps.today(), { providerId: c.providerId, accountId: invoice.accountId, subject, text, from: p.programName });
      await t.update(autopayNotices).set({ outboxId: first }).where(eq(autopayNotices.id, claimed.id));
      return true;
    });
    if (done) sent++;
  }
  if (sent) deps.mailQueued();
  return sent;
}

/** The daily run for every provider that bills through the portal, with its effective rules. */
export async function runAutopayForAll(deps: AppDeps, today = isoDay(deps.today()), only?: string[]): Promise<Map<string, AutopayRunResult>> {
  const done = new Map<string, AutopayRunResult>();
  const rows = await deps.db.select({ id: providers.id, appName: providers.appName }).from(providers).orderBy(asc(providers.id));
  for (const p of rows) {
    if (only?.length && !only.includes(p.appName)) continue;
    const billing = deps.settings(p.appName).billing;
    if (!billing) continue;
    const decl = deps.declarations.get(p.appName);
    if (!decl) {
      deps.log?.warn({ appName: p.appName }, 'autopay: the provider\'s declarations are not loaded; its run waits for the next one');
      continue;
    }
    done.set(p.appName, await runAutopay({ deps, providerId: p.id, appName: p.appName, billing, rules: decl.set.rules, today }));
  }
  return done;
}

/** A final failure of an autopay charge, for the provider (`npm run provider -- payments failed`). */
export interface FailedAutopay {
  provider: string;
  accountNo: string;
  servicePeriodDetailID: number;
  tries: number;
  amountCents: number;
  reasonCode: string;
  declineClass: string;
  chargeDate: string;
  countryCode: string;
}

/** The autopay charges that failed for good and are still owed (no later payment of the invoice's amount). */
export async function failedAutopays(db: AppDeps['db'], appName?: string): Promise<FailedAutopay[]> {
  const rows = await db
    .select({ c: autopayCharges, appName: providers.appName, countryCode: providers.countryCode, accountNo: accounts.accountNo })
    .from(autopayCharges)
    .innerJoin(providers, eq(providers.id, autopayCharges.providerId))
    .innerJoin(accounts, eq(accounts.id, autopayCharges.accountId))
    .innerJoin(autopayErrors, eq(autopayErrors.autopayChargeId, autopayCharges.id))
    .where(and(eq(autopayCharges.final, true), inArray(autopayCharges.status, ['DECLINED', 'RETURNED']), isNull(autopayErrors.resolvedAt), appName ? eq(providers.appName, appName) : undefined))
    .orderBy(asc(autopayCharges.chargeDate), asc(autopayCharges.id));
  return rows.map((r) => ({
    provider: r.appName,
    accountNo: r.accountNo,
    servicePeriodDetailID: r.c.servicePeriodDetailID,
    tries: r.c.attempt,
    amountCents: r.c.amountCents,
    reasonCode: r.c.reasonCode,
    declineClass: r.c.declineClass,
    chargeDate: r.c.chargeDate,
    countryCode: r.countryCode,
  }));
}

export interface AutopayErrorsSummary {
  count: number;
  transactionStatusCode: string | null;
  /** paid since the latest failure (bank payments returned since not counted) */
  amountCents: number;
  paymentAmountCents: number;
  transactionDate: string | null;
  paymentMethodCode: string | null;
  paymentMethod: string;
  bankAccountDetails: string;
  reasonCode: string;
}

/**
 * Spec 3's autopay errors of an account (spec 2.12's alert on Home and Pay now): the failures not made
 * good by a later try, and the latest one with what was paid since it (the alert shows while that is
 * below what failed).
 */
export async function autopayErrorsOf(db: AppDeps['db'], providerId: number, accountId: number): Promise<AutopayErrorsSummary> {
  const open = await db
    .select()
    .from(autopayErrors)
    .where(and(eq(autopayErrors.providerId, providerId), eq(autopayErrors.accountId, accountId), isNull(autopayErrors.resolvedAt)))
    .orderBy(sql`${autopayErrors.transactionDate} desc`, sql`${autopayErrors.id} desc`);
  const latest = open[0];
  if (!latest) return { count: 0, transactionStatusCode: null, amountCents: 0, paymentAmountCents: 0, transactionDate: null, paymentMethodCode: null, paymentMethod: '', bankAccountDetails: '', reasonCode: '' };
  const paid = await db
    .select({ amountCents: payments.amountCents })
    .from(payments)
    .where(and(eq(payments.providerId, providerId), eq(payments.accountId, accountId), eq(payments.status, 'APPROVED'), ne(payments.settlement, 'RETURNED'), gte(payments.paymentDate, latest.transactionDate)));
  return {
    count: open.length,
    transactionStatusCode: latest.transactionStatusCode,
    amountCents: paid.reduce((n, p) => n + p.amountCents, 0),
    paymentAmountCents: latest.paymentAmountCents,
    transactionDate: latest.transactionDate,
    paymentMethodCode: latest.paymentMethodCode,
    paymentMethod: latest.paymentMethod,
    bankAccountDetails: latest.bankAccountDetails,
    reasonCode: latest.reasonCode,
  };
}
