// Bank payments as the banks treat them, in a real browser (spec 2.12, 9): a debit is pending on its
// receipt and in the account's payments until the banks settle it days later, then settled; a debit
// the bank returns (R01) says so on its receipt with the day, the reason in words, the code and the
// amount added back, the balance is back up and the parent is e-mailed in her language; a saved
// account the bank returned as not found (R03) is shown on Pay now as not usable, with the reason,
// and cannot be chosen. The sandbox settles as of a later date (settle-ahead), so nothing waits for
// days. At 375 and 1280 px, in English and Spanish, axe on every state.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { isoDay } from '../../server/clock';
import { dateInLanguage } from '../../src/engine/formats';
import { moneyText } from '../../src/engine/money';
import { expectNoAxeViolations, newContext, outbox, rawText, shot, signIn, text, LOCALES, withServerAndBrowser, type Lang, type Parent } from './kit';

const e2e = withServerAndBrowser({ SANDBOX_GATEWAY_SETTLE_AHEAD: '1' });

const t = (lang: Lang, key: string, params: Record<string, string> = {}) => text(lang, 'payment', key, params);
/** The portal's business day: PORTAL_TODAY when set, else today (the day a return is applied). */
const businessDay = () => process.env.PORTAL_TODAY || isoDay(new Date());

/** `n` business days after now, by the sandbox's clock (its settlement dates are business days). */
function businessDaysAhead(n: number): string {
  const d = new Date();
  for (let left = n; left > 0; ) {
    d.setUTCDate(d.getUTCDate() + 1);
    if (d.getUTCDay() !== 0 && d.getUTCDay() !== 6) left--;
  }
  return d.toISOString();
}

/** The sandbox gateway of the demo provider (Bright Path, merchant 2), at the origin its hosted page had. */
function bank(origin: string) {
  const secrets = JSON.parse(fs.readFileSync(`${e2e.server.dataDir}.sandbox-gateway.json.secrets`, 'utf8')) as Record<string, string>;
  return sandboxGateway({ code: 2, url: origin, merchant: '2', secret: secrets['2'] });
}

/** The value shown next to `label` in a summary section. */
const summaryValue = (page: Page, section: string, label: string) => page.locator(`section[data-section=${section}] dt`, { hasText: label }).first().locator('xpath=following-sibling::dd[1]').innerText();

/** /paynow with another amount typed, once the methods show. */
async function payNow(page: Page, amount: string) {
  await page.goto(e2e.portal('/paynow'));
  await page.waitForSelector('section[data-section=summary] dl');
  await page.check('#amount_amountChoice-1');
  const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes(`Amount=${encodeURIComponent(amount)}`));
  await page.fill('#amount_otherAmount', amount);
  await fees;
  await page.waitForSelector('section[data-section=methods] [data-action=choose]');
}

/** The account's current balance on Pay now, in cents. */
async function payNowBalance(page: Page, lang: Lang): Promise<number> {
  // the account summary the page loads now (not one cached earlier): on its own, or with the page's
  // first loads (a page opened anew asks them in one request), then the page showing it
  const loaded = page.waitForResponse((r) => (r.url().includes('/account-summary') && r.request().method() === 'GET') || r.url().includes('/api/Customer/first-loads'));
  await page.goto(e2e.portal('/paynow'));
  const res = await loaded;
  const body = (await res.json()) as { currentBalance: number } & { loads?: Array<{ op: string; answer: { currentBalance: number } }> };
  const { currentBalance } = res.url().includes('/first-loads') ? body.loads!.find((l) => l.op === 'Billing.accountSummary')!.answer : body;
  const cents = Math.round(currentBalance * 100);
  await page.waitForSelector('section[data-section=summary] dl');
  await expect.poll(() => summaryValue(page, 'summary', t(lang, 'paynow.currentBalance'))).toBe(moneyText(cents, lang));
  return cents;
}

/**
 * On Pay now, `amount` by a new bank account on the sandbox's hosted page (saved for later when
 * `save`): answers the receipt's id and the hosted page's origin, once the receipt shows.
 */
async function payByBank(page: Page, lang: Lang, payer: string, amount: string, account: string, save = false): Promise<{ id: string; origin: string }> {
  await payNow(page, amount);
  await page.locator('section[data-section=methods] [data-index]').filter({ hasText: t(lang, 'tile.ECH') }).locator('[data-action=choose]').click();
  await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
  await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
  await page.selectOption('#payer_paidByFamilyMemberID', { label: payer });
  await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
  if (save) await page.check('#payer_saveCard');
  await page.click('[data-action=pay]');
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
  const origin = new URL(page.url()).origin;
  expect(origin).not.toBe(new URL(e2e.server.url).origin);
  await page.fill('input[name=routing]', '021000021');
  await page.fill('input[name=account]', account);
  await page.check('input[name=accountType][value=checking]');
  if (save) await page.check('input[name=saveMethod]');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
  await page.waitForSelector('section[data-section=receipt] dl');
  return { id: new URL(page.url()).searchParams.get('accountPaymentID') ?? '', origin };
}

