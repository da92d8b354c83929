// Pay now (spec 2.12, 7.1, amendment 6): the payer is validated with the payer form, the amount and
// processing fee are fixed here, and the parent pays on the gateway's hosted page. A payment is
// applied from the gateway's signed notification or from the gateway's answer to a server-side query
// when the parent returns, never from the browser's word. Every attempt carries an idempotency key;
// an attempt's status moves once, by one conditional UPDATE, so a double click, a refresh, a replayed
// or reordered notification never posts twice.
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, ne } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type { Db, DbOrTx, Tx } from '../../db/index';
import { accounts, adults, applicationDrafts, autopayAgreements, autopayRegistrations, customTexts, gatewayEvents, ledgerEntries, logins, outbox, paymentAttempts, paymentMethods, payments, providers, type AutopayRequest } from '../../db/schema';
import { fail } from '../../errors';
import { isoDay, todayMdy } from '../../clock';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { textIn } from '../../providerTexts';
import { ruleContextOf, safeHtml } from '../provider/provider';
import { accountMoney } from '../billing/ledger';
import { amountOfCents, centsOfAmount, moneyText } from '../../../src/engine/money';
import { dateInLanguage } from '../../../src/engine/formats';
import { isTrue } from '../../../src/engine/index';
import { METHOD_KINDS, processingFeeCents, type PaymentSettings } from '../../paymentSettings';
import { CheckoutClosed, GatewayUnavailable, TokenRefused, type PaymentGateway, type VerifiedNotification } from '../../gateways/adapter';
import { RETURN_ROUTES } from '../../gateways/registry';
import type { GatewayTransaction } from '../../../sandbox-gateway/protocol';
import type { DraftRow } from '../enrolment/application';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';
import { applicationOwes, applicationPaid, refundPayment, releaseExpiredHolds } from '../enrolment/applicationPayment';
import { changeOf } from '../enrolment/changeSchedule';
import { payerText, type AttemptPayer } from '../billing/model';
import { joinLicence } from '../people/shared';
import { applySettlementNotice, returnReasonOf } from './settlement';
import { mailAgreement } from './autopayAgreement';
import type {
  BillingConfigurationResponse,
  BillingPayersResponse,
  BillingPaymentOptionsResponse,
  BillingPaymentResultBody,
  BillingPaymentResultResponse,
  BillingProcessingFeeQuery,
  BillingProcessingFeeResponse,
  BillingReceiptResponse,
  BillingStartPaymentBody,
  BillingStartPaymentResponse,
} from '../../../src/engine/contract.gen';

type Attempt = typeof paymentAttempts.$inferSelect;

async function providerOfSession(deps: AppDeps, s: SessionInfo) {
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, s.providerId));
  return p;
}

export async function settingsOfSession(deps: AppDeps, s: SessionInfo): Promise<{ settings: PaymentSettings; provider: typeof providers.$inferSelect }> {
  const provider = await providerOfSession(deps, s);
  return { settings: deps.settings(provider.appName).payments, provider };
}

export function gatewayOf(deps: AppDeps, lang: string, code: number): PaymentGateway {
  const g = deps.gateways?.(code);
  if (!g) fail({ deps, lang }, 503, 'payment.errors.gatewayUnavailable');
  return g;
}

/** The account holders who may pay (spec 3 Paid-by list entry): primary first. */
async function payersOf(deps: AppDeps, s: SessionInfo) {
  return deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), inArray(adults.accountHolder, [1, 2]), eq(adults.deleted, false)))
    .orderBy(asc(adults.accountHolder), asc(adults.id));
}

/** What an application still owes now, from its amount due and the account's ledger (applicationOwes). */
async function applicationOwesNow(deps: AppDeps, d: DraftRow): Promise<number> {
  if ((d.paymentStatus !== 'AWAITING' && d.paymentStatus !== 'LATER') || d.amountDueCents <= 0) return 0;
  const money = await accountMoney(deps.db, d.providerId, d.accountId, isoDay(deps.today()));
  return applicationOwes(d.amountDueCents, money.balanceCents);
}

/** What a submitted application of the account has to pay now; NaN when nothing (or not the account's). */
async function applicationDue(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<number> {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.providerId, s.providerId), eq(applicationDrafts.accountId, s.accountId)));
  if (!d) fail({ deps, lang }, 404, 'payment.errors.notFound');
  const owes = await applicationOwesNow(deps, d);
  return owes > 0 ? owes : NaN;
}

/**
 * What a sent change of schedule left due now (spec 2.12 origin submitchangeschedule): its amount due
 * at submit less its own approved payments, at most the account's balance; NaN when nothing is left
 * to pay or the change is not sent. The key is the signed-in account's or refused.
 */
export async function changeDue(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<number> {
  const r = await changeOf(deps, s, key, lang);
  if (r.status === 'open' || r.status === 'rejected' || r.amountDueCents <= 0) return NaN;
  // what its own payments (approved, back at its confirmation) paid already
  const paid = await deps.db
    .select({ amountCents: paymentAttempts.amountCents })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.accountId, s.accountId), eq(paymentAttempts.purpose, 'CHANGE'), eq(paymentAttempts.referrer, `/changeschedule/confirmation?key=${key}`), eq(paymentAttempts.status, 'APPROVED')));
  const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
  const owes = Math.min(r.amountDueCents - paid.reduce((n, p) => n + p.amountCents, 0), money.balanceCents);
  return owes > 0 ? owes : NaN;
}

/**
 * The amount to pay, checked with the payNow form (the same schema and rules as the browser): the
 * account's balance from its ledger, or the other amount the parent typed (not when the account
 * hides it). NaN when it is not a payable amount.
 */
export async function amountToPay(deps: AppDeps, s: SessionInfo, choice: string, other: string | undefined): Promise<number> {
  const [acc] = await deps.db.select().from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  const rc = await ruleContextOf(deps.db, s, deps.releaseVersion);
  // the most one payment may be (the provider's maxPaymentCents): a larger balance is paid in parts
  const maxCents = deps.settings(rc.appName).payments.maxPaymentCents;
  if (choice === 'balance') {
    const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
    return money.balanceCents > 0 && money.balanceCents <= maxCents ? money.balanceCents : NaN;
  }
  if (acc.hideOtherAmount) return NaN;
  const decl = deps.declarations.get(rc.appName);
  if (!decl) return NaN;
  // the same data the Pay now screen gives the form (Billing.paymentOptions)
  const data = { paymentOptions: { maxPaymentAmount: amountOfCents(maxCents) } };
  const checked = decl.engine.validate('payNow', { amountChoice: choice, otherAmount: other ?? '' }, { session: rc.session, provider: rc.provider, today: todayMdy(deps.today), data });
  if (!checked.valid) return NaN;
  // the payNow form has checked the text: positive, at most 2 decimals
  const cents = centsOfAmount(other ?? '');
  return cents > 0 ? cents : NaN;
}

/**
 * A submitted application's fees due now while its seats are held: refused when its hold ended or it
 * is paid (marked paid when the balance's payment covered it meanwhile).
 */
