// The ways in as a new user meets them, in Debian's chromium against the real server: a locked
// account unlocked through Forgot Password (the link read from the outbox), Sign Up of an enrolled
// parent (create-password link), new parent registration with a duplicate refused, change password.
// axe runs on every page of these flows.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, openSignIn, outbox, shot, submitSignIn, withServerAndBrowser } from './kit';
import enAuth from '../../locales/en/auth.json';
import esAuth from '../../locales/es/auth.json';
import enServer from '../../locales/en/server.json';
import esScreens from '../../locales/es/screens.json';

const e2e = withServerAndBrowser();

/** The link of the newest mail to that address, as the parent would click it. */
async function mailLink(to: string, subjectPart: string): Promise<string> {
  const mails = (await outbox(e2e.server)).filter((m) => m.to === to && m.subject.includes(subjectPart));
  expect(mails.length).toBeGreaterThan(0);
  const text = mails[mails.length - 1].text;
  const m = /(http:\/\/127\.0\.0\.1:\d+\/parentportal\/\S+)/.exec(text);
  if (!m) throw new Error(`no link in: ${text}`);
  return m[1];
}

async function choosePassword(page: Page, pw: string) {
  await page.getByLabel(enAuth.fields.email, { exact: false }).waitFor({ state: 'detached' }).catch(() => undefined);
  await page.locator('input[type=password]').nth(0).fill(pw);
  await page.locator('input[type=password]').nth(1).fill(pw);
}

