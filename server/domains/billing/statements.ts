// The account's statements (spec 2.12 view statement, 7.1 /report/statement and /report/payment): the
// transaction history between two days, read from the ledger (ledger.ts) with the opening balance
// before the first day, each entry as a debit or a credit with the running balance, and the closing
// balance; as a PDF or a CSV. And the payment history between two days as a PDF. Everything is read
// for the signed-in account of the signed-in provider only.
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { accounts, adults, invoices, ledgerEntries, payments } from '../../db/schema';
import { KeyedError } from '../../errors';
import { isoDay } from '../../clock';
import type { AppDeps, FileResult } from '../../context';
import type { SessionInfo } from '../../auth';
import { dateInLanguage, parseIsoDay } from '../../../src/engine/index';
import { moneyText } from '../../../src/engine/money';
import { newReportDoc, type ReportDoc } from '../attendance/attendanceReport';
import { providerOf } from '../provider/provider';
import type { BillingStatementPeriodResponse } from '../../../src/engine/contract.gen';

// charges, late fees, refunds and returned payments raise the balance; payments and credits lower it
const RAISES: ReadonlySet<string> = new Set(['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN']);
const KINDS: ReadonlySet<string> = new Set(['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN', 'PAYMENT', 'CREDIT']);
/** the period the screen offers first: the last 90 days up to today */
export const DEFAULT_DAYS = 90;
/** the longest period one statement covers: two years, 730 days from its first day (the forms' rule too) */
const MAX_DAYS = 730;

type T = (key: string, params?: Record<string, unknown>) => string;

const pad = (n: number) => String(n).padStart(2, '0');
const mdyOf = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;

function addDays(iso: string, days: number): string {
  const d = parseIsoDay(iso)!;
  const at = new Date(Date.UTC(d.y, d.m - 1, d.d + days));
  return `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`;
}

/** A day given as yyyy-mm-dd or as the forms' mm/dd/yyyy, as yyyy-mm-dd; undefined when empty. */
function dayOf(value: string | undefined): string | undefined {
  const v = (value ?? '').trim();
  if (!v) return undefined;
  const mdy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(v);
  const iso = mdy ? `${mdy[3]}-${mdy[1]}-${mdy[2]}` : v;
  if (!parseIsoDay(iso)) throw new KeyedError(400, 'payment.errors.statementDate');
  return iso;
}

/** The period the screen's date fields start with (mm/dd/yyyy): the last 90 days up to the portal's today. */
export function statementPeriod(deps: AppDeps): BillingStatementPeriodResponse {
  const today = isoDay(deps.today());
  const from = mdyOf(addDays(today, -(DEFAULT_DAYS - 1)));
  return { startDate: from, endDate: mdyOf(today), paymentsFrom: from, paymentsTo: mdyOf(today) };
}

/**
 * The period asked for: both days given, or the last 90 days when both are left empty. A start after
 * the end, or a period over two years, is refused.
 */
export function periodOf(deps: AppDeps, query: { StartDate?: string; EndDate?: string }): { start: string; end: string } {
  let start = dayOf(query.StartDate);
  let end = dayOf(query.EndDate);
  if (!start && !end) {
    end = isoDay(deps.today());
    start = addDays(end, -(DEFAULT_DAYS - 1));
  }
  if (!start || !end) throw new KeyedError(400, 'payment.errors.statementDate');
  if (start > end) throw new KeyedError(400, 'payment.errors.statementOrder');
  if (end > addDays(start, MAX_DAYS)) throw new KeyedError(400, 'payment.errors.statementTooLong');
  return { start, end };
}

export interface StatementLine {
  date: string;
  kind: string;
  description: string;
  debitCents: number;
  creditCents: number;
  balanceCents: number;
}

export interface Statement {
  organisation: string;
  country: string;
  accountNo: string;
  /** the adult the statement is addressed to, when one was asked for */
  adultName: string;
  start: string;
  end: string;
  openingCents: number;
  closingCents: number;
  lines: StatementLine[];
}