/** Where an application's payment goes on in its own product once the gateway answers. */
function applicationReferrer(application: DraftRow): string {
  if (application.applicationTypeId === APPLICATION_TYPE.oneTime) return `/submission?key=${application.key}`;
  if (application.applicationTypeId === APPLICATION_TYPE.calendar) return `/payment?key=${application.key}`;
  if (application.applicationTypeId === APPLICATION_TYPE.punchPass) return `/payment?key=${application.key}`;
  return `/confirmation?key=${application.key}`;
}

export async function applicationToPay(deps: AppDeps, session: SessionInfo, key: string, lang: string): Promise<{ application: DraftRow; amountCents: number }> {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.providerId, session.providerId), eq(applicationDrafts.accountId, session.accountId)));
  if (!d) fail({ deps, lang }, 404, 'payment.errors.notFound');
  await releaseExpiredHolds(deps, { draftId: d.id });
  const [application] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, d.id));
  if (application.paymentStatus === 'EXPIRED' || application.paymentStatus === 'REFUNDED') fail({ deps, lang }, 409, 'payment.errors.holdEnded');
  if (application.paymentStatus === 'PAID') fail({ deps, lang }, 409, 'payment.errors.alreadyPaid');
  if (application.paymentStatus !== 'AWAITING' && application.paymentStatus !== 'LATER') fail({ deps, lang }, 409, 'payment.errors.nothingToPay');
  const amountCents = await applicationOwesNow(deps, application);
  if (amountCents <= 0) {
    // the balance was paid meanwhile (Pay now after Pay later): the application is paid, its seats stay
    await deps.db
      .update(applicationDrafts)
      .set({ paymentStatus: 'PAID', holdUntil: null })
      .where(and(eq(applicationDrafts.id, application.id), inArray(applicationDrafts.paymentStatus, ['AWAITING', 'LATER'])));
    fail({ deps, lang }, 409, 'payment.errors.alreadyPaid');
  }
  return { application, amountCents };
}

/** The provider's payment options for the Pay now screen. */
export async function paymentOptions(deps: AppDeps, s: SessionInfo, lang: string): Promise<BillingPaymentOptionsResponse> {
  const { settings, provider } = await settingsOfSession(deps, s);
  return {
    paymentEnabled: settings.paymentEnabled,
    autoPaymentForCCEnabled: settings.autoPaymentForCCEnabled,
    autoPaymentForECheckEnabled: settings.autoPaymentForECheckEnabled,
    telephoneRequiredForPayment: settings.telephoneRequiredForPayment,
    emailRequiredForPayment: settings.emailRequiredForPayment,
    zipCodeRequiredForPayment: settings.zipCodeRequiredForPayment,
    methods: METHOD_KINDS.filter((k) => settings.gateways[k] > 0).map((k) => ({ paymentMethodCode: k, gatewayCode: settings.gateways[k] })),
    driverLicence: settings.driverLicence,
    countryCode: provider.countryCode,
    maxPaymentAmount: amountOfCents(settings.maxPaymentCents),
    maxPaymentText: moneyText(settings.maxPaymentCents, lang, provider.countryCode),
    formCustomID: settings.autopayForm,
    bankReturnFee: amountOfCents(settings.bankReturnFeeCents),
  };
}

/** The provider's refund policy (its REFUND_POLICY custom text) in the language, or null. */
export async function refundPolicy(db: Db, providerId: number, lang: string): Promise<BillingConfigurationResponse> {
  const [row] = await db.select().from(customTexts).where(and(eq(customTexts.providerId, providerId), eq(customTexts.contentType, 'REFUND_POLICY')));
  return { refundPolicy: row ? safeHtml(textIn(row, 'body', lang)) : null };
}

/** The amount to pay (an application's fees due now, or the balance or another amount) and each offered method's fee and total. */
export async function processingFee(deps: AppDeps, s: SessionInfo, query: BillingProcessingFeeQuery, lang: string): Promise<BillingProcessingFeeResponse> {
  const { settings } = await settingsOfSession(deps, s);
  const amount = query.ApplicationKey
    ? await applicationDue(deps, s, query.ApplicationKey, lang)
    : query.ChangeKey
      ? await changeDue(deps, s, query.ChangeKey, lang)
      : await amountToPay(deps, s, query.AmountChoice ?? 'balance', query.Amount);
  const valid = Number.isFinite(amount);
  // a saved card's fee is a card's, a saved bank account's a bank account's
  const wanted = query.PaymentMethod === 'CCR' ? 'CCD' : query.PaymentMethod === 'ECR' ? 'ECH' : query.PaymentMethod;
  const kinds = METHOD_KINDS.filter((k) => settings.gateways[k] > 0 && (!wanted || wanted === k));
  return {
    amount: valid ? amountOfCents(amount) : 0,
    valid,
    methods: valid
      ? kinds.map((k) => {
          const fee = processingFeeCents(settings.processingFee[k], amount);
          return { paymentMethodCode: k, label: deps.t(lang, `payment.method.${k}`), processingFee: amountOfCents(fee), total: amountOfCents(amount + fee) };
        })
      : [],
  };
}

/** The account holders who may pay, offered in the payer form's Paid-by list. */
export async function payerList(deps: AppDeps, s: SessionInfo): Promise<BillingPayersResponse> {
  const rows = await payersOf(deps, s);
  return rows.map((a) => ({
    adultID: a.id,
    fullName: `${a.firstName} ${a.lastName}`,
    primaryPayer: a.accountHolder === 1,
    firstName: a.firstName,
    lastName: a.lastName,
    streetAddress: a.streetAddress,
    apartmentNo: a.apartmentNo,
    city: a.city,
    stateCode: a.stateCode,
    zip: a.zip,
    homePhone: a.homePhone,
    cellPhone: a.cellPhone,
    email: a.email,
  }));
}

/** An existing adult pays under the name on file (spec 2.12: the name fields are disabled for one). */
export async function payerFacts(deps: AppDeps, s: SessionInfo, paidByFamilyMemberID: unknown, lang: string): Promise<Record<string, unknown>> {
  const id = Number(paidByFamilyMemberID ?? 0);
  if (id <= 0) return {};
  const payer = (await payersOf(deps, s)).find((a) => a.id === id);
  if (!payer) fail({ deps, lang }, 404, 'payment.errors.payerNotFound');
  return { firstName: payer.firstName, lastName: payer.lastName };
}

/**
 * What the payer form's rules read as `$data`: the provider's payment settings, and its autopay form
 * variant as Billing.paymentOptions answers it to the payer page (autopay.showCheckbox, payment.showSaveCard).
 */
export async function payerRuleData(deps: AppDeps, s: SessionInfo): Promise<Record<string, unknown>> {
  const { settings } = await settingsOfSession(deps, s);
  return { paymentOptions: settings, autopayForm: autopayFormData(settings) };
}

function autopayFormData(settings: PaymentSettings): { formCustomID: PaymentSettings['autopayForm'] } {
  return { formCustomID: settings.autopayForm };
}

