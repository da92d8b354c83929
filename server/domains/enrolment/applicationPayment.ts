// Registration paid in one go (amendment 7): the submit's charges go on the ledger once, for the
// choices that got a seat; with payment option O and something to pay, the seats taken are held for
// the provider's minutes while the parent pays. Pay later keeps them. An abandoned payment releases
// them when the hold ends; a payment that completes after that, with its seats gone, is refunded in
// full through the gateway.
import { and, eq, gt, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type { Tx } from '../../db/index';
import { activities, adults, applicationDrafts, enrollments, jobs, ledgerEntries, logins, paymentAttempts, programPeriods, providers, registrations, seatTakes, waitlistEntries } from '../../db/schema';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { isoDay } from '../../clock';
import { textIn } from '../../providerTexts';
import type { DraftRow } from './applicationDraft';
import { accountMoney } from '../billing/ledger';
import { payerText } from '../billing/model';
import { moneyText } from '../../../src/engine/money';
import { releaseOneTimeTakes, releaseSeat } from './seats';
import { newKey } from '../../gateways/adapter';
import { enqueueJob } from '../../jobs/queue';
import { applicationFees, confirmationMail, isPending, queueConfirmationMail, seatedData } from './applicationCharges';

type ProgramRow = typeof programPeriods.$inferSelect;

/**
 * What an application still asks the parent to pay: its amount due, but never more than what the
 * account owes on its ledger (a credit on the account goes to its charges; a parent who paid later, or
 * paid the whole balance, owes it no more). The submit, the checkout and the hold sweeper all ask this.
 */
export function applicationOwes(amountDueCents: number, balanceCents: number): number {
  return Math.max(0, Math.min(amountDueCents, balanceCents));
}

/**
 * Puts a submitted application's charges on the ledger, once (a conditional UPDATE claims the draft),
 * and decides whether the parent pays now: an application waiting for the provider's review (a
 * discount claimed) is charged when approved, not here.
 */
export async function settleSubmitted(deps: AppDeps, s: Pick<SessionInfo, 'providerId' | 'accountId'> & Partial<Pick<SessionInfo, 'email' | 'firstName' | 'lastName'>>, d: DraftRow, pp: ProgramRow, lang: string): Promise<DraftRow> {
  if (d.status !== 'submitted' || !d.result || d.paymentStatus !== null) return d;
  const pending = isPending(d);
  // only what got a seat is charged (a waitlisted child pays nothing yet)
  const fees = await applicationFees(deps, s, seatedData(d.data, d.result), pp, lang);
  // the confirmation e-mail, itemised with these charges and the waitlist places, goes with them
  const mail = await confirmationMail(deps, d, pp, fees, { email: s.email, firstName: s.firstName, lastName: s.lastName, lang });
  let queued = false;
  const charged = pending ? 0 : fees.totalCost;
  // what the parent pays now is what the account will owe, never more: the ledger applies a credit on
  // the account to these charges whether or not the fee step applied it (the balance shows the same)
  const owedBefore = (await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()))).balanceCents;
  const due = pending ? 0 : applicationOwes(fees.totalDue, owedBefore + charged);
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, s.providerId));
  const holdMinutes = deps.settings(p.appName).payments.seatHoldMinutes;
  const payNow = pp.paymentOption === 'O' && due > 0;
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(applicationDrafts)
      .set({
        paymentStatus: payNow ? 'AWAITING' : 'NONE',
        holdUntil: payNow ? new Date(deps.clock().getTime() + holdMinutes * 60_000) : null,
        amountDueCents: payNow ? due : 0,
        chargedCents: charged,
        ...(mail ? { result: sql`jsonb_set(${applicationDrafts.result}, '{emailSent}', 'true'::jsonb)` } : {}),
        // who is warned before the hold ends and told when it ended: the parent who submitted, in her language
        ...(payNow ? { noticeEmail: s.email || null, noticeLocale: lang } : {}),
      })
      .where(and(eq(applicationDrafts.id, d.id), isNull(applicationDrafts.paymentStatus)))
      .returning();
    if (!moved) return (await tx.select().from(applicationDrafts).where(eq(applicationDrafts.id, d.id)))[0];
    if (!pending) await postCharges(tx, deps, s, fees.rows);
    if (mail) {
      await queueConfirmationMail(tx, deps, mail);
      queued = true;
    }
    return moved;
  }).then((row) => {
    if (queued) deps.mailQueued();
    return row;
  });
}

