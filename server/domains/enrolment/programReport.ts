// The program report download of the programs list (spec 2.8, 7.3 /report/download): a real PDF made
// with pdfkit in the request's language: the program period, then the account's children with their
// registration and their enrolments in that program.
import PDFDocument from 'pdfkit';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDeps, FileResult } from '../../context';
import type { SessionInfo } from '../../auth';
import type { RegistrationProgramReportQuery } from '../../../src/engine/contract.gen';
import { accounts, activities, changeRequests, children, enrollments, programPeriods, registrations, sites } from '../../db/schema';
import { moneyText } from '../../../src/engine/money';
import { httpError } from '../../errors';
import { dateInLanguage } from '../../../src/engine/index';
import { textIn } from '../../providerTexts';
import { providerOf } from '../provider/provider';
import { registerReportFonts } from '../attendance/attendanceReport';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';


export interface ProgramReportChild {
  name: string;
  status: string;
  registrationDate: string | null;
  submittedOn: string | null;
  enrolments: { activity: string; site: string; days: string; from: string; to: string | null }[];
}

export interface ProgramReportInput {
  t: (key: string, params?: Record<string, unknown>) => string;
  /** the reader's language: dates are written its way (dd/mm/yyyy in Spanish) */
  lang: string;
  organisation: string;
  programName: string;
  accountNo: string;
  program: { title: string; description: string; startDate: string; endDate: string; category: string; reportType: string };
  generatedOn: Date;
  children: ProgramReportChild[];
  /** the account's schedule changes sent for the program (report type ChangeSchedule only) */
  changes?: ProgramReportChange[];
}

export interface ProgramReportChange {
  status: 'waiting' | 'scheduled' | 'applied' | 'rejected';
  effectiveDate: string | null;
  sentOn: string | null;
  /** amounts already written in the reader's money format */
  fee: string | null;
  due: string | null;
  children: { name: string; lines: string[] | null }[];
}

const STATUS_KEYS: Record<string, string> = {
  REGISTERED: 'programs.report.status.REGISTERED',
  PENDING: 'programs.report.status.PENDING',
  WAITLISTED: 'programs.report.status.WAITLISTED',
  PROCESSED: 'programs.report.status.PROCESSED',
  'SEATS FULL': 'programs.report.status.SEATS_FULL',
  REMOVED: 'programs.report.status.REMOVED',
};