/**
 * Spec 4: "save for later" counts only where the payer page offers it, by the declared rule the page
 * shows its box with (payment.showSaveCard: an SPM autopay form variant, a new card or bank account,
 * autopay not chosen, autopay.chosen reading the same payment options). A flag sent otherwise is dropped, as the payer form drops a hidden field's value.
 */
function saveOffered(deps: AppDeps, appName: string, settings: PaymentSettings, method: string, values: BillingStartPaymentBody): boolean {
  const decl = deps.declarations.get(appName);
  if (!decl) return false;
  return isTrue(decl.set.rules, 'payment.showSaveCard', { form: values, data: { paymentOptions: settings, autopayForm: autopayFormData(settings) }, flow: { data: { paymentMethodCode: method } } });
}

/**
 * Opens the gateway's hosted page for a payment: a submitted application's fees while its seats are
 * held, or the balance or another amount; `values` are the payer form's checked values.
 */
export async function startPayment(deps: AppDeps, session: SessionInfo, body: BillingStartPaymentBody, values: BillingStartPaymentBody, lang: string, autopayRequest: AutopayRequest | null = null): Promise<BillingStartPaymentResponse> {
  const { settings, provider } = await settingsOfSession(deps, session);
  if (!settings.paymentEnabled) fail({ deps, lang }, 403, 'payment.errors.disabled');
  const method = body.paymentMethodCode;
  const gatewayCode = settings.gateways[method];
  if (!gatewayCode) fail({ deps, lang }, 400, 'payment.errors.methodNotOffered');
  const gateway = gatewayOf(deps, lang, gatewayCode);
  // what is paid: a submitted application's fees while its seats are held, or the balance or another amount
  let amountCents: number;
  let idempotencyKey: string;
  let application: DraftRow | undefined;
  let referrer = '/paynow';
  if (body.applicationKey) {
    ({ application, amountCents } = await applicationToPay(deps, session, body.applicationKey, lang));
    // one key per try: a double click finds the same attempt, a try after a decline a new one
    const tries = await deps.db.select({ id: paymentAttempts.id }).from(paymentAttempts).where(and(eq(paymentAttempts.draftId, application.id), ne(paymentAttempts.status, 'CREATED')));
    idempotencyKey = createHash('sha256').update(`${application.key}:${method}:${tries.length}`).digest('hex').slice(0, 32);
  } else if (body.changeKey) {
    amountCents = await changeDue(deps, session, body.changeKey, lang);
    if (!Number.isFinite(amountCents)) fail({ deps, lang }, 409, 'payment.errors.nothingToPay');
    referrer = `/changeschedule/confirmation?key=${body.changeKey}`;
    // one key per try, as an application's: a double click finds the same attempt, a try after a decline a new one
    const tries = await deps.db
      .select({ id: paymentAttempts.id })
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.referrer, referrer), ne(paymentAttempts.status, 'CREATED')));
    idempotencyKey = createHash('sha256').update(`change:${body.changeKey}:${method}:${tries.length}`).digest('hex').slice(0, 32);
  } else {
    if (!body.idempotencyKey) fail({ deps, lang }, 400, 'payment.errors.amount');
    amountCents = await amountToPay(deps, session, body.amountChoice ?? 'balance', body.otherAmount);
    if (!Number.isFinite(amountCents)) fail({ deps, lang }, 400, 'payment.errors.amount');
    idempotencyKey = body.idempotencyKey;
  }
  const feeCents = processingFeeCents(settings.processingFee[method], amountCents);
  const str = (k: keyof typeof values) => {
    const x = values[k];
    return typeof x === 'string' ? x : '';
  };
  const payer: AttemptPayer = {
    paidByFamilyMemberID: Number(values.paidByFamilyMemberID ?? 0),
    firstName: str('firstName'),
    lastName: str('lastName'),
    streetAddress: str('streetAddress'),
    apartmentNo: str('apartmentNo'),
    city: str('city'),
    stateCode: str('stateCode'),
    zip: str('zip'),
    phone: str('homecellphone'),
    email: str('email'),
    // spec 3 Driver licence value: state $$ number, just the number without a state (as a contact's)
    driverLicence: joinLicence(str('driverLicenseState'), str('driverLicenseNumber')),
  };
  const now = deps.clock();
  const [same] = await deps.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.providerId, session.providerId), eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.idempotencyKey, idempotencyKey)));
  // one payable page per account: another tab's or another method's page is closed at its gateway
  // first; when it was paid meanwhile, that payment is applied and this one is not started
  if (!same && (await closeLiveAttempts(deps, session, lang, idempotencyKey)) > 0) fail({ deps, lang }, 409, 'payment.errors.justPaid');
  const inserted = await deps.db
    .insert(paymentAttempts)
    .values({
      providerId: session.providerId,
      accountId: session.accountId,
      adultId: session.adultId,
      publicId: randomBytes(16).toString('hex'),
      idempotencyKey,
      purpose: application ? 'APPLICATION' : body.changeKey ? 'CHANGE' : 'BALANCE',
      draftId: application?.id ?? null,
      holdUntil: application?.holdUntil ?? null,
      amountCents,
      feeCents,
      paymentMethodCode: method,
      gatewayCode,
      // an enrolment in autopay keeps the method the payment is made with (the autopay charges its token)
      saveMethod: autopayRequest !== null || (body.saveCard === true && saveOffered(deps, provider.appName, settings, method, values)),
      autopayRequest,
      payer,
      // a one-time enrolment's payment (origin submitonetime) goes on at its submission page
      // a calendar's flex dates go on at the child's calendar
      referrer: application ? applicationReferrer(application) : referrer,
      locale: lang,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  let attempt = inserted[0];
  if (!attempt) {
    // the same key again: a double click, a refresh, the back button
    [attempt] = await deps.db
      .select()
      .from(paymentAttempts)
      .where(and(eq(paymentAttempts.providerId, session.providerId), eq(paymentAttempts.accountId, session.accountId), eq(paymentAttempts.idempotencyKey, idempotencyKey)));
    // not this key: another tab opened its payment at the same moment (the one-live-attempt index)
    if (!attempt) fail({ deps, lang }, 409, 'payment.errors.inProgress');
    // the same key with another amount, method or application is not this payment asked again
    if (attempt.amountCents !== amountCents || attempt.paymentMethodCode !== method || attempt.draftId !== (application?.id ?? null)) fail({ deps, lang }, 409, 'payment.errors.keyReused');
    if (attempt.status === 'APPROVED') fail({ deps, lang }, 409, 'payment.errors.alreadyPaid');
    if (attempt.status !== 'CREATED') fail({ deps, lang }, 409, 'payment.errors.attemptClosed');
    if (attempt.checkoutUrl) return { checkoutUrl: attempt.checkoutUrl, paymentID: attempt.publicId };
  }
  const base = (deps.linkBase ?? '').replace(/\/$/, '');
  // an application's payment returns to the application's own return route
  const product = !application ? 'parentportal' : application.applicationTypeId === APPLICATION_TYPE.oneTime ? 'onetimeenrollment' : application.applicationTypeId === APPLICATION_TYPE.calendar ? 'flexcalendar' : application.applicationTypeId === APPLICATION_TYPE.punchPass ? 'punchpass' : 'parentapplication';
  const returnUrl = `${base}/${product}${RETURN_ROUTES[gatewayCode] ?? '/bluepayresponse'}`;
  let checkout;
  try {
    checkout = await gateway.createCheckout({
      // the gateway keeps the first checkout of a key: two racing requests get one page
      idempotencyKey: attempt.publicId,
      merchantName: provider.organisation,
      amountCents: amountCents + feeCents,
      currency: provider.countryCode === 'CA' ? 'CAD' : 'USD',
      method: method === 'CCD' ? 'CARD' : 'BANK',
      reference: attempt.publicId,
      returnUrl,
      notifyUrl: `${base}/api/Billing/payment/notification/${gatewayCode}`,
      cancelUrl: returnUrl,
      locale: lang,
      // the hosted page offers "save for later": the number stays at the gateway, the portal gets a token
      ...(attempt.saveMethod ? { offerSave: true } : {}),
      // an autopay enrolment keeps the method whatever is ticked there: the autopay charges its token
      ...(attempt.autopayRequest ? { saveRequired: true } : {}),
      payer: { firstName: payer.firstName, lastName: payer.lastName, street: payerStreet(payer), city: payer.city, state: payer.stateCode, zip: payer.zip, country: provider.countryCode, email: payer.email, phone: payer.phone },
    });
  } catch (e) {
    // another tab closed this attempt at the gateway before its page opened (its row may not say so yet)
    if (e instanceof CheckoutClosed) {
      await deps.db
        .update(paymentAttempts)
        .set({ status: 'CANCELLED', reasonCode: 'REPLACED', completedAt: deps.clock() })
        .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'CREATED')));
      fail({ deps, lang }, 409, 'payment.errors.inProgress');
    }
    if (e instanceof GatewayUnavailable) {
      // another tab closed this attempt while its page was being opened
      if ((await attemptById(deps.db, attempt.id)).status !== 'CREATED') fail({ deps, lang }, 409, 'payment.errors.inProgress');
      deps.log?.warn({ err: e.message }, 'payment gateway unavailable');
      fail({ deps, lang }, 503, 'payment.errors.gatewayUnavailable');
    }
    throw e;
  }
  const [opened] = await deps.db
    .update(paymentAttempts)
    .set({ checkoutId: checkout.checkoutId, checkoutUrl: checkout.url })
    .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'CREATED')))
    .returning();
  // closed meanwhile by another tab (its gateway refuses to take a payment on this page)
  if (!opened) fail({ deps, lang }, 409, 'payment.errors.inProgress');
  return { checkoutUrl: checkout.url, paymentID: attempt.publicId };
}

