// Saved payment methods (spec 2.12, 4): a card or bank account the gateway keeps for later payments,
// saved by ticking "save for later" on its hosted page. The portal holds the gateway's token and what
// the parent is shown (brand, last four digits, holder, expiry), never a number; the token never
// leaves the server. Every method is looked up within the signed-in account and provider (404
// otherwise). Paying with one is a server-to-server charge, applied like a page's payment.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { adults, applicationDrafts, paymentAttempts, paymentMethods } from '../../db/schema';
import { accountMoney } from '../billing/ledger';
import { isoDay } from '../../clock';
import { centsOfAmount } from '../../../src/engine/money';
import { fail } from '../../errors';
import { isoToMdy } from '../../../src/engine/formats';
import { processingFeeCents } from '../../paymentSettings';
import { GatewayUnavailable, TokenRefused } from '../../gateways/adapter';
import type { AttemptPayer } from '../billing/model';
import type { DraftRow } from '../enrolment/application';
import { TOKEN_REFUSED, amountToPay, answerOf, applicationToPay, attemptById, changeDue, chargeSavedMethod, closeLiveAttempts, gatewayOf, settingsOfSession } from './payments';
import type {
  BillingRestApiPaymentBody,
  BillingRestApiPaymentResponse,
  BillingSavedMethodPayerResponse,
  BillingSavedMethodsResponse,
  BillingUpdateSavedMethodBody,
  BillingUpdateSavedMethodResponse,
} from '../../../src/engine/contract.gen';

type MethodRow = typeof paymentMethods.$inferSelect;
type Attempt = typeof paymentAttempts.$inferSelect;
type SavedMethodAnswer = BillingSavedMethodsResponse[number];

/** The account's saved method of this id, or 404. */
export async function methodOfAccount(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<MethodRow> {
  const [m] = await deps.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.providerId, s.providerId), eq(paymentMethods.accountId, s.accountId)));
  if (!m) fail({ deps, lang }, 404, 'methods.errors.notFound');
  return m;
}

/** Whether a card's expiry (MM/YY, the card's last valid month) is before today's month. */
export function cardExpired(expiry: string | null, today: Date): boolean {
  const m = /^(\d{2})\/(\d{2})$/.exec(expiry ?? '');
  if (!m) return false;
  const year = 2000 + Number(m[2]);
  const month = Number(m[1]);
  return year * 12 + month < today.getFullYear() * 12 + today.getMonth() + 1;
}

/** What a row is now: EXPIRED is computed from its expiry and today. */
function statusOf(m: MethodRow, today: Date): SavedMethodAnswer['status'] {
  if (m.status === 'INVALID' || m.status === 'BLOCKED') return m.status;
  return m.paymentMethodCode === 'CCR' && cardExpired(m.expiry, today) ? 'EXPIRED' : 'ACTIVE';
}

/**
 * Why a method is not usable: the bank's return code or TOKEN_REFUSED for an INVALID or BLOCKED one;
 * ON_FILE_ONLY for one the gateway never kept (no token: a card put on file for the autopay without
 * paying on the gateway's page, as the demo's), which is shown but cannot pay on the spot.
 */
export const ON_FILE_ONLY = 'ON_FILE_ONLY';
function reasonOf(m: MethodRow): string {
  if (m.status === 'INVALID' || m.status === 'BLOCKED') return m.statusReason;
  return m.token && m.gatewayCode ? m.statusReason : ON_FILE_ONLY;
}

function answerOfMethod(m: MethodRow, today: Date): SavedMethodAnswer {
  return {
    paymentMethodID: m.id,
    paymentMethodCode: m.paymentMethodCode === 'ECR' ? 'ECR' : 'CCR',
    automaticPaymentRegistrationID: m.automaticPaymentRegistrationId ?? null,
    adultID: m.adultId,
    type: m.type,
    last4Digits: m.last4Digits,
    firstName: m.firstName,
    lastName: m.lastName,
    expiry: m.expiry ?? null,
    savedOn: isoToMdy(m.savedOn),
    usedForAutoPay: m.usedForAutoPay,
    status: statusOf(m, today),
    statusReason: reasonOf(m),
  };
}

/** The account's saved methods, oldest first; only those (not) used for autopay when asked. */
export async function savedMethodList(deps: AppDeps, s: SessionInfo, isAutoPay: boolean | undefined): Promise<BillingSavedMethodsResponse> {
  const rows = await deps.db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.providerId, s.providerId),
        eq(paymentMethods.accountId, s.accountId),
        isAutoPay === undefined ? undefined : eq(paymentMethods.usedForAutoPay, isAutoPay),
      ),
    )
    .orderBy(paymentMethods.savedOn, paymentMethods.id);
  const today = deps.today();
  return rows.map((m) => answerOfMethod(m, today));
}

