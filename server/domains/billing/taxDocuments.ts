// Year-end tax documents (spec 2.12 tax statement, 7.1 /tax and /report/tax): what each payer of the
// signed-in account paid for each child's care in a calendar year, read from the ledger, and the
// documents made of it: in the US a statement per payer and child fit for Form 2441 Part I and a
// dependent-care FSA claim (provider's name, address and EIN or Tax-Exempt, the child, the dates of
// service, the amount paid); in Canada a receipt per payer and child for line 21400, and for a
// provider in Québec the RL-24 slip's data per payer.
//
// How a payment is attributed (written down here, tested in tests/server/taxDocuments.test.ts):
// - Entries are taken in the order they were made (day, then id). A payment or credit applies to the
//   open charge due first (ledger.ts's rule: the oldest due charge first); what is left of it waits
//   and applies to the next charges posted. So a payment made in January for December's invoice is
//   paid in January.
// - A charge is care unless it is a late fee, a returned-payment fee (a CHARGE carrying a payment),
//   a line of an activity marked not care (activities.is_care) or an application charge named after
//   a miscellaneous charge marked not care (misc_charges.is_care, by its fee name).
// - A charge's child is its `child_id` (the billing job's lines). An older charge without one is
//   the child whose first name starts its description ("Sofia: Registration fee", as application
//   charges are written) when the account has exactly one child of that first name; otherwise it is
//   reported as not attributed to a child (childId null).
// - A refund or a bank return (REFUND, RETURN) takes back from the year it is made what its payment
//   had paid, child by child; a later payment of what a return raised again pays what the returned
//   payment had paid.
// - Amounts paid by a credit (CREDIT: the provider's own) are nobody's payment and count nowhere.
// - The payer is the adult who made the payment (payments.adult_id, else its payer name); a payment
//   on the ledger without a payment record is the account holder's.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { accounts, activities, adults, children, invoiceLines, invoices, ledgerEntries, miscCharges, payments, providers, servicePeriods } from '../../db/schema';
import { KeyedError } from '../../errors';
import { isoDay } from '../../clock';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type { TaxSettings } from '../../taxSettings';
import { dateInLanguage, displayPhone } from '../../../src/engine/index';
import { moneyText } from '../../../src/engine/money';
import { newReportDoc, type ReportDoc } from '../attendance/attendanceReport';

type T = (key: string, params?: Record<string, unknown>) => string;
/** what a cent paid went to: care for a child (or none attributed), something not care, or a fee left out */
type Use = 'care' | 'notCare' | 'fee';

interface Segment {
  childId: number | null;
  use: Use;
  cents: number;
}

export interface TaxEntry {
  id: number;
  kind: string;
  amountCents: number;
  entryDate: string;
  dueDate: string | null;
  /** the payment a PAYMENT, REFUND or RETURN is of */
  paymentId: number | null;
  /** for a CHARGE: whose and what */
  childId: number | null;
  use: Use;
}

export interface PaidAmounts {
  /** payer key: `a<adultId>` or `n<payer name>` */
  payer: string;
  childId: number | null;
  /** care paid in the year less care refunded or returned in the year */
  careCents: number;
  /** not care paid, less refunded (RL-24: not qualifying) */
  notCareCents: number;
  /** care and not care refunded or returned in the year (counted in the two above already) */
  refundedCents: number;
}

/** Takes `cents` from the front of segments (consumed in order), returning the slices taken. */
function take(from: Segment[], cents: number): Segment[] {
  const out: Segment[] = [];
  let left = cents;
  while (left > 0 && from.length) {
    const s = from[0];
    const n = Math.min(s.cents, left);
    out.push({ childId: s.childId, use: s.use, cents: n });
    s.cents -= n;
    left -= n;
    if (s.cents === 0) from.shift();
  }
  return out;
}

/**
 * Pure: what each payer paid per child in `year` (yyyy), by the rules at the top of this file.
 * `payerOf` names the payer of a payment id (null: the account holder's).
 */
