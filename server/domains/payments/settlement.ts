// Bank debits as the banks treat them (spec 2.12, 9): approved at once with settlement PENDING, then
// settled days later or returned with a return code. A settled debit only changes its payment's
// settlement. A returned one is undone in one transaction: the payment is RETURNED, the ledger gets a
// RETURN entry raising the balance back (unique per payment) and, when the provider declares one,
// the returned-payment fee; the saved method is marked by what the code says of the account; the
// payer is told in the account's language, and the mail is kept in the account's history. Every
// notification is recorded by event id (gateway_events), so a repeated delivery changes nothing.
import { and, eq, ne } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Tx } from '../../db/index';
import { accounts, adults, applicationDrafts, gatewayEvents, ledgerEntries, logins, paymentAttempts, paymentMethods, payments, providers } from '../../db/schema';
import { isoDay } from '../../clock';
import { enqueueMail, type OutboxMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { accountMoney } from '../billing/ledger';
import { moneyText } from '../../../src/engine/money';
import { dateInLanguage } from '../../../src/engine/formats';
import type { GatewayNotification } from '../../../sandbox-gateway/protocol';

type Payment = typeof payments.$inferSelect;
type MethodStatus = 'ACTIVE' | 'INVALID' | 'BLOCKED';

/** What a return code says of the account: closed or unknown (never chargeable again), authorisation revoked, or nothing. */
export function methodStatusAfterReturn(code: string): MethodStatus | null {
  if (['R02', 'R03', 'R04'].includes(code)) return 'INVALID';
  if (['R05', 'R07', 'R10', 'R29'].includes(code)) return 'BLOCKED';
  return null;
}

/**
 * The return codes with words of their own (methods.returns.<code>), as the return e-mail, the
 * receipt page and its PDF say them; others read as OTHER.
 */
const RETURN_REASONS: ReadonlySet<string> = new Set(['R01', 'R02', 'R03', 'R04', 'R05', 'R07', 'R08', 'R09', 'R10', 'R16', 'R20', 'R29']);

/** The code whose words say why a bank payment came back: the code itself, or OTHER for one without words of its own. */
export function returnReasonOf(code: string): string {
  return RETURN_REASONS.has(code) ? code : 'OTHER';
}

/** The ledger's text of the fee (provider data, like the ledger's other descriptions). */
export const RETURN_FEE_TEXT = 'Returned payment fee';

/**
 * A verified transaction.settled or transaction.returned notification of gateway `gatewayCode`:
 * applied once (its event id), to the payment of its transaction at that gateway. Answers the HTTP
 * status for the gateway: 200 recorded (whatever it changed), 409 its payment is not applied here
 * yet (nothing recorded: the gateway delivers it again later).
 */
export async function applySettlementNotice(deps: AppDeps, gatewayCode: number, n: GatewayNotification): Promise<number> {
  let mailed = false;
  let unknown = false;
  await deps.db.transaction(async (t) => {
    const [row] = await t
      .select({ payment: payments })
      .from(payments)
      .innerJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
      .where(and(eq(payments.gatewayTransactionId, n.transaction.transactionId), eq(paymentAttempts.gatewayCode, gatewayCode)));
    if (!row) {
      // its payment is not applied yet (its own notification late, the reconciler not run): the event
      // is not recorded, so the gateway delivers it again later
      deps.log?.warn({ transaction: n.transaction.transactionId, type: n.type }, 'bank settlement for a payment not applied yet');
      unknown = true;
      return;
    }
    const fresh = await t
      .insert(gatewayEvents)
      .values({ gatewayCode, eventId: n.eventId, transactionId: n.transaction.transactionId, receivedAt: deps.clock() })
      .onConflictDoNothing()
      .returning();
    if (!fresh.length) return;
    if (n.type === 'transaction.settled') {
      // a return already recorded stays (notifications may come out of order)
      await t.update(payments).set({ settlement: 'SETTLED' }).where(and(eq(payments.id, row.payment.id), eq(payments.settlement, 'PENDING')));
      return;
    }
    mailed = await returnPayment(deps, t, row.payment, n.returnCode ?? '', n.transaction.savedMethod?.token ?? null, gatewayCode);
  });
  if (mailed) deps.mailQueued();
  return unknown ? 409 : 200;
}

/** Undoes a returned payment inside `t`, once (a conditional UPDATE claims it). Answers whether a mail was queued. */
async function returnPayment(deps: AppDeps, t: Tx, payment: Payment, code: string, token: string | null, gatewayCode: number): Promise<boolean> {
  const [claimed] = await t
    .update(payments)
    .set({ settlement: 'RETURNED', returnCode: code })
    .where(and(eq(payments.id, payment.id), ne(payments.settlement, 'RETURNED')))
    .returning();
  if (!claimed) return false;
  const [p] = await t.select().from(providers).where(eq(providers.id, payment.providerId));
  const today = isoDay(deps.today());
  // the payment had lowered the balance by its amount (its fee was never the account's): raised back
  await t
    .insert(ledgerEntries)
    .values({ providerId: payment.providerId, accountId: payment.accountId, kind: 'RETURN', amountCents: payment.amountCents, entryDate: today, paymentId: payment.id, description: `Returned payment ${code}`.trim(), createdAt: deps.clock() })
    .onConflictDoNothing();
  const feeCents = deps.settings(p.appName).payments.bankReturnFeeCents ?? 0;
  if (feeCents > 0) {
    await t
      .insert(ledgerEntries)
      .values({ providerId: payment.providerId, accountId: payment.accountId, kind: 'CHARGE', amountCents: feeCents, entryDate: today, dueDate: today, paymentId: payment.id, description: RETURN_FEE_TEXT, createdAt: deps.clock() })
      .onConflictDoNothing();
  }
  // an application paid by it keeps its seats and its charges: it is owed again, as after Pay later
  const [attempt] = payment.attemptId ? await t.select({ draftId: paymentAttempts.draftId }).from(paymentAttempts).where(eq(paymentAttempts.id, payment.attemptId)) : [];
  if (attempt?.draftId) await t.update(applicationDrafts).set({ paymentStatus: 'LATER', holdUntil: null }).where(and(eq(applicationDrafts.id, attempt.draftId), eq(applicationDrafts.paymentStatus, 'PAID')));
  const status = methodStatusAfterReturn(code);
  const methodId = payment.paymentMethodId ?? (token ? await methodOfToken(t, payment, token, gatewayCode) : null);
  if (status && methodId !== null) {
    await t
      .update(paymentMethods)
      .set({ status, statusReason: code })
      .where(and(eq(paymentMethods.id, methodId), eq(paymentMethods.providerId, payment.providerId), eq(paymentMethods.accountId, payment.accountId)));
  }
  const mails = await returnMails(deps, t, p, claimed, code, feeCents, status);
  for (const mail of mails) await enqueueMail(t, deps.clock, mail);
  if (mails[0]) await recordInHistory(t, deps.today(), { providerId: payment.providerId, accountId: payment.accountId, subject: mails[0].subject, text: mails[0].text, from: p.programName });
  return mails.length > 0;
}

async function methodOfToken(t: Tx, payment: Payment, token: string, gatewayCode: number): Promise<number | null> {
  const [m] = await t
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.providerId, payment.providerId), eq(paymentMethods.accountId, payment.accountId), eq(paymentMethods.gatewayCode, gatewayCode), eq(paymentMethods.token, token)));
  return m?.id ?? null;
}