/** A gateway call about a saved method; the gateway not answering is 503 (nothing changed here). */
async function atGateway<T>(deps: AppDeps, lang: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof GatewayUnavailable)) throw e;
    deps.log?.warn({ err: e.message }, 'payment gateway unavailable for a saved method');
    fail({ deps, lang }, 503, 'payment.errors.gatewayUnavailable');
  }
}

/** Removes a saved method: forgotten at the gateway first, then here. Not while it pays an autopay. */
export async function removeSavedMethod(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<{ removed: boolean }> {
  const m = await methodOfAccount(deps, s, id, lang);
  if (m.usedForAutoPay) fail({ deps, lang }, 409, 'methods.errors.usedForAutoPay');
  // a charge of it still waiting for the gateway's answer needs its token
  const [live] = await deps.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.paymentMethodId, m.id), eq(paymentAttempts.status, 'CREATED')));
  if (live) fail({ deps, lang }, 409, 'payment.errors.inProgress');
  if (m.token && m.gatewayCode) {
    const gateway = gatewayOf(deps, lang, m.gatewayCode);
    const token = m.token;
    try {
      await atGateway(deps, lang, () => gateway.deleteToken(token));
    } catch (e) {
      // the gateway does not know the token: nothing is left there to forget
      if (!(e instanceof TokenRefused)) throw e;
      deps.log?.warn({ err: e.message, paymentMethodId: m.id }, 'payment gateway no longer knows a removed method\'s token');
    }
  }
  await deps.db.delete(paymentMethods).where(and(eq(paymentMethods.id, m.id), eq(paymentMethods.accountId, s.accountId)));
  return { removed: true };
}

/** The saved method an update names, checked before the form is validated: the account's, a card. */
export async function savedCardFacts(deps: AppDeps, s: SessionInfo, id: unknown, lang: string): Promise<Record<string, unknown>> {
  const m = await methodOfAccount(deps, s, Number(id), lang);
  if (m.paymentMethodCode !== 'CCR') fail({ deps, lang }, 409, 'methods.errors.cardsOnly');
  return {};
}

/** A saved card's new expiry and holder: changed in place at the gateway (same token), then here. */
export async function updateSavedMethod(deps: AppDeps, s: SessionInfo, values: BillingUpdateSavedMethodBody, lang: string): Promise<BillingUpdateSavedMethodResponse> {
  const m = await methodOfAccount(deps, s, values.paymentMethodID, lang);
  if (m.paymentMethodCode !== 'CCR') fail({ deps, lang }, 409, 'methods.errors.cardsOnly');
  const expiry = `${values.expiryMonth}/${values.expiryYear.slice(-2)}`;
  const today = deps.today();
  if (cardExpired(expiry, today)) fail({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: [{ path: '/expiryYear', key: 'methods.errors.expiryPast' }] });
  const firstName = values.firstName.trim();
  const lastName = values.lastName.trim();
  if (m.token && m.gatewayCode) {
    const gateway = gatewayOf(deps, lang, m.gatewayCode);
    const token = m.token;
    let answer;
    try {
      answer = await atGateway(deps, lang, () => gateway.updateToken({ token, expiry, holderName: `${firstName} ${lastName}` }));
    } catch (e) {
      if (!(e instanceof TokenRefused)) throw e;
      // the gateway no longer knows the token: the method can be neither updated nor charged
      deps.log?.warn({ err: e.message, paymentMethodId: m.id }, 'payment gateway refused a saved method\'s token');
      await deps.db.update(paymentMethods).set({ status: 'INVALID', statusReason: TOKEN_REFUSED }).where(eq(paymentMethods.id, m.id));
      fail({ deps, lang }, 409, 'methods.errors.noLongerUpdatable');
    }
    // a method the gateway no longer charges is not updated here either
    if (answer.savedMethod.status === 'INVALID') fail({ deps, lang }, 409, 'methods.errors.gatewayRefused');
  }
  const [updated] = await deps.db
    .update(paymentMethods)
    .set({ expiry, firstName, lastName })
    .where(and(eq(paymentMethods.id, m.id), eq(paymentMethods.accountId, s.accountId)))
    .returning();
  if (!updated) fail({ deps, lang }, 404, 'methods.errors.notFound');
  return answerOfMethod(updated, today);
}