/** Pure: the statement of ledger rows (any order) between `start` and `end`, both included. */
export function statementOf(
  rows: { id: number; kind: string; amountCents: number; entryDate: string; servicePeriod: string | null }[],
  start: string,
  end: string,
  t: T,
): Pick<Statement, 'openingCents' | 'closingCents' | 'lines'> {
  const signed = (r: { kind: string; amountCents: number }) => (RAISES.has(r.kind) ? r.amountCents : -r.amountCents);
  const sorted = [...rows].sort((a, b) => (a.entryDate < b.entryDate ? -1 : a.entryDate > b.entryDate ? 1 : a.id - b.id));
  const openingCents = sorted.filter((r) => r.entryDate < start).reduce((n, r) => n + signed(r), 0);
  let balance = openingCents;
  const lines: StatementLine[] = [];
  for (const r of sorted) {
    if (r.entryDate < start || r.entryDate > end) continue;
    balance += signed(r);
    const kind = t(`payment.statement.kinds.${KINDS.has(r.kind) ? r.kind : 'OTHER'}`);
    lines.push({
      date: r.entryDate,
      kind: r.kind,
      description: r.servicePeriod ? `${kind}: ${r.servicePeriod}` : kind,
      debitCents: RAISES.has(r.kind) ? r.amountCents : 0,
      creditCents: RAISES.has(r.kind) ? 0 : r.amountCents,
      balanceCents: balance,
    });
  }
  return { openingCents, closingCents: balance, lines };
}

async function accountHeader(deps: AppDeps, s: SessionInfo, adultId: number | undefined) {
  const provider = await providerOf(deps.db, s);
  const [acc] = await deps.db.select({ accountNo: accounts.accountNo }).from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  if (!provider || !acc) throw new KeyedError(404, 'server.errors.notFound');
  let adultName = '';
  if (adultId !== undefined) {
    // only an adult of this account
    const [a] = await deps.db
      .select({ firstName: adults.firstName, lastName: adults.lastName })
      .from(adults)
      .where(and(eq(adults.id, adultId), eq(adults.accountId, s.accountId), eq(adults.providerId, s.providerId)));
    if (!a) throw new KeyedError(404, 'server.errors.notFound');
    adultName = `${a.firstName} ${a.lastName}`;
  }
  return { organisation: provider.organisation, country: provider.countryCode, accountNo: acc.accountNo, adultName };
}

/** The account's statement between the days asked for (the last 90 days when none). */
export async function statement(deps: AppDeps, s: SessionInfo, query: { StartDate?: string; EndDate?: string; AdultID?: number }, lang: string): Promise<Statement> {
  const { start, end } = periodOf(deps, query);
  const header = await accountHeader(deps, s, query.AdultID);
  const rows = await deps.db
    .select({ id: ledgerEntries.id, kind: ledgerEntries.kind, amountCents: ledgerEntries.amountCents, entryDate: ledgerEntries.entryDate, servicePeriod: invoices.servicePeriod })
    .from(ledgerEntries)
    .leftJoin(invoices, and(eq(invoices.id, ledgerEntries.invoiceId), eq(invoices.accountId, ledgerEntries.accountId)))
    .where(and(eq(ledgerEntries.providerId, s.providerId), eq(ledgerEntries.accountId, s.accountId), lte(ledgerEntries.entryDate, end)))
    .orderBy(asc(ledgerEntries.entryDate), asc(ledgerEntries.id));
  return { ...header, start, end, ...statementOf(rows, start, end, (k, p) => deps.t(lang, k, p)) };
}

