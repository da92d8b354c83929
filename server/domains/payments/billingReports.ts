// Billing PDFs in the request's language (spec 7.1 /report/receipt, /report/invoice). The receipt:
// who was paid, the account, the date, the amount, the processing fee and total, the method (never
// more than its last four digits), the approval code, the payer, its status (paid; a bank payment
// pending, settled or returned: when, why and what went back on the balance) and the balance now.
// The invoice: its service period, its charges, what payments and credits covered and what is left.
import PDFDocument from 'pdfkit';
import { and, asc, eq } from 'drizzle-orm';
import { accounts, invoices, ledgerEntries, providers } from '../../db/schema';
import { httpError } from '../../errors';
import { isoDay } from '../../clock';
import { accountMoney } from '../billing/ledger';
import { invoicePeriodTexts } from '../billing/invoicing';
import type { AppDeps, FileResult } from '../../context';
import type { SessionInfo } from '../../auth';
import { dateInLanguage } from '../../../src/engine/index';
import { registerReportFonts } from '../attendance/attendanceReport';
import { receiptOf } from './payments';
import { moneyText } from '../../../src/engine/money';
import { providerOf } from '../provider/provider';

export interface ReceiptPdfInput {
  t: (key: string, params?: Record<string, unknown>) => string;
  lang: string;
  country: string;
  receipt: Awaited<ReturnType<typeof receiptOf>>;
  generatedOn: Date;
}

export function receiptPdf(input: ReceiptPdfInput): Promise<Uint8Array> {
  const { t, receipt: r } = input;
  const money = (cents: number) => moneyText(cents, input.lang, input.country);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 56, info: { Title: t('payment.receipt.title'), Author: r.organisation, CreationDate: input.generatedOn } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    registerReportFonts(doc);
    const left = doc.page.margins.left;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;

    doc.font('body').fontSize(10).fillColor('#555555').text(r.organisation);
    doc.moveDown(0.3);
    doc.font('bold').fontSize(20).fillColor('#000000').text(t('payment.receipt.title'));
    doc.moveDown(0.2);
    // a payment the bank sent back was not received after all: no thanks
    if (r.settlement !== 'RETURNED') doc.font('body').fontSize(11).fillColor('#333333').text(t('payment.receipt.thanks'));
    doc.moveDown(0.8);
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).strokeColor('#888888').lineWidth(0.75).stroke();
    doc.moveDown(0.6);

    const method = r.paymentMethodCode === 'ECH' ? t('payment.method.ECH') : t('payment.method.CCD');
    const bank = r.paymentMethodCode === 'ECH' || r.paymentMethodCode === 'ECR';
    // a returned bank payment: when, why in words (and the bank's code), and what went back on the balance
    const returned: [string, string][] =
      r.settlement === 'RETURNED'
        ? [
            [t('payment.receipt.returnedOn'), r.returnDate ? dateInLanguage(r.returnDate, input.lang) : ''],
            [t('payment.receipt.returnReason'), `${t(`methods.returns.${r.returnReason || 'OTHER'}`)} (${r.returnCode})`],
            [t('payment.receipt.amountReversed'), money(r.amountReversedCents)],
          ]
        : [];
    const fee: [string, string][] = r.processingFeeCents > 0 ? [[t('payment.receipt.fee'), money(r.processingFeeCents)]] : [];
    const rows: [string, string, boolean?][] = [
      [t('payment.receipt.number'), String(r.accountPaymentID)],
      [t('payment.receipt.account'), r.accountNo],
      [t('payment.receipt.date'), dateInLanguage(r.paymentDate, input.lang)],
      [t('payment.receipt.amount'), money(r.amountCents)],
      ...fee,
      [t('payment.receipt.total'), money(r.amountCents + r.processingFeeCents), true],
      [t('payment.receipt.method'), `${method} · ${r.brand} •••• ${r.last4Digits}`],
      [t('payment.receipt.authCode'), r.authCode],
      [t('payment.receipt.payer'), r.payerName],
      [t('payment.receipt.status'), t(r.settlement === 'PENDING' ? 'payment.receipt.statusPending' : r.settlement === 'RETURNED' ? 'payment.receipt.statusReturned' : bank ? 'payment.receipt.statusSettled' : 'payment.receipt.statusPaid'), r.settlement === 'RETURNED'],
      ...returned,
      [t('payment.receipt.balance'), money(r.balanceAfterCents)],
    ];
    const labelW = width * 0.4;
    for (const [label, value, strong] of rows) {
      const y = doc.y;
      doc.font('body').fontSize(11).fillColor('#555555').text(label, left, y, { width: labelW - 8 });
      const h1 = doc.y - y;
      doc.font(strong ? 'bold' : 'body').fontSize(strong ? 12.5 : 11).fillColor('#000000').text(value, left + labelW, y, { width: width - labelW });
      doc.x = left;
      doc.y = y + Math.max(h1, doc.y - y) + 6;
    }
    doc.moveDown(0.6);
    // a bank payment not settled yet says it takes days; one the bank sent back says what that did
    if (r.settlement === 'PENDING') doc.font('body').fontSize(10).fillColor('#333333').text(t('payment.receipt.bankDays'), left, doc.y, { width });
    // and asks for the balance only when one is due: an account still in credit has nothing to pay
    const returnedText = r.balanceAfterCents > 0 ? 'payment.receipt.returnedPdf' : 'payment.receipt.returnedPdfNoneDue';
    if (r.settlement === 'RETURNED') doc.font('body').fontSize(10).fillColor('#333333').text(t(returnedText, { amount: money(r.amountReversedCents) }), left, doc.y, { width });
    doc.moveDown(1.2);
    doc.font('body').fontSize(9).fillColor('#555555').text(t('payment.receipt.generated', { date: dateInLanguage(input.generatedOn.toISOString().slice(0, 10), input.lang) }), left, doc.y, { width });
    doc.end();
  });
}