export function programReportPdf(input: ProgramReportInput): Promise<Uint8Array> {
  const { t } = input;
  const date = (value: string) => dateInLanguage(value, input.lang);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 48, info: { Title: `${t('programs.report.title')}: ${input.program.title}`, Author: input.organisation, CreationDate: input.generatedOn } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    registerReportFonts(doc);
    const left = doc.page.margins.left;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    const fits = (h: number) => {
      if (doc.y + h > doc.page.height - doc.page.margins.bottom) doc.addPage();
    };

    doc.font('body').fontSize(10).fillColor('#555555').text(input.organisation);
    doc.moveDown(0.3);
    doc.font('bold').fontSize(18).fillColor('#000000').text(t('programs.report.title'));
    doc.moveDown(0.2);
    doc.font('bold').fontSize(14).text(input.program.title);
    doc.font('body').fontSize(11);
    if (input.program.description) doc.text(input.program.description, { width });
    doc.moveDown(0.4);
    doc.text(t('programs.report.period', { start: date(input.program.startDate), end: date(input.program.endDate) }));
    doc.text(t('programs.report.category', { category: t(`programs.category.${input.program.category}`) }));
    doc.text(t('programs.report.account', { accountNo: input.accountNo }));
    // the report's kind in words, not its code (W, T, D, C or ChangeSchedule)
    doc.text(t('programs.report.type', { type: t(`programs.report.types.${input.program.reportType === 'ChangeSchedule' ? 'changeSchedule' : 'enrollment'}`) }));
    doc.moveDown();
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor('#888888').lineWidth(0.75).stroke();
    doc.moveDown(0.5);

    if (!input.children.length) {
      doc.font('body').fontSize(11).text(t('programs.report.none'), left);
    }
    for (const c of input.children) {
      fits(80);
      doc.font('bold').fontSize(13).fillColor('#000000').text(c.name, left);
      doc.font('body').fontSize(10.5);
      doc.text(`${t('programs.report.statusLabel')}: ${t(STATUS_KEYS[c.status] ?? c.status)}`);
      if (c.registrationDate) doc.text(t('programs.child.registered', { date: date(c.registrationDate) }));
      if (c.submittedOn) doc.text(t('programs.child.submitted', { date: date(c.submittedOn) }));
      doc.moveDown(0.3);
      if (!c.enrolments.length) {
        doc.fillColor('#555555').text(t('programs.report.noEnrolments')).fillColor('#000000');
      } else {
        const cols = [
          { key: 'programs.report.activity', w: width * 0.3 },
          { key: 'programs.report.site', w: width * 0.25 },
          { key: 'programs.report.days', w: width * 0.15 },
          { key: 'programs.report.from', w: width * 0.15 },
          { key: 'programs.report.to', w: width * 0.15 },
        ];
        const row = (cells: string[], bold: boolean) => {
          doc.font(bold ? 'bold' : 'body').fontSize(9.5);
          const h = Math.max(...cells.map((x, i) => doc.heightOfString(x, { width: cols[i].w - 6 }))) + 6;
          fits(h);
          const y = doc.y;
          let x = left;
          cells.forEach((cell, i) => {
            doc.text(cell, x + 3, y + 3, { width: cols[i].w - 6 });
            x += cols[i].w;
          });
          doc.moveTo(left, y + h).lineTo(left + width, y + h).strokeColor('#bbbbbb').lineWidth(0.5).stroke();
          doc.x = left;
          doc.y = y + h;
        };
        row(cols.map((c2) => t(c2.key)), true);
        for (const e of c.enrolments) row([e.activity, e.site, e.days, date(e.from), e.to ? date(e.to) : '—'], false);
      }
      doc.moveDown(1);
    }
    if (input.changes) {
      fits(60);
      doc.font('bold').fontSize(14).fillColor('#000000').text(t('programs.report.changes.heading'), left);
      doc.moveDown(0.3);
      if (!input.changes.length) doc.font('body').fontSize(10.5).text(t('programs.report.changes.none'), left);
      for (const ch of input.changes) {
        fits(60);
        const head = [ch.effectiveDate ? t('programs.report.changes.effective', { date: date(ch.effectiveDate) }) : '', t(`programs.report.changes.status.${ch.status}`)].filter(Boolean).join(' · ');
        doc.font('bold').fontSize(11).text(head, left);
        doc.font('body').fontSize(10);
        if (ch.sentOn) doc.text(t('programs.report.changes.sent', { date: date(ch.sentOn) }));
        for (const c of ch.children) doc.text(`${c.name}: ${c.lines ? c.lines.join('; ') : t('programs.report.changes.noChange')}`, { width });
        if (ch.fee) doc.text(t('programs.report.changes.fee', { amount: ch.fee }));
        if (ch.due) doc.text(t('programs.report.changes.due', { amount: ch.due }));
        doc.moveDown(0.6);
      }
    }
    doc.moveDown();
    doc.font('body').fontSize(9).fillColor('#555555').text(t('programs.report.generated', { programName: input.programName, date: date(input.generatedOn.toISOString().slice(0, 10)) }), left);
    doc.end();
  });
}

/** ChangeSchedule for application type 4, otherwise the enrolment option uppercased (spec 7.3). */
export const reportTypeOf = (applicationTypeID: number, enrollmentOption: string): string => (applicationTypeID === APPLICATION_TYPE.changeSchedule ? 'ChangeSchedule' : enrollmentOption.toUpperCase());

/** The account's schedule changes sent for a program, for the report (ChangeSchedule), oldest first. */
async function changesOf(deps: AppDeps, s: SessionInfo, programPeriodId: number, lang: string, country: string): Promise<ProgramReportChange[]> {
  const rows = await deps.db
    .select()
    .from(changeRequests)
    .where(and(eq(changeRequests.providerId, s.providerId), eq(changeRequests.accountId, s.accountId), eq(changeRequests.programPeriodId, programPeriodId), inArray(changeRequests.status, ['waiting', 'scheduled', 'applied', 'rejected'])))
    .orderBy(asc(changeRequests.submittedAt), asc(changeRequests.id));
  const kidIds = [...new Set(rows.flatMap((r) => (r.data.children ?? []).map((c) => c.prChildID)))];
  const actIds = [...new Set(rows.flatMap((r) => (r.data.children ?? []).flatMap((c) => c.selections.map((x) => x.activityID))))];
  const kids = kidIds.length ? await deps.db.select().from(children).where(and(eq(children.providerId, s.providerId), inArray(children.id, kidIds))) : [];
  const acts = actIds.length
    ? await deps.db.select({ a: activities, site: sites }).from(activities).innerJoin(sites, eq(sites.id, activities.siteId)).where(and(eq(activities.providerId, s.providerId), inArray(activities.id, actIds)))
    : [];
  return rows.map((r) => ({
    status: r.status as ProgramReportChange['status'],
    effectiveDate: r.effectiveDate,
    sentOn: r.submittedAt ? r.submittedAt.toISOString().slice(0, 10) : null,
    fee: r.changeFeeCents ? moneyText(r.changeFeeCents, lang, country) : null,
    due: r.amountDueCents ? moneyText(r.amountDueCents, lang, country) : null,
    children: (r.data.children ?? []).map((c) => {
      const k = kids.find((x) => x.id === c.prChildID);
      const lines = c.noChange
        ? null
        : c.selections.map((sel) => {
            const a = acts.find((x) => x.a.id === sel.activityID);
            return a ? `${textIn(a.a, 'activity', lang)} (${textIn(a.site, 'siteName', lang)}): ${sel.daysOfWeek.join(', ')}` : String(sel.activityID);
          });
      return { name: k ? `${k.firstName} ${k.lastName}` : '', lines };
    }),
  }));
}

