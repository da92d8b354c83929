// Attendance service: attendance records of the account's children between two dates, today's
// attendance, absence notices and the attendance report.
import type { ServiceHandlers } from '../context';
import type { AbsenceNotice } from '../domains/attendance/model';
import { attendanceRecords, attendanceReport, notifyAbsence, todayAttendance } from '../domains/attendance/attendance';

export const attendanceHandlers = {
  'Attendance.records': {
    handler: async ({ deps, session, query, lang }) => attendanceRecords(deps, session, lang, query),
  },
  'Attendance.today': {
    handler: async ({ deps, session, lang }) => todayAttendance(deps, session, lang),
  },
  'Attendance.notifyAbsence': {
    // the form requires the children, the start date, the time and the information
    handler: async ({ deps, session, form, lang }) => notifyAbsence(deps, session, lang, form.data as AbsenceNotice),
  },
  'Attendance.report': {
    handler: async ({ deps, session, query, lang }) => attendanceReport(deps, session, lang, query),
  },
} satisfies ServiceHandlers<'Attendance.records' | 'Attendance.today' | 'Attendance.notifyAbsence' | 'Attendance.report'>;