/** Spec 9: '#' joins apartment and street (APT#STREET); the street alone without an apartment. */
export function payerStreet(p: Pick<AttemptPayer, 'apartmentNo' | 'streetAddress'>): string {
  const apartment = p.apartmentNo.trim();
  const street = p.streetAddress.trim();
  return apartment && street ? `${apartment}#${street}` : apartment || street;
}

/** The parent is back from the gateway's page: the attempt's outcome, from the gateway's own word. */
export async function paymentResult(deps: AppDeps, session: SessionInfo, body: BillingPaymentResultBody, lang: string): Promise<BillingPaymentResultResponse> {
  // a return naming no gateway of this portal is not a gateway's return
  const gateway = deps.gateways?.(body.gatewayCode);
  if (!gateway) fail({ deps, lang }, 400, 'payment.errors.badReturn');
  const q = { checkout: body.checkout, transaction: body.transaction, status: body.status };
  if (!gateway.verifyReturn(q, body.sig)) fail({ deps, lang }, 400, 'payment.errors.badReturn');
  const [attempt] = await deps.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.checkoutId, body.checkout), eq(paymentAttempts.gatewayCode, body.gatewayCode), eq(paymentAttempts.providerId, session.providerId), eq(paymentAttempts.accountId, session.accountId)));
  if (!attempt) fail({ deps, lang }, 404, 'payment.errors.notFound');
  let current = attempt;
  if (attempt.status === 'CREATED') {
    if (body.status === 'CANCELLED') {
      // cancelled at the gateway too, so the page (open in another tab) takes no payment; a
      // payment it took first is applied instead
      try {
        current = await closeAttempt(deps, attempt, 'CANCELLED');
      } catch (e) {
        if (!(e instanceof GatewayUnavailable)) throw e;
        // the reconciler closes it once the gateway answers; the parent goes back meanwhile
        deps.log?.warn({ err: e.message }, 'payment gateway unavailable to cancel a checkout');
        return { ...answerOf(attempt), status: 'CANCELLED' as const };
      }
    } else {
      // the gateway's own word, not the browser's
      let tx: GatewayTransaction | null = null;
      try {
        tx = (await gateway.queryCheckout(body.checkout)).transaction;
      } catch (e) {
        deps.log?.warn({ err: e instanceof Error ? e.message : e }, 'payment gateway query failed');
      }
      if (!tx) return answerOf(attempt);
      current = await applyTransaction(deps, attempt, tx);
    }
  }
  return answerOf(current);
}

/** A payment's receipt of the account, in dollars. */
export async function receiptAnswer(deps: AppDeps, s: SessionInfo, paymentId: number, lang: string): Promise<BillingReceiptResponse> {
  const { amountCents, processingFeeCents, balanceAfterCents, amountReversedCents, ...r } = await receiptOf(deps, s, paymentId, lang);
  return {
    ...r,
    amount: amountOfCents(amountCents),
    processingFee: amountOfCents(processingFeeCents),
    total: amountOfCents(amountCents + processingFeeCents),
    balanceAfter: amountOfCents(balanceAfterCents),
    amountReversed: amountOfCents(amountReversedCents),
  };
}

type ResultStatus = 'APPROVED' | 'DECLINED' | 'ERROR' | 'CANCELLED' | 'PENDING';
/** an attempt's own statuses that its result repeats (CREATED answers PENDING, EXPIRED CANCELLED) */
const ENDED: readonly ResultStatus[] = ['APPROVED', 'DECLINED', 'ERROR', 'CANCELLED'];

export function answerOf(a: Attempt): { status: ResultStatus; accountPaymentID: number | null; reasonCode: string; referrer: string; purpose: 'BALANCE' | 'APPLICATION' | 'CHANGE' } {
  const status: ResultStatus = a.status === 'CREATED' ? 'PENDING' : a.status === 'EXPIRED' ? 'CANCELLED' : (ENDED.find((x) => x === a.status) ?? 'ERROR');
  return { status, accountPaymentID: a.paymentId ?? null, reasonCode: a.reasonCode, referrer: a.referrer, purpose: a.purpose === 'APPLICATION' || a.purpose === 'CHANGE' ? a.purpose : 'BALANCE' };
}

export async function attemptById(db: DbOrTx, id: number): Promise<Attempt> {
  const [a] = await db.select().from(paymentAttempts).where(eq(paymentAttempts.id, id));
  return a;
}

