// Attendance service: attendance records of the account's children between two dates.
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { ServiceHandlers } from '../context';
import { attendance as attendanceTable, children, sites } from '../db/schema';
import { providerOf } from './common';

export const attendance: ServiceHandlers = {
  'Attendance.records': {
    handler: async ({ deps, session, query }) => {
      const s = session!;
      const provider = await providerOf(deps.db, s);
      // not permitted: the screen shows 'information not available' (spec 2.13)
      if (!provider.attendanceAllowed) return { attendanceAllowed: false, records: [] };
      const where = [
        eq(attendanceTable.providerId, s.providerId),
        eq(children.accountId, s.accountId),
        gte(attendanceTable.attendanceDate, query.StartDate),
        lte(attendanceTable.attendanceDate, query.EndDate),
      ];
      if (query.ChildID) where.push(eq(attendanceTable.childId, query.ChildID));
      const rows = await deps.db
        .select({ r: attendanceTable, firstName: children.firstName, lastName: children.lastName, siteName: sites.siteName })
        .from(attendanceTable)
        .innerJoin(children, eq(children.id, attendanceTable.childId))
        .innerJoin(sites, eq(sites.id, attendanceTable.siteId))
        .where(and(...where))
        .orderBy(asc(attendanceTable.attendanceDate), asc(children.firstName), asc(attendanceTable.timeOffered));
      return {
        attendanceAllowed: true,
        records: rows.map(({ r, firstName, lastName, siteName }) => ({
          attendanceID: r.id,
          childID: r.childId,
          childName: `${firstName} ${lastName}`,
          attendanceDate: r.attendanceDate,
          siteID: r.siteId,
          siteName,
          timeOffered: r.timeOffered as 'BEFORE SCHOOL' | 'AFTER SCHOOL' | 'FULL DAY',
          timeIn: r.timeIn,
          timeOut: r.timeOut,
          inBy: r.inBy,
          outBy: r.outBy,
          absentReason: r.absentReason,
        })),
      };
    },
  },
};