/** The payer on file of a saved method: the adult who saved it, with the address on file. */
export async function savedMethodPayer(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<BillingSavedMethodPayerResponse> {
  const m = await methodOfAccount(deps, s, id, lang);
  const [a] = await deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.id, m.adultId), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId)));
  if (!a) fail({ deps, lang }, 404, 'methods.errors.notFound');
  return {
    adultID: a.id,
    firstName: a.firstName,
    lastName: a.lastName,
    streetAddress: a.streetAddress,
    apartmentNo: a.apartmentNo,
    city: a.city,
    stateCode: a.stateCode,
    zip: a.zip,
    email: a.email,
  };
}

/** A saved method that cannot be charged now is refused with the reason the parent can act on. */
function refuseUnchargeable(deps: AppDeps, m: MethodRow, lang: string): void {
  if (m.status === 'INVALID') fail({ deps, lang }, 409, 'methods.errors.invalid');
  if (m.status === 'BLOCKED') fail({ deps, lang }, 409, 'methods.errors.blocked');
  if (!m.token || !m.gatewayCode) fail({ deps, lang }, 409, 'methods.errors.notChargeable');
  if (m.paymentMethodCode === 'CCR' && cardExpired(m.expiry, deps.today())) fail({ deps, lang }, 409, 'methods.errors.expired');
}

/**
 * Pays with a saved method, server to server: the amount as startPayment fixes it, one attempt per
 * idempotency key, the gateway's charge asked with the attempt's key and applied once. When the
 * gateway does not answer, the attempt stays open (PENDING) and the reconciler asks again.
 */
export async function restApiPayment(deps: AppDeps, session: SessionInfo, body: BillingRestApiPaymentBody, lang: string): Promise<BillingRestApiPaymentResponse> {
  const { settings } = await settingsOfSession(deps, session);
  if (!settings.paymentEnabled) fail({ deps, lang }, 403, 'payment.errors.disabled');
  const m = await methodOfAccount(deps, session, body.paymentMethodID, lang);
  // a change's attempt has the server's key, one per try as its hosted page's: a double click finds the
  // same attempt, a try after a decline a new one, a try after it was paid nothing left due
  // (an application's payment is the application's, whatever else the request names: as newSavedCharge)
  if (body.changeKey && !body.applicationKey) body = { ...body, idempotencyKey: await changeChargeKey(deps, session, body.changeKey, m.id) };
  const byKey = and(eq(paymentAttempts.providerId, session.providerId), eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.idempotencyKey, body.idempotencyKey));
  // the same key again (a double click, a refresh) answers its attempt, whatever was paid since
  const [found] = await deps.db.select().from(paymentAttempts).where(byKey);
  const attempt = found ?? (await newSavedCharge(deps, session, body, m, lang));
  // the same key with another method, amount or application is not this payment asked again
  if (!(await sameRequest(deps, session, attempt, body, m))) fail({ deps, lang }, 409, 'payment.errors.keyReused');
  if (attempt.status !== 'CREATED') return answerOfCharge(deps, attempt, lang);
  try {
    return answerOfCharge(deps, await chargeSavedMethod(deps, attempt), lang);
  } catch (e) {
    if (!(e instanceof GatewayUnavailable)) throw e;
    // the charge may or may not have been made: the reconciler asks again with the same key
    deps.log?.warn({ err: e.message, attempt: attempt.publicId }, 'payment gateway unavailable for a saved-method charge');
    return answerOf(await attemptById(deps.db, attempt.id));
  }
}


/** Where a change's payment goes on: its confirmation (the hosted page's return goes there too). */
const changeReferrer = (changeKey: string) => `/changeschedule/confirmation?key=${changeKey}`;

/** The key of a change's saved-method charge: the change, the method and the tries ended before. */
async function changeChargeKey(deps: AppDeps, session: SessionInfo, changeKey: string, methodId: number): Promise<string> {
  const tries = await deps.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.referrer, changeReferrer(changeKey)), ne(paymentAttempts.status, 'CREATED')));
  return createHash('sha256').update(`change:${changeKey}:saved:${methodId}:${tries.length}`).digest('hex').slice(0, 32);
}

/** A charge's answer; one the gateway refused for its token says so in the parent's language. */
function answerOfCharge(deps: AppDeps, a: Attempt, lang: string): BillingRestApiPaymentResponse {
  if (a.status === 'DECLINED' && a.reasonCode === TOKEN_REFUSED) fail({ deps, lang }, 409, 'methods.errors.tokenRefused');
  return answerOf(a);
}

/**
 * Whether a request with an attempt's key asks for that attempt's payment: the same method and
 * application, and the same amount. A balance asked for again is the same while the first is not
 * approved (an approved one has changed the balance); an application's amount is the server's.
 */