describe('ways in', () => {
  it('a locked account is unlocked by creating a new password through Forgot Password', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    const email = 'karen.johnson@example.com';
    await openSignIn(page, e2e.server);
    for (let i = 1; i <= 5; i++) {
      await submitSignIn(page, { email, password: `Wrong#pass${i}x` });
      const banner = page.locator('[data-testid=error-banner]');
      await banner.waitFor();
      if (i === 5) expect(await banner.textContent()).toContain(enServer.errors.accountLocked);
      await banner.getByRole('button').click();
      await banner.waitFor({ state: 'detached' });
    }

    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await page.waitForURL(/\/forgotpassword$/);
    await page.getByRole('heading', { level: 1, name: enAuth.forgot.title }).waitFor();
    await expectNoAxeViolations(page, 'forgot password');
    await shot(page, 'auth-forgotpassword-1280-en');
    // the declared form validates before anything is sent
    await page.getByRole('button', { name: enAuth.forgot.submit }).click();
    await page.locator('[aria-invalid=true]').first().waitFor();
    await page.getByLabel(enAuth.fields.email).fill(email);
    await page.getByRole('button', { name: enAuth.forgot.submit }).click();
    await page.waitForURL(/\/forgotpwdstatus\?done=sent$/);
    await page.getByText(enAuth.status.sent).waitFor();
    await expectNoAxeViolations(page, 'forgot password status');
    await shot(page, 'auth-forgotpwdstatus-1280-en');

    // the parent opens the e-mail's link in a new browser
    const link = await mailLink(email, 'create a new password');
    const ctx2 = await newContext(e2e.browser);
    const page2 = await ctx2.newPage();
    await page2.goto(link);
    await page2.waitForURL(/\/resetpassword\?token=/);
    await page2.getByRole('heading', { level: 1, name: enAuth.reset.title }).waitFor();
    await expectNoAxeViolations(page2, 'reset password');
    // a common password meeting the composition rules is refused by the server
    await choosePassword(page2, 'Password1!');
    await page2.getByRole('button', { name: enAuth.reset.submit }).click();
    await page2.locator('[data-testid=error-banner]').getByText(enAuth.errors.commonPassword).waitFor();
    await shot(page2, 'auth-resetpassword-common-1280-en');
    await choosePassword(page2, 'Harvest#Moon77');
    await page2.getByRole('button', { name: enAuth.reset.submit }).click();
    await page2.waitForURL(/\/forgotpwdstatus\?done=reset$/);
    await page2.getByText(enAuth.status.reset).waitFor();

    // the link works once
    await page2.goto(link);
    await page2.waitForURL(/\/resetpassword\?token=/);
    await choosePassword(page2, 'Another#Moon88');
    await page2.getByRole('button', { name: enAuth.reset.submit }).click();
    await page2.locator('[data-testid=error-banner]').getByText(enAuth.errors.linkInvalid).waitFor();

    // unlocked: the new password signs in
    await page2.getByRole('button', { name: enAuth.common.backToSignIn }).click();
    await page2.waitForSelector('[data-testid=signin-form]');
    await submitSignIn(page2, { email, password: 'Harvest#Moon77' });
    await page2.waitForURL(/\/home$/);
    await ctx2.close();
    await ctx.close();
  });

  it('Sign Up: an enrolled parent without a login creates her password from the e-mail link (Spanish, 375 px)', async () => {
    const ctx = await newContext(e2e.browser, 375, 'es-ES');
    const page = await ctx.newPage();
    const email = 'grace.okafor@example.com';
    await openSignIn(page, e2e.server);
    await page.getByRole('link', { name: esScreens.signin.signUp }).click();
    await page.waitForURL(/\/signup$/);
    await page.getByRole('heading', { level: 1, name: esAuth.signup.title }).waitFor();
    await expectNoAxeViolations(page, 'sign up (es)');
    await shot(page, 'auth-signup-375-es');
    await page.getByLabel(esAuth.fields.email).fill(email);
    await page.getByRole('button', { name: esAuth.signup.submit }).click();
    await page.waitForURL(/\/forgotpwdstatus\?done=signup$/);
    await page.getByText(esAuth.status.checkSpam).waitFor();
    await expectNoAxeViolations(page, 'sign up status (es)');
    await shot(page, 'auth-signup-status-375-es');

    const link = await mailLink(email, 'create your parent portal password');
    await page.goto(link);
    await page.waitForURL(/\/createpassword\?token=/);
    await page.getByRole('heading', { level: 1, name: esAuth.create.title }).waitFor();
    await expectNoAxeViolations(page, 'create password (es)');
    await shot(page, 'auth-createpassword-375-es');
    // the password rules are checked as the parent types
    await choosePassword(page, 'short');
    await page.locator('input[type=password]').nth(0).blur();
    await page.locator('[aria-invalid=true]').first().waitFor();
    await choosePassword(page, 'Harvest#Moon77');
    await page.getByRole('button', { name: esAuth.reset.submit }).click();
    await page.waitForURL(/\/forgotpwdstatus\?done=created$/);
    await page.getByRole('button', { name: esAuth.common.toSignIn }).click();
    await page.waitForSelector('[data-testid=signin-form]');
    await submitSignIn(page, { email, password: 'Harvest#Moon77' });
    await page.waitForURL(/\/home$/);
    await ctx.close();
  });

  it('Register: a new parent creates an account; the same e-mail again is refused', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await page.getByRole('link', { name: /^Register/ }).click();
    await page.waitForURL(/\/parentregistration$/);
    await page.getByRole('heading', { level: 1, name: enAuth.register.title }).waitFor();
    await expectNoAxeViolations(page, 'registration');
    const fill = async (label: string, value: string) => page.getByLabel(label, { exact: false }).first().fill(value);
    await fill('First name', 'Noor');
    await fill('Last name', 'Haddad');
    await fill('Street address', '12 Lake Shore Dr');
    await fill('City', 'Springfield');
    await page.getByLabel('State', { exact: false }).first().selectOption('IL').catch(async () => {
      await page.getByLabel('State', { exact: false }).first().fill('IL');
    });
    await fill('Zip', '62701');
    await fill('Cell phone', '2175550199');
    await fill('E-mail', 'noor.haddad@example.com');
    await choosePassword(page, 'Harvest#Moon77');
    await shot(page, 'auth-parentregistration-1280-en');
    await page.getByRole('button', { name: enAuth.register.submit }).click();
    await page.waitForURL(/\/forgotpwdstatus\?done=registered/);
    await page.getByText(/Your account BP-\d+ is created/).waitFor();
    await expectNoAxeViolations(page, 'registration done');
    // the number comes from the registration page, not from the address: a crafted link cannot set it
    expect(page.url()).not.toMatch(/BP-\d+/);
    await page.goto(e2e.portal('/forgotpwdstatus?done=registered&accountNo=Call%20555-0100%20to%20confirm'));
    await page.getByText(enAuth.status.registeredNoNumber).waitFor();
    expect(await page.getByText('555-0100', { exact: false }).count()).toBe(0);

    await page.goto(e2e.portal('/parentregistration'));
    await page.getByRole('heading', { level: 1, name: enAuth.register.title }).waitFor();
    await fill('First name', 'Noor');
    await fill('Last name', 'Haddad');
    await fill('Street address', '12 Lake Shore Dr');
    await fill('City', 'Springfield');
    await page.getByLabel('State', { exact: false }).first().selectOption('IL').catch(async () => {
      await page.getByLabel('State', { exact: false }).first().fill('IL');
    });
    await fill('Zip', '62701');
    await fill('Cell phone', '2175550199');
    await fill('E-mail', 'noor.haddad@example.com');
    await choosePassword(page, 'Harvest#Moon77');
    await page.getByRole('button', { name: enAuth.register.submit }).click();
    await page.locator('[data-testid=error-banner]').getByText(/already registered or signed up/).waitFor();
    await expectNoAxeViolations(page, 'registration duplicate');
    await shot(page, 'auth-parentregistration-duplicate-1280-en');
    await ctx.close();
  });

  it('Change password: the current password is required, then every other session ends', async () => {
    const other = await newContext(e2e.browser);
    const otherPage = await other.newPage();
    await openSignIn(otherPage, e2e.server);
    await submitSignIn(otherPage, 'maria');
    await otherPage.waitForURL(/\/home$/);

    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await submitSignIn(page, 'maria');
    await page.waitForURL(/\/home$/);
    await page.goto(e2e.portal('/changepassword'));
    await page.getByRole('heading', { level: 1, name: enAuth.change.title }).waitFor();
    await expectNoAxeViolations(page, 'change password');
    await shot(page, 'auth-changepassword-375-en');
    const pw = page.locator('input[type=password]');
    await pw.nth(0).fill('Wrong#Current1');
    await pw.nth(1).fill('Harvest#Moon77');
    await pw.nth(2).fill('Harvest#Moon77');
    await page.getByRole('button', { name: enAuth.change.submit }).click();
    await page.locator('[data-testid=error-banner]').getByText(enServer.errors.wrongCurrentPassword).waitFor();
    await pw.nth(0).fill('Sunshine#2026');
    await page.getByRole('button', { name: enAuth.change.submit }).click();
    await page.waitForURL(/\/changepassword\?changed=1$/);
    await page.getByText(enAuth.change.done).waitFor();
    await expectNoAxeViolations(page, 'change password done');

    // the other browser's session was revoked: its next request ends on the session-expired page
    await otherPage.reload();
    await otherPage.waitForURL(/\/sessionexpired|\/$/);
    await other.close();
    await ctx.close();
  });

  it('a temporary password from the provider must be changed first; Enter in the password fields submits', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await openSignIn(page, e2e.server);
    await submitSignIn(page, { email: 'tom.baker@example.com', password: 'Temporary#2026' });
    await page.waitForURL(/\/changetemporarypassword$/);
    await page.getByRole('heading', { level: 1, name: enAuth.temporary.title }).waitFor();
    await expectNoAxeViolations(page, 'change temporary password');
    await shot(page, 'auth-changetemporarypassword-1280-en');
    // no current password is asked with the temporary token
    expect(await page.locator('input[type=password]').count()).toBe(2);
    await choosePassword(page, 'Harvest#Moon77');
    await page.locator('input[type=password]').nth(1).press('Enter');
    await page.waitForURL(/\/home$/);
    await page.waitForSelector('section[data-section=payments]');
    await ctx.close();
  });
});