/** Puts fee rows on the account's ledger as charges due today (a row of 0 is not posted), inside the caller's transaction. */
export async function postCharges(tx: Tx, deps: Pick<AppDeps, 'clock' | 'today'>, s: { providerId: number; accountId: number }, fees: { firstName: string; feeName: string; regularFee: number }[]): Promise<void> {
  const today = isoDay(deps.today());
  const rows = fees.filter((r) => r.regularFee > 0);
  if (!rows.length) return;
  await tx.insert(ledgerEntries).values(
    rows.map((r) => ({ providerId: s.providerId, accountId: s.accountId, kind: 'CHARGE', amountCents: r.regularFee, entryDate: today, dueDate: today, description: r.firstName ? `${r.firstName}: ${r.feeName}` : r.feeName, createdAt: deps.clock() })),
  );
}

/** The application's payment for its confirmation page: what is due, until when the seats are held. */
export function paymentOf(d: DraftRow, now: Date) {
  const status = (d.paymentStatus ?? 'NONE') as 'NONE' | 'AWAITING' | 'PAID' | 'LATER' | 'EXPIRED' | 'REFUNDED';
  return {
    paymentStatus: status,
    amountDue: d.amountDueCents,
    holdUntil: d.holdUntil ? d.holdUntil.toISOString() : null,
    secondsLeft: status === 'AWAITING' && d.holdUntil ? Math.max(0, Math.floor((d.holdUntil.getTime() - now.getTime()) / 1000)) : 0,
  };
}

/**
 * Releases the seats of applications whose hold ended unpaid: the draft moves from AWAITING to
 * EXPIRED (one conditional UPDATE: a payment completing at the same moment finds it moved), its
 * registrations are REMOVED, its seats go back, its enrolments and waitlist places go, and its
 * charges are credited back. Answers how many applications it released.
 */
export async function releaseExpiredHolds(deps: AppDeps, only?: { draftId: number }): Promise<number> {
  const now = deps.clock();
  const due = await deps.db
    .select({ id: applicationDrafts.id, providerId: applicationDrafts.providerId, accountId: applicationDrafts.accountId, amountDueCents: applicationDrafts.amountDueCents })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.paymentStatus, 'AWAITING'), lt(applicationDrafts.holdUntil, now), ...(only ? [eq(applicationDrafts.id, only.draftId)] : [])))
    .limit(50);
  let released = 0;
  for (const { id, providerId, accountId, amountDueCents } of due) {
    // a hold whose amount the account paid another way (the whole balance by Pay now) keeps its seats
    const money = await accountMoney(deps.db, providerId, accountId, isoDay(deps.today()));
    if (applicationOwes(amountDueCents, money.balanceCents) === 0) {
      await deps.db
        .update(applicationDrafts)
        .set({ paymentStatus: 'PAID', holdUntil: null, updatedAt: now })
        .where(and(eq(applicationDrafts.id, id), eq(applicationDrafts.paymentStatus, 'AWAITING')));
      continue;
    }
    const done = await deps.db.transaction(async (tx) => {
      const [d] = await tx
        .update(applicationDrafts)
        .set({ paymentStatus: 'EXPIRED', updatedAt: now })
        .where(and(eq(applicationDrafts.id, id), eq(applicationDrafts.paymentStatus, 'AWAITING'), lt(applicationDrafts.holdUntil, now)))
        .returning();
      if (!d) return false;
      await releaseApplication(tx, d, deps);
      await holdNotice(deps, tx, d, 'ended', now);
      return true;
    });
    if (done) released++;
  }
  if (released) deps.mailQueued();
  return released;
}

/** The warning goes when this much of a hold is left (a hold of the provider's minutes, 15 by default). */
export const HOLD_WARNING_MS = 5 * 60_000;

/**
 * Warns the parents whose seats are held and whose hold ends within five minutes, unpaid: one e-mail
 * per application, in the parent's language, recorded in her history. The warning is claimed by a
 * conditional UPDATE of hold_warned_at in the transaction that queues it, so two sweeps (or two
 * servers) never send it twice. Answers how many it warned.
 */
