// Attendance service's data: attendance records of the account's children between two dates, today's
// attendance, absence notices (site administrators receive the note through the outbox) and the
// attendance report.
import { and, asc, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { AppDeps, FileResult } from '../../context';
import type { SessionInfo } from '../../auth';
import type { AttendanceNotifyAbsenceResponse, AttendanceRecordsQuery, AttendanceRecordsResponse, AttendanceTodayResponse } from '../../../src/engine/contract.gen';
import type { AbsenceNotice, TimeOffered } from './model';
import { attendance as attendanceTable, children, sites, absenceReasons, absenceNotices, adults, accounts, communications } from '../../db/schema';
import { fail, httpError } from '../../errors';
import { enqueueMail } from '../../outbox';
import { dateInLanguage, isoToMdy, mdyToIso } from '../../../src/engine/index';
import { providerOf, ruleContextOf } from '../provider/provider';
import { isoDay, addDays, todayMdy } from '../../clock';
import { attendanceReportPdf } from './attendanceReport';
import { checkAbsenceNoticeLimit } from '../../providerSettings';
import { textIn } from '../../providerTexts';

/**
 * A recorded absence keeps the reason's text the way the provider wrote it; when it is one of the provider's
 * absence reasons the parent reads it in her language (provider texts), otherwise the recorded text.
 */
async function reasonsIn(deps: AppDeps, providerId: number, lang: string): Promise<(reason: string | null) => string | null> {
  const rows = await deps.db.select().from(absenceReasons).where(eq(absenceReasons.providerId, providerId));
  const byText = new Map(rows.map((r) => [r.reason, textIn(r, 'reason', lang)]));
  return (reason) => (reason === null ? null : (byText.get(reason) ?? reason));
}

/** Minutes after midnight of a record's 'hh:mm AM' time (-1 when there is none). */
function clockMinutes(t: string | null): number {
  const m = /^(\d{1,2}):(\d{2})\s*([AP])M$/i.exec(t ?? '');
  if (!m) return -1;
  return ((Number(m[1]) % 12) + (m[3].toUpperCase() === 'P' ? 12 : 0)) * 60 + Number(m[2]);
}

/** Attendance shows the last two weeks unless a range is asked for. */
/** Spec 2.13: the list shows the last 4 weeks ending today unless the parent picks dates. */
const DEFAULT_DAYS = 28;
/** The longest range one list answers (a year, inclusive). */
const MAX_RANGE_DAYS = 366;

/** A query date in yyyy-mm-dd: the API's own form or the form's mm/dd/yyyy; null when neither. */
function queryDay(value: string | undefined): string | null | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return value;
  return mdyToIso(value) || null;
}

const dayNumber = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 86_400_000;