export interface InvoicePdfInput {
  t: (key: string, params?: Record<string, unknown>) => string;
  lang: string;
  country: string;
  organisation: string;
  accountNo: string;
  servicePeriod: string;
  invoiceDate: string;
  paymentDueDate: string;
  charges: { date: string; description: string; cents: number }[];
  amountCents: number;
  openCents: number;
  balanceCents: number;
  generatedOn: Date;
}

export function invoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const { t } = input;
  const money = (cents: number) => moneyText(cents, input.lang, input.country);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 56, info: { Title: `${t('payment.invoice.title')}: ${input.servicePeriod}`, Author: input.organisation, CreationDate: input.generatedOn } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    registerReportFonts(doc);
    const left = doc.page.margins.left;
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    doc.font('body').fontSize(10).fillColor('#555555').text(input.organisation);
    doc.moveDown(0.3);
    doc.font('bold').fontSize(20).fillColor('#000000').text(t('payment.invoice.title'));
    doc.font('bold').fontSize(13).text(input.servicePeriod);
    doc.moveDown(0.4);
    doc.font('body').fontSize(11);
    doc.text(`${t('payment.receipt.account')}: ${input.accountNo}`);
    doc.text(`${t('payment.invoice.date')}: ${dateInLanguage(input.invoiceDate, input.lang)}`);
    doc.text(`${t('payment.invoice.due')}: ${dateInLanguage(input.paymentDueDate, input.lang)}`);
    doc.moveDown(0.6);
    const cols = [width * 0.22, width * 0.53, width * 0.25];
    const row = (cells: string[], bold: boolean) => {
      doc.font(bold ? 'bold' : 'body').fontSize(10.5).fillColor('#000000');
      const y = doc.y;
      const h = Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i] - 8 }))) + 8;
      let x = left;
      cells.forEach((c, i) => {
        doc.text(c, x + 4, y + 4, { width: cols[i] - 8, align: i === 2 ? 'right' : 'left' });
        x += cols[i];
      });
      doc.moveTo(left, y + h).lineTo(left + width, y + h).strokeColor('#bbbbbb').lineWidth(0.5).stroke();
      doc.x = left;
      doc.y = y + h;
    };
    row([t('payment.invoice.chargeDate'), t('payment.invoice.description'), t('payment.invoice.amount')], true);
    for (const c of input.charges) row([dateInLanguage(c.date, input.lang), c.description, money(c.cents)], false);
    doc.moveDown(0.6);
    const total = (label: string, cents: number, strong = false) => {
      const y = doc.y;
      doc.font(strong ? 'bold' : 'body').fontSize(strong ? 12 : 11).text(label, left, y, { width: width * 0.7 });
      doc.text(money(cents), left + width * 0.7, y, { width: width * 0.3, align: 'right' });
      doc.x = left;
      doc.moveDown(0.3);
    };
    total(t('payment.invoice.total'), input.amountCents);
    total(t('payment.invoice.paid'), input.amountCents - input.openCents);
    total(t('payment.invoice.open'), input.openCents, true);
    total(t('payment.invoice.balance'), input.balanceCents);
    doc.moveDown(1.2);
    doc.font('body').fontSize(9).fillColor('#555555').text(t('payment.receipt.generated', { date: dateInLanguage(input.generatedOn.toISOString().slice(0, 10), input.lang) }), left, doc.y, { width });
    doc.end();
  });
}

