// The attendance report (spec 2.13, /attendancereport): a real PDF made with pdfkit, one table row
// per attendance record of the account's children between the two dates.
import { existsSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import { dateInLanguage, timeInLanguage } from '../../../src/engine/index';

// The standard PDF fonts cover Western European letters only; Vietnamese names and texts need a
// Unicode font. DejaVu Sans (Debian's fonts-dejavu-core) is used when installed, else Helvetica.
const FONT_DIR = process.env.PDF_FONT_DIR ?? '/usr/share/fonts/truetype/dejavu';
const UNICODE_FONTS = { body: `${FONT_DIR}/DejaVuSans.ttf`, bold: `${FONT_DIR}/DejaVuSans-Bold.ttf` };
const hasUnicodeFonts = () => existsSync(UNICODE_FONTS.body) && existsSync(UNICODE_FONTS.bold);

/** A report PDF being written: the document, its text column and its bytes once ended. */
export interface ReportDoc {
  doc: PDFKit.PDFDocument;
  left: number;
  width: number;
  done: Promise<Uint8Array>;
}

/** A new letter-size report PDF in the report fonts (statements, tax documents), collected into bytes as it is written. */
export function newReportDoc(title: string, author: string, generatedOn: Date): ReportDoc {
  const doc = new PDFDocument({ size: 'LETTER', margin: 56, info: { Title: title, Author: author, CreationDate: generatedOn } });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  registerReportFonts(doc);
  return { doc, done, left: doc.page.margins.left, width: doc.page.width - doc.page.margins.left - doc.page.margins.right };
}

/** The reports' 'body' and 'bold' fonts: DejaVu when installed (Vietnamese needs more than the PDF standard fonts). */
export function registerReportFonts(doc: PDFKit.PDFDocument): void {
  if (hasUnicodeFonts()) {
    doc.registerFont('body', UNICODE_FONTS.body);
    doc.registerFont('bold', UNICODE_FONTS.bold);
  } else {
    doc.registerFont('body', 'Helvetica');
    doc.registerFont('bold', 'Helvetica-Bold');
  }
}

export interface ReportRow {
  date: string;
  child: string;
  site: string;
  timeOffered: string;
  timeIn: string | null;
  timeOut: string | null;
  inBy: string | null;
  outBy: string | null;
  absentReason: string | null;
}

export interface ReportInput {
  t: (key: string, params?: Record<string, unknown>) => string;
  /** the reader's language: dates and times are written its way (dd/mm/yyyy and 14:05 in Spanish) */
  lang: string;
  organisation: string;
  programName: string;
  accountNo: string;
  startDate: string;
  endDate: string;
  generatedOn: Date;
  rows: ReportRow[];
}

const OFFERING_KEY: Record<string, string> = {
  'BEFORE SCHOOL': 'communication.attendance.beforeSchool',
  'AFTER SCHOOL': 'communication.attendance.afterSchool',
  'FULL DAY': 'communication.attendance.fullDay',
};

export function attendanceReportPdf(input: ReportInput): Promise<Uint8Array> {
  const { t } = input;
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', layout: 'landscape', margin: 40, info: { Title: t('communication.report.title'), Author: input.organisation, CreationDate: input.generatedOn } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    registerReportFonts(doc);
    doc.font('body');

    doc.fontSize(10).fillColor('#555555').text(input.organisation);
    doc.moveDown(0.3);
    doc.fontSize(18).fillColor('#000000').text(t('communication.report.title'));
    doc.moveDown(0.3);
    doc.fontSize(11).text(t('communication.report.period', { start: dateInLanguage(input.startDate, input.lang) || input.startDate, end: dateInLanguage(input.endDate, input.lang) || input.endDate }));
    doc.text(t('communication.report.account', { accountNo: input.accountNo }));
    doc.moveDown();

    const cols = [
      { key: 'communication.report.date', w: 70 },
      { key: 'communication.report.child', w: 95 },
      { key: 'communication.report.site', w: 115 },
      { key: 'communication.report.when', w: 75 },
      { key: 'communication.attendance.in', w: 50 },
      { key: 'communication.attendance.inBy', w: 70 },
      { key: 'communication.attendance.out', w: 50 },
      { key: 'communication.attendance.outBy', w: 70 },
      // the absence column takes the rest of the line
      { key: 'communication.report.absent', w: 0 },
    ];
    const left = doc.page.margins.left;
    const right = doc.page.width - doc.page.margins.right;
    cols[cols.length - 1].w = right - left - cols.slice(0, -1).reduce((a, c) => a + c.w, 0);

    const row = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'bold' : 'body').fontSize(9);
      const height = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i].w - 6 }))) + 6;
      if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
      const y = doc.y;
      let x = left;
      cells.forEach((c, i) => {
        doc.text(c, x + 3, y + 3, { width: cols[i].w - 6 });
        x += cols[i].w;
      });
      doc.moveTo(left, y + height).lineTo(right, y + height).strokeColor('#bbbbbb').lineWidth(0.5).stroke();
      doc.x = left;
      doc.y = y + height;
    };

    // an attendance time (recorded like '2:05 PM') the reader's way; anything else unchanged
    const time = (v: string | null) => (v ? timeInLanguage(v, input.lang) || v : '');
    row(cols.map((c) => t(c.key)), true);
    if (!input.rows.length) {
      doc.moveDown();
      doc.font('body').fontSize(11).text(t('communication.attendance.noRecords'), left);
    }
    for (const r of input.rows) {
      const absent = Boolean(r.absentReason) && !r.timeIn && !r.timeOut;
      row(
        [
          dateInLanguage(r.date, input.lang),
          r.child,
          r.site,
          t(OFFERING_KEY[r.timeOffered] ?? r.timeOffered),
          time(r.timeIn),
          r.inBy ?? '',
          time(r.timeOut),
          r.outBy ?? '',
          absent ? t('communication.attendance.absentBecause', { reason: r.absentReason }) : '',
        ],
        false,
      );
    }
    doc.moveDown();
    doc.font('body').fontSize(9).fillColor('#555555').text(t('communication.report.generated', { programName: input.programName, date: dateInLanguage(input.generatedOn.toISOString().slice(0, 10), input.lang) }), left);
    doc.end();
  });
}