async function sameRequest(deps: AppDeps, session: SessionInfo, attempt: Attempt, body: BillingRestApiPaymentBody, m: MethodRow): Promise<boolean> {
  if (attempt.paymentMethodId !== m.id) return false;
  if (body.changeKey && !body.applicationKey) return attempt.purpose === 'CHANGE' && attempt.referrer === changeReferrer(body.changeKey);
  if (body.applicationKey) {
    const [d] = await deps.db
      .select({ id: applicationDrafts.id })
      .from(applicationDrafts)
      .where(and(eq(applicationDrafts.key, body.applicationKey), eq(applicationDrafts.providerId, session.providerId), eq(applicationDrafts.accountId, session.accountId)));
    return !!d && attempt.draftId === d.id;
  }
  if (attempt.draftId !== null) return false;
  if ((body.amountChoice ?? 'balance') !== 'balance') return centsOfAmount(body.otherAmount ?? '') === attempt.amountCents;
  if (attempt.status === 'APPROVED') return true;
  const money = await accountMoney(deps.db, session.providerId, session.accountId, isoDay(deps.today()));
  return money.balanceCents === attempt.amountCents;
}

/** The attempt of a new saved-method charge (or the one the same key made at the same moment). */
async function newSavedCharge(deps: AppDeps, session: SessionInfo, body: BillingRestApiPaymentBody, m: MethodRow, lang: string): Promise<Attempt> {
  const { settings } = await settingsOfSession(deps, session);
  const kind = m.paymentMethodCode === 'ECR' ? 'ECH' : 'CCD';
  let amountCents: number;
  let application: DraftRow | undefined;
  if (body.applicationKey) ({ application, amountCents } = await applicationToPay(deps, session, body.applicationKey, lang));
  else if (body.changeKey) {
    // what the sent change left due now (its own payments deducted, at most the balance)
    amountCents = await changeDue(deps, session, body.changeKey, lang);
    if (!Number.isFinite(amountCents)) fail({ deps, lang }, 409, 'payment.errors.nothingToPay');
  } else {
    amountCents = await amountToPay(deps, session, body.amountChoice ?? 'balance', body.otherAmount);
    if (!Number.isFinite(amountCents)) fail({ deps, lang }, 400, 'payment.errors.amount');
  }
  const feeCents = processingFeeCents(settings.processingFee[kind], amountCents);
  refuseUnchargeable(deps, m, lang);
  const gatewayCode = m.gatewayCode ?? 0;
  gatewayOf(deps, lang, gatewayCode);
  // another tab's hosted page is closed first; when it was paid meanwhile, nothing more is charged
  if ((await closeLiveAttempts(deps, session, lang, body.idempotencyKey)) > 0) fail({ deps, lang }, 409, 'payment.errors.justPaid');
  const [a] = await deps.db.select().from(adults).where(and(eq(adults.id, m.adultId), eq(adults.accountId, session.accountId)));
  const payer = attemptPayerOf(m, a);
  const [inserted] = await deps.db
    .insert(paymentAttempts)
    .values({
      providerId: session.providerId,
      accountId: session.accountId,
      adultId: session.adultId,
      publicId: randomBytes(16).toString('hex'),
      idempotencyKey: body.idempotencyKey,
      purpose: application ? 'APPLICATION' : body.changeKey ? 'CHANGE' : 'BALANCE',
      draftId: application?.id ?? null,
      holdUntil: application?.holdUntil ?? null,
      amountCents,
      feeCents,
      paymentMethodCode: m.paymentMethodCode,
      paymentMethodId: m.id,
      gatewayCode,
      payer,
      referrer: application ? `/confirmation?key=${application.key}` : body.changeKey ? changeReferrer(body.changeKey) : '/paynow',
      locale: lang,
      createdAt: deps.clock(),
    })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  // the same key at the same moment (a double click), or another tab's payment (one live attempt)
  const [same] = await deps.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.providerId, session.providerId), eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.idempotencyKey, body.idempotencyKey)));
  if (!same) fail({ deps, lang }, 409, 'payment.errors.inProgress');
  return same;
}

/** The payer of a charge on a saved method: the method's name, the adult's address and contacts. */
export function attemptPayerOf(
  m: { adultId: number; firstName: string; lastName: string },
  a: { streetAddress: string | null; apartmentNo: string | null; city: string | null; stateCode: string | null; zip: string | null; cellPhone: string | null; homePhone: string | null; email: string | null } | undefined,
): AttemptPayer {
  return {
    paidByFamilyMemberID: m.adultId,
    firstName: m.firstName,
    lastName: m.lastName,
    streetAddress: a?.streetAddress ?? '',
    apartmentNo: a?.apartmentNo ?? '',
    city: a?.city ?? '',
    stateCode: a?.stateCode ?? '',
    zip: a?.zip ?? '',
    phone: a?.cellPhone || a?.homePhone || '',
    email: a?.email ?? '',
    driverLicence: '',
  };
}
