// The provider's review of applications that claimed a discount needing review (spec 4 financial
// assistance; `npm run provider -- applications ...`). A claimed application holds its seats as
// PENDING; approving enrols the child in what it holds and charges the account (with or without the
// discount) and e-mails the parent, rejecting releases the seats and leaves the waitlists.
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Db, DbOrTx } from '../../db/index';
import { activities, adults, applicationDrafts, children, enrollments, programPeriods, providers, registrations, seatTakes, seats, waitlistEntries } from '../../db/schema';
import { isoDay } from '../../clock';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { textIn } from '../../providerTexts';
import { seatWeek, type DraftData, type Selection } from './application';
import { applicationFees } from './applicationCharges';
import { postCharges } from './applicationPayment';
import { accountMoney } from '../billing/ledger';
import { moneyText } from '../../../src/engine/money';
import { enrollmentOf, releaseSeat } from './seats';
import { accountHolders } from './holders';

export interface PendingApplication {
  registrationID: number;
  provider: string;
  programPeriodID: number;
  programPeriod: string;
  childName: string;
  parentName: string;
  email: string | null;
  submittedOn: string | null;
  claimsDiscount: boolean;
  seats: { activity: string; weekStart: string | null }[];
}

export class ApprovalError extends Error {}

/** Applications waiting for the provider (status PENDING), oldest first; one provider or all. */
export async function pendingApplications(db: Db, appName?: string): Promise<PendingApplication[]> {
  const rows = await db
    .select({
      id: registrations.id,
      provider: providers.appName,
      programPeriodId: programPeriods.id,
      programPeriod: programPeriods.programPeriod,
      childFirst: children.firstName,
      childLast: children.lastName,
      accountId: registrations.accountId,
      providerId: registrations.providerId,
      submittedOn: registrations.submittedOn,
      claimsDiscount: registrations.claimsDiscount,
    })
    .from(registrations)
    .innerJoin(providers, eq(providers.id, registrations.providerId))
    .innerJoin(programPeriods, eq(programPeriods.id, registrations.programPeriodId))
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.status, 'PENDING'), appName ? eq(providers.appName, appName) : undefined))
    .orderBy(asc(registrations.submittedOn), asc(registrations.id));
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const held = await db
    .select({ registrationId: seatTakes.registrationId, activity: activities.activity, weekStart: seats.weekStart, category: programPeriods.category })
    .from(seatTakes)
    .innerJoin(seats, eq(seats.id, seatTakes.seatId))
    .innerJoin(activities, eq(activities.id, seats.activityId))
    .innerJoin(programPeriods, eq(programPeriods.id, activities.programPeriodId))
    .where(and(inArray(seatTakes.registrationId, ids), eq(seatTakes.status, 'held')))
    .orderBy(asc(seats.weekStart), asc(activities.activity));
  // each account's adults of the registration's own provider, not a removed one
  const holders = await db
    .select({ accountId: adults.accountId, providerId: adults.providerId, firstName: adults.firstName, lastName: adults.lastName, email: adults.email, accountHolder: adults.accountHolder })
    .from(adults)
    .where(and(inArray(adults.accountId, [...new Set(rows.map((r) => r.accountId))]), eq(adults.deleted, false)));
  return rows.map((r) => {
    const own = holders.filter((h) => h.accountId === r.accountId && h.providerId === r.providerId);
    const parent = own.find((h) => h.accountHolder === 1) ?? own[0];
    return {
      registrationID: r.id,
      provider: r.provider,
      programPeriodID: r.programPeriodId,
      programPeriod: r.programPeriod,
      childName: `${r.childFirst} ${r.childLast}`,
      parentName: parent ? `${parent.firstName} ${parent.lastName}` : '',
      email: parent?.email ?? null,
      submittedOn: r.submittedOn,
      claimsDiscount: r.claimsDiscount,
      seats: held
        .filter((h) => h.registrationId === r.id)
        .map((h) => ({ activity: h.activity, weekStart: h.category === 'summerCamp' ? h.weekStart : null })),
    };
  });
}

async function pendingOf(db: DbOrTx, appName: string, registrationID: number) {
  const [row] = await db
    .select({ reg: registrations, pp: programPeriods })
    .from(registrations)
    .innerJoin(providers, eq(providers.id, registrations.providerId))
    .innerJoin(programPeriods, eq(programPeriods.id, registrations.programPeriodId))
    .where(and(eq(registrations.id, registrationID), eq(providers.appName, appName)));
  if (!row) throw new ApprovalError(`No application ${registrationID} at ${appName}.`);
  if (row.reg.status !== 'PENDING') throw new ApprovalError(`Application ${registrationID} is ${row.reg.status}, not pending approval.`);
  return row;
}

/** What an approval needs: the database, the clocks and the translator; a running server's mailQueued sends at once. */
export type ApprovalDeps = Pick<AppDeps, 'db' | 'clock' | 'today' | 't'> & Partial<Pick<AppDeps, 'mailQueued'>>;

