// The statements of spec 2.12 and 7.1 (/report/statement, /report/payment): the transaction history
// between two days read from the ledger (opening balance, each entry as a debit or a credit with the
// running balance, closing balance) as a PDF and as a CSV, and the payment history as a PDF; a
// period the wrong way round or over two years refused in the request's language; and only ever the
// signed-in account's entries.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { csvCell } from '../../server/domains/billing/statements';
import { apiClient, BACKENDS, KAREN, MARIA, createTestApp, tokenFor, type TestApp } from './helpers';

const RAISES = new Set(['CHARGE', 'LATE_FEE', 'REFUND', 'RETURN']);
const signed = (e: { kind: string; amountCents: number }) => (RAISES.has(e.kind) ? e.amountCents : -e.amountCents);

/** RFC 4180 rows of a CSV text (quoted cells with commas, doubled quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const cents = (v: string) => (v === '' ? 0 : Math.round(Number(v) * 100));

describe.each(BACKENDS)('statements on %s', (backend) => {
  let t: TestApp;
  let maria = '';
  let karen = '';
  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    karen = await tokenFor(t.app, ...KAREN);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.db.handle.db;
  const api = apiClient(() => t.app, { headers: { 'x-release-version': '9.9.9' } });

  async function accountOf(accountNo: string) {
    const [a] = await db().select().from(s.accounts).where(eq(s.accounts.accountNo, accountNo));
    return a;
  }
  async function ledgerOf(accountId: number) {
    return db().select().from(s.ledgerEntries).where(eq(s.ledgerEntries.accountId, accountId));
  }
  async function pdfText(res: { rawPayload: Buffer }, name: string): Promise<string> {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'statement-')), `${name}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    return execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
  }
  async function csv(token: string, query: Record<string, string>, lang = 'en') {
    const res = await api('Billing.statementPdf', { token, lang, query: { ...query, format: 'csv' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.body;
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    return parseCsv(text.slice(1));
  }

  it('the CSV adds up to the ledger: opening balance, each entry with its running balance, closing balance', async () => {
    const garcia = await accountOf('BP-10234');
    const ledger = await ledgerOf(garcia.id);
    const days = [...new Set(ledger.map((e) => e.entryDate))].sort();
    expect(days.length).toBeGreaterThan(2);
    // from the second day of entries: the first day's are in the opening balance
    const start = days[1];
    const end = days[days.length - 1];
    const rows = await csv(maria, { StartDate: start, EndDate: end });
    expect(rows[0]).toEqual(['Date', 'Description', 'Debit', 'Credit', 'Balance']);
    expect(rows.every((r) => r.length === 5)).toBe(true);
    const opening = rows[1];
    const closing = rows[rows.length - 1];
    expect(opening.slice(0, 2)).toEqual([start, 'Opening balance']);
    expect(closing.slice(0, 2)).toEqual([end, 'Closing balance']);
    const before = ledger.filter((e) => e.entryDate < start).reduce((n, e) => n + signed(e), 0);
    expect(cents(opening[4])).toBe(before);
    const entries = rows.slice(2, -1);
    expect(entries).toHaveLength(ledger.filter((e) => e.entryDate >= start && e.entryDate <= end).length);
    let running = before;
    for (const [date, , debit, credit, balance] of entries) {
      expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(date >= start && date <= end).toBe(true);
      // plain decimals, never a currency sign or a thousands separator
      for (const v of [debit, credit, balance]) expect(v).toMatch(/^(-?\d+\.\d{2})?$/);
      running += cents(debit) - cents(credit);
      expect(cents(balance)).toBe(running);
    }
    // opening + entries = closing = the ledger up to the last day
    expect(cents(closing[4])).toBe(running);
    expect(running).toBe(ledger.filter((e) => e.entryDate <= end).reduce((n, e) => n + signed(e), 0));
    // every kind is told in words
    for (const [, description] of entries) expect(description).toMatch(/^(Charge|Late fee|Payment|Refund|Bank return|Credit)/);
  });

  it('quotes cells as RFC 4180 says, keeps spreadsheet formulas out, and writes the header in the language', async () => {
    const garcia = await accountOf('BP-10234');
    const [inv] = await db()
      .insert(s.invoices)
      .values({ providerId: garcia.providerId, accountId: garcia.id, servicePeriodDetailID: 990_001, servicePeriod: 'Fall, "Early" 2019', invoiceDate: '2019-09-01', paymentDueDate: '2019-09-10', amountCents: 12_34 })
      .returning();
    const [entry] = await db()
      .insert(s.ledgerEntries)
      .values({ providerId: garcia.providerId, accountId: garcia.id, kind: 'CHARGE', amountCents: 12_34, entryDate: '2019-09-01', dueDate: '2019-09-10', invoiceId: inv.id, description: '=cmd', createdAt: new Date() })
      .returning();
    try {
      const rows = await csv(maria, { StartDate: '2019-08-01', EndDate: '2019-09-30' });
      expect(rows).toHaveLength(4);
      expect(rows[2]).toEqual(['2019-09-01', 'Charge: Fall, "Early" 2019', '12.34', '', expect.stringMatching(/^-?\d+\.\d{2}$/)]);
      const es = await csv(maria, { StartDate: '08/01/2019', EndDate: '09/30/2019' }, 'es');
      expect(es[0]).toEqual(['Fecha', 'Descripción', 'Débito', 'Crédito', 'Saldo']);
      expect(es[2][1]).toBe('Cargo: Fall, "Early" 2019');
      expect(es[1][1]).toBe('Saldo inicial');
    } finally {
      await db().delete(s.ledgerEntries).where(eq(s.ledgerEntries.id, entry.id));
      await db().delete(s.invoices).where(eq(s.invoices.id, inv.id));
    }
    // a text cell a spreadsheet would run as a formula starts with a quote; a negative amount stays a number
    expect(csvCell('=HYPERLINK("http://x")', true)).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const c of ['+1', '-2', '@SUM(A1)']) expect(csvCell(c, true)).toBe(`'${c}`);
    expect(csvCell('-12.50', false)).toBe('-12.50');
    expect(csvCell('a\r\nb', true)).toBe('"a\r\nb"');
  });

  it('refuses a period the wrong way round, over two years, or with a day that is not one, in the language', async () => {
    const wrong = await api('Billing.statementPdf', { token: maria, lang: 'es', query: { StartDate: '2026-11-01', EndDate: '2026-10-01' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ key: 'payment.errors.statementOrder', message: 'La fecha final no puede ser anterior a la fecha inicial.' });
    const long = await api('Billing.statementPdf', { token: maria, lang: 'en', query: { StartDate: '01/01/2024', EndDate: '01/02/2026' } });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ key: 'payment.errors.statementTooLong', message: 'A statement can cover at most two years.' });
    // two years to the day is still one statement
    expect((await api('Billing.statementPdf', { token: maria, query: { StartDate: '01/01/2024', EndDate: '12/31/2025', format: 'csv' } })).statusCode).toBe(200);
    const bad = await api('Billing.paymentHistoryPdf', { token: maria, lang: 'vi', query: { StartDate: '2026-02-30', EndDate: '2026-03-01' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ key: 'payment.errors.statementDate' });
    const backwards = await api('Billing.paymentHistoryPdf', { token: maria, lang: 'en', query: { StartDate: '2026-11-01', EndDate: '2026-10-01' } });
    expect(backwards.statusCode).toBe(400);
  });

  it('the statement PDF tells the provider, the account, the period, each entry and the balances in the language', async () => {
    const garcia = await accountOf('BP-10234');
    const ledger = await ledgerOf(garcia.id);
    const start = ledger.map((e) => e.entryDate).sort()[0];
    const res = await api('Billing.statementPdf', { token: maria, lang: 'en', query: { StartDate: start, EndDate: '2026-11-23' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(`statement-${start}-to-2026-11-23.pdf`);
    const text = await pdfText(res, 'maria-en');
    const [provider] = await db().select().from(s.providers).where(eq(s.providers.id, garcia.providerId));
    expect(text).toContain(provider.organisation);
    expect(text).toContain('Account statement');
    expect(text).toContain('Account number: BP-10234');
    expect(text).toContain('Opening balance');
    expect(text).toContain('Closing balance');
    const closing = ledger.filter((e) => e.entryDate <= '2026-11-23').reduce((n, e) => n + signed(e), 0);
    const money = `${closing < 0 ? '-' : ''}$${(Math.abs(closing) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`;
    expect(text).toContain(money);
    // Spanish: the same statement in Spanish words and dates
    const es = await pdfText(await api('Billing.statementPdf', { token: maria, lang: 'es', query: { StartDate: start, EndDate: '2026-11-23' } }), 'maria-es');
    expect(es).toContain('Estado de cuenta');
    expect(es).toContain('Saldo inicial');
    expect(es).toContain('23/11/2026');
    // Vietnamese in the report fonts, not lost to a font without its letters
    const vi = await pdfText(await api('Billing.statementPdf', { token: maria, lang: 'vi', query: { StartDate: start, EndDate: '2026-11-23' } }), 'maria-vi');
    expect(vi).toContain('Sao kê tài khoản');
    expect(vi).toContain('Số dư đầu kỳ');
    // no dates: the last 90 days up to today
    const recent = await api('Billing.statementPdf', { token: maria, lang: 'en' });
    expect(recent.statusCode).toBe(200);
    expect(await pdfText(recent, 'recent')).toContain('From 08/26/2026 to 11/23/2026');
  });

  it('the payment history PDF lists the payments with method and last four only, payer, amount and status', async () => {
    const garcia = await accountOf('BP-10234');
    const pays = await db().select().from(s.payments).where(and(eq(s.payments.accountId, garcia.id), eq(s.payments.providerId, garcia.providerId)));
    expect(pays.length).toBeGreaterThan(0);
    const start = pays.map((p) => p.paymentDate).sort()[0];
    const res = await api('Billing.paymentHistoryPdf', { token: maria, lang: 'en', query: { StartDate: start, EndDate: '2026-11-23' } });
    expect(res.statusCode).toBe(200);
    const text = await pdfText(res, 'payments');
    expect(text).toContain('Payment history');
    for (const p of pays) {
      expect(text).toContain(String(p.id));
      if (p.last4Digits) expect(text).toContain(p.last4Digits);
    }
    expect(text).toMatch(/Paid|Settled|Pending|Returned/);
    expect(text).toContain('Total received');
  });

  it("another parent's statement holds only her own account's entries", async () => {
    const johnson = await accountOf('BP-10422');
    const garcia = await accountOf('BP-10234');
    const mine = await ledgerOf(johnson.id);
    const rows = await csv(karen, { StartDate: '2020-01-01', EndDate: '2021-12-31' });
    expect(rows[1][4]).toBe('0.00');
    const all = await csv(karen, { StartDate: '2025-01-01', EndDate: '2026-12-31' });
    expect(all.slice(2, -1)).toHaveLength(mine.filter((e) => e.entryDate >= '2025-01-01').length);
    const closing = mine.reduce((n, e) => n + signed(e), 0);
    expect(cents(all[all.length - 1][4])).toBe(closing);
    // her PDF names her account, never Maria's
    const text = await pdfText(await api('Billing.statementPdf', { token: karen, lang: 'en', query: { StartDate: '2025-01-01', EndDate: '2026-12-31' } }), 'karen');
    expect(text).toContain('BP-10422');
    expect(text).not.toContain(garcia.accountNo);
    const payments = await pdfText(await api('Billing.paymentHistoryPdf', { token: karen, lang: 'en', query: { StartDate: '2025-01-01', EndDate: '2026-12-31' } }), 'karen-payments');
    const marias = await db().select().from(s.payments).where(eq(s.payments.accountId, garcia.id));
    for (const p of marias) if (p.last4Digits) expect(payments).not.toContain(`•••• ${p.last4Digits}`);
    // an adult of another account is not hers to name
    const [mariaAdult] = await db().select().from(s.adults).where(eq(s.adults.accountId, garcia.id));
    const other = await api('Billing.statementPdf', { token: karen, lang: 'en', query: { AdultID: mariaAdult.id } });
    expect(other.statusCode).toBe(404);
    // without a session nothing is answered
    expect((await api('Billing.statementPdf', { query: { format: 'csv' } })).statusCode).toBe(401);
  });
});
