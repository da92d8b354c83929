// Pay now in a real browser (spec 2.12): the account summary and processing fee, the payer form, the
// sandbox gateway's hosted page on its own origin, the return, the receipt page, e-mail and PDF; a
// decline and an AVS failure with their messages and a successful retry; a refresh during the return
// pays once; a Canadian payer form. At 375 and 1280 px, in English and Spanish, axe on every page.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { escapeRegExp, expectNoAxeViolations, newContext, outbox, shot, signIn, text, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

/** On /paynow: the amount (balance, or another amount), then a method's tile. */
async function chooseMethod(page: Page, method: 'CCD' | 'ECH', other?: string) {
  await page.goto(e2e.portal('/paynow'));
  await page.waitForSelector('section[data-section=summary] dl');
  if (other !== undefined) {
    await page.check('#amount_amountChoice-1');
    const fees = page.waitForResponse((r) => r.url().includes('/processing-fee') && r.url().includes(`Amount=${encodeURIComponent(other)}`));
    await page.fill('#amount_otherAmount', other);
    await fees;
    await page.waitForSelector('section[data-section=methods] [data-action=choose]');
  }
  const tile = page.locator('section[data-section=methods] [data-index]').filter({ hasText: method === 'CCD' ? /card|tarjeta/i : /bank|bancaria/i });
  await tile.first().locator('[data-action=choose]').click();
  await page.waitForURL(/\/payerinformation\?key=[0-9a-f]{32}/);
}

/** On /payerinformation: an account holder pays (the form fills from the choice). */
async function payerAndGo(page: Page, payerName: string) {
  await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(3)', { state: 'attached' });
  await page.selectOption('#payer_paidByFamilyMemberID', { label: payerName });
  await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
  await page.click('[data-action=pay]');
}

async function onGateway(page: Page) {
  await page.waitForURL((u) => u.pathname.startsWith('/pay/'));
  expect(new URL(page.url()).origin).not.toBe(new URL(e2e.server.url).origin);
}

async function payByCard(page: Page, number: string) {
  await onGateway(page);
  await page.fill('input[name=number]', number);
  await page.fill('input[name=expiry]', '12/30');
  await page.fill('input[name=cvv]', '123');
  await page.click('button[type=submit]');
}

/** From the application's children step to a submitted application: one child, the preschool's full day. */
async function applyFor(page: Page, childName: string) {
  const next = page.getByRole('button', { name: text('en', 'application', 'continue'), exact: true });
  await page.getByRole('checkbox', { name: childName }).check();
  await next.click();
  await page.waitForURL(/\/parentapplication\/enrollment/);
  const picker = page.locator('[data-testid^=activity-picker-]').first();
  await picker.waitFor();
  await picker.getByRole('checkbox', { name: 'Preschool Full Day' }).first().check();
  await page.getByRole('radio', { name: text('en', 'application', 'enrollment.optionY') }).check();
  await next.click();
  await page.waitForURL(/\/parentapplication\/fee/);
  await page.getByRole('heading', { level: 1, name: text('en', 'application', 'fee.title') }).waitFor();
  await next.click();
  await page.waitForURL(/\/parentapplication\/review/);
  await page.getByRole('button', { name: text('en', 'application', 'review.submit') }).click();
}