/** The program report of a program period for the signed-in account, a PDF in the request's language. */
export async function programReport(deps: AppDeps, s: SessionInfo, lang: string, query: RegistrationProgramReportQuery): Promise<FileResult> {
  const notFound = () => httpError({ deps, lang }, 404, 'server.errors.notFound');
  // PRAccountID 0 stands for the signed-in account; any other must be it
  if (query.PRAccountID !== undefined && query.PRAccountID !== 0 && query.PRAccountID !== s.accountId) throw notFound();
  const [pp] = await deps.db.select().from(programPeriods).where(and(eq(programPeriods.id, query.programPeriodID), eq(programPeriods.providerId, s.providerId)));
  if (!pp) throw notFound();
  const provider = await providerOf(deps.db, s);
  // the download is hidden for Canadian providers (spec 2.8)
  if (provider.countryCode === 'CA') throw httpError({ deps, lang }, 403, 'server.errors.forbidden');
  // the list's programs are all application type 1 (registration); 4 is a schedule change
  const expected = reportTypeOf(1, pp.enrollmentOption);
  if (query.reportType !== expected && query.reportType !== 'ChangeSchedule') {
    throw httpError({ deps, lang }, 400, 'programs.errors.reportType');
  }
  const regs = await deps.db
    .select({ r: registrations, c: children })
    .from(registrations)
    .innerJoin(children, eq(children.id, registrations.childId))
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.accountId, s.accountId), eq(registrations.programPeriodId, pp.id)))
    .orderBy(asc(children.firstName), asc(children.id));
  const enrolled = await deps.db
    .select({ e: enrollments, a: activities, siteName: sites.siteName })
    .from(enrollments)
    .innerJoin(activities, eq(activities.id, enrollments.activityId))
    .innerJoin(sites, eq(sites.id, activities.siteId))
    .where(and(eq(enrollments.providerId, s.providerId), eq(enrollments.accountId, s.accountId), eq(activities.programPeriodId, pp.id)))
    .orderBy(asc(enrollments.enrollmentDate), asc(activities.activity));
  const [acct] = await deps.db.select({ accountNo: accounts.accountNo }).from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  const title = textIn(pp, 'programPeriod', lang);
  const changes = query.reportType === 'ChangeSchedule' ? await changesOf(deps, s, pp.id, lang, provider.countryCode) : undefined;
  const file = await programReportPdf({
    changes,
    t: (key, params) => deps.t(lang, key, params),
    lang,
    organisation: provider.organisation || provider.programName,
    programName: provider.programName,
    accountNo: acct?.accountNo ?? '',
    program: { title, description: textIn(pp, 'description', lang), startDate: pp.startDate, endDate: pp.endDate, category: pp.category, reportType: query.reportType },
    generatedOn: deps.today(),
    children: regs.map(({ r, c }) => ({
      name: `${c.firstName} ${c.lastName}`,
      status: r.status,
      registrationDate: r.registrationDate,
      submittedOn: r.submittedOn,
      enrolments: enrolled
        .filter((e) => e.e.childId === c.id)
        .map((e) => ({ activity: e.a.activity, site: e.siteName, days: (e.e.daysOfWeek || e.a.daysOfWeek).split(',').join(', '), from: e.e.enrollmentDate, to: e.e.deEnrollDate })),
    })),
  });
  const safe = title.replace(/[^A-Za-z0-9 _-]+/g, '').trim().replace(/\s+/g, '-') || 'program';
  return { file, fileName: `${safe}-report.pdf`, contentType: 'application/pdf' };
}