export interface Approved {
  enrolled: number;
  /** what went on the account's ledger (integer cents) */
  chargedCents: number;
  /** the child's registration and tuition the financial assistance covered */
  waivedCents: number;
  /** the account's balance after the charges */
  balanceCents: number;
  /** the amounts above as the parent reads them (her language, the provider's currency) */
  text: { charged: string; waived: string; balance: string };
  mailedTo: string[];
}

/**
 * Approves a pending application: the child is enrolled in every seat it holds, from the choices the
 * parent submitted, and the application's charges for those seats go on the account in the same
 * transaction, with the parent's e-mail. `discount` true approves the financial assistance the parent
 * claimed: it covers the child's registration and tuition, while the optional fees the parent chose
 * (charged with the application's first approval) stay hers; false charges the full fees. The
 * conditional status UPDATE makes two approvals of one application enrol, charge and mail once.
 *
 * The approved application owes what it was charged as part of the account's balance, due today and
 * paid like any balance (Pay Now, automatic payment): its payment status stays NONE, with nothing
 * held. A hold (AWAITING) would release, when it ended unpaid, the seats the provider just approved.
 */
export async function approveApplication(deps: ApprovalDeps, appName: string, registrationID: number, opts: { discount: boolean; today?: string }): Promise<Approved> {
  const today = opts.today ?? isoDay(deps.today());
  const approved = await deps.db.transaction(async (tx) => {
    const db = tx;
    const { reg, pp } = await pendingOf(db, appName, registrationID);
    // the status moves first, conditionally: two approvals of one application enrol it once
    const moved = await tx
      .update(registrations)
      .set({ status: 'REGISTERED', isPendingApproval: false, claimsDiscount: opts.discount })
      .where(and(eq(registrations.id, reg.id), eq(registrations.status, 'PENDING')))
      .returning({ id: registrations.id });
    if (!moved.length) throw new ApprovalError(`Application ${registrationID} is no longer pending approval.`);
    // the draft's row is locked: the approvals of two children of one application charge its optional fees once
    const [draft] = reg.draftId ? await tx.select().from(applicationDrafts).where(eq(applicationDrafts.id, reg.draftId)).for('update') : [];
    const data: DraftData = draft?.data ?? {};
    const choice = (data.children ?? []).find((c) => c.prChildID === reg.childId);
    const held = await tx
      .select({ activity: activities, weekStart: seats.weekStart })
      .from(seatTakes)
      .innerJoin(seats, eq(seats.id, seatTakes.seatId))
      .innerJoin(activities, eq(activities.id, seats.activityId))
      .where(and(eq(seatTakes.registrationId, reg.id), eq(seatTakes.status, 'held')));
    const enrolledIn: Selection[] = [];
    for (const h of held) {
      const sel = choice?.selections.find((s) => s.activityID === h.activity.id && seatWeek(pp, s) === h.weekStart) ?? {
        activityID: h.activity.id,
        weekStart: pp.category === 'summerCamp' ? h.weekStart : null,
        daysOfWeek: h.activity.daysOfWeek ? h.activity.daysOfWeek.split(',') : [],
        date: null,
      };
      await tx.insert(enrollments).values(enrollmentOf({ providerId: reg.providerId, accountId: reg.accountId }, pp, h.activity, sel, reg.childId, today));
      enrolledIn.push(sel);
    }

    const [p] = await tx.select().from(providers).where(eq(providers.id, reg.providerId));
    const { holders, to } = await accountHolders(tx, reg.providerId, reg.accountId);
    const offered = p.languages.map((l) => l.code);
    // the parent's language when the provider offers it, else the provider's first
    const lang = holders[0] && offered.includes(holders[0].primaryLanguage) ? holders[0].primaryLanguage : (offered[0] ?? 'en');
    const [child] = await tx.select().from(children).where(eq(children.id, reg.childId));
    const childName = `${child.firstName} ${child.lastName}`;

    // the charges, as the submit computes them (applicationFees): the child at its place among the
    // application's children that hold seats (a sibling's rates stay a sibling's)
    const others = reg.draftId
      ? await tx
          .select({ childId: registrations.childId, status: registrations.status, activityId: seats.activityId, weekStart: seats.weekStart })
          .from(registrations)
          .leftJoin(seatTakes, and(eq(seatTakes.registrationId, registrations.id), eq(seatTakes.status, 'held')))
          .leftJoin(seats, eq(seats.id, seatTakes.seatId))
          .where(and(eq(registrations.draftId, reg.draftId), eq(registrations.providerId, reg.providerId), ne(registrations.id, reg.id)))
      : [];
    const holds = (childId: number, sel: Selection) => others.some((o) => o.childId === childId && o.activityId === sel.activityID && o.weekStart === seatWeek(pp, sel));
    const kids = (data.children ?? []).map((c) => ({ ...c, selections: c.prChildID === reg.childId ? enrolledIn : c.selections.filter((x) => holds(c.prChildID, x)) }));
    if (!choice) kids.push({ prChildID: reg.childId, childName, siteID: 0, selections: enrolledIn });
    // the optional fees are the application's: charged with its first approval
    const firstApproval = !others.some((o) => o.status === 'REGISTERED');
    const seated: DraftData = { ...data, children: kids.filter((c) => c.selections.length > 0), miscCharges: firstApproval ? (data.miscCharges ?? []) : [] };
    const fees = await applicationFees({ ...deps, db }, reg, seated, pp, lang);
    const mine = fees.rows.filter((r) => r.prChildID === reg.childId || r.kind === 'misc');
    const charged = opts.discount ? mine.filter((r) => r.kind === 'misc') : mine;
    const sum = (rows: { regularFee: number }[]) => rows.reduce((n, r) => n + r.regularFee, 0);
    const chargedCents = sum(charged);
    const waivedCents = sum(mine) - chargedCents;
    await postCharges(tx, deps, reg, charged);
    if (draft) {
      // what the application was charged, for a later release or credit; its settling is done (a
      // settle after the approval finds it settled and charges nothing)
      await tx
        .update(applicationDrafts)
        .set({ chargedCents: sql`${applicationDrafts.chargedCents} + ${chargedCents}`, paymentStatus: sql`coalesce(${applicationDrafts.paymentStatus}, 'NONE')` })
        .where(eq(applicationDrafts.id, draft.id));
    }

    const money = await accountMoney(db, reg.providerId, reg.accountId, isoDay(deps.today()));
    const fmt = (cents: number) => moneyText(cents, lang, p.countryCode);
    const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `mail.applicationApproved.${key}`, params);
    const params = { child: childName, program: textIn(pp, 'programPeriod', lang) };
    const holder = holders[0];
    const lines = [
      t('greeting', { name: holder ? `${holder.firstName} ${holder.lastName}` : '' }),
      '',
      t(opts.discount ? 'withAssistance' : 'withoutAssistance', params),
      '',
      ...(charged.some((r) => r.regularFee > 0)
        ? [t('charged'), ...charged.filter((r) => r.regularFee > 0).map((r) => t('line', { fee: r.feeName, amount: fmt(r.regularFee) })), t('total', { amount: fmt(chargedCents) })]
        : [t('nothingCharged')]),
      ...(waivedCents > 0 ? [t('waived', { amount: fmt(waivedCents) })] : []),
      '',
      t('balance', { amount: fmt(money.balanceCents) }),
      ...(money.balanceCents > 0 ? [t('pay')] : []),
      '',
      t('footer', { organisation: p.organisation }),
    ];
    // the primary account holder, at her sign-in address and her address on file (accountHolders)
    for (const address of to) {
      await enqueueMail(db, deps.clock, {
        providerId: reg.providerId,
        kind: 'application-approved',
        to: address,
        from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
        subject: t('subject', params),
        text: lines.join('\n'),
      });
    }
    // and in the account's Emails/Texts history, once
    if (to.length) await recordInHistory(db, deps.today(), { providerId: reg.providerId, accountId: reg.accountId, subject: t('subject', params), text: lines.join('\n'), from: p.programName });
    return {
      enrolled: enrolledIn.length,
      chargedCents,
      waivedCents,
      balanceCents: money.balanceCents,
      text: { charged: fmt(chargedCents), waived: fmt(waivedCents), balance: fmt(money.balanceCents) },
      mailedTo: to,
    };
  });
  if (approved.mailedTo.length) deps.mailQueued?.();
  return approved;
}

/** Rejects a pending application: its seats go back, its waitlist places are left, the child is REMOVED. */
export async function rejectApplication(db: Db, appName: string, registrationID: number): Promise<{ released: number }> {
  return db.transaction(async (tx) => {
    const { reg } = await pendingOf(tx, appName, registrationID);
    const moved = await tx
      .update(registrations)
      .set({ status: 'REMOVED', isPendingApproval: false })
      .where(and(eq(registrations.id, reg.id), eq(registrations.status, 'PENDING')))
      .returning({ id: registrations.id });
    if (!moved.length) throw new ApprovalError(`Application ${registrationID} is no longer pending approval.`);
    const held = await tx
      .update(seatTakes)
      .set({ status: 'released' })
      .where(and(eq(seatTakes.registrationId, reg.id), eq(seatTakes.status, 'held')))
      .returning({ seatId: seatTakes.seatId });
    for (const h of held) await releaseSeat(tx, h.seatId);
    await tx.update(waitlistEntries).set({ status: 'removed' }).where(and(eq(waitlistEntries.registrationId, reg.id), eq(waitlistEntries.status, 'active')));
    return { released: held.length };
  });
}
