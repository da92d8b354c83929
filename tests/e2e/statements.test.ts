// View statement (spec 2.12, 7.1), in a real browser at 375 and 1280 px, in English and Spanish: from
// Home to /viewstatement, its invoices each with its PDF, the transaction history between two dates
// (the last 90 days to start with) as a PDF and a CSV, the receipts each with its PDF and the payment
// history as a PDF; every file read back (pdftotext, the CSV's rows), axe on the page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dateInLanguage } from '../../src/engine/formats';
import { expectNoAxeViolations, newContext, shot, signIn, text, LOCALES, withServerAndBrowser, type Lang } from './kit';

const e2e = withServerAndBrowser();
const t = (lang: Lang, key: string, params: Record<string, string> = {}) => text(lang, 'payment', key, params);
/** The portal's business day (the harness fixes PORTAL_TODAY). */
const today = () => process.env.PORTAL_TODAY || new Date().toISOString().slice(0, 10);
const daysBefore = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return d.toISOString().slice(0, 10);
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'statements-'));
const shots = path.resolve('test-results', 'screens');

/** Clicks the action and saves what it downloads; answers the file's path and suggested name. */
async function download(page: Page, click: () => Promise<void>, tag: string): Promise<{ file: string; name: string }> {
  const [d] = await Promise.all([page.waitForEvent('download'), click()]);
  const name = d.suggestedFilename();
  const file = path.join(dir, `${tag}-${name}`);
  await d.saveAs(file);
  return { file, name };
}
/** The tax year the form starts with, once loaded: the newest of the years offered (those the account paid in, whatever today is). */
async function newestTaxYear(page: Page): Promise<string> {
  const select = page.locator('#tax_year');
  // the empty choice until the years have loaded
  await expect.poll(async () => Number(await select.inputValue())).toBeGreaterThanOrEqual(2000);
  const offered = (await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter((v) => Number(v) >= 2000);
  const chosen = await select.inputValue();
  expect(chosen).toBe(String(Math.max(...offered.map(Number))));
  return chosen;
}
const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');

describe('view statement', () => {
  for (const [width, lang] of [
    [375, 'es'],
    [1280, 'en'],
    [375, 'en'],
    [1280, 'es'],
  ] as const satisfies readonly (readonly [number, Lang])[]) {
    const tag = `${width}-${lang}`;
    // a date field shows and takes the day as the language writes it (mm/dd/yyyy, dd/mm/yyyy)
    const mdy = (iso: string) => dateInLanguage(iso, lang);
    it(`opens from Home and downloads an invoice, the statement as PDF and CSV, a receipt and the payment history (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, 'maria');
        await page.locator('a[href$="/viewstatement"]').first().click();
        await page.waitForURL(/\/viewstatement$/);
        await expect.poll(() => page.locator('h1').innerText()).toBe(t(lang, 'statement.title'));
        await page.locator('section[data-section=invoices] article').first().waitFor();
        await page.locator('section[data-section=receipts] article').first().waitFor();

        // the transaction history starts with the last 90 days up to today
        const start = page.locator('#history_startDate');
        const end = page.locator('#history_endDate');
        await expect.poll(() => end.inputValue()).toBe(mdy(today()));
        expect(await start.inputValue()).toBe(mdy(daysBefore(today(), 89)));
        await expectNoAxeViolations(page, `view statement (${tag})`);
        await shot(page, `viewstatement-${tag}`);

        // an invoice: its service period's PDF
        const invoice = page.locator('section[data-section=invoices] article').first();
        const period = (await invoice.locator('h3, h4, [data-part=title]').first().innerText()).trim();
        const inv = await download(page, () => invoice.locator('[data-action=invoicePdf]').click(), tag);
        expect(inv.name).toMatch(/^invoice-\d+\.pdf$/);
        const invText = pdfText(inv.file);
        expect(invText).toContain(t(lang, 'invoice.title'));
        expect(invText).toContain(period);

        // the statement for a year up to today, as a PDF and as a CSV
        const from = daysBefore(today(), 364);
        await start.fill(mdy(from));
        await end.fill(mdy(today()));
        const pdf = await download(page, () => page.locator('[data-action=statementPdf]').click(), tag);
        expect(pdf.name).toBe(`statement-${from}-to-${today()}.pdf`);
        const st = pdfText(pdf.file);
        expect(st).toContain(t(lang, 'statement.pdfTitle'));
        expect(st).toContain(t(lang, 'statement.opening'));
        expect(st).toContain(t(lang, 'statement.closing'));
        expect(st).toContain(t(lang, 'statement.period', { start: dateInLanguage(from, lang), end: dateInLanguage(today(), lang) }));
        expect(st).toContain('BP-10234');
        if (tag === '1280-en') {
          fs.mkdirSync(shots, { recursive: true });
          execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', pdf.file, path.join(shots, 'statement-pdf-1280-en')]);
        }
        const csv = await download(page, () => page.locator('[data-action=statementCsv]').click(), tag);
        expect(csv.name).toBe(`statement-${from}-to-${today()}.csv`);
        const rows = fs.readFileSync(csv.file, 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
        expect(rows[0]).toBe(['date', 'description', 'debit', 'credit', 'balance'].map((k) => t(lang, `statement.csv.${k}`)).join(','));
        expect(rows[1].startsWith(`${from},${t(lang, 'statement.opening')},`)).toBe(true);
        expect(rows[rows.length - 1].startsWith(`${today()},${t(lang, 'statement.closing')},`)).toBe(true);
        for (const row of rows.slice(2, -1)) expect(row).toMatch(/^\d{4}-\d{2}-\d{2},/);
        // opening + debits - credits = closing
        const cents = (v: string) => (v ? Math.round(Number(v) * 100) : 0);
        const last = (row: string) => row.split(',').slice(-3);
        let balance = cents(last(rows[1])[2]);
        for (const row of rows.slice(2, -1)) {
          const [debit, credit, running] = last(row);
          balance += cents(debit) - cents(credit);
          expect(cents(running)).toBe(balance);
        }
        expect(cents(last(rows[rows.length - 1])[2])).toBe(balance);

        // a period the wrong way round is refused on the page, before any download
        await start.fill(mdy(today()));
        await end.fill(mdy(from));
        await page.locator('[data-action=statementPdf]').click();
        await expect.poll(() => page.locator('section[data-section=history]').innerText()).toContain(text(lang, 'errors', 'date.endBeforeStart'));
        await start.fill(mdy(from));
        await end.fill(mdy(today()));

        // a receipt
        const receipt = page.locator('section[data-section=receipts] article').first();
        const rc = await download(page, () => receipt.locator('[data-action=receiptPdf]').click(), tag);
        expect(rc.name).toMatch(/^receipt-\d+\.pdf$/);
        expect(pdfText(rc.file)).toContain(t(lang, 'receipt.title'));

        // the payment history for the same year
        await page.locator('#payments_paymentsFrom').fill(mdy(from));
        const ph = await download(page, () => page.locator('[data-action=paymentsPdf]').click(), tag);
        expect(ph.name).toBe(`payments-${from}-to-${today()}.pdf`);
        const phText = pdfText(ph.file);
        expect(phText).toContain(t(lang, 'statement.paymentsTitle'));
        expect(phText).toMatch(new RegExp(`${t(lang, 'statement.paymentsTotal', { amount: '' }).trim()}|${t(lang, 'statement.noPayments')}`));
        // never more of a card or an account than its last four digits
        expect(phText).not.toMatch(/\b\d{13,19}\b/);

        // the tax statement of the year (Bright Path: a US provider with an EIN): the newest year with payments first
        const year = await newestTaxYear(page);
        const tx = await download(page, () => page.locator('[data-action=taxPdf]').click(), tag);
        expect(tx.name).toBe(`tax-${year}.pdf`);
        const txText = pdfText(tx.file);
        expect(txText).toContain(t(lang, 'tax.usTitle', { year }));
        expect(txText).toContain('37-1829456');

        await expectNoAxeViolations(page, `view statement after the downloads (${tag})`);
        // the full-page shot from the top, so the sticky header sits where it belongs
        await page.evaluate(() => window.scrollTo(0, 0));
        await shot(page, `viewstatement-after-${tag}`);
      } finally {
        await ctx.close();
      }
    });
  }

  it('gives a Canadian provider\'s parent her child care receipts for the year, in Vietnamese (375 px)', async () => {
    const lang = 'vi';
    const ctx = await newContext(e2e.browser, 375, LOCALES[lang]);
    const page = await ctx.newPage();
    try {
      await signIn(page, e2e.server, 'linh');
      await page.locator('a[href$="/viewstatement"]').first().click();
      await page.waitForURL(/\/viewstatement$/);
      const year = await newestTaxYear(page);
      const tx = await download(page, () => page.locator('[data-action=taxPdf]').click(), 'linh-375-vi');
      expect(tx.name).toBe(`tax-${year}.pdf`);
      const txText = pdfText(tx.file);
      // a receipt per child for line 21400, with Northridge's business number and a receipt number
      expect(txText).toContain(t(lang, 'tax.caTitle', { year }));
      expect(txText).toContain('874512396RT0001');
      expect(txText).toContain(t(lang, 'tax.receiptNumber'));
      await expectNoAxeViolations(page, 'view statement, Canadian provider (375, vi)');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, 'viewstatement-linh-375-vi');
    } finally {
      await ctx.close();
    }
  });
});
