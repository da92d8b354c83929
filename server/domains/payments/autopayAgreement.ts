// The automatic payment agreement as a PDF (spec 7.1 /report/automatic-payment-agreement) in the
// reader's language, from its recorded row: who pays with what and how often, how each amount is set,
// the maximum per charge, how to cancel, when it was accepted and the terms' version and text as the
// parent read them. E-mailed to the payer (and the adult who accepted, when another) once signed.
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { DbOrTx } from '../../db/index';
import { accounts, autopayAgreements, providers } from '../../db/schema';
import { enqueueMail } from '../../outbox';
import { dateInLanguage, displayPhone } from '../../../src/engine/index';
import { moneyText } from '../../../src/engine/money';
import { newReportDoc } from '../attendance/attendanceReport';

type Agreement = typeof autopayAgreements.$inferSelect;

/** The terms' sanitised HTML as plain text for the PDF. */
function plainText(html: string): string {
  return html
    .replace(/<\s*br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|li|h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The agreement's PDF in the language. */
export async function agreementPdf(deps: AppDeps, a: Agreement, lang: string, db: DbOrTx = deps.db): Promise<Uint8Array> {
  const [p] = await db.select().from(providers).where(eq(providers.id, a.providerId));
  const [acc] = await db.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.id, a.accountId));
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `autopay.agreement.${key}`, params);
  const d = newReportDoc(t('title'), p.organisation, a.signedAt);
  const { doc } = d;
  doc.font('bold').fontSize(16).text(t('title'), d.left, doc.y, { width: d.width });
  doc.font('body').fontSize(11).text(p.organisation);
  doc.moveDown();
  const row = (label: string, value: string) => {
    doc.font('bold').fontSize(10.5).text(`${label}: `, { continued: true }).font('body').text(value || '-');
  };
  row(t('account'), acc?.accountNo ?? '');
  row(t('payer'), a.payerName + (a.payerEmail ? ` (${a.payerEmail})` : ''));
  row(t('method'), t(a.paymentMethodCode === 'ECR' ? 'methodBank' : 'methodCard', { type: a.methodType, last4: a.last4Digits }));
  row(t('frequency'), deps.t(lang, `autopay.frequency.${a.frequency}`));
  row(t('starts'), dateInLanguage(a.startDate, lang));
  row(t('signedAt'), `${dateInLanguage(a.signedAt.toISOString().slice(0, 10), lang)} ${a.signedAt.toISOString().slice(11, 16)} UTC`);
  row(t('termsVersion'), a.termsVersion);
  doc.moveDown();
  doc.font('bold').fontSize(12).text(t('amountTitle'));
  doc.font('body').fontSize(10.5).text(t('amountRule', { discount: a.discountPercent }));
  if (a.maxChargeCents !== null) doc.text(t('maxCharge', { amount: moneyText(a.maxChargeCents, lang, p.countryCode) }));
  doc.moveDown();
  doc.font('bold').fontSize(12).text(t('cancelTitle'));
  doc.font('body').fontSize(10.5).text(t('cancelHow', { organisation: p.organisation, phone: displayPhone(p.supportPhone), email: p.supportEmail }));
  doc.moveDown();
  doc.font('bold').fontSize(12).text(t('termsTitle'));
  doc.font('body').fontSize(9.5).text(plainText(a.termsHtml) || t('noTerms'));
  doc.end();
  return d.done;
}

/**
 * E-mails a signed agreement's PDF to the payer (and the adult who accepted it), in the language it was
 * signed in; on `db`, the transaction that recorded it when the mail goes with it.
 */
export async function mailAgreement(deps: AppDeps, agreementId: number, signerEmail: string, db: DbOrTx = deps.db): Promise<void> {
  const [a] = await db.select().from(autopayAgreements).where(eq(autopayAgreements.id, agreementId));
  if (!a) return;
  const [p] = await db.select().from(providers).where(eq(providers.id, a.providerId));
  const lang = a.locale;
  const pdf = await agreementPdf(deps, a, lang, db);
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `autopay.agreement.${key}`, params);
  const to = new Set([a.payerEmail, signerEmail].map((x) => x.trim().toLowerCase()).filter(Boolean));
  const from = `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`;
  const params = { organisation: p.organisation, frequency: deps.t(lang, `autopay.frequency.${a.frequency}`), last4: a.last4Digits };
  let first: number | null = null;
  for (const address of to) {
    const id = await enqueueMail(db, deps.clock, {
      providerId: a.providerId,
      kind: 'autopay-agreement',
      to: address,
      from,
      subject: t('mailSubject', params),
      text: [t('mailIntro', params), '', t('mailAttached')].join('\n'),
      attachments: [{ filename: 'automatic-payment-agreement.pdf', contentType: 'application/pdf', base64: Buffer.from(pdf).toString('base64') }],
    });
    first ??= id;
  }
  if (first !== null) {
    await db.update(autopayAgreements).set({ mailId: first }).where(eq(autopayAgreements.id, a.id));
    deps.mailQueued();
  }
}
