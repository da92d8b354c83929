// The portal's jobs: what runs in the background, how often, how many attempts. A new kind of work is
// one more register() here (a recurring one with its schedule; a one-off one is added with
// runner.enqueue(name, payload, { runAt, key }) where its cause happens). ARCHITECTURE.md, Jobs.
import type { AppDeps } from '../context';
import type { OutboxSender } from '../outbox';
import { reconcilePayments } from '../domains/payments/payments';
import { REFUND_RETRY_JOB, REFUND_RETRY_MS, REFUND_RETRY_TRIES, sweepHolds } from '../domains/enrolment/applicationPayment';
import { retryRefund } from '../domains/payments/unresolved';
import { sendExpiryNotices } from '../domains/payments/expiryNotices';
import { runBillingForAll } from '../domains/billing/invoicing';
import { runAutopayForAll } from '../domains/payments/autopay';
import { applyDueChanges } from '../domains/enrolment/changeSchedule';
import { JobRunner, type JobRunnerOptions } from './runner';
import { pruneJobs } from './queue';

export interface PortalJobsOptions {
  /** the outbox's sender (SMTP_URL set), sent every 5 s */
  outboxSender: OutboxSender | null;
  /** the payment reconciler: attempts open longer than afterMs, every everyMs (5 min, 1 min) */
  reconcile?: { afterMs?: number; everyMs?: number };
  runner?: Partial<JobRunnerOptions>;
}

/** Recurring jobs' done runs are kept an hour (the outbox's alone are 720), dead ones (to be looked at) 30 days. */
const KEEP_DONE_MS = 60 * 60_000;
const KEEP_DEAD_MS = 30 * 24 * 60 * 60_000;

export function portalJobs(deps: AppDeps, opts: PortalJobsOptions): JobRunner {
  const runner = new JobRunner(deps.db, { clock: deps.clock, log: deps.log, ...opts.runner });
  const sender = opts.outboxSender;
  // a recurring run that fails is not retried: the next one comes within its period (it stays dead, logged)
  if (sender) {
    runner.register({
      name: 'outbox.send',
      schedule: { every: 5000 },
      maxAttempts: 1,
      run: async () => void (await sender.flush()),
    });
  }
  // seats held for a payment go back when the hold ends unpaid; parents are warned before
  runner.register({ name: 'holds.sweep', schedule: { every: 30_000 }, maxAttempts: 1, run: () => sweepHolds(deps) });
  // payments the portal missed (notifications lost while it was down, a parent who never came back)
  runner.register({
    name: 'payments.reconcile',
    schedule: { every: opts.reconcile?.everyMs ?? 60_000 },
    maxAttempts: 1,
    run: async () => void (await reconcilePayments(deps, { olderThanMs: opts.reconcile?.afterMs })),
  });
  // a refund the gateway refused: tried again, doubling the wait, until it is a person's (payments unresolved)
  runner.register<{ attemptId: number }>({ name: REFUND_RETRY_JOB, maxAttempts: REFUND_RETRY_TRIES, backoffMs: REFUND_RETRY_MS, run: (p, ctx) => retryRefund(deps, p.attemptId, ctx.job.attempts) });
  // saved cards' holders are told 30 days before the card expires (every morning, US time)
  runner.register({ name: 'methods.expiryNotices', schedule: { cron: '0 14 * * *' }, maxAttempts: 1, run: async () => void (await sendExpiryNotices(deps)) });
  // tuition invoices of the service periods due and late fees, for providers that bill through the portal (every morning)
  runner.register({ name: 'billing.run', schedule: { cron: '0 11 * * *' }, maxAttempts: 1, run: async () => void (await runBillingForAll(deps)) });
  // the autopay run: notices of charges ahead, the charges of the day, retries; after the invoices of the morning
  runner.register({ name: 'autopay.run', schedule: { cron: '0 12 * * *' }, maxAttempts: 1, run: async () => void (await runAutopayForAll(deps)) });
  // schedule changes whose effective date has come (each applied once, by a conditional UPDATE)
  runner.register({ name: 'changes.apply', schedule: { every: 15 * 60_000 }, maxAttempts: 1, run: async () => void (await applyDueChanges(deps)) });
  runner.register({
    name: 'jobs.prune',
    schedule: { every: 60 * 60_000 },
    maxAttempts: 1,
    run: async () => void (await pruneJobs(deps.db, deps.clock(), runner.recurring(), KEEP_DONE_MS, KEEP_DEAD_MS)),
  });
  return runner;
}
