// What in a provider's payments needs a person (npm run provider -- payments unresolved): refunds the
// gateway kept refusing (its retry job gave up) or still owed a day on, money the gateway took that
// the portal could not post (a notification for a payment it does not know, a page still open at
// its gateway hours on), and bank payments that came back returned.
import { and, asc, eq, lt, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/index';
import { accounts, gatewayEvents, jobs, paymentAttempts, payments, providers } from '../../db/schema';
import { REFUND_RETRY_JOB, refundPayment } from '../enrolment/applicationPayment';

/** A refund owed this long without a retry job (the gateway did not answer) needs a person. */
export const REFUND_OWED_MS = 24 * 60 * 60_000;
/** An attempt still open at its gateway this long needs a person (the reconciler asks after minutes). */
export const OPEN_ATTEMPT_MS = 2 * 60 * 60_000;

/** One try of the refund retry job: throws while the gateway refuses, so the runner tries again later (doubling) until its last try. */
export async function retryRefund(deps: AppDeps, attemptId: number, attempt: number): Promise<void> {
  if (await refundPayment(deps, attemptId, Math.max(1, attempt))) return;
  const [a] = await deps.db.select({ refundReason: paymentAttempts.refundReason, refundedCents: paymentAttempts.refundedCents }).from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
  // refunded meanwhile, or nothing to refund any more
  if (!a || !a.refundReason || a.refundedCents > 0) return;
  throw new Error('the gateway refused the refund');
}

export type UnresolvedKind = 'REFUND_REFUSED' | 'REFUND_OWED' | 'NOT_POSTED' | 'STILL_OPEN' | 'RETURNED';

export interface UnresolvedItem {
  kind: UnresolvedKind;
  provider: string;
  /** the provider's country (how its amounts are written) */
  countryCode: string;
  accountNo: string;
  /** the attempt's publicId, or the payment's id */
  reference: string;
  transactionId: string;
  amountCents: number;
  /** when it happened (ISO) */
  at: string;
  /** the refund's tries and last error, the return code, or the gateway event */
  detail: string;
}

/** Everything that needs a person, oldest first within each kind; `appName` narrows it to a provider. */
export async function unresolvedPayments(db: Db, now: Date, appName?: string): Promise<UnresolvedItem[]> {
  const ofProvider = appName ? eq(providers.appName, appName) : undefined;
  const out: UnresolvedItem[] = [];
  const owed = await db
    .select({ a: paymentAttempts, accountNo: accounts.accountNo, provider: providers.appName, countryCode: providers.countryCode, job: jobs })
    .from(paymentAttempts)
    .innerJoin(accounts, eq(accounts.id, paymentAttempts.accountId))
    .innerJoin(providers, eq(providers.id, paymentAttempts.providerId))
    .leftJoin(jobs, and(eq(jobs.name, REFUND_RETRY_JOB), eq(jobs.key, paymentAttempts.publicId)))
    .where(and(eq(paymentAttempts.status, 'APPROVED'), ne(paymentAttempts.refundReason, ''), eq(paymentAttempts.refundedCents, 0), ofProvider))
    .orderBy(asc(paymentAttempts.completedAt), asc(paymentAttempts.id));
  for (const { a, accountNo, provider, countryCode, job } of owed) {
    const at = a.completedAt ?? a.createdAt;
    const refused = job?.state === 'dead';
    // still being tried: not yet a person's
    if (!refused && (job || now.getTime() - at.getTime() < REFUND_OWED_MS)) continue;
    out.push({
      kind: refused ? 'REFUND_REFUSED' : 'REFUND_OWED',
      provider,
      countryCode,
      accountNo,
      reference: a.publicId,
      transactionId: a.transactionId ?? '',
      amountCents: a.amountCents + a.feeCents,
      at: at.toISOString(),
      detail: refused ? `${a.refundReason}; ${job.attempts + 1} tries; ${job.lastError ?? ''}`.trim() : a.refundReason,
    });
  }
  // a transaction the gateway announced that matches no attempt here: money may have been taken
  const strays = await db
    .select({ e: gatewayEvents })
    .from(gatewayEvents)
    .where(sql`not exists (select 1 from ${paymentAttempts} pa where pa.transaction_id = ${gatewayEvents.transactionId} and pa.gateway_code = ${gatewayEvents.gatewayCode})`)
    .orderBy(asc(gatewayEvents.receivedAt));
  // an event names no provider: listed for every provider's view
  for (const { e } of strays) {
    out.push({ kind: 'NOT_POSTED', provider: '', countryCode: 'US', accountNo: '', reference: e.eventId, transactionId: e.transactionId, amountCents: 0, at: e.receivedAt.toISOString(), detail: `gateway ${e.gatewayCode}` });
  }
  const open = await db
    .select({ a: paymentAttempts, accountNo: accounts.accountNo, provider: providers.appName, countryCode: providers.countryCode })
    .from(paymentAttempts)
    .innerJoin(accounts, eq(accounts.id, paymentAttempts.accountId))
    .innerJoin(providers, eq(providers.id, paymentAttempts.providerId))
    .where(and(eq(paymentAttempts.status, 'CREATED'), lt(paymentAttempts.createdAt, new Date(now.getTime() - OPEN_ATTEMPT_MS)), ofProvider))
    .orderBy(asc(paymentAttempts.createdAt));
  for (const { a, accountNo, provider, countryCode } of open) {
    out.push({ kind: 'STILL_OPEN', provider, countryCode, accountNo, reference: a.publicId, transactionId: a.transactionId ?? '', amountCents: a.amountCents + a.feeCents, at: a.createdAt.toISOString(), detail: `gateway ${a.gatewayCode}` });
  }
  const returned = await db
    .select({ p: payments, accountNo: accounts.accountNo, provider: providers.appName, countryCode: providers.countryCode })
    .from(payments)
    .innerJoin(accounts, eq(accounts.id, payments.accountId))
    .innerJoin(providers, eq(providers.id, payments.providerId))
    .where(and(eq(payments.settlement, 'RETURNED'), ofProvider))
    .orderBy(asc(payments.paymentDate), asc(payments.id));
  for (const { p, accountNo, provider, countryCode } of returned) {
    out.push({ kind: 'RETURNED', provider, countryCode, accountNo, reference: String(p.id), transactionId: p.gatewayTransactionId ?? '', amountCents: p.amountCents, at: p.paymentDate, detail: p.returnCode });
  }
  return out;
}