export function paidInYear(entries: TaxEntry[], year: number, payerOf: (paymentId: number | null) => string): PaidAmounts[] {
  const RAISES = new Set(['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN']);
  const inYear = (d: string) => d.slice(0, 4) === String(year);
  const sorted = [...entries].sort((a, b) => (a.entryDate < b.entryDate ? -1 : a.entryDate > b.entryDate ? 1 : a.id - b.id));
  // what each payment has paid so far, as segments (a return takes back from them)
  const paidBy = new Map<number, Segment[]>();
  const open: { due: string; id: number; rest: Segment[] }[] = [];
  const waiting: { entry: TaxEntry; left: number }[] = [];
  const totals = new Map<string, PaidAmounts>();
  const add = (payer: string, seg: Segment, sign: 1 | -1, refund: boolean) => {
    if (seg.use === 'fee') return;
    const key = `${payer}|${seg.childId ?? ''}`;
    const row = totals.get(key) ?? { payer, childId: seg.childId, careCents: 0, notCareCents: 0, refundedCents: 0 };
    if (seg.use === 'care') row.careCents += sign * seg.cents;
    else row.notCareCents += sign * seg.cents;
    if (refund) row.refundedCents += seg.cents;
    totals.set(key, row);
  };
  const settle = () => {
    while (waiting.length && open.length) {
      open.sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.id - b.id));
      const w = waiting[0];
      const d = open[0];
      const n = Math.min(w.left, d.rest.reduce((s, x) => s + x.cents, 0));
      const slices = take(d.rest, n);
      w.left -= n;
      if (!d.rest.length) open.shift();
      if (w.left === 0) waiting.shift();
      if (w.entry.kind !== 'PAYMENT') continue;
      const pid = w.entry.paymentId ?? -w.entry.id;
      paidBy.set(pid, [...(paidBy.get(pid) ?? []), ...slices.map((x) => ({ ...x }))]);
      if (inYear(w.entry.entryDate)) for (const x of slices) add(payerOf(w.entry.paymentId), x, 1, false);
    }
  };
  for (const e of sorted) {
    if (e.amountCents <= 0) continue;
    if (!RAISES.has(e.kind)) {
      waiting.push({ entry: e, left: e.amountCents });
    } else {
      let rest: Segment[];
      if (e.kind === 'REFUND' || e.kind === 'RETURN') {
        // what the payment had paid is taken back; paid again later, it is paid again for the same
        const back = take(paidBy.get(e.paymentId ?? 0) ?? [], e.amountCents);
        if (inYear(e.entryDate)) for (const x of back) add(payerOf(e.paymentId), x, -1, true);
        const rebilled = back.reduce((n, x) => n + x.cents, 0);
        // a refund of money that had paid nothing (a credit balance) raises the balance as a fee would
        rest = [...back, ...(e.amountCents > rebilled ? [{ childId: null, use: 'fee' as Use, cents: e.amountCents - rebilled }] : [])];
      } else {
        rest = [{ childId: e.kind === 'CHARGE' ? e.childId : null, use: e.kind === 'CHARGE' ? e.use : 'fee', cents: e.amountCents }];
      }
      open.push({ due: e.dueDate ?? e.entryDate, id: e.id, rest });
    }
    settle();
  }
  return [...totals.values()].filter((r) => r.careCents !== 0 || r.notCareCents !== 0 || r.refundedCents !== 0);
}

export interface ChildYear {
  childId: number | null;
  childName: string;
  /** first and last day of care in the year (billed service periods), when known */
  from: string | null;
  to: string | null;
  /** days of care in the year (the billed lines' days) */
  days: number;
  careCents: number;
  notCareCents: number;
  refundedCents: number;
  /** Canada: unique and stable per provider, year, account and child */
  receiptNumber: string;
}

export interface PayerYear {
  payer: string;
  payerName: string;
  payerAddress: string;
  children: ChildYear[];
}

export interface TaxYear {
  year: number;
  years: number[];
  provider: TaxSettings & { organisation: string };
  accountNo: string;
  payers: PayerYear[];
}

const SUMMARY_KINDS = ['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN', 'PAYMENT', 'CREDIT'];

async function settingsFor(deps: AppDeps, s: SessionInfo) {
  const [p] = await deps.db.select({ appName: providers.appName, organisation: providers.organisation, customerID: providers.customerID }).from(providers).where(eq(providers.id, s.providerId));
  const tax = p ? deps.settings(p.appName).taxDocuments : null;
  if (!p || !tax) throw new KeyedError(404, 'server.errors.notFound');
  return { ...p, tax };
}

