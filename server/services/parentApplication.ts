// ParentApplication service: status of the account's applications per program period and child.
import { and, asc, eq } from 'drizzle-orm';
import type { ServiceHandlers } from '../context';
import { registrations } from '../db/schema';

type Status = 'PROCESSED' | 'REGISTERED' | 'WAITLISTED' | 'SEATS FULL' | 'REMOVED' | 'PENDING';

export const parentApplication: ServiceHandlers = {
  'ParentApplication.status': {
    handler: async ({ deps, session, query }) => {
      const s = session!;
      const where = [eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId)];
      if (query.programPeriodID) where.push(eq(registrations.programPeriodId, query.programPeriodID));
      const rows = await deps.db
        .select()
        .from(registrations)
        .where(and(...where))
        .orderBy(asc(registrations.programPeriodId), asc(registrations.childId));
      return rows.map((r) => ({ programPeriodID: r.programPeriodId, childID: r.childId, status: r.status as Status, submittedOn: r.submittedOn }));
    },
  },
};