export async function warnEndingHolds(deps: AppDeps): Promise<number> {
  const now = deps.clock();
  const soon = new Date(now.getTime() + HOLD_WARNING_MS);
  const due = await deps.db
    .select({ id: applicationDrafts.id })
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.paymentStatus, 'AWAITING'), isNull(applicationDrafts.holdWarnedAt), gt(applicationDrafts.holdUntil, now), lte(applicationDrafts.holdUntil, soon)))
    .limit(50);
  let warned = 0;
  for (const { id } of due) {
    const sent = await deps.db.transaction(async (tx) => {
      const [d] = await tx
        .update(applicationDrafts)
        .set({ holdWarnedAt: now })
        .where(and(eq(applicationDrafts.id, id), eq(applicationDrafts.paymentStatus, 'AWAITING'), isNull(applicationDrafts.holdWarnedAt), gt(applicationDrafts.holdUntil, now)))
        .returning();
      if (!d) return false;
      return holdNotice(deps, tx, d, 'warning', now);
    });
    if (sent) warned++;
  }
  if (warned) deps.mailQueued();
  return warned;
}

/**
 * The parent's e-mail about her held seats, inside the caller's transaction: 'warning' (a few
 * minutes left, pay now or later to keep them) or 'ended' (released, the charges taken back). To
 * the address and in the language of the submit (the primary holder's sign-in address when the
 * submit had none), with a row in the account's Emails/Texts history.
 */
async function holdNotice(deps: AppDeps, tx: Tx, d: DraftRow, which: 'warning' | 'ended', now: Date): Promise<boolean> {
  const [p] = await tx.select().from(providers).where(eq(providers.id, d.providerId));
  const [pp] = await tx.select().from(programPeriods).where(eq(programPeriods.id, d.programPeriodId));
  if (!p || !pp) return false;
  const lang = d.noticeLocale || p.languages[0]?.code || 'en';
  let to = d.noticeEmail;
  if (!to) {
    const [primary] = await tx
      .select({ email: logins.email })
      .from(adults)
      .innerJoin(logins, eq(logins.adultId, adults.id))
      .where(and(eq(adults.accountId, d.accountId), eq(adults.accountHolder, 1)));
    to = primary?.email ?? null;
  }
  if (!to) return false;
  const conf = d.result;
  // the children whose seats are (were) held
  const names = (conf?.children ?? []).filter((c) => c.activities.some((a) => a.state === 'A')).map((c) => c.fullName);
  const params = {
    program: textIn(pp, 'programPeriod', lang),
    children: names.join(', '),
    amount: moneyText(d.amountDueCents, lang, p.countryCode),
    minutes: Math.max(1, Math.ceil(((d.holdUntil?.getTime() ?? now.getTime()) - now.getTime()) / 60_000)),
    organisation: p.organisation,
  };
  const k = (key: string) => deps.t(lang, `application.email.hold.${which}.${key}`, params);
  const subject = k('subject');
  const text = [deps.t(lang, 'application.email.intro', { name: conf?.parentName ?? '' }), '', k('body'), '', k('next'), '', deps.t(lang, 'application.email.footer')].join('\n');
  const from = `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`;
  await enqueueMail(tx, deps.clock, { providerId: d.providerId, kind: `application-hold-${which}`, to, from, subject, text });
  await recordInHistory(tx, deps.today(), { providerId: d.providerId, accountId: d.accountId, subject, text, from: p.programName });
  return true;
}

