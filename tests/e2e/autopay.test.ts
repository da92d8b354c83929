// Autopay in a real browser (spec 2.1, 2.12, 4, 5.6), at 375 and 1280 px, in English and Spanish,
// axe on every page: Karen saves a card on the payment processor's page (4000 0000 0000 9995: approved
// there, its token charges declined for insufficient funds) and enrols from Home weekly (the autopay
// pages' variant APEA: the checkbox, then the frequency, the discounts, the dates message, the
// provider's terms in a dialog and their acceptance required), downloads the signed agreement (its
// first page rendered to a PNG to be looked at), changes to monthly (weekly no longer offered) and
// cancels; enrolled again, `npm run autopay -- run` on her invoice's day is declined softly: the alert
// on Home, an e-mail saying when it is tried again; she moves the autopay to a good card and the try on
// that day charges it: the receipt e-mail and the payment on her ledger. Maria, whose account's autopay
// a program makes mandatory, sees no cancel and is told why; she moves the autopay to a card the
// issuer reports stolen (9979): its decline is told as final and never tried again. Amara enrols while
// paying with a new card on Pay now's payer page (the provider's variant OTP_APEA_SPM): the checkbox
// hides save-card, unticking brings it back and clears the frequency.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { and, eq, gt } from 'drizzle-orm';
import { openDb } from '../../server/db/index';
import * as s from '../../server/db/schema';
import { businessClock, isoDay, systemClock } from '../../server/clock';
import { ROOT } from '../../server/app';
import { expectNoAxeViolations, newContext, outbox, shot, signIn, text, withServerAndBrowser, LOCALES, type Lang, type Parent } from './kit';

const e2e = withServerAndBrowser();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'autopay-'));
const shots = path.resolve('test-results', 'screens');
const a = (lang: Lang, key: string, params: Record<string, string> = {}) => text(lang, 'autopay', key, params);
const p = (lang: Lang, key: string, params: Record<string, string> = {}) => text(lang, 'payment', key, params);

/** Pays 10.00 from Pay now with a new card typed on the payment processor's page, saved for later. */
async function saveCard(page: Page, lang: Lang, payer: string, number: string): Promise<void> {
  await page.goto(e2e.portal('/paynow'));
  await page.waitForSelector('section[data-section=summary] dl');
  await page.check('#amount_amountChoice-1');
  const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes('Amount=10.00'));
  await page.fill('#amount_otherAmount', '10.00');
  await fees;
  await page.locator('section[data-section=methods] [data-index]').filter({ hasText: p(lang, 'tile.CCD') }).locator('[data-action=choose]').click();
  await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
  await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
  await page.selectOption('#payer_paidByFamilyMemberID', { label: payer });
  await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
  await page.check('#payer_saveCard');
  await page.click('[data-action=pay]');
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
  await page.fill('input[name=number]', number);
  await page.fill('input[name=expiry]', '12/30');
  await page.fill('input[name=cvv]', '123');
  await page.check('input[name=saveMethod]');
  await page.click('button[type=submit]');
  await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
  await page.waitForSelector('section[data-section=receipt] dl');
}

/** The saved card ending in `last4` among the autopay page's methods. */
const methodCard = (page: Page, last4: string) => page.locator('section[data-section=saved] article').filter({ hasText: last4 });