/** The account's payments as the portal answers them (Billing.paymentsReceived), by the page's session. */
async function paymentStatus(page: Page, id: string): Promise<string | undefined> {
  const token = await page.evaluate(() => (JSON.parse(localStorage.getItem('pp.session') ?? '{}') as { token?: string }).token);
  const res = await fetch(`${e2e.server.url}/api/Billing/payments-received`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accountPaymentID: number; status: string }[]).find((p) => String(p.accountPaymentID) === id)?.status;
}

/** The receipt of payment `id`, opened again until `section` shows. */
async function receiptShowing(page: Page, id: string, section: string) {
  await expect
    .poll(
      async () => {
        await page.goto(e2e.portal(`/paymentreceipt?accountPaymentID=${id}`));
        await page.waitForSelector('section[data-section=receipt] dl');
        return page.locator(`section[data-section=${section}]`).count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
}

const tagOf = (width: number, lang: Lang) => `${width}-${lang}`;

describe('bank payments: pending, settled, returned', () => {
  for (const [width, lang, who, payer] of [
    [375, 'en', 'karen', 'Karen Johnson'],
    [1280, 'es', 'priya', 'Priya Patel'],
  ] as const satisfies readonly (readonly [number, Lang, Parent, string])[]) {
    it(`a bank payment is pending on its receipt and in the account's payments, then settled after the banks' days (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      const tag = tagOf(width, lang);
      try {
        await signIn(page, e2e.server, who);
        const { id, origin } = await payByBank(page, lang, payer, '21.00', '123456789');
        // pending: said on the receipt, the thanks still there, nothing said settled or returned
        const pending = page.locator('section[data-section=pending]');
        await pending.waitFor();
        expect(await pending.textContent()).toContain(t(lang, 'receipt.statusPending'));
        expect(await pending.textContent()).toContain(t(lang, 'receipt.pendingText'));
        expect(await page.locator('section[data-section=thanks]').count()).toBe(1);
        expect(await page.locator('section[data-section=settled]').count()).toBe(0);
        expect(await page.locator('section[data-section=returned]').count()).toBe(0);
        expect(await paymentStatus(page, id)).toBe('PENDING');
        await expectNoAxeViolations(page, `receipt of a pending bank payment (${tag})`);
        await shot(page, `bank-pending-receipt-${tag}`);

        // four business days later by the sandbox's clock the banks have settled it
        const run = await bank(origin).runSettlements(businessDaysAhead(4));
        expect(run.settled.length).toBeGreaterThanOrEqual(1);
        await receiptShowing(page, id, 'settled');
        expect(await page.textContent('section[data-section=settled]')).toContain(t(lang, 'receipt.settledText'));
        expect(await page.locator('section[data-section=pending]').count()).toBe(0);
        expect(await paymentStatus(page, id)).toBe('APPROVED');
        await expectNoAxeViolations(page, `receipt of a settled bank payment (${tag})`);
        await shot(page, `bank-settled-receipt-${tag}`);
      } finally {
        await ctx.close();
      }
    });
  }

  for (const [width, lang, who, payer, address] of [
    [375, 'es', 'maria', 'Maria Garcia', 'maria.garcia@example.com'],
    [1280, 'en', 'amara', 'Amara Mensah', 'amara.mensah@example.com'],
  ] as const satisfies readonly (readonly [number, Lang, Parent, string, string])[]) {
    it(`a bank payment returned R01 says so on its receipt and its PDF, the balance is back up and the parent is e-mailed in her language (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      const tag = tagOf(width, lang);
      try {
        await signIn(page, e2e.server, who);
        const before = await payNowBalance(page, lang);
        // 9900001: a test account the bank accepts now and returns three business days later, R01
        const { id, origin } = await payByBank(page, lang, payer, '17.00', '9900001');
        await page.locator('section[data-section=pending]').waitFor();
        expect(await payNowBalance(page, lang)).toBe(before - 1700);

        const run = await bank(origin).runSettlements(businessDaysAhead(4));
        expect(run.returned.length).toBeGreaterThanOrEqual(1);
        await receiptShowing(page, id, 'returned');
        const returned = page.locator('section[data-section=returned]');
        const shown = await returned.innerText();
        const reason = text(lang, 'methods', 'returns.R01');
        expect(shown).toContain(t(lang, 'receipt.statusReturned'));
        expect(shown).toContain(reason);
        expect(shown).toContain('R01');
        expect(shown).toContain(dateInLanguage(businessDay(), lang));
        expect(shown).toContain(moneyText(1700, lang));
        // no thanks, nothing pending or settled; the day and the amount added back among the receipt's rows
        expect(await page.locator('section[data-section=thanks]').count()).toBe(0);
        expect(await page.locator('section[data-section=pending]').count()).toBe(0);
        expect(await page.locator('section[data-section=settled]').count()).toBe(0);
        expect(await summaryValue(page, 'receipt', t(lang, 'receipt.amountReversed'))).toBe(moneyText(1700, lang));
        expect(await summaryValue(page, 'receipt', t(lang, 'receipt.returnedOn'))).toBe(dateInLanguage(businessDay(), lang));
        expect(await paymentStatus(page, id)).toBe('RETURNED');
        await expectNoAxeViolations(page, `receipt of a returned bank payment (${tag})`);
        await shot(page, `bank-returned-receipt-${tag}`);

        // the PDF says the same, in the page's language
        const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action=download]')]);
        const file = path.join(os.tmpdir(), `bank-returned-${tag}-${id}.pdf`);
        await download.saveAs(file);
        const pdf = execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
        expect(pdf).toContain(t(lang, 'receipt.statusReturned'));
        expect(pdf).toContain(`${reason} (R01)`);
        expect(pdf).toContain(dateInLanguage(businessDay(), lang));
        expect(pdf).not.toContain(t(lang, 'receipt.thanks'));
        fs.mkdirSync(path.resolve('test-results', 'screens'), { recursive: true });
        execFileSync('pdftoppm', ['-png', '-r', '70', '-singlefile', file, path.resolve('test-results', 'screens', `bank-returned-pdf-${tag}`)]);
        fs.rmSync(file, { force: true });

        // the balance is back up by the amount (the provider declares no returned-payment fee)
        expect(await payNowBalance(page, lang)).toBe(before);
        await expectNoAxeViolations(page, `pay now after a returned payment (${tag})`);

        // the e-mail, in the account's language (the primary holder's), with the reason in words
        const mailLang: Lang = who === 'maria' ? 'es' : 'en';
        await expect.poll(async () => (await outbox(e2e.server)).filter((m) => m.to === address && m.text.includes(text(mailLang, 'methods', 'returns.R01'))).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
        const mail = (await outbox(e2e.server)).find((m) => m.to === address && m.text.includes(text(mailLang, 'methods', 'returns.R01')));
        for (const part of rawText(mailLang, 'methods', 'mail.return.subject').split(/\{\{\w+\}\}/).filter((x) => x.trim())) expect(mail?.subject).toContain(part);
        expect(mail?.subject).toContain(moneyText(1700, mailLang));
        expect(mail?.text).toContain('R01');
        expect(mail?.text).toContain(moneyText(1700, mailLang));
      } finally {
        await ctx.close();
      }
    });
  }

  for (const [width, lang, who, payer] of [
    [375, 'en', 'karen', 'Karen Johnson'],
    [1280, 'es', 'priya', 'Priya Patel'],
  ] as const satisfies readonly (readonly [number, Lang, Parent, string])[]) {
    it(`a saved bank account returned R03 is shown on Pay now as not usable, with the reason, and cannot be chosen (${width} px, ${lang})`, async () => {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      const tag = tagOf(width, lang);
      try {
        await signIn(page, e2e.server, who);
        // 9900003: accepted now, returned three business days later as an account not found (R03)
        const { origin } = await payByBank(page, lang, payer, '11.00', '9900003', true);
        await payNow(page, '11.00');
        const account = page.locator('section[data-section=saved] article').filter({ hasText: '0003' });
        await account.waitFor();
        expect(await account.locator('[data-action=chooseBank]').count()).toBe(1);

        const run = await bank(origin).runSettlements(businessDaysAhead(4));
        expect(run.returned.length).toBeGreaterThanOrEqual(1);
        await expect
          .poll(
            async () => {
              await payNow(page, '11.00');
              return account.textContent();
            },
            { timeout: 30_000 },
          )
          .toContain(t(lang, 'saved.notUsableBadge'));
        const note = t(lang, 'saved.invalidNote', { code: 'R03' }).replace('$t(methods:returns.R03)', text(lang, 'methods', 'returns.R03'));
        expect(await account.textContent()).toContain(note);
        expect(await account.locator('[data-action=chooseBank]').count()).toBe(0);
        await expectNoAxeViolations(page, `a saved bank account returned R03 (${tag})`);
        await shot(page, `bank-r03-paynow-${tag}`);
      } finally {
        await ctx.close();
      }
    });
  }
});