async function releaseApplication(tx: Tx, d: DraftRow, deps: AppDeps): Promise<void> {
  // a one-time enrolment's dates (application type 5)
  await releaseOneTimeTakes(tx, d.id);
  const regs = await tx.select().from(registrations).where(and(eq(registrations.draftId, d.id), eq(registrations.providerId, d.providerId)));
  const ids = regs.map((r) => r.id);
  if (ids.length) {
    await tx.update(registrations).set({ status: 'REMOVED', isPendingApproval: false }).where(inArray(registrations.id, ids));
    const held = await tx
      .update(seatTakes)
      .set({ status: 'released' })
      .where(and(inArray(seatTakes.registrationId, ids), eq(seatTakes.status, 'held')))
      .returning({ seatId: seatTakes.seatId });
    for (const h of held) await releaseSeat(tx, h.seatId);
    await tx.update(waitlistEntries).set({ status: 'removed' }).where(and(inArray(waitlistEntries.registrationId, ids), eq(waitlistEntries.status, 'active')));
    const acts = (await tx.select({ id: activities.id }).from(activities).where(eq(activities.programPeriodId, d.programPeriodId))).map((a) => a.id);
    if (acts.length) {
      await tx
        .delete(enrollments)
        .where(and(eq(enrollments.accountId, d.accountId), inArray(enrollments.childId, regs.map((r) => r.childId)), inArray(enrollments.activityId, acts)));
    }
  }
  if (d.chargedCents > 0) {
    await tx.insert(ledgerEntries).values({ providerId: d.providerId, accountId: d.accountId, kind: 'CREDIT', amountCents: d.chargedCents, entryDate: isoDay(deps.today()), description: 'Registration released: payment not completed', createdAt: deps.clock() });
  }
}

/** Pay later: the seats stay, the charges stay on the account's balance. */
export async function payLater(deps: AppDeps, d: DraftRow): Promise<DraftRow> {
  const [moved] = await deps.db
    .update(applicationDrafts)
    .set({ paymentStatus: 'LATER', holdUntil: null, updatedAt: deps.clock() })
    .where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.paymentStatus, 'AWAITING')))
    .returning();
  return moved ?? (await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, d.id)))[0];
}

/**
 * An approved payment of an application, inside applyTransaction's transaction: AWAITING (or LATER)
 * becomes PAID. Answers false when the hold had ended and the seats went back: the caller refunds.
 */
export async function applicationPaid(tx: Tx, draftId: number): Promise<boolean> {
  const [moved] = await tx
    .update(applicationDrafts)
    .set({ paymentStatus: 'PAID', holdUntil: null })
    .where(and(eq(applicationDrafts.id, draftId), inArray(applicationDrafts.paymentStatus, ['AWAITING', 'LATER'])))
    .returning({ id: applicationDrafts.id });
  return Boolean(moved);
}

/** The job that tries a refused refund again (keyed by the attempt's publicId), its first delay (doubling) and its tries. */
export const REFUND_RETRY_JOB = 'payments.refundRetry';
export const REFUND_RETRY_MS = 5 * 60_000;
export const REFUND_RETRY_TRIES = 6;

const REFUND_TEXTS: Record<string, string> = {
  SEATS_RELEASED: 'Refund: the seats were released before the payment completed',
  ALREADY_PAID: 'Refund: the registration was already paid',
  CLOSED: 'Refund: the payment was taken after it had been cancelled',
};

/**
 * Refunds in full an approved payment whose attempt says it must be (refund_reason, set with its
 * posting: spec 4, a payment that completed after the seats were released is refunded; so is one for
 * a debt already paid, or taken on a page that had been cancelled). The gateway's refund is
 * idempotent by the attempt; the ledger gets the refund once (its refund id is unique). Answers
 * whether this call recorded it.
 */