describe('pay now', () => {
  it('pays the balance by new card at 375 px in English: fee shown first, receipt page, e-mail and PDF', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria');
    await page.goto(e2e.portal('/paynow'));
    await page.waitForSelector('section[data-section=summary] dl');
    await page.waitForSelector('section[data-section=methods] [data-action=choose]');
    expect(await page.textContent('section[data-section=summary]')).toContain('$225.00');
    const methods = await page.textContent('section[data-section=methods]');
    expect(methods).toContain('$6.64');
    expect(methods).toContain('$231.64');
    expect(methods).toContain('$0.50');
    await expectNoAxeViolations(page, 'pay now');
    await shot(page, 'paynow-375-en');
    // the refund policy popup
    await page.click('[data-action=refundPolicy]');
    await page.waitForSelector('[role=dialog] p');
    expect(await page.textContent('[role=dialog]')).toContain('refundable within 10 days');
    await page.click('[role=dialog] [data-action=close]');

    await chooseMethod(page, 'CCD');
    await page.waitForSelector('section[data-section=payment] dl');
    expect(await page.textContent('section[data-section=payment]')).toContain('$231.64');
    await expectNoAxeViolations(page, 'payer information');
    await payerAndGo(page, 'Maria Garcia');
    await onGateway(page);
    await shot(page, 'gateway-375-en');
    expect(await page.textContent('main')).toContain('$231.64');
    await payByCard(page, '4111 1111 1111 1111');
    await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
    await page.waitForSelector('section[data-section=receipt] dl');
    const receipt = await page.textContent('section[data-section=receipt]');
    expect(receipt).toContain('$231.64');
    expect(receipt).toContain('1111');
    await expectNoAxeViolations(page, 'receipt');
    await shot(page, 'receipt-375-en');
    const id = new URL(page.url()).searchParams.get('accountPaymentID');

    // the e-mails: the payer and the primary holder (the same person here: one mail)
    const mails = (await outbox(e2e.server)).filter((m) => /Payment receipt/.test(m.subject));
    expect(mails.map((m) => m.to)).toContain('maria.garcia@example.com');
    expect(mails[0].text).toContain('$231.64');

    // the PDF, read back as text
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action=download]')]);
    const file = path.join(os.tmpdir(), `receipt-${id}.pdf`);
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-']).toString();
    expect(text).toContain('Payment receipt');
    expect(text).toContain('$231.64');
    expect(text).toContain('VISA •••• 1111');
    execFileSync('pdftoppm', ['-png', '-r', '60', '-singlefile', file, path.join(os.tmpdir(), `receipt-${id}`)]);
    fs.rmSync(file, { force: true });

    // back home, the balance is paid
    await page.goto(e2e.portal('/paynow'));
    await page.waitForSelector('section[data-section=summary] dl');
    expect(await page.textContent('section[data-section=summary]')).toContain('$0.00');
    await ctx.close();
  });

  it('in Spanish at 1280 px: a decline and an AVS failure say why, and a retry by bank account pays once, even when the return is opened again', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'es-ES');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'david');
    const returns: string[] = [];
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame() && /\/(bluepayresponse|ezceredirection)\?/.test(f.url())) returns.push(f.url());
    });

    // declined by the card issuer
    await chooseMethod(page, 'CCD', '25.00');
    await payerAndGo(page, 'David Garcia');
    await payByCard(page, '4000 0000 0000 0002');
    await page.waitForURL(/\/paymentfailed\?reason=DECLINED/);
    await expect.poll(() => page.textContent('main')).toContain('El emisor de la tarjeta rechazó el pago.');
    await expectNoAxeViolations(page, 'payment failed (es)');
    await shot(page, 'payment-failed-1280-es');

    // the address does not match (AVS); Try again goes back to Pay now
    await page.click('[data-action=retry]');
    await page.waitForURL(/\/paynow$/);
    await chooseMethod(page, 'CCD', '25.00');
    await payerAndGo(page, 'David Garcia');
    await payByCard(page, '4000 0000 0000 0010');
    await page.waitForURL(/\/paymentfailed\?reason=AVS/);
    await expect.poll(() => page.textContent('main')).toContain('La dirección de facturación o el código postal no coinciden');

    // by bank account: the fee of 0.50 shows before paying, on the provider's second gateway
    await page.click('[data-action=retry]');
    await chooseMethod(page, 'ECH', '25.00');
    await page.waitForSelector('section[data-section=payment] dl');
    expect(await page.textContent('section[data-section=payment]')).toContain('$25.50');
    expect(await page.textContent('main')).toContain('3 a 5 días hábiles');
    await expectNoAxeViolations(page, 'payer information (es, bank)');
    await payerAndGo(page, 'David Garcia');
    await onGateway(page);
    await expectNoAxeViolations(page, 'gateway bank page (es)');
    await shot(page, 'gateway-bank-1280-es');
    await page.fill('input[name=routing]', '021000021');
    await page.fill('input[name=account]', '000123456789');
    await page.check('input[name=accountType][value=checking]');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
    const id = new URL(page.url()).searchParams.get('accountPaymentID');
    await page.waitForSelector('section[data-section=receipt] dl');
    await expect.poll(() => page.textContent('main')).toContain('Gracias. Recibimos su pago.');
    await expectNoAxeViolations(page, 'receipt (es)');
    await shot(page, 'receipt-1280-es');
    const paidReturn = returns.find((u) => u.includes('/ezceredirection?'));
    expect(paidReturn).toBeTruthy();
    const receipts = async () => (await outbox(e2e.server)).filter((m) => /Recibo de pago|Payment receipt/.test(m.subject)).length;
    const before = await receipts();

    // the return opened again (a refresh during the loader, the back button): the same receipt
    for (let i = 0; i < 2; i++) {
      await page.goto(paidReturn!);
      await page.waitForURL(/\/paymentreceipt\?accountPaymentID=\d+/);
      expect(new URL(page.url()).searchParams.get('accountPaymentID')).toBe(id);
    }
    expect(await receipts()).toBe(before);
    await ctx.close();
  });

  it('a Canadian payer form says Province and Postal code and checks a Canadian postal code', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'linh');
    await chooseMethod(page, 'CCD');
    await page.waitForSelector('#payer_zip');
    const form = await page.textContent('section[data-section=payer]');
    expect(form).toContain('Province');
    expect(form).toContain('Postal code');
    await page.selectOption('#payer_paidByFamilyMemberID', { label: 'Linh Nguyen' });
    await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
    await page.fill('#payer_zip', 'D1A 1A1');
    await page.click('[data-action=pay]');
    await expect.poll(() => page.textContent('section[data-section=payer]')).toMatch(/postal code/i);
    expect(new URL(page.url()).pathname).toBe('/parentportal/payerinformation');
    await expectNoAxeViolations(page, 'Canadian payer form');
    await shot(page, 'payer-ca-375-en');
    await page.fill('#payer_zip', 'T2Z 1A1');
    await page.click('[data-action=pay]');
    await onGateway(page);
    expect(await page.textContent('main')).toMatch(/\$825\.00|CA\$825\.00/);
    await ctx.close();
  });

  it('registers a child and pays the fees in one go while the seat is held (375 px, English)', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    try {
      await signIn(page, e2e.server, 'amara');
      await page.goto(e2e.portal('/programlist'));
      const card = page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: 'Little Sprouts Preschool' }) });
      await card.waitFor({ timeout: 30_000 });
      await card.getByRole('button', { name: new RegExp(`^(${escapeRegExp(text('en', 'programs', 'button.register'))}|${escapeRegExp(text('en', 'programs', 'button.addChild'))})$`) }).click();
      const rollup = page.getByRole('alertdialog', { name: text('en', 'programs', 'rollup.title') });
      const save = rollup.getByRole('button', { name: text('en', 'programs', 'rollup.continue') });
      const deadline = Date.now() + 90_000;
      while (!/\/parentapplication\//.test(page.url())) {
        if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${page.url()})`);
        if ((await rollup.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 5_000 }).catch(() => undefined);
        await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
      }
      await page.waitForURL(/\/parentapplication\/children\?key=/, { timeout: 60_000 });
      await applyFor(page, 'Ada Mensah');

      // the confirmation holds the seat for 15 minutes and offers paying now or later
      await page.waitForURL(/\/parentapplication\/confirmation\?key=/);
      await page.getByRole('heading', { name: text('en', 'application', 'payment.heading') }).waitFor({ timeout: 30_000 });
      await expect.poll(() => page.getByTestId('countdown').innerText()).toMatch(/1[45]:\d\d/);
      await page.waitForSelector('section[data-section=methods] [data-action=choose]');
      // $730.00 of fees less the account's $40.00 credit, which the ledger applies to them
      expect(await page.textContent('section[data-section=amountDue]')).toContain('$690.00');
      expect(await page.textContent('main')).toContain(text('en', 'application', 'payment.payLater'));
      await expectNoAxeViolations(page, 'application confirmation awaiting payment');
      await shot(page, 'application-pay-375-en');
      await page.locator('section[data-section=methods] [data-index]').filter({ hasText: /card/i }).first().locator('[data-action=choose]').click();
      await page.waitForURL(/\/parentapplication\/payerinformation\?key=[0-9a-f]{32}&method=CCD/);
      await page.waitForSelector('section[data-section=payment] dl');
      // $690.00 and the card fee of 2.95%: $20.36
      expect(await page.textContent('section[data-section=payment]')).toContain('$710.36');
      await expectNoAxeViolations(page, 'application payer information');
      await page.waitForSelector('#payer_paidByFamilyMemberID option:nth-child(2)', { state: 'attached' });
      await page.selectOption('#payer_paidByFamilyMemberID', { label: 'Amara Mensah' });
      await expect.poll(() => page.inputValue('#payer_streetAddress')).not.toBe('');
      await page.click('[data-action=pay]');
      await payByCard(page, '4111 1111 1111 1111');
      await page.waitForURL(/\/parentapplication\/confirmation\?key=/);
      await expect.poll(() => page.textContent('main')).toContain(text('en', 'application', 'payment.paid'));
      expect(await page.getByTestId('countdown').count()).toBe(0);
      await expectNoAxeViolations(page, 'application confirmation paid');
      await shot(page, 'application-paid-375-en');
      const mails = (await outbox(e2e.server)).filter((m) => /Payment receipt/.test(m.subject) && m.to === 'amara.mensah@example.com');
      expect(mails.some((m) => m.text.includes('$710.36'))).toBe(true);

      // the second child, paid later: the seat stays and the fees go on the balance
      await page.goto(e2e.portal('/paynow'));
      await page.waitForSelector('section[data-section=summary] dl');
      const balanceBefore = await page.textContent('section[data-section=summary]');
      await page.goto(e2e.portal('/programlist'));
      await card.waitFor({ timeout: 30_000 });
      await card.getByRole('button', { name: new RegExp(`^(${escapeRegExp(text('en', 'programs', 'button.register'))}|${escapeRegExp(text('en', 'programs', 'button.addChild'))})$`) }).click();
      await page.waitForURL(/\/parentapplication\/children\?key=/, { timeout: 60_000 });
      await applyFor(page, 'Ben Mensah');
      await page.waitForURL(/\/parentapplication\/confirmation\?key=/);
      await page.getByRole('button', { name: text('en', 'application', 'payment.payLater') }).click();
      await expect.poll(() => page.textContent('main')).toContain(text('en', 'application', 'payment.later'));
      expect(await page.getByTestId('countdown').count()).toBe(0);
      await expectNoAxeViolations(page, 'application paid later');
      await page.goto(e2e.portal('/paynow'));
      await page.waitForSelector('section[data-section=summary] dl');
      await expect.poll(() => page.textContent('section[data-section=summary]')).not.toBe(balanceBefore);
      // Ben's $730.00 of fees (the account's credit went to Ada's)
      expect(await page.textContent('section[data-section=summary]')).toContain('$730.00');
    } catch (err) {
      await shot(page, 'application-pay-failed');
      throw err;
    } finally {
      await ctx.close();
    }
  }, 300_000);
});