/**
 * Closes an open attempt at its gateway and then here: CANCELLED (the parent cancelled, or another
 * payment replaced it) or EXPIRED (the gateway's page expired). When the gateway took a payment on its
 * page first, that transaction is applied instead. Throws GatewayUnavailable when the gateway does not
 * answer: the attempt stays open (the reconciler closes it later).
 */
export async function closeAttempt(deps: AppDeps, attempt: Attempt, as: 'CANCELLED' | 'EXPIRED', reasonCode = ''): Promise<Attempt> {
  // a saved method's charge has no page to close: its outcome is asked for again
  if (isSavedCharge(attempt)) return chargeSavedMethod(deps, attempt);
  const gateway = deps.gateways?.(attempt.gatewayCode);
  if (!gateway) throw new GatewayUnavailable(`gateway ${attempt.gatewayCode} is not configured`);
  const answer = await gateway.cancelCheckout(attempt.publicId);
  if (answer.transaction) return applyTransaction(deps, attempt, answer.transaction);
  const [closed] = await deps.db
    .update(paymentAttempts)
    .set({ status: as, reasonCode, completedAt: deps.clock() })
    .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'CREATED')))
    .returning();
  return closed ?? attemptById(deps.db, attempt.id);
}

/**
 * Closes the account's live attempt (another tab's or another method's page) before a new one opens.
 * Answers how many of them the gateway had taken a payment on meanwhile (applied here): the caller
 * then starts nothing, since what the parent meant to pay may be paid already.
 */
export async function closeLiveAttempts(deps: AppDeps, s: SessionInfo, lang: string, exceptKey?: string): Promise<number> {
  const live = await deps.db
    .select()
    .from(paymentAttempts)
    .where(
      and(
        eq(paymentAttempts.providerId, s.providerId),
        eq(paymentAttempts.accountId, s.accountId),
        eq(paymentAttempts.status, 'CREATED'),
        // the same key's own attempt (a double click made it a moment ago) is not another payment
        exceptKey === undefined ? undefined : ne(paymentAttempts.idempotencyKey, exceptKey),
      ),
    );
  let paid = 0;
  for (const a of live) {
    let closed: Attempt;
    try {
      closed = await closeAttempt(deps, a, 'CANCELLED', 'REPLACED');
    } catch (e) {
      if (!(e instanceof GatewayUnavailable)) throw e;
      // its page may still take a payment: no second page until the gateway answers
      deps.log?.warn({ err: e.message }, 'payment gateway unavailable to close a checkout');
      fail({ deps, lang }, 503, 'payment.errors.gatewayUnavailable');
    }
    if (closed.status === 'APPROVED') paid++;
  }
  return paid;
}

/** An attempt that charges a saved method server to server (no hosted page). */
export const isSavedCharge = (a: Attempt) => a.paymentMethodCode === 'CCR' || a.paymentMethodCode === 'ECR';

/** Where the gateway posts the notifications of a transaction. */
export const notifyUrlOf = (deps: AppDeps, gatewayCode: number) => `${(deps.linkBase ?? '').replace(/\/$/, '')}/api/Billing/payment/notification/${gatewayCode}`;

/**
 * Charges the saved method of a saved-method attempt with the attempt's own key, and applies the
 * answer. Asked again (a double request, the reconciler after the gateway did not answer), the gateway
 * answers the first charge's transaction, so the payment is posted once. Throws GatewayUnavailable.
 */
export async function chargeSavedMethod(deps: AppDeps, attempt: Attempt): Promise<Attempt> {
  const gateway = deps.gateways?.(attempt.gatewayCode);
  if (!gateway) throw new GatewayUnavailable(`gateway ${attempt.gatewayCode} is not configured`);
  const [m] = attempt.paymentMethodId ? await deps.db.select().from(paymentMethods).where(eq(paymentMethods.id, attempt.paymentMethodId)) : [];
  if (!m?.token) {
    // its method was removed before the charge was asked: nothing can be charged any more
    const [ended] = await deps.db
      .update(paymentAttempts)
      .set({ status: 'ERROR', reasonCode: 'METHOD_REMOVED', completedAt: deps.clock() })
      .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'CREATED')))
      .returning();
    return ended ?? attemptById(deps.db, attempt.id);
  }
  const [p] = await deps.db.select({ countryCode: providers.countryCode }).from(providers).where(eq(providers.id, attempt.providerId));
  let tx: GatewayTransaction;
  try {
    tx = await gateway.chargeToken({
      idempotencyKey: attempt.publicId,
      token: m.token,
      amountCents: attempt.amountCents + attempt.feeCents,
      currency: p?.countryCode === 'CA' ? 'CAD' : 'USD',
      reference: attempt.publicId,
      notifyUrl: notifyUrlOf(deps, attempt.gatewayCode),
    });
  } catch (e) {
    if (!(e instanceof TokenRefused)) throw e;
    return refuseToken(deps, attempt, m.id, e);
  }
  return applyTransaction(deps, attempt, tx);
}

/** The reason code of a charge the gateway refused because it no longer knows the method's token. */
export const TOKEN_REFUSED = 'TOKEN_REFUSED';

/**
 * The gateway no longer knows a saved method's token: asking again would change nothing, so the
 * attempt is declined (nothing was charged) and the method marked INVALID, in one transaction.
 */
async function refuseToken(deps: AppDeps, attempt: Attempt, methodId: number, e: TokenRefused): Promise<Attempt> {
  deps.log?.warn({ err: e.message, attempt: attempt.publicId, paymentMethodId: methodId }, 'payment gateway refused a saved method\'s token');
  const ended = await deps.db.transaction(async (t) => {
    const [closed] = await t
      .update(paymentAttempts)
      .set({ status: 'DECLINED', reasonCode: TOKEN_REFUSED, completedAt: deps.clock() })
      .where(and(eq(paymentAttempts.id, attempt.id), eq(paymentAttempts.status, 'CREATED'), isNull(paymentAttempts.transactionId)))
      .returning();
    if (closed) await t.update(paymentMethods).set({ status: 'INVALID', statusReason: TOKEN_REFUSED }).where(eq(paymentMethods.id, methodId));
    return closed;
  });
  return ended ?? attemptById(deps.db, attempt.id);
}

/**
 * Keeps the method a transaction carries (saved on the hosted page, or the saved method it charged):
 * the row of its token is updated, or added for the paying adult when the parent asked to save it and
 * the payment was approved. Only what the parent is shown is stored (brand, last four digits, holder,
 * expiry), never a number. Answers the row's id, or null.
 */