/** A payment's receipt of the account: a PDF in the language. */
export async function receiptPdfFile(deps: AppDeps, s: SessionInfo, paymentId: number, lang: string): Promise<FileResult> {
  const receipt = await receiptOf(deps, s, paymentId, lang);
  const provider = await providerOf(deps.db, s);
  const file = await receiptPdf({ t: (k, p) => deps.t(lang, k, p), lang, country: provider.countryCode, receipt, generatedOn: deps.today() });
  return { file, contentType: 'application/pdf', fileName: `receipt-${receipt.accountPaymentID}.pdf` };
}

/** An invoice of the account (by its service period detail): a PDF in the language. */
export async function invoicePdfFile(deps: AppDeps, s: SessionInfo, servicePeriodDetailID: number, lang: string): Promise<FileResult> {
  const [inv] = await deps.db
    .select()
    .from(invoices)
    .where(and(eq(invoices.providerId, s.providerId), eq(invoices.accountId, s.accountId), eq(invoices.servicePeriodDetailID, servicePeriodDetailID)));
  if (!inv) throw httpError({ deps, lang }, 404, 'server.errors.notFound');
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, s.providerId));
  const [acc] = await deps.db.select().from(accounts).where(eq(accounts.id, s.accountId));
  const charges = await deps.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.providerId, s.providerId), eq(ledgerEntries.accountId, s.accountId), eq(ledgerEntries.invoiceId, inv.id)))
    .orderBy(asc(ledgerEntries.entryDate), asc(ledgerEntries.id));
  const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
  const amountCents = charges.reduce((n, c) => n + c.amountCents, 0);
  // the period in the reader's language (an invoice the billing job made names its program and dates)
  const period = (await invoicePeriodTexts(deps.db, s.providerId, [inv], lang)).get(inv.id) ?? inv.servicePeriod;
  const file = await invoicePdf({
    t: (k, prm) => deps.t(lang, k, prm),
    lang,
    country: p.countryCode,
    organisation: p.organisation,
    accountNo: acc.accountNo,
    servicePeriod: period,
    invoiceDate: inv.invoiceDate,
    paymentDueDate: inv.paymentDueDate,
    charges: charges.map((c) => ({ date: c.entryDate, description: c.description || period, cents: c.amountCents })),
    amountCents,
    openCents: money.invoiceOpenCents.get(inv.id) ?? 0,
    balanceCents: money.balanceCents,
    generatedOn: deps.today(),
  });
  return { file, contentType: 'application/pdf', fileName: `invoice-${inv.servicePeriodDetailID}.pdf` };
}