/** The attendance records of the account's children in a range (by default the last four weeks). */
export async function attendanceRecords(deps: AppDeps, s: SessionInfo, lang: string, query: AttendanceRecordsQuery): Promise<AttendanceRecordsResponse> {
  const provider = await providerOf(deps.db, s);
  // not permitted: the screen shows 'information not available' (spec 2.13)
  if (!provider.attendanceAllowed) return { attendanceAllowed: false, startDate: '', endDate: '', records: [] };
  // the range: both ends checked (real dates, end not before start, at most a year), the
  // missing end today, the missing start four weeks before the end
  const startIn = queryDay(query.StartDate);
  const endIn = queryDay(query.EndDate);
  const invalid = (path: string, key: string, params: Record<string, unknown> = {}) =>
    httpError({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: [{ path, key, params }] });
  if (startIn === null) throw invalid('/startDate', 'errors.date.invalid');
  if (endIn === null) throw invalid('/endDate', 'errors.date.invalid');
  const end = endIn ?? isoDay(deps.today());
  const start = startIn ?? isoDay(addDays(new Date(`${end}T00:00:00Z`), -(DEFAULT_DAYS - 1)));
  if (dayNumber(end) < dayNumber(start)) throw invalid('/endDate', 'errors.date.endBeforeStart');
  if (dayNumber(end) - dayNumber(start) + 1 > MAX_RANGE_DAYS) throw invalid('/endDate', 'errors.date.rangeTooLong', { days: MAX_RANGE_DAYS });
  const where = [
    eq(attendanceTable.providerId, s.providerId),
    eq(children.accountId, s.accountId),
    gte(attendanceTable.attendanceDate, start),
    lte(attendanceTable.attendanceDate, end),
  ];
  if (query.ChildID) {
    // a child of another account or provider is not this parent's to look at
    const [kid] = await deps.db
      .select({ id: children.id })
      .from(children)
      .where(and(eq(children.id, query.ChildID), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
    if (!kid) throw httpError({ deps, lang }, 404, 'server.errors.notFound');
    where.push(eq(attendanceTable.childId, query.ChildID));
  }
  const rows = await deps.db
    .select({ r: attendanceTable, firstName: children.firstName, lastName: children.lastName, site: { siteName: sites.siteName, translations: sites.translations } })
    .from(attendanceTable)
    .innerJoin(children, eq(children.id, attendanceTable.childId))
    .innerJoin(sites, eq(sites.id, attendanceTable.siteId))
    .where(and(...where))
    .orderBy(desc(attendanceTable.attendanceDate), asc(children.firstName), asc(attendanceTable.timeOffered));
  const reasonText = await reasonsIn(deps, s.providerId, lang);
  return {
    attendanceAllowed: true,
    startDate: isoToMdy(start),
    endDate: isoToMdy(end),
    records: rows.map(({ r, firstName, lastName, site }) => ({
      attendanceID: r.id,
      childID: r.childId,
      childName: `${firstName} ${lastName}`,
      attendanceDate: r.attendanceDate,
      siteID: r.siteId,
      siteName: textIn(site, 'siteName', lang),
      timeOffered: r.timeOffered as TimeOffered,
      timeIn: r.timeIn,
      timeOut: r.timeOut,
      inBy: r.inBy,
      outBy: r.outBy,
      absentReason: reasonText(r.absentReason),
    })),
  };
}

/** Where each child of the account is today: checked in, out, or absent. */
export async function todayAttendance(deps: AppDeps, s: SessionInfo, lang: string): Promise<AttendanceTodayResponse> {
  const provider = await providerOf(deps.db, s);
  if (!provider.attendanceAllowed) return { attendanceAllowed: false, children: [] };
  const day = isoDay(deps.today());
  const kids = await deps.db
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
  const rows = kids.length
    ? await deps.db
        .select()
        .from(attendanceTable)
        .where(and(eq(attendanceTable.providerId, s.providerId), eq(attendanceTable.attendanceDate, day), inArray(attendanceTable.childId, kids.map((k) => k.id))))
    : [];
  const reasonText = await reasonsIn(deps, s.providerId, lang);
  return {
    attendanceAllowed: true,
    children: kids.map((k) => {
      const mine = rows.filter((r) => r.childId === k.id);
      // the session checked in last tells where the child is now; an absence only when none was attended
      const present = mine.filter((r) => r.timeIn).sort((a, b) => clockMinutes(b.timeIn) - clockMinutes(a.timeIn))[0];
      const absent = mine.find((r) => !r.timeIn && !r.timeOut && r.absentReason);
      const r = present ?? absent;
      return {
        childID: k.id,
        childName: `${k.firstName} ${k.lastName}`,
        timeOffered: (r?.timeOffered ?? null) as TimeOffered | null,
        timeIn: r?.timeIn ?? null,
        timeOut: r?.timeOut ?? null,
        absentReason: present ? null : reasonText(absent?.absentReason ?? null),
      };
    }),
  };
}

/** Records an absence notice, mails it to the children's sites and keeps the parent's copy in the history. */
export async function notifyAbsence(deps: AppDeps, s: SessionInfo, lang: string, v: AbsenceNotice): Promise<AttendanceNotifyAbsenceResponse> {
  await checkAbsenceNoticeLimit(deps, lang, s);
  const notFound = () => httpError({ deps, lang }, 404, 'server.errors.notFound');
  const kids = await deps.db
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName, homeSiteId: children.homeSiteId })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId), inArray(children.id, v.childIDs)));
  if (kids.length !== new Set(v.childIDs).size) throw notFound();
  let reason = '';
  if (v.reasonID) {
    const [r] = await deps.db
      .select()
      .from(absenceReasons)
      .where(and(eq(absenceReasons.id, v.reasonID), eq(absenceReasons.providerId, s.providerId), eq(absenceReasons.showInParentPortal, true)));
    if (!r) throw notFound();
    reason = r.reason;
  }
  const startDate = mdyToIso(v.startDate);
  const endDate = v.endDate ? mdyToIso(v.endDate) : null;
  const now = deps.today();
  const [notice] = await deps.db
    .insert(absenceNotices)
    .values({
      providerId: s.providerId,
      accountId: s.accountId,
      adultId: s.adultId,
      childIds: kids.map((k) => k.id),
      reason,
      otherReason: v.otherReason ?? '',
      startDate,
      endDate,
      timeOffered: v.timeOffered,
      additionalInfo: v.additionalInfo,
      createdAt: now,
    })
    .returning({ id: absenceNotices.id });

  const provider = await providerOf(deps.db, s);
  const [parent] = await deps.db
    .select({ firstName: adults.firstName, lastName: adults.lastName, email: adults.email, accountNo: accounts.accountNo })
    .from(adults)
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(eq(adults.id, s.adultId));
  // staff read the note in the provider's first language
  const staffLang = provider.languages[0]?.code ?? 'en';
  // the form's mm/dd/yyyy dates the way each reader writes them (staff and parent may differ)
  const dateIn = (d: string, l: string) => dateInLanguage(d, l) || d;
  const datesIn = (l: string) => (endDate ? `${dateIn(v.startDate, l)} - ${dateIn(String(v.endDate), l)}` : dateIn(v.startDate, l));
  const params = {
    children: kids.map((k) => `${k.firstName} ${k.lastName}`).join(', '),
    parent: `${parent.firstName} ${parent.lastName}`,
    accountNo: parent.accountNo,
    dates: datesIn(staffLang),
    when: deps.t(staffLang, `timeOffered.${v.timeOffered}`),
    reason: [reason, v.otherReason].filter(Boolean).join(': ') || '-',
    info: v.additionalInfo,
  };
  const lines = ['body', 'dates', 'when', 'reason', 'info'].map((k) => deps.t(staffLang, `mail.absenceNotice.${k}`, params));
  // spec 6: the site administrators of the children's sites receive the note (the program's
  // support address when a site has none)
  const siteIds = [...new Set(kids.map((k) => k.homeSiteId).filter((x): x is number => x !== null))];
  const siteRows = siteIds.length
    ? await deps.db.select({ adminEmail: sites.adminEmail }).from(sites).where(and(eq(sites.providerId, s.providerId), inArray(sites.id, siteIds)))
    : [];
  const recipients = new Set(siteRows.flatMap((r) => r.adminEmail.split(',').map((x) => x.trim()).filter(Boolean)));
  if (!recipients.size && provider.supportEmail) recipients.add(provider.supportEmail);
  for (const to of recipients) {
    await enqueueMail(deps.db, deps.clock, {
      providerId: s.providerId,
      kind: 'absence_notice',
      to,
      from: `"${provider.programName}" <${provider.supportEmail || to}>`,
      subject: deps.t(staffLang, 'mail.absenceNotice.subject', params),
      text: lines.join('\n'),
    });
  }
  if (recipients.size) deps.mailQueued();
  // the parent's copy in the communication history, in the language of the request
  const escape = (x: string) => x.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  await deps.db.insert(communications).values({
    providerId: s.providerId,
    accountId: s.accountId,
    mode: 'EMAIL',
    subject: deps.t(lang, 'mail.absenceNotice.historySubject'),
    fromName: provider.programName,
    description: `<p>${escape(deps.t(lang, 'mail.absenceNotice.historyBody', { ...params, dates: datesIn(lang) }))}</p>`,
    createdOn: now,
    isAutomatic: true,
  });
  return { absenceNoticeID: notice.id };
}