async function keepSavedMethod(deps: AppDeps, t: Tx, attempt: Attempt, tx: GatewayTransaction): Promise<number | null> {
  const sm = tx.savedMethod;
  if (!sm?.token) return attempt.paymentMethodId ?? null;
  const approved = tx.status === 'APPROVED';
  const last4 = sm.last4.replace(/\D/g, '').slice(-4);
  const expiry = /^\d{2}\/\d{2}$/.test(sm.expiry) ? sm.expiry : null;
  const status = sm.status === 'INVALID' || sm.status === 'BLOCKED' ? sm.status : 'ACTIVE';
  const byToken = and(eq(paymentMethods.providerId, attempt.providerId), eq(paymentMethods.gatewayCode, attempt.gatewayCode), eq(paymentMethods.token, sm.token));
  const [row] = await t.select().from(paymentMethods).where(byToken);
  if (row) {
    if (row.accountId !== attempt.accountId) {
      deps.log?.error({ attempt: attempt.publicId }, 'a gateway token of another account');
      return null;
    }
    await t
      .update(paymentMethods)
      .set({ type: sm.brand, last4Digits: last4, expiry, status, validated: row.validated || (approved && sm.method === 'BANK') })
      .where(eq(paymentMethods.id, row.id));
    return row.id;
  }
  if (!approved || !attempt.saveMethod) return null;
  const payer = attempt.payer;
  const payerId = Number(payer.paidByFamilyMemberID);
  // the holder's name as the parent typed it, else as the gateway has it
  const [first, ...rest] = sm.holderName.trim().split(/\s+/);
  const firstName = payerText(payer, 'firstName') || first || '';
  const lastName = payerText(payer, 'lastName') || rest.join(' ');
  const [added] = await t
    .insert(paymentMethods)
    .values({
      providerId: attempt.providerId,
      accountId: attempt.accountId,
      adultId: payerId > 0 ? payerId : attempt.adultId,
      paymentMethodCode: sm.method === 'CARD' ? 'CCR' : 'ECR',
      type: sm.brand,
      last4Digits: last4,
      firstName,
      lastName,
      expiry,
      savedOn: isoDay(deps.today()),
      token: sm.token,
      gatewayCode: attempt.gatewayCode,
      status,
      validated: sm.method === 'BANK',
    })
    .onConflictDoNothing()
    .returning({ id: paymentMethods.id });
  return added?.id ?? null;
}

/**
 * Enrols the account in autopay with the method an approved payment saved, as its attempt asked (spec 4
 * OTP variants: the autopay checkbox on the payer page): the registration, the method paying it and the
 * agreement as the parent accepted it, in the payment's transaction. Nothing when that payer pays an
 * autopay already. Answers the agreement's id.
 */
async function enrolFromPayment(deps: AppDeps, t: Tx, attempt: Attempt, req: AutopayRequest, methodId: number): Promise<number | null> {
  const [m] = await t.select().from(paymentMethods).where(eq(paymentMethods.id, methodId));
  if (!m) return null;
  const [active] = await t
    .select({ id: autopayRegistrations.id })
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, attempt.providerId), eq(autopayRegistrations.accountId, attempt.accountId), eq(autopayRegistrations.adultId, m.adultId), eq(autopayRegistrations.active, true)));
  if (active) return null;
  const startDate = req.startDate ?? isoDay(deps.today());
  const [registration] = await t
    .insert(autopayRegistrations)
    .values({ providerId: attempt.providerId, accountId: attempt.accountId, adultId: m.adultId, paymentMethodCode: m.paymentMethodCode === 'ECR' ? 'ECH' : 'CCD', frequency: req.frequency, startDate, maxChargeCents: req.maxChargeCents })
    .returning();
  await t.update(paymentMethods).set({ usedForAutoPay: true, automaticPaymentRegistrationId: registration.id }).where(eq(paymentMethods.id, m.id));
  const [agreement] = await t
    .insert(autopayAgreements)
    .values({
      providerId: attempt.providerId,
      accountId: attempt.accountId,
      automaticPaymentRegistrationId: registration.id,
      kind: 'ENROL',
      payerAdultId: m.adultId,
      signedByAdultId: attempt.adultId,
      payerName: req.payerName || `${m.firstName} ${m.lastName}`,
      payerEmail: req.payerEmail ?? '',
      paymentMethodId: m.id,
      paymentMethodCode: m.paymentMethodCode,
      methodType: m.type,
      last4Digits: m.last4Digits,
      frequency: req.frequency,
      startDate,
      maxChargeCents: req.maxChargeCents,
      discountPercent: String(req.discountPercent ?? 0),
      termsVersion: req.termsVersion,
      termsHtml: req.termsHtml,
      locale: attempt.locale,
      signedAt: attempt.createdAt,
    })
    .returning({ id: autopayAgreements.id });
  return agreement.id;
}

/**
 * Applies the gateway's transaction to its attempt, once: the conditional UPDATE claims the attempt
 * by setting its transaction id in one statement, and only the request that claimed it posts the
 * payment, its ledger entry and the receipt e-mails, in the same database transaction. An approval
 * always ends as a posting: on a live attempt, to the debt it was for; on an attempt cancelled or
 * expired meanwhile, or for an application paid by another payment or whose hold ended, posted and
 * then refunded in full (refund_reason says why; the refund runs after the commit and the reconciler
 * retries it). A transaction that does not match its attempt (amount, reference, checkout) changes
 * nothing.
 */
