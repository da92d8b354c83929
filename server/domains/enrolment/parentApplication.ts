// The status of the account's applications per program period and child.
import { and, asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { registrations } from '../../db/schema';
import { httpError } from '../../errors';
import { programPeriodOf } from './registration';
import { accountWaitlistPlaces } from './seats';
import type { RegistrationStatus } from '../../../src/engine/programCodes';
import type { ParentApplicationStatusResponse } from '../../../src/engine/contract.gen';

/** Each registration of the account (of one program period when given), with a waitlisted child's place. */
export async function applicationStatuses(deps: AppDeps, s: SessionInfo, programPeriodID: number | undefined, lang: string): Promise<ParentApplicationStatusResponse> {
  // another provider's program period is not found (an own one without applications lists none)
  if (programPeriodID && !(await programPeriodOf(deps, s.providerId, programPeriodID))) {
    throw httpError({ deps, lang }, 404, 'server.errors.notFound');
  }
  const where = [eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId)];
  if (programPeriodID) where.push(eq(registrations.programPeriodId, programPeriodID));
  const rows = await deps.db
    .select()
    .from(registrations)
    .where(and(...where))
    .orderBy(asc(registrations.programPeriodId), asc(registrations.childId));
  // a waitlisted child's place (per program period: the best place among its waitlisted choices)
  const places = rows.some((r) => r.status === 'WAITLISTED' || r.status === 'REGISTERED') ? await accountWaitlistPlaces(deps, s) : new Map<string, number>();
  return rows.map((r) => ({ programPeriodID: r.programPeriodId, childID: r.childId, status: r.status as RegistrationStatus, submittedOn: r.submittedOn, waitlistPosition: places.get(`${r.programPeriodId}/${r.childId}`) ?? null }));
}