/** The attendance report of a range, a PDF; the range is checked by the browser's own form. */
export async function attendanceReport(deps: AppDeps, s: SessionInfo, lang: string, query: { StartDate: string; EndDate: string }): Promise<FileResult> {
  const provider = await providerOf(deps.db, s);
  if (!provider.attendanceAllowed) throw httpError({ deps, lang }, 403, 'server.errors.forbidden');
  // the browser's own form and rules (start and end dates, end not before start)
  const decl = deps.declarations.get(provider.appName);
  if (!decl) throw httpError({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  const rc = await ruleContextOf(deps.db, s, deps.releaseVersion);
  const result = decl.engine.validate('attendanceReport', { startDate: query.StartDate, endDate: query.EndDate }, { session: rc.session, provider: rc.provider, today: todayMdy(deps.today) });
  if (!result.valid) {
    fail({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: result.errors.map((e) => ({ path: e.path, key: e.key, params: e.params })) });
  }
  const start = mdyToIso(query.StartDate);
  const end = mdyToIso(query.EndDate);
  const rows = await deps.db
    .select({ r: attendanceTable, firstName: children.firstName, lastName: children.lastName, site: { siteName: sites.siteName, translations: sites.translations } })
    .from(attendanceTable)
    .innerJoin(children, eq(children.id, attendanceTable.childId))
    .innerJoin(sites, eq(sites.id, attendanceTable.siteId))
    .where(and(eq(attendanceTable.providerId, s.providerId), eq(children.accountId, s.accountId), gte(attendanceTable.attendanceDate, start), lte(attendanceTable.attendanceDate, end)))
    .orderBy(asc(attendanceTable.attendanceDate), asc(children.firstName), asc(attendanceTable.timeOffered));
  const [acct] = await deps.db.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.id, s.accountId));
  const reasonText = await reasonsIn(deps, s.providerId, lang);
  const file = await attendanceReportPdf({
    t: (key, params) => deps.t(lang, key, params),
    lang,
    organisation: provider.organisation || provider.programName,
    programName: provider.programName,
    accountNo: acct.accountNo,
    startDate: query.StartDate,
    endDate: query.EndDate,
    generatedOn: deps.today(),
    rows: rows.map(({ r, firstName, lastName, site }) => ({
      date: r.attendanceDate,
      child: `${firstName} ${lastName}`,
      site: textIn(site, 'siteName', lang),
      timeOffered: r.timeOffered,
      timeIn: r.timeIn,
      timeOut: r.timeOut,
      inBy: r.inBy,
      outBy: r.outBy,
      absentReason: reasonText(r.absentReason),
    })),
  });
  return { file, fileName: `Attendance-${start}-to-${end}.pdf`, contentType: 'application/pdf' };
}