export async function applyTransaction(deps: AppDeps, attempt: Attempt, tx: GatewayTransaction, within?: Tx): Promise<Attempt> {
  if (tx.reference !== attempt.publicId || (attempt.checkoutId !== null && tx.checkoutId !== attempt.checkoutId) || tx.amountCents !== attempt.amountCents + attempt.feeCents) {
    deps.log?.error({ attempt: attempt.publicId, transaction: tx.transactionId }, 'gateway transaction does not match its payment attempt');
    return attemptById(within ?? deps.db, attempt.id);
  }
  const approved = tx.status === 'APPROVED';
  const run = async (t: Tx) => {
    // a decline only ends a live attempt; an approval also reaches one closed meanwhile (its money came in)
    const [claimed] = await t
      .update(paymentAttempts)
      // a saved method's charge has no checkout of its own (the gateway may answer '' or a synthetic id)
      .set({ transactionId: tx.transactionId, checkoutId: isSavedCharge(attempt) ? attempt.checkoutId : tx.checkoutId, completedAt: deps.clock() })
      .where(and(eq(paymentAttempts.id, attempt.id), isNull(paymentAttempts.transactionId), inArray(paymentAttempts.status, approved ? ['CREATED', 'CANCELLED', 'EXPIRED'] : ['CREATED'])))
      .returning();
    if (!claimed) return attemptById(t, attempt.id);
    if (!approved) {
      // a refusal may say the saved method can no longer be charged (a closed bank account)
      await keepSavedMethod(deps, t, attempt, tx);
      const [ended] = await t
        .update(paymentAttempts)
        .set({ status: tx.status === 'DECLINED' ? 'DECLINED' : 'ERROR', reasonCode: tx.reasonCode || 'DECLINED' })
        .where(eq(paymentAttempts.id, attempt.id))
        .returning();
      return ended;
    }
    const wasLive = claimed.status === 'CREATED';
    const methodId = await keepSavedMethod(deps, t, attempt, tx);
    const payer = attempt.payer;
    const payerName = `${payerText(payer, 'firstName')} ${payerText(payer, 'lastName')}`.trim();
    const [payment] = await t
      .insert(payments)
      .values({
        providerId: attempt.providerId,
        accountId: attempt.accountId,
        adultId: Number(payer.paidByFamilyMemberID) > 0 ? Number(payer.paidByFamilyMemberID) : null,
        paymentDate: isoDay(deps.today()),
        amountCents: attempt.amountCents,
        processingFeeCents: attempt.feeCents,
        paymentMethodCode: attempt.paymentMethodCode,
        last4Digits: tx.last4,
        payerName,
        payerEmail: payerText(payer, 'email'),
        status: 'APPROVED',
        attemptId: attempt.id,
        gatewayTransactionId: tx.transactionId,
        authCode: tx.authCode,
        brand: tx.brand,
        settlement: tx.settlement ?? 'SETTLED',
        paymentMethodId: methodId,
      })
      .returning();
    await t.insert(ledgerEntries).values({ providerId: attempt.providerId, accountId: attempt.accountId, kind: 'PAYMENT', amountCents: attempt.amountCents, entryDate: payment.paymentDate, paymentId: payment.id, description: tx.transactionId, createdAt: deps.clock() });
    // what the money was for: a live attempt's debt, else nothing (refunded in full)
    let refundReason = wasLive ? '' : 'CLOSED';
    if (wasLive && attempt.purpose === 'APPLICATION' && attempt.draftId && !(await applicationPaid(t, attempt.draftId))) {
      const [d] = await t.select({ status: applicationDrafts.paymentStatus }).from(applicationDrafts).where(eq(applicationDrafts.id, attempt.draftId));
      refundReason = d?.status === 'EXPIRED' ? 'SEATS_RELEASED' : 'ALREADY_PAID';
    }
    const [done] = await t
      .update(paymentAttempts)
      .set({ status: 'APPROVED', reasonCode: '', paymentId: payment.id, refundReason })
      .where(eq(paymentAttempts.id, attempt.id))
      .returning();
    if (!wasLive) deps.log?.warn({ attempt: attempt.publicId, was: claimed.status }, 'the gateway took a payment on a closed attempt: posted and refunded');
    const mailIds: number[] = [];
    const receipts = await receiptMails(deps, t, attempt, payment, tx);
    for (const mail of receipts) mailIds.push(await enqueueMail(t, deps.clock, mail));
    // the receipt in the account's Emails/Texts history, once whatever the number of its recipients
    if (receipts[0]) await recordInHistory(t, deps.today(), { providerId: attempt.providerId, accountId: attempt.accountId, subject: receipts[0].subject, text: receipts[0].text, from: receipts[0].programName });
    await t.update(payments).set({ receiptMails: mailIds }).where(eq(payments.id, payment.id));
    // the autopay asked with the payment, on the method it saved (spec 4 OTP variants)
    // and the signed agreement to the payer and the parent as a PDF, with the receipt
    if (wasLive && !refundReason && attempt.autopayRequest && methodId) {
      const agreementId = await enrolFromPayment(deps, t, attempt, attempt.autopayRequest, methodId);
      if (agreementId !== null) await mailAgreement(deps, agreementId, attempt.autopayRequest.signerEmail ?? '', t);
    }
    return done;
  };
  const result = within ? await run(within) : await deps.db.transaction(run);
  if (result?.status === 'APPROVED' && result.paymentId) deps.mailQueued();
  // after the commit (a caller's own transaction refunds once it commits): the gateway refunds,
  // idempotent by the attempt, then the ledger records it
  if (result?.refundReason && !result.refundedCents && !within) await refundPayment(deps, attempt.id).catch((err) => deps.log?.error({ err }, 'refund of a payment failed'));
  return result;
}

/** An open attempt older than this is asked about at its gateway by the reconciler. */
export const RECONCILE_AFTER_MS = 5 * 60_000;

/**
 * The reconciler (spec 4: a payment recorded late is applied automatically): every open attempt older
 * than a few minutes is asked about at its gateway and applied, or closed when its page expired or was
 * cancelled there; refunds that could not be made are made. It covers a parent who never came back
 * while the portal missed the gateway's notifications. Every step is a conditional UPDATE, so two
 * instances running it at once change each attempt once. Answers what it did.
 */
export async function reconcilePayments(deps: AppDeps, opts: { olderThanMs?: number; limit?: number } = {}): Promise<{ applied: number; closed: number; refunded: number; open: number }> {
  const before = new Date(deps.clock().getTime() - (opts.olderThanMs ?? RECONCILE_AFTER_MS));
  const limit = opts.limit ?? 100;
  const open = await deps.db
    .select()
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.status, 'CREATED'), lt(paymentAttempts.createdAt, before)))
    .orderBy(asc(paymentAttempts.createdAt))
    .limit(limit);
  const done = { applied: 0, closed: 0, refunded: 0, open: 0 };
  for (const a of open) {
    const gateway = deps.gateways?.(a.gatewayCode);
    if (!gateway) continue;
    try {
      if (isSavedCharge(a)) {
        // a saved method's charge the gateway did not answer: asked again with the same key
        const charged = await chargeSavedMethod(deps, a);
        if (charged.status === 'APPROVED') done.applied++;
        else if (charged.status !== 'CREATED') done.closed++;
        else done.open++;
        continue;
      }
      if (!a.checkoutId) {
        // its page was never opened here (the gateway did not answer): closed by its key
        const closed = await closeAttempt(deps, a, 'EXPIRED', 'NOT_OPENED');
        if (closed.status === 'APPROVED') done.applied++;
        else if (closed.status !== 'CREATED') done.closed++;
        continue;
      }
      const q = await gateway.queryCheckout(a.checkoutId);
      if (q.transaction) {
        const applied = await applyTransaction(deps, a, q.transaction);
        if (applied.transactionId === q.transaction.transactionId) done.applied++;
      } else if (q.status === 'EXPIRED' || q.status === 'CANCELLED') {
        const [closed] = await deps.db
          .update(paymentAttempts)
          .set({ status: q.status, completedAt: deps.clock() })
          .where(and(eq(paymentAttempts.id, a.id), eq(paymentAttempts.status, 'CREATED')))
          .returning({ id: paymentAttempts.id });
        if (closed) done.closed++;
      } else done.open++;
    } catch (e) {
      if (!(e instanceof GatewayUnavailable)) throw e;
      deps.log?.warn({ err: e.message, attempt: a.publicId }, 'payment gateway unavailable to the reconciler');
      done.open++;
    }
  }
  const owed = await deps.db
    .select({ id: paymentAttempts.id })
    .from(paymentAttempts)
    .where(and(eq(paymentAttempts.status, 'APPROVED'), ne(paymentAttempts.refundReason, ''), eq(paymentAttempts.refundedCents, 0)))
    .limit(limit);
  for (const { id } of owed) {
    if (await refundPayment(deps, id).catch((err) => (deps.log?.error({ err }, 'refund of a payment failed'), false))) done.refunded++;
  }
  return done;
}