const plain = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${pad(Math.abs(cents) % 100)}`;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled. A
 * text a spreadsheet would take for a formula (= + - @, a tab or a carriage return first) gets a
 * leading quote; amounts are numbers and stay as they are.
 */
export function csvCell(value: string, text: boolean): string {
  const safe = text && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Pure: the statement as CSV lines (CRLF): a header row in the language, the opening balance, the entries, the closing balance. */
export function statementCsv(st: Statement, t: T): string {
  const row = (cells: [string, boolean][]) => cells.map(([v, text]) => csvCell(v, text)).join(',');
  const lines = [
    row([
      [t('payment.statement.csv.date'), true],
      [t('payment.statement.csv.description'), true],
      [t('payment.statement.csv.debit'), true],
      [t('payment.statement.csv.credit'), true],
      [t('payment.statement.csv.balance'), true],
    ]),
    row([[st.start, false], [t('payment.statement.opening'), true], ['', false], ['', false], [plain(st.openingCents), false]]),
    ...st.lines.map((l) =>
      row([
        [l.date, false],
        [l.description, true],
        [l.debitCents ? plain(l.debitCents) : '', false],
        [l.creditCents ? plain(l.creditCents) : '', false],
        [plain(l.balanceCents), false],
      ]),
    ),
    row([[st.end, false], [t('payment.statement.closing'), true], ['', false], ['', false], [plain(st.closingCents), false]]),
  ];
  return lines.join('\r\n') + '\r\n';
}

type Doc = ReportDoc;
const newDoc = newReportDoc;

/** The heading every statement PDF starts with: provider, title, account, period. */
function heading(d: Doc, t: T, lang: string, h: { organisation: string; title: string; accountNo: string; adultName: string; start: string; end: string }) {
  const { doc } = d;
  doc.font('body').fontSize(10).fillColor('#555555').text(h.organisation);
  doc.moveDown(0.3);
  doc.font('bold').fontSize(20).fillColor('#000000').text(h.title);
  doc.moveDown(0.3);
  doc.font('body').fontSize(11);
  if (h.adultName) doc.text(h.adultName);
  doc.text(`${t('payment.receipt.account')}: ${h.accountNo}`);
  doc.text(t('payment.statement.period', { start: dateInLanguage(h.start, lang), end: dateInLanguage(h.end, lang) }));
  doc.moveDown(0.6);
}

/** A table whose header row repeats on every new page; `right` names the columns aligned right. */
function table(d: Doc, widths: number[], header: string[], rows: { cells: string[]; bold?: boolean }[], right: ReadonlySet<number>) {
  const { doc, left, width } = d;
  const cols = widths.map((w) => w * width);
  const draw = (cells: string[], bold: boolean) => {
    doc.font(bold ? 'bold' : 'body').fontSize(9.5).fillColor('#000000');
    const h = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i] - 8 }))) + 8;
    if (doc.y + h > doc.page.height - doc.page.margins.bottom) {
      doc.addPage();
      if (cells !== header) draw(header, true);
      doc.font(bold ? 'bold' : 'body').fontSize(9.5);
    }
    const y = doc.y;
    let x = left;
    cells.forEach((c, i) => {
      doc.text(c, x + 4, y + 4, { width: cols[i] - 8, align: right.has(i) ? 'right' : 'left', lineBreak: true });
      x += cols[i];
    });
    doc.moveTo(left, y + h).lineTo(left + width, y + h).strokeColor('#bbbbbb').lineWidth(0.5).stroke();
    doc.x = left;
    doc.y = y + h;
  };
  draw(header, true);
  for (const r of rows) draw(r.cells, r.bold ?? false);
}

function footer(d: Doc, t: T, lang: string, generatedOn: Date) {
  d.doc.moveDown(1.2);
  d.doc.font('body').fontSize(9).fillColor('#555555').text(t('payment.receipt.generated', { date: dateInLanguage(isoDay(generatedOn), lang) }), d.left, d.doc.y, { width: d.width });
}

/** Pure: the statement as a PDF in the language. */
export function statementPdf(st: Statement, t: T, lang: string, generatedOn: Date): Promise<Uint8Array> {
  const money = (cents: number) => moneyText(cents, lang, st.country);
  const title = t('payment.statement.pdfTitle');
  const d = newDoc(title, st.organisation, generatedOn);
  heading(d, t, lang, { ...st, title });
  table(
    d,
    [0.16, 0.39, 0.15, 0.15, 0.15],
    [t('payment.statement.csv.date'), t('payment.statement.csv.description'), t('payment.statement.csv.debit'), t('payment.statement.csv.credit'), t('payment.statement.csv.balance')],
    [
      { cells: [dateInLanguage(st.start, lang), t('payment.statement.opening'), '', '', money(st.openingCents)], bold: true },
      ...st.lines.map((l) => ({ cells: [dateInLanguage(l.date, lang), l.description, l.debitCents ? money(l.debitCents) : '', l.creditCents ? money(l.creditCents) : '', money(l.balanceCents)] })),
      { cells: [dateInLanguage(st.end, lang), t('payment.statement.closing'), '', '', money(st.closingCents)], bold: true },
    ],
    new Set([2, 3, 4]),
  );
  if (st.lines.length === 0) {
    d.doc.moveDown(0.6);
    d.doc.font('body').fontSize(10.5).fillColor('#333333').text(t('payment.statement.noEntries'), d.left, d.doc.y, { width: d.width });
  }
  footer(d, t, lang, generatedOn);
  d.doc.end();
  return d.done;
}

/** The statement download: a PDF, or a CSV (`format=csv`), in the request's language. */
export async function statementFile(deps: AppDeps, s: SessionInfo, query: { StartDate?: string; EndDate?: string; AdultID?: number; format?: 'pdf' | 'csv' }, lang: string): Promise<FileResult> {
  const st = await statement(deps, s, query, lang);
  const t: T = (k, p) => deps.t(lang, k, p);
  const name = `statement-${st.start}-to-${st.end}`;
  if (query.format === 'csv') {
    // a byte order mark, so a spreadsheet reads the accented and Vietnamese texts as UTF-8
    return { file: new Uint8Array(Buffer.from('\uFEFF' + statementCsv(st, t), 'utf8')), contentType: 'text/csv; charset=utf-8', fileName: `${name}.csv` };
  }
  return { file: await statementPdf(st, t, lang, deps.today()), contentType: 'application/pdf', fileName: `${name}.pdf` };
}

/** How a payment stands, as the receipt says it: paid (a card), pending, settled or returned (a bank debit). */
export function paymentStatusKey(p: { status: string; settlement: string; paymentMethodCode: string }): string | undefined {
  if (p.status !== 'APPROVED') return undefined;
  if (p.settlement === 'PENDING') return 'payment.receipt.statusPending';
  if (p.settlement === 'RETURNED') return 'payment.receipt.statusReturned';
  return p.paymentMethodCode === 'ECH' || p.paymentMethodCode === 'ECR' ? 'payment.receipt.statusSettled' : 'payment.receipt.statusPaid';
}

/** The payment history between two days (the last 90 days when none) as a PDF in the language. */
export async function paymentHistoryFile(deps: AppDeps, s: SessionInfo, query: { StartDate?: string; EndDate?: string }, lang: string): Promise<FileResult> {
  const { start, end } = periodOf(deps, query);
  const header = await accountHeader(deps, s, undefined);
  const t: T = (k, p) => deps.t(lang, k, p);
  const money = (cents: number) => moneyText(cents, lang, header.country);
  const rows = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.providerId, s.providerId), eq(payments.accountId, s.accountId), gte(payments.paymentDate, start), lte(payments.paymentDate, end)))
    .orderBy(asc(payments.paymentDate), asc(payments.id));
  const title = t('payment.statement.paymentsTitle');
  const d = newDoc(title, header.organisation, deps.today());
  heading(d, t, lang, { ...header, title, start, end });
  const bank = (code: string) => code === 'ECH' || code === 'ECR';
  // never more of a card or an account than its last four digits
  const method = (p: (typeof rows)[number]) => `${t(bank(p.paymentMethodCode) ? 'payment.statement.bank' : 'payment.statement.card')}${p.last4Digits ? ` •••• ${p.last4Digits}` : ''}`;
  const received = rows.filter((p) => p.status === 'APPROVED' && p.settlement !== 'RETURNED').reduce((n, p) => n + p.amountCents, 0);
  table(
    d,
    [0.15, 0.12, 0.24, 0.2, 0.14, 0.15],
    [t('payment.statement.csv.date'), t('payment.receipt.number'), t('payment.receipt.method'), t('payment.receipt.payer'), t('payment.receipt.amount'), t('payment.receipt.status')],
    rows.map((p) => {
      const key = paymentStatusKey(p);
      return { cells: [dateInLanguage(p.paymentDate, lang), String(p.id), method(p), p.payerName, money(p.amountCents), key ? t(key) : p.status] };
    }),
    new Set([4]),
  );
  d.doc.moveDown(0.6);
  if (rows.length === 0) d.doc.font('body').fontSize(10.5).fillColor('#333333').text(t('payment.statement.noPayments'), d.left, d.doc.y, { width: d.width });
  else d.doc.font('bold').fontSize(11).fillColor('#000000').text(t('payment.statement.paymentsTotal', { amount: money(received) }), d.left, d.doc.y, { width: d.width });
  footer(d, t, lang, deps.today());
  d.doc.end();
  return { file: await d.done, contentType: 'application/pdf', fileName: `payments-${start}-to-${end}.pdf` };
}