/** The year's figures of the signed-in account, by payer and child; every row read for its provider and account only. */
export async function taxYear(deps: AppDeps, s: SessionInfo, year: number): Promise<TaxYear> {
  const { tax, organisation, customerID } = await settingsFor(deps, s);
  const mine = (t: typeof ledgerEntries | typeof payments | typeof invoiceLines | typeof children | typeof adults) => and(eq(t.providerId, s.providerId), eq(t.accountId, s.accountId));
  const [acc] = await deps.db.select({ accountNo: accounts.accountNo }).from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  if (!acc) throw new KeyedError(404, 'server.errors.notFound');
  const rows = await deps.db
    .select({ e: ledgerEntries, lineActivity: invoiceLines.activityId, isCare: activities.isCare })
    .from(ledgerEntries)
    .leftJoin(invoiceLines, and(eq(invoiceLines.id, ledgerEntries.invoiceLineId), eq(invoiceLines.accountId, ledgerEntries.accountId)))
    .leftJoin(activities, eq(activities.id, invoiceLines.activityId))
    .where(and(mine(ledgerEntries), inArray(ledgerEntries.kind, SUMMARY_KINDS)))
    .orderBy(asc(ledgerEntries.id));
  const kids = await deps.db.select({ id: children.id, firstName: children.firstName, lastName: children.lastName }).from(children).where(mine(children));
  // a split child is on the other account's ledger under its own id
  const lineKids = await deps.db.selectDistinct({ id: children.id, firstName: children.firstName, lastName: children.lastName }).from(invoiceLines).innerJoin(children, eq(children.id, invoiceLines.childId)).where(mine(invoiceLines));
  const allKids = [...kids, ...lineKids.filter((k) => !kids.some((c) => c.id === k.id))];
  const notCareFees = new Set(
    (await deps.db.select({ feeName: miscCharges.feeName }).from(miscCharges).where(and(eq(miscCharges.providerId, s.providerId), eq(miscCharges.isCare, false)))).map((m) => m.feeName),
  );
  const childOfText = (description: string): number | null => {
    const first = /^([^:]+):\s/.exec(description)?.[1]?.trim();
    const named = first ? kids.filter((k) => k.firstName === first) : [];
    return named.length === 1 ? named[0].id : null;
  };
  const entries: TaxEntry[] = rows.map(({ e, lineActivity, isCare }) => {
    let use: Use = 'care';
    let childId = e.childId;
    if (e.kind !== 'CHARGE') use = 'fee';
    else if (e.paymentId !== null) use = 'fee';
    else if (lineActivity !== null) use = isCare === false ? 'notCare' : 'care';
    else {
      const name = e.description.replace(/^[^:]+:\s/, '');
      if (notCareFees.has(name) || notCareFees.has(e.description)) use = 'notCare';
      childId = childId ?? childOfText(e.description);
    }
    return { id: e.id, kind: e.kind, amountCents: e.amountCents, entryDate: e.entryDate, dueDate: e.dueDate, paymentId: e.paymentId, childId, use };
  });
  const pays = await deps.db.select({ id: payments.id, adultId: payments.adultId, payerName: payments.payerName }).from(payments).where(mine(payments));
  const people = await deps.db.select({ id: adults.id, firstName: adults.firstName, lastName: adults.lastName, street: adults.streetAddress, city: adults.city, state: adults.stateCode, zip: adults.zip, holder: adults.accountHolder }).from(adults).where(mine(adults));
  const holder = people.find((a) => a.holder === 1) ?? people[0];
  const payerOf = (paymentId: number | null): string => {
    const p = pays.find((x) => x.id === paymentId);
    if (p?.adultId && people.some((a) => a.id === p.adultId)) return `a${p.adultId}`;
    if (p?.payerName) return `n${p.payerName}`;
    return holder ? `a${holder.id}` : 'n';
  };
  const years = [...new Set(entries.filter((e) => e.kind === 'PAYMENT' || e.kind === 'REFUND' || e.kind === 'RETURN').map((e) => Number(e.entryDate.slice(0, 4))))].sort((a, b) => b - a);
  const paid = paidInYear(entries, year, payerOf);

  // the days and dates of care in the year: the billed lines of care whose period overlaps it
  const lines = await deps.db
    .select({ childId: invoiceLines.childId, days: invoiceLines.days, start: servicePeriods.startDate, end: servicePeriods.endDate })
    .from(invoiceLines)
    .innerJoin(invoices, eq(invoices.id, invoiceLines.invoiceId))
    .innerJoin(servicePeriods, eq(servicePeriods.id, invoices.servicePeriodDetailID))
    .innerJoin(activities, eq(activities.id, invoiceLines.activityId))
    .where(and(mine(invoiceLines), eq(activities.isCare, true)));
  const first = `${year}-01-01`;
  const last = `${year}-12-31`;
  const inYear = lines.filter((l) => l.start <= last && l.end >= first);

  const payerList = [...new Set(paid.map((p) => p.payer))].sort();
  return {
    year,
    years,
    accountNo: acc.accountNo,
    provider: { ...tax, organisation },
    payers: payerList.map((payer) => {
      const adult = payer.startsWith('a') ? people.find((a) => `a${a.id}` === payer) : undefined;
      return {
        payer,
        payerName: adult ? `${adult.firstName} ${adult.lastName}` : payer.slice(1),
        payerAddress: adult ? [adult.street, [adult.city, adult.state, adult.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ') : '',
        children: paid
          .filter((p) => p.payer === payer)
          .sort((a, b) => (a.childId ?? Infinity) - (b.childId ?? Infinity))
          .map((p) => {
            const kid = allKids.find((k) => k.id === p.childId);
            const own = inYear.filter((l) => l.childId === p.childId);
            const from = own.length ? own.map((l) => (l.start < first ? first : l.start)).sort()[0] : null;
            const to = own.length ? own.map((l) => (l.end > last ? last : l.end)).sort().reverse()[0] : null;
            return {
              childId: p.childId,
              childName: kid ? `${kid.firstName} ${kid.lastName}` : '',
              from,
              to,
              days: own.reduce((n, l) => n + l.days, 0),
              careCents: p.careCents,
              notCareCents: p.notCareCents,
              refundedCents: p.refundedCents,
              receiptNumber: `${customerID}-${year}-${acc.accountNo}-${p.childId ?? 0}`,
            };
          }),
      };
    }),
  };
}

/** The data a /tax answer gives: the years with payments, and per payer and child what was paid for care in `year`. */
export async function taxYearSummary(deps: AppDeps, s: SessionInfo, year: number) {
  const y = await taxYear(deps, s, year);
  return {
    year: y.year,
    years: y.years,
    country: y.provider.country,
    quebec: y.provider.country === 'CA' && y.provider.stateCode === 'QC',
    payers: y.payers.map((p) => ({
      payerName: p.payerName,
      children: p.children.map((c) => ({ childName: c.childName, from: c.from, to: c.to, days: c.days, careCents: c.careCents, receiptNumber: c.receiptNumber })),
    })),
  };
}

export interface Rl24Slip {
  year: number;
  /** R original, A amended, D cancelled */
  code: 'R' | 'A' | 'D';
  payerName: string;
  payerAddress: string;
  childNames: string[];
  /**
   * The slip's boxes as Revenu Québec's guide to the RL-24 describes them: A the number of days of
   * care, C the childcare expenses paid in the year, D the part of C that does not qualify (items
   * the provider marked not care, and what was refunded or returned), E the qualifying expenses
   * (C less D). Cents.
   */
  boxA: number;
  boxC: number;
  boxD: number;
  boxE: number;
  slipNumber: string;
}

/** Pure: the RL-24 slip of a payer's year. Care and not care paid make box C; what is not care, refunded or returned makes box D. */
export function rl24Of(year: number, p: PayerYear, code: 'R' | 'A' | 'D' = 'R'): Rl24Slip {
  const paidCare = p.children.reduce((n, c) => n + c.careCents, 0);
  const notCare = p.children.reduce((n, c) => n + c.notCareCents, 0);
  const refunded = p.children.reduce((n, c) => n + c.refundedCents, 0);
  const boxC = paidCare + notCare + refunded;
  const boxD = notCare + refunded;
  const cancelled = code === 'D';
  return {
    year,
    code,
    payerName: p.payerName,
    payerAddress: p.payerAddress,
    childNames: p.children.map((c) => c.childName).filter(Boolean),
    boxA: cancelled ? 0 : p.children.reduce((n, c) => n + c.days, 0),
    boxC: cancelled ? 0 : boxC,
    boxD: cancelled ? 0 : boxD,
    boxE: cancelled ? 0 : boxC - boxD,
    slipNumber: p.children[0]?.receiptNumber.replace(/-\d+$/, '') ?? '',
  };
}

// ---------------------------------------------------------------------------------------------
// PDFs

const newDoc = newReportDoc;
type Doc = ReportDoc;

function providerBlock(d: Doc, t: T, y: TaxYear) {
  const p = y.provider;
  const { doc } = d;
  doc.font('bold').fontSize(12).fillColor('#000000').text(p.legalName, d.left, doc.y, { width: d.width });
  doc.font('body').fontSize(10.5).text(p.street);
  doc.text(`${p.city}, ${p.stateCode} ${p.postalCode}`);
  if (p.phone) doc.text(displayPhone(p.phone));
  if (p.country === 'US') doc.text(`${t('payment.tax.ein')}: ${p.taxExempt ? t('payment.tax.taxExempt') : p.ein}`);
  else doc.text(`${t('payment.tax.businessNumber')}: ${p.businessNumber}`);
  if (p.country === 'CA' && p.quebecId) doc.text(`${t('payment.tax.quebecId')}: ${p.quebecId}`);
}

/** Label and value rows, the label in grey. */
function fields(d: Doc, rows: [string, string][]) {
  const { doc } = d;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc.font('body').fontSize(10.5).fillColor('#555555').text(label, d.left, y, { width: d.width * 0.5 });
    const h1 = doc.y - y;
    doc.font('bold').fillColor('#000000').text(value, d.left + d.width * 0.52, y, { width: d.width * 0.48 });
    doc.y = Math.max(y + h1, doc.y) + 4;
  }
  doc.x = d.left;
}

function signature(d: Doc, t: T, y: TaxYear, lang: string, generatedOn: Date) {
  const { doc } = d;
  doc.moveDown(1.5);
  doc.font('body').fontSize(10.5).fillColor('#000000').text(t('payment.tax.certify', { organisation: y.provider.legalName }), d.left, doc.y, { width: d.width });
  doc.moveDown(1.5);
  const at = doc.y;
  doc.moveTo(d.left, at).lineTo(d.left + d.width * 0.45, at).strokeColor('#000000').lineWidth(0.7).stroke();
  doc.y = at + 4;
  doc.text(`${y.provider.signatory.name}, ${y.provider.signatory.title}`, d.left, doc.y, { width: d.width });
  doc.font('body').fontSize(9).fillColor('#555555').text(t('payment.receipt.generated', { date: dateInLanguage(isoDay(generatedOn), lang) }), d.left, doc.y + 6, { width: d.width });
}

function heading(d: Doc, title: string, subtitle: string) {
  d.doc.font('bold').fontSize(18).fillColor('#000000').text(title, d.left, d.doc.y, { width: d.width });
  d.doc.font('body').fontSize(10.5).fillColor('#333333').text(subtitle, { width: d.width });
  d.doc.moveDown(0.8);
}

function serviceDates(t: T, lang: string, c: ChildYear): string {
  return c.from && c.to ? t('payment.tax.datesRange', { from: dateInLanguage(c.from, lang), to: dateInLanguage(c.to, lang) }) : t('payment.tax.datesUnknown');
}

/** Pure: the year's documents as one PDF: a page per payer and child (US statement or Canadian receipt), and per payer an RL-24 page for a provider in Québec. */
export function taxPdfOf(y: TaxYear, t: T, lang: string, country: 'US' | 'CA', generatedOn: Date, slipCode: Rl24Slip['code'] = 'R'): Promise<Uint8Array> {
  const money = (cents: number) => moneyText(cents, lang, country);
  const title = t(country === 'US' ? 'payment.tax.usTitle' : 'payment.tax.caTitle', { year: y.year });
  const d = newDoc(title, y.provider.legalName, generatedOn);
  const quebec = country === 'CA' && y.provider.stateCode === 'QC';
  let first = true;
  const page = () => {
    if (!first) d.doc.addPage();
    first = false;
  };
  if (!y.payers.length) {
    heading(d, title, y.provider.legalName);
    d.doc.font('body').fontSize(10.5).text(t('payment.tax.nothingPaid', { year: y.year }), d.left, d.doc.y, { width: d.width });
  }
  for (const p of y.payers) {
    for (const c of p.children) {
      page();
      heading(d, title, t(country === 'US' ? 'payment.tax.usSubtitle' : 'payment.tax.caSubtitle'));
      providerBlock(d, t, y);
      d.doc.moveDown(1);
      const rows: [string, string][] = [];
      if (country === 'CA') rows.push([t('payment.tax.receiptNumber'), c.receiptNumber]);
      rows.push(
        [t('payment.tax.year'), String(y.year)],
        [t('payment.receipt.account'), y.accountNo],
        [t('payment.tax.payer'), p.payerName],
      );
      if (p.payerAddress) rows.push([t('payment.tax.payerAddress'), p.payerAddress]);
      rows.push(
        [t('payment.tax.child'), c.childName || t('payment.tax.noChild')],
        [t(country === 'US' ? 'payment.tax.dates' : 'payment.tax.period'), serviceDates(t, lang, c)],
        [t('payment.tax.amountPaid', { year: y.year }), money(c.careCents)],
      );
      fields(d, rows);
      d.doc.moveDown(0.6);
      d.doc.font('body').fontSize(9.5).fillColor('#333333').text(t(country === 'US' ? 'payment.tax.usNote' : 'payment.tax.caNote', { year: y.year }), d.left, d.doc.y, { width: d.width });
      signature(d, t, y, lang, generatedOn);
    }
    if (quebec) {
      const slip = rl24Of(y.year, p, slipCode);
      page();
      heading(d, t('payment.tax.rl24Title', { year: y.year }), t('payment.tax.rl24Subtitle'));
      providerBlock(d, t, y);
      d.doc.moveDown(1);
      fields(d, [
        [t('payment.tax.year'), String(y.year)],
        [t('payment.tax.slipCode'), `${slip.code} (${t(`payment.tax.slipCodes.${slip.code}`)})`],
        [t('payment.tax.slipNumber'), slip.slipNumber],
        [t('payment.tax.payer'), p.payerName],
        ...(p.payerAddress ? [[t('payment.tax.payerAddress'), p.payerAddress] as [string, string]] : []),
        [t('payment.tax.children'), slip.childNames.join(', ') || t('payment.tax.noChild')],
        [t('payment.tax.boxA'), String(slip.boxA)],
        [t('payment.tax.boxC'), money(slip.boxC)],
        [t('payment.tax.boxD'), money(slip.boxD)],
        [t('payment.tax.boxE'), money(slip.boxE)],
      ]);
      signature(d, t, y, lang, generatedOn);
    }
  }
  d.doc.end();
  return d.done;
}

/**
 * The year's tax documents of the signed-in account as a PDF in the language; `country` must be the
 * provider's. `slipCode` marks a Québec RL-24 slip given again as amended (A) or cancelled (D).
 */
export async function taxDocumentPdf(deps: AppDeps, s: SessionInfo, year: number, lang: string, country?: string, slipCode: Rl24Slip['code'] = 'R'): Promise<Uint8Array> {
  if (!Number.isInteger(year) || year < 2000 || year > 9999) throw new KeyedError(400, 'payment.tax.badYear');
  const y = await taxYear(deps, s, year);
  if (country && country !== y.provider.country) throw new KeyedError(400, 'payment.tax.badCountry');
  return taxPdfOf(y, (k, p) => deps.t(lang, k, p), lang, y.provider.country, deps.today(), slipCode);
}

/** The years with year-end documents for the signed-in account, newest first; none when the provider gives no tax documents. */
export async function taxYearsOf(deps: AppDeps, s: SessionInfo): Promise<{ year: number }[]> {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, s.providerId));
  if (!p || !deps.settings(p.appName).taxDocuments) return [];
  const y = await taxYear(deps, s, Number(isoDay(deps.today()).slice(0, 4)));
  return y.years.map((year) => ({ year }));
}