export async function refundPayment(deps: AppDeps, attemptId: number, retry = 0): Promise<boolean> {
  const [a] = await deps.db.select().from(paymentAttempts).where(eq(paymentAttempts.id, attemptId));
  if (!a || a.status !== 'APPROVED' || !a.transactionId || a.refundedCents > 0 || !a.refundReason) return false;
  const gateway = deps.gateways?.(a.gatewayCode);
  if (!gateway) return false;
  // once refused, a refund is tried again only by its own job, with backoff (not by every reconcile)
  if (!retry && (await deps.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.name, REFUND_RETRY_JOB), eq(jobs.key, a.publicId)))).length) return false;
  const total = a.amountCents + a.feeCents;
  // a refused refund moved no money, so each retry (its job's try `retry`) is a request of its own
  const refund = await gateway.refund({ idempotencyKey: retry ? `${a.publicId}-refund-${retry}` : `${a.publicId}-refund`, transactionId: a.transactionId, amountCents: total });
  if (refund.status !== 'REFUNDED') {
    deps.log?.error({ attempt: a.publicId }, 'the gateway refused the refund of a payment');
    if (!retry) await enqueueJob(deps.db, deps.clock(), REFUND_RETRY_JOB, { attemptId: a.id }, { key: a.publicId, runAt: new Date(deps.clock().getTime() + REFUND_RETRY_MS) });
    return false;
  }
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(paymentAttempts)
      .set({ refundedCents: refund.amountCents })
      .where(and(eq(paymentAttempts.id, a.id), eq(paymentAttempts.refundedCents, 0)))
      .returning();
    if (!moved) return false;
    // the payment lowered the balance by the amount (the fee is not the account's): the refund raises it back
    await tx.insert(ledgerEntries).values({ providerId: a.providerId, accountId: a.accountId, kind: 'REFUND', amountCents: a.amountCents, entryDate: isoDay(deps.today()), paymentId: a.paymentId, refundId: refund.refundId, description: REFUND_TEXTS[a.refundReason] ?? 'Refund', createdAt: deps.clock() });
    if (a.draftId && a.refundReason === 'SEATS_RELEASED') await tx.update(applicationDrafts).set({ paymentStatus: 'REFUNDED' }).where(eq(applicationDrafts.id, a.draftId));
    const mails = await refundMails(deps, tx, a, refund.amountCents);
    for (const mail of mails) await enqueueMail(tx, deps.clock, mail);
    if (mails[0]) await recordInHistory(tx, deps.today(), { providerId: a.providerId, accountId: a.accountId, subject: mails[0].subject, text: mails[0].text, from: mails[0].programName });
    deps.mailQueued();
    return true;
  });
}

/** The parent is told of the refund (spec 6: the payer and always the primary holder). */
async function refundMails(deps: AppDeps, tx: Tx, a: typeof paymentAttempts.$inferSelect, cents: number) {
  const lang = a.locale;
  const [p] = await tx.select().from(providers).where(eq(providers.id, a.providerId));
  const payerEmail = payerText(a.payer, 'email');
  const [primary] = await tx
    .select({ email: logins.email })
    .from(adults)
    .leftJoin(logins, eq(logins.adultId, adults.id))
    .where(and(eq(adults.accountId, a.accountId), eq(adults.accountHolder, 1)));
  const amount = moneyText(cents, lang, p.countryCode);
  const to = new Set<string>();
  if (payerEmail) to.add(payerEmail.toLowerCase());
  if (primary?.email) to.add(primary.email.toLowerCase());
  return [...to].map((address) => ({
    programName: p.programName,
    providerId: a.providerId,
    kind: 'payment-refund',
    to: address,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    subject: deps.t(lang, 'payment.email.refundSubject', { organisation: p.organisation, amount }),
    text: [
      deps.t(lang, `payment.email.refund.${a.refundReason}`, { organisation: p.organisation }),
      '',
      deps.t(lang, 'payment.email.refundAmount', { amount }),
      deps.t(lang, 'payment.email.refundDays'),
      '',
      deps.t(lang, 'payment.email.footer', { organisation: p.organisation }),
    ].join('\n'),
  }));
}

/**
 * Puts on the ledger the charges of submitted applications not settled yet (a program without paying
 * now settles when its confirmation is read, or here), in the provider's default language.
 */
export async function settlePending(deps: AppDeps): Promise<number> {
  const rows = await deps.db
    .select({ d: applicationDrafts, pp: programPeriods, languages: providers.languages })
    .from(applicationDrafts)
    .innerJoin(programPeriods, eq(programPeriods.id, applicationDrafts.programPeriodId))
    .innerJoin(providers, eq(providers.id, applicationDrafts.providerId))
    .where(and(eq(applicationDrafts.status, 'submitted'), isNull(applicationDrafts.paymentStatus)))
    .limit(50);
  for (const { d, pp, languages } of rows) {
    await settleSubmitted(deps, { providerId: d.providerId, accountId: d.accountId }, d, pp, languages[0]?.code ?? 'en');
  }
  return rows.length;
}

/** One sweep (the holds.sweep job, every 30 s): warns of holds about to end, releases the ended ones, settles what is left. */
export async function sweepHolds(deps: AppDeps): Promise<void> {
  await warnEndingHolds(deps);
  await releaseExpiredHolds(deps);
  await settlePending(deps);
}

export { newKey };