/** The offered frequencies of the autopay form's list, once loaded. */
async function offered(page: Page): Promise<string[]> {
  const select = page.locator('#autopay_frequency');
  await expect.poll(async () => select.locator('option').count()).toBeGreaterThan(1);
  return (await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(Boolean);
}

/** On the enrol page: the saved card ending in last4, the checkbox, the frequency and the terms, then Enrol: its receipt. */
async function enrol(page: Page, last4: string, frequency: string): Promise<void> {
  await page.goto(e2e.portal('/enrollinautopay?fromPage=home'));
  await methodCard(page, last4).locator('[data-action=chooseCard]').click();
  await page.waitForURL(/\/payerinformationautopay\?key=/);
  await page.waitForSelector('section[data-section=payerOnFile] dl');
  await page.check('#autopay_autopay');
  await offered(page);
  await page.selectOption('#autopay_frequency', frequency);
  await page.check('#autopay_termsAccepted');
  await page.click('[data-action=enrol]');
  await page.waitForURL(/\/paymentreceiptautopay\?registrationID=\d+/);
  await page.locator('section[data-section=enrolled]').waitFor();
}

async function look(page: Page, label: string, name: string): Promise<void> {
  await expectNoAxeViolations(page, label);
  await shot(page, name);
}

/** Runs `npm run autopay -- run` for the day, between a stop and a start of the server (one process holds the embedded database). */
async function autopayRun(day: string): Promise<string> {
  let out = '';
  await e2e.server.restart(() => {
    const env = { ...process.env, PGLITE_DIR: e2e.server.dataDir, DATABASE_URL: '', PORT: '18724' };
    out = execFileSync(path.join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/autopay.ts', 'run', '--date', day, '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
  });
  return out;
}

/** Changes the database between a stop and a start of the server. */
async function withDb(change: (db: Awaited<ReturnType<typeof openDb>>['db']) => Promise<void>): Promise<void> {
  await e2e.server.restart(async () => {
    const handle = await openDb({ pgliteDir: e2e.server.dataDir });
    try {
      await change(handle.db);
    } finally {
      await handle.close();
    }
  });
}

/** The due date of the account's open invoice (the one the run charges next). */
async function openInvoiceDue(email: string): Promise<string> {
  const today = isoDay(businessClock(systemClock)());
  let due = '';
  await withDb(async (db) => {
    const [adult] = await db.select({ accountId: s.adults.accountId }).from(s.adults).where(eq(s.adults.email, email));
    const [inv] = await db.select({ dueDate: s.invoices.paymentDueDate }).from(s.invoices).where(and(eq(s.invoices.accountId, adult.accountId), gt(s.invoices.paymentDueDate, today)));
    due = inv.dueDate;
  });
  return due;
}

const signedIn = async (who: Parent, width: number, lang: Lang) => {
  const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
  const page = await ctx.newPage();
  await signIn(page, e2e.server, who);
  return { ctx, page };
};

describe('autopay', () => {
  it('Karen enrols weekly from Home, downloads the agreement, changes to monthly and cancels (1280 px, English)', async () => {
    const lang: Lang = 'en';
    const width = 1280;
    const tag = `${width}-${lang}`;
    const { ctx, page } = await signedIn('karen', width, lang);
    try {
      await saveCard(page, lang, 'Karen Johnson', '4000 0000 0000 9995');
      await page.goto(e2e.portal('/home'));
      await page.locator('section[data-section=payments] [data-action=autopay]').click();
      await page.waitForURL(/\/enrollinautopay\?fromPage=home/);
      await methodCard(page, '9995').waitFor();
      await look(page, `enrol page (${tag})`, `autopay-enrol-${tag}`);
      await methodCard(page, '9995').locator('[data-action=chooseCard]').click();
      await page.waitForURL(/\/payerinformationautopay\?key=[0-9a-f]{32}&fromPage=home/);
      await page.waitForSelector('section[data-section=payerOnFile] dl');
      // the variant APEA: the checkbox first, unticked; the discounts of twice a month and monthly
      expect(await page.isChecked('#autopay_autopay')).toBe(false);
      expect(await page.locator('#autopay_frequency').count()).toBe(0);
      expect(await page.textContent('section[data-section=periodDiscount]')).toContain(a(lang, 'discount.period', { twice: '1', monthly: '2' }));
      await page.check('#autopay_autopay');
      expect(await offered(page)).toEqual(['W', 'M']);
      // enrolling asks for the frequency and the terms
      await page.click('[data-action=enrol]');
      await page.getByText(text(lang, 'errors', 'payment.frequency')).first().waitFor();
      await page.selectOption('#autopay_frequency', 'W');
      await page.locator('section[data-section=datesW]').waitFor();
      await page.click('[data-action=readTerms]');
      const terms = page.locator('[role=dialog]');
      await terms.locator('[data-section=termsText]').waitFor();
      await look(page, `terms dialog (${tag})`, `autopay-terms-${tag}`);
      await terms.locator('[data-action=close]').click();
      await terms.waitFor({ state: 'detached' });
      await look(page, `autopay payer page (${tag})`, `autopay-payer-${tag}`);
      await page.click('[data-action=enrol]');
      await page.getByText(text(lang, 'errors', 'payment.terms')).first().waitFor();
      await page.check('#autopay_termsAccepted');
      await page.click('[data-action=enrol]');
      await page.waitForURL(/\/paymentreceiptautopay\?registrationID=\d+/);
      await page.locator('section[data-section=enrolled]').waitFor();
      const receipt = await page.textContent('section[data-section=onFile]');
      expect(receipt).toContain(text(lang, 'autopay', 'frequency.W'));
      expect(receipt).toContain('9995');
      await look(page, `autopay receipt (${tag})`, `autopay-receipt-${tag}`);
      // the signed agreement
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('section[data-section=onFile] [data-action=agreement]')]);
      const pdf = path.join(dir, `agreement-${tag}.pdf`);
      await download.saveAs(pdf);
      expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
      fs.mkdirSync(shots, { recursive: true });
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', pdf, path.join(shots, `autopay-agreement-${tag}`)]);
      const mails = await outbox(e2e.server);
      expect(mails.some((m) => m.to === 'karen.johnson@example.com' && m.subject.includes('automatic payment agreement'))).toBe(true);

      // change to monthly: weekly, the current frequency, is not offered
      await page.goto(e2e.portal('/enrollinautopay'));
      await page.locator('section[data-section=onFile] [data-action=change]').click();
      await page.waitForURL(/\/changeautopay/);
      await page.locator('section[data-section=onFile] dl').waitFor();
      expect(await offered(page)).toEqual(['M']);
      await page.selectOption('#autopay_frequency', 'M');
      await page.check('#autopay_termsAccepted');
      await look(page, `change page (${tag})`, `autopay-change-${tag}`);
      await page.click('[data-action=save]');
      await page.waitForURL(/\/paymentreceiptautopay\?registrationID=\d+&changed=true/);
      await page.locator('section[data-section=changed]').waitFor();
      expect(await page.textContent('section[data-section=onFile]')).toContain(text(lang, 'autopay', 'frequency.M'));

      // cancel, asked first
      await page.goto(e2e.portal('/changeautopay'));
      await page.locator('[data-action=cancelAutopay]').click();
      await page.locator('[data-modal=confirmCancel] [data-section=cancelText]').waitFor();
      await look(page, `cancel confirmation (${tag})`, `autopay-cancel-${tag}`);
      await page.locator('[data-modal=confirmCancel] [data-action=confirm]').click();
      await page.waitForURL(/\/enrollinautopay\?fromPage=changeautopay&cancelled=true/);
      await page.locator('section[data-section=cancelled]').waitFor();
      await methodCard(page, '9995').waitFor();
      await look(page, `enrol page after the cancel (${tag})`, `autopay-cancelled-${tag}`);

      // enrolled again, monthly, for the run
      await enrol(page, '9995', 'M');
    } catch (err) {
      await shot(page, `autopay-failed-karen-${tag}`);
      throw err;
    } finally {
      await ctx.close();
    }
  }, 400_000);

  it('Maria cannot cancel an autopay a program makes mandatory and moves it to another saved card (375 px, Spanish)', async () => {
    const lang: Lang = 'es';
    const width = 375;
    const tag = `${width}-${lang}`;
    // the school year the Garcias' children attend makes autopay mandatory
    await withDb(async (db) => {
      await db.update(s.programPeriods).set({ autopayMandatory: true }).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    });
    const { ctx, page } = await signedIn('maria', width, lang);
    try {
      await saveCard(page, lang, 'Maria Garcia', '4000 0000 0000 9979');
      await page.goto(e2e.portal('/paynow'));
      await page.locator('section[data-section=summary] [data-action=autopay]').click();
      await page.waitForURL(/\/enrollinautopay\?fromPage=paynow/);
      // David's autopay is on file: shown, with no enrolment offered
      await page.locator('section[data-section=onFile] dl').waitFor();
      expect(await page.locator('section[data-section=saved]').count()).toBe(0);
      await look(page, `enrol page with an autopay on file (${tag})`, `autopay-onfile-${tag}`);
      // a program makes it mandatory: the way on says Change (Cambiar), not Change or cancel
      const changeOnly = page.locator('section[data-section=onFile] [data-action=changeOnly]');
      expect((await changeOnly.innerText()).trim()).toBe('Cambiar');
      expect(await page.locator('section[data-section=onFile] [data-action=change]').count()).toBe(0);
      await changeOnly.click();
      await page.waitForURL(/\/changeautopay/);
      await page.locator('section[data-section=mandatory]').waitFor();
      expect(await page.textContent('section[data-section=mandatory]')).toContain(a(lang, 'errors.mandatory'));
      expect(await page.locator('[data-action=cancelAutopay]').count()).toBe(0);
      await methodCard(page, '9979').waitFor();
      await look(page, `change page of a mandatory autopay (${tag})`, `autopay-mandatory-${tag}`);
      await methodCard(page, '9979').locator('[data-action=chooseCard]').click();
      await page.waitForURL(/\/payerinformationautopay\?key=[0-9a-f]{32}&fromPage=changeautopay/);
      await page.waitForSelector('section[data-section=payerOnFile] dl');
      // no checkbox: the autopay is on file; the frequency may stay as it is
      expect(await page.locator('#autopay_autopay').count()).toBe(0);
      await page.check('#autopay_termsAccepted');
      await look(page, `autopay payer page of a method change (${tag})`, `autopay-payer-change-${tag}`);
      await page.click('[data-action=changeMethod]');
      await page.waitForURL(/\/paymentreceiptautopay\?registrationID=\d+&changed=true/);
      await page.locator('section[data-section=changed]').waitFor();
      expect(await page.textContent('section[data-section=onFile]')).toContain('9979');
      await look(page, `autopay receipt of a method change (${tag})`, `autopay-receipt-${tag}`);
    } catch (err) {
      await shot(page, `autopay-failed-maria-${tag}`);
      throw err;
    } finally {
      await ctx.close();
    }
  }, 400_000);

  it('Amara enrols weekly with a new card on the Pay now payer page (the variant OTP_APEA_SPM, 375 px, Spanish)', async () => {
    const lang: Lang = 'es';
    const width = 375;
    const tag = `${width}-${lang}`;
    const { ctx, page } = await signedIn('amara', width, lang);
    try {
      await page.goto(e2e.portal('/paynow'));
      await page.waitForSelector('section[data-section=summary] dl');
      await page.check('#amount_amountChoice-1');
      const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes('Amount=10.00'));
      await page.fill('#amount_otherAmount', '10.00');
      await fees;
      await page.locator('section[data-section=methods] [data-index]').filter({ hasText: p(lang, 'tile.CCD') }).locator('[data-action=choose]').click();
      await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
      await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
      await page.selectOption('#payer_paidByFamilyMemberID', { label: 'Amara Mensah' });
      await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
      // the checkbox starts unticked, save-card offered; the twice-a-month and monthly discounts told
      expect(await page.isChecked('#payer_autopay')).toBe(false);
      await page.locator('#payer_saveCard').waitFor();
      expect(await page.textContent('section[data-section=periodDiscount]')).toContain(a(lang, 'discount.period', { twice: '1', monthly: '2' }));
      // ticking autopay hides save-card and asks the frequency; unticking brings save-card back and clears the frequency
      await page.check('#payer_autopay');
      await page.locator('#payer_saveCard').waitFor({ state: 'detached' });
      const select = page.locator('#payer_frequency');
      await expect.poll(async () => select.locator('option').count()).toBeGreaterThan(1);
      expect((await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).filter(Boolean)).toEqual(['W', 'M']);
      await select.selectOption('W');
      await page.locator('section[data-section=datesW]').waitFor();
      await page.uncheck('#payer_autopay');
      await page.locator('#payer_saveCard').waitFor();
      await page.check('#payer_autopay');
      await expect.poll(() => page.locator('#payer_frequency').inputValue()).toBe('');
      await page.selectOption('#payer_frequency', 'W');
      await page.click('[data-action=readTerms]');
      await page.locator('[data-modal=terms] [data-section=termsText]').waitFor();
      await page.locator('[data-modal=terms] [data-action=close]').click();
      await page.locator('[data-modal=terms]').waitFor({ state: 'detached' });
      await page.check('#payer_termsAccepted');
      await look(page, `Pay now payer page with autopay (${tag})`, `autopay-paynow-payer-${tag}`);
      await page.click('[data-action=pay]');
      await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
      await page.fill('input[name=number]', '4111 1111 1111 1111');
      await page.fill('input[name=expiry]', '12/30');
      await page.fill('input[name=cvv]', '123');
      // the gateway's page keeps the card for the autopay: said, no box to tick
      await page.locator('#save-method-note').waitFor();
      expect(await page.locator('input[name=saveMethod]').count()).toBe(0);
      await page.click('button[type=submit]');
      await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
      await page.waitForSelector('section[data-section=receipt] dl');
      await page.click('[data-action=autopay]');
      await page.waitForURL(/\/enrollinautopay\?fromPage=paymentreceipt/);
      await page.locator('section[data-section=onFile] dl').waitFor();
      const onFile = await page.textContent('section[data-section=onFile]');
      expect(onFile).toContain(a(lang, 'frequency.W'));
      expect(onFile).toContain('1111');
      await look(page, `autopay enrolled with the payment (${tag})`, `autopay-enrolled-with-payment-${tag}`);
    } catch (err) {
      await shot(page, `autopay-failed-amara-${tag}`);
      throw err;
    } finally {
      await ctx.close();
    }
  }, 300_000);

  it('the run: a soft decline told and tried again, charged once the card is changed; a hard decline told as final and not tried again', async () => {
    const due = await openInvoiceDue('karen.johnson@example.com');
    expect(await openInvoiceDue('maria.garcia@example.com')).toBe(due);
    // the provider's 2 business days before the due date at the latest: the due date itself charges
    const first = await autopayRun(due);
    expect(first).toMatch(/: 2 charge\(s\) made \(0 approved, 2 declined/);
    // the failures' e-mails, queued by the run, go out with the server's outbox job
    const mailTo = async (to: string, subject: RegExp) => {
      let found: { text: string; subject: string } | undefined;
      await expect.poll(async () => (found = (await outbox(e2e.server)).find((m) => m.to === to && subject.test(m.subject))), { timeout: 60_000 }).toBeDefined();
      return found!;
    };
    expect((await mailTo('karen.johnson@example.com', /did not go through/)).text).toContain('We will try again on');
    expect((await mailTo('maria.garcia@example.com', /did not go through|no se realizó/)).text).toMatch(/We will not try this payment again|No volveremos a intentar este pago/);

    for (const [who, lang, width] of [
      ['karen', 'en', 1280],
      ['maria', 'es', 375],
    ] as const) {
      const { ctx, page } = await signedIn(who, width, lang);
      try {
        await page.locator('[data-section=autopayFailed]').getByText(p(lang, 'autopayFailed.heading')).waitFor();
        await look(page, `the autopay alert on Home (${who}, ${width}, ${lang})`, `autopay-declined-home-${who}-${width}-${lang}`);
        if (who === 'karen') {
          // Karen moves the autopay to a good card
          await saveCard(page, lang, 'Karen Johnson', '4111 1111 1111 1111');
          await page.goto(e2e.portal('/changeautopay'));
          await methodCard(page, '1111').locator('[data-action=chooseCard]').click();
          await page.waitForURL(/\/payerinformationautopay\?key=[0-9a-f]{32}&fromPage=changeautopay/);
          await page.waitForSelector('section[data-section=payerOnFile] dl');
          await page.check('#autopay_termsAccepted');
          await page.click('[data-action=changeMethod]');
          await page.waitForURL(/\/paymentreceiptautopay\?registrationID=\d+&changed=true/);
        }
      } catch (err) {
        await shot(page, `autopay-failed-run-${who}-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    }

    // the next try's day, as Karen's e-mail told it; Maria's hard decline has none
    let retryOn = '';
    await withDb(async (db) => {
      const tries = await db.select().from(s.autopayCharges);
      const karen = tries.filter((t) => t.status === 'DECLINED' && t.nextTryDate);
      expect(karen).toHaveLength(1);
      retryOn = karen[0].nextTryDate ?? '';
    });
    const receipts = async () => (await outbox(e2e.server)).filter((m) => m.to === 'karen.johnson@example.com' && m.subject.startsWith('Payment receipt from'));
    const before = (await receipts()).length;
    const second = await autopayRun(retryOn);
    expect(second).toMatch(/: 1 charge\(s\) made \(1 approved, 0 declined/);
    await expect.poll(async () => (await receipts()).length, { timeout: 60_000 }).toBe(before + 1);
    // the newest first
    const receipt = (await receipts())[0];
    expect(receipt?.text).toContain('1111');
    const amount = /: (\$[\d,.]+)$/.exec(receipt?.subject ?? '')?.[1] ?? '';
    expect(amount).not.toBe('');
    // the payment is on Karen's ledger, with the new card; the alert is gone
    const { ctx, page } = await signedIn('karen', 1280, 'en');
    try {
      await page.locator('section[data-section=payments] dl').waitFor();
      expect(await page.locator('[data-section=autopayFailed]').count()).toBe(0);
      await page.goto(e2e.portal('/viewstatement'));
      await page.getByText(amount).first().waitFor();
      await look(page, 'the autopay payment on the statement (1280, en)', 'autopay-ledger-1280-en');
    } finally {
      await ctx.close();
    }
    // Maria's hard decline was not tried again on the day of Karen's retry
    let garciaTries = -1;
    await withDb(async (db) => {
      const [maria] = await db.select({ accountId: s.adults.accountId }).from(s.adults).where(eq(s.adults.email, 'maria.garcia@example.com'));
      garciaTries = (await db.select().from(s.autopayCharges).where(eq(s.autopayCharges.accountId, maria.accountId))).length;
    });
    expect(garciaTries).toBe(1);
  }, 600_000);
});