/** Spec 6: the receipt goes to the payer and always to the primary holder. */
async function receiptMails(deps: AppDeps, t: Tx, attempt: Attempt, payment: typeof payments.$inferSelect, tx: GatewayTransaction) {
  const lang = attempt.locale;
  const [p] = await t.select().from(providers).where(eq(providers.id, attempt.providerId));
  const [acc] = await t.select().from(accounts).where(eq(accounts.id, attempt.accountId));
  const [primary] = await t
    .select({ email: logins.email, firstName: adults.firstName, lastName: adults.lastName })
    .from(adults)
    .leftJoin(logins, eq(logins.adultId, adults.id))
    .where(and(eq(adults.accountId, attempt.accountId), eq(adults.accountHolder, 1)));
  const money = await accountMoney(t, attempt.providerId, attempt.accountId, isoDay(deps.today()));
  const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
  const method = deps.t(lang, isSavedCharge(attempt) ? `methods.fields.method.${attempt.paymentMethodCode}` : `payment.method.${attempt.paymentMethodCode}`);
  const lines = [
    deps.t(lang, 'payment.email.intro', { organisation: p.organisation }),
    '',
    deps.t(lang, 'payment.email.account', { accountNo: acc.accountNo }),
    deps.t(lang, 'payment.email.date', { date: dateInLanguage(payment.paymentDate, lang) }),
    deps.t(lang, 'payment.email.amount', { amount: fmt(attempt.amountCents) }),
    ...(attempt.feeCents > 0 ? [deps.t(lang, 'payment.email.fee', { amount: fmt(attempt.feeCents) }), deps.t(lang, 'payment.email.total', { amount: fmt(attempt.amountCents + attempt.feeCents) })] : []),
    deps.t(lang, 'payment.email.method', { method, brand: tx.brand, last4: tx.last4 }),
    deps.t(lang, 'payment.email.authCode', { code: tx.authCode }),
    deps.t(lang, 'payment.email.payer', { name: payment.payerName }),
    deps.t(lang, 'payment.email.balance', { amount: fmt(money.balanceCents) }),
    ...(attempt.paymentMethodCode === 'ECH' || attempt.paymentMethodCode === 'ECR' ? ['', deps.t(lang, 'payment.email.bankDays')] : []),
    '',
    deps.t(lang, 'payment.email.footer', { organisation: p.organisation }),
  ];
  const to = new Set<string>();
  if (payment.payerEmail) to.add(payment.payerEmail.toLowerCase());
  if (primary?.email) to.add(primary.email.toLowerCase());
  return [...to].map((address) => ({
    programName: p.programName,
    providerId: attempt.providerId,
    kind: 'payment-receipt',
    to: address,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    subject: deps.t(lang, 'payment.email.subject', { organisation: p.organisation, amount: fmt(attempt.amountCents + attempt.feeCents) }),
    text: lines.join('\n'),
  }));
}

export async function receiptOf(deps: AppDeps, s: SessionInfo, paymentId: number, lang: string) {
  const [row] = await deps.db
    .select({ pay: payments, accountNo: accounts.accountNo, organisation: providers.organisation })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .innerJoin(providers, eq(providers.id, payments.providerId))
    .where(and(eq(payments.id, paymentId), eq(payments.providerId, s.providerId), eq(payments.accountId, s.accountId)));
  if (!row) fail({ deps, lang }, 404, 'payment.errors.notFound');
  const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
  const mails = row.pay.receiptMails.length ? await deps.db.select({ sentAt: outbox.sentAt, attempts: outbox.attempts }).from(outbox).where(inArray(outbox.id, row.pay.receiptMails)) : [];
  const p = row.pay;
  // a bank debit the bank sent back: the day its RETURN entry raised the balance again, and by how much
  const [returned] = p.settlement === 'RETURNED' ? await deps.db.select({ entryDate: ledgerEntries.entryDate, amountCents: ledgerEntries.amountCents }).from(ledgerEntries).where(and(eq(ledgerEntries.paymentId, p.id), eq(ledgerEntries.kind, 'RETURN'))) : [];
  return {
    accountPaymentID: p.id,
    accountNo: row.accountNo,
    paymentDate: p.paymentDate,
    amountCents: p.amountCents,
    processingFeeCents: p.processingFeeCents,
    paymentMethodCode: p.paymentMethodCode,
    brand: p.brand,
    last4Digits: p.last4Digits,
    authCode: p.authCode,
    payerName: p.payerName,
    payerEmail: p.payerEmail,
    balanceAfterCents: money.balanceCents,
    organisation: row.organisation,
    // spec 8.2: a receipt e-mail that could not be sent (every try failed) says so
    emailSent: !mails.some((m) => !m.sentAt && m.attempts >= 5),
    /** PENDING (a bank debit not settled yet) | SETTLED | RETURNED (the bank sent it back) */
    settlement: settlementOf(p.settlement),
    returnCode: returned ? p.returnCode : '',
    /** the code whose words say why (methods.returns.<code>), OTHER for a code without words of its own; '' when not returned */
    returnReason: returned ? returnReasonOf(p.returnCode) : '',
    returnDate: returned?.entryDate ?? null,
    amountReversedCents: returned?.amountCents ?? 0,
  };
}

function settlementOf(s: string): 'PENDING' | 'SETTLED' | 'RETURNED' {
  return s === 'PENDING' || s === 'RETURNED' ? s : 'SETTLED';
}

/**
 * The gateway's server-to-server notification (registered outside the contract: its body is read
 * raw to check the signature). A repeated event id is recorded once (a unique key) and changes
 * nothing; the event and what it applies commit together, so a failure is retried by the gateway.
 */
export async function handleNotification(deps: AppDeps, gatewayCode: number, headers: Record<string, string | string[] | undefined>, raw: string): Promise<number> {
  const gateway = deps.gateways?.(gatewayCode);
  if (!gateway) return 404;
  const n: VerifiedNotification | null = gateway.verifyNotification(headers, raw);
  if (!n) return 401;
  if (n.type === 'transaction.settled' || n.type === 'transaction.returned') return applySettlementNotice(deps, gatewayCode, n);
  if (n.type !== 'transaction.completed') return 200;
  // a notification may say less than the gateway's own query (Stripe's webhook carries no card): the
  // receipt names the card, so an approved card payment without it is asked for once before applying
  let transaction = n.transaction;
  if (transaction.status === 'APPROVED' && transaction.method === 'CARD' && !transaction.last4 && transaction.checkoutId) {
    const asked = await gateway.queryCheckout(transaction.checkoutId).catch(() => null);
    if (asked?.transaction?.transactionId === transaction.transactionId) transaction = asked.transaction;
  }
  let applied: number | null = null;
  await deps.db.transaction(async (t) => {
    const fresh = await t
      .insert(gatewayEvents)
      .values({ gatewayCode, eventId: n.eventId, transactionId: transaction.transactionId, receivedAt: deps.clock() })
      .onConflictDoNothing()
      .returning();
    if (!fresh.length) return;
    const [attempt] = await t.select().from(paymentAttempts).where(and(eq(paymentAttempts.publicId, transaction.reference), eq(paymentAttempts.gatewayCode, gatewayCode)));
    if (!attempt) {
      deps.log?.warn({ reference: transaction.reference }, 'gateway notification for an unknown payment attempt');
      return;
    }
    await applyTransaction(deps, attempt, transaction, t);
    applied = attempt.id;
  });
  if (applied !== null) await refundPayment(deps, applied).catch((err) => deps.log?.error({ err }, 'refund of a payment failed'));
  return 200;
}
