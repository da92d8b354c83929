// The provider's review of applications that claimed a discount needing review (spec 4 financial
// assistance; `npm run provider -- applications ...`). A claimed application holds its seats as
// PENDING; approving enrols the child in what it holds (with or without the discount), rejecting
// releases the seats and leaves the waitlists.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/index';
import { activities, adults, applicationDrafts, children, enrollments, programPeriods, providers, registrations, seatTakes, seats, waitlistEntries } from '../db/schema';
import { seatWeek, type DraftData } from './application';
import { enrollmentOf, releaseSeat } from './seats';

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
  const holders = await db
    .select({ accountId: adults.accountId, firstName: adults.firstName, lastName: adults.lastName, email: adults.email, accountHolder: adults.accountHolder })
    .from(adults)
    .where(inArray(adults.accountId, [...new Set(rows.map((r) => r.accountId))]));
  return rows.map((r) => {
    const parent = holders.find((h) => h.accountId === r.accountId && h.accountHolder === 1) ?? holders.find((h) => h.accountId === r.accountId);
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

async function pendingOf(db: Db, appName: string, registrationID: number) {
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

/**
 * Approves a pending application: the child is enrolled in every seat it holds, from the choices the
 * parent submitted. `discount` false approves the enrolment without the claimed discount.
 */
export async function approveApplication(db: Db, appName: string, registrationID: number, opts: { discount: boolean; today: string }): Promise<{ enrolled: number }> {
  return db.transaction(async (tx) => {
    const { reg, pp } = await pendingOf(tx as unknown as Db, appName, registrationID);
    // the status moves first, conditionally: two approvals of one application enrol it once
    const moved = await tx
      .update(registrations)
      .set({ status: 'REGISTERED', isPendingApproval: false, claimsDiscount: opts.discount })
      .where(and(eq(registrations.id, reg.id), eq(registrations.status, 'PENDING')))
      .returning({ id: registrations.id });
    if (!moved.length) throw new ApprovalError(`Application ${registrationID} is no longer pending approval.`);
    const [draft] = reg.draftId ? await tx.select().from(applicationDrafts).where(eq(applicationDrafts.id, reg.draftId)) : [];
    const choice = ((draft?.data as DraftData | undefined)?.children ?? []).find((c) => c.prChildID === reg.childId);
    const held = await tx
      .select({ activity: activities, weekStart: seats.weekStart })
      .from(seatTakes)
      .innerJoin(seats, eq(seats.id, seatTakes.seatId))
      .innerJoin(activities, eq(activities.id, seats.activityId))
      .where(and(eq(seatTakes.registrationId, reg.id), eq(seatTakes.status, 'held')));
    let enrolled = 0;
    for (const h of held) {
      const sel = choice?.selections.find((s) => s.activityID === h.activity.id && seatWeek(pp, s) === h.weekStart) ?? {
        activityID: h.activity.id,
        weekStart: pp.category === 'summerCamp' ? h.weekStart : null,
        daysOfWeek: h.activity.daysOfWeek ? h.activity.daysOfWeek.split(',') : [],
        date: null,
      };
      await tx.insert(enrollments).values(enrollmentOf({ providerId: reg.providerId, accountId: reg.accountId }, pp, h.activity, sel, reg.childId, opts.today));
      enrolled++;
    }
    return { enrolled };
  });
}

/** Rejects a pending application: its seats go back, its waitlist places are left, the child is REMOVED. */
export async function rejectApplication(db: Db, appName: string, registrationID: number): Promise<{ released: number }> {
  return db.transaction(async (tx) => {
    const { reg } = await pendingOf(tx as unknown as Db, appName, registrationID);
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