/** The account's language: its primary holder's, when the provider offers it; else the provider's first. */
export async function accountLanguage(t: Tx | AppDeps['db'], provider: typeof providers.$inferSelect, accountId: number): Promise<string> {
  const offered = provider.languages.map((l) => l.code);
  const [primary] = await t
    .select({ lang: adults.primaryLanguage })
    .from(adults)
    .where(and(eq(adults.accountId, accountId), eq(adults.accountHolder, 1), eq(adults.deleted, false)));
  return primary && offered.includes(primary.lang) ? primary.lang : (offered[0] ?? 'en');
}

/** The primary holder's sign-in address, where the portal's mails always go (spec 6). */
export async function primaryAddress(t: Tx | AppDeps['db'], accountId: number): Promise<string | null> {
  const [primary] = await t
    .select({ login: logins.email, email: adults.email })
    .from(adults)
    .leftJoin(logins, eq(logins.adultId, adults.id))
    .where(and(eq(adults.accountId, accountId), eq(adults.accountHolder, 1)));
  return (primary?.login || primary?.email || '').toLowerCase() || null;
}

/** The payer and the primary holder are told why the payment came back and what to do now. */
async function returnMails(deps: AppDeps, t: Tx, p: typeof providers.$inferSelect, payment: Payment, code: string, feeCents: number, status: MethodStatus | null): Promise<(OutboxMail & { programName: string })[]> {
  const lang = await accountLanguage(t, p, payment.accountId);
  const [acc] = await t.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.id, payment.accountId));
  const money = await accountMoney(t, payment.providerId, payment.accountId, isoDay(deps.today()));
  const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
  const amount = fmt(payment.amountCents);
  const reasonKey = returnReasonOf(code);
  const next = status === 'INVALID' ? 'nextInvalid' : status === 'BLOCKED' ? 'nextBlocked' : 'nextRetry';
  const lines = [
    deps.t(lang, 'methods.mail.return.intro', { organisation: p.organisation, amount, date: dateInLanguage(payment.paymentDate, lang) }),
    '',
    deps.t(lang, 'methods.mail.return.reason', { reason: deps.t(lang, `methods.returns.${reasonKey}`), code }),
    deps.t(lang, 'methods.mail.return.account', { accountNo: acc?.accountNo ?? '' }),
    deps.t(lang, 'methods.mail.return.amount', { amount }),
    deps.t(lang, 'methods.mail.return.returnedOn', { date: dateInLanguage(isoDay(deps.today()), lang) }),
    ...(feeCents > 0 ? [deps.t(lang, 'methods.mail.return.fee', { amount: fmt(feeCents) })] : []),
    deps.t(lang, 'methods.mail.return.balance', { amount: fmt(money.balanceCents) }),
    '',
    deps.t(lang, `methods.mail.return.${next}`),
    '',
    deps.t(lang, 'methods.mail.return.footer', { organisation: p.organisation }),
  ];
  const to = new Set<string>();
  if (payment.payerEmail) to.add(payment.payerEmail.toLowerCase());
  const primary = await primaryAddress(t, payment.accountId);
  if (primary) to.add(primary);
  const subject = deps.t(lang, 'methods.mail.return.subject', { organisation: p.organisation, amount });
  return [...to].map((address) => ({
    programName: p.programName,
    providerId: payment.providerId,
    kind: 'payment-returned',
    to: address,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    subject,
    text: lines.join('\n'),
  }));
}
