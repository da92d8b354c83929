// Account and people in a real browser as the demo parent: /myaccount order and badges, adding and
// editing an other contact through every contact rule of spec 5.4 with the translated messages,
// medical information with standard values, a photo upload, PIN change and generation (with the
// duplicate case), dropping contacts with and without autopay. axe runs on every page.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { Jimp } from 'jimp';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

/** Client-side navigation (keeps the session in memory like a parent following links). */
async function go(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

const cardTitles = (page: Page, section: string) => page.locator(`section[data-section=${section}] article h3`).allTextContents();

async function fieldError(page: Page, text: string) {
  try {
    await page.getByText(text, { exact: false }).first().waitFor({ timeout: 10_000 });
  } catch (err) {
    await shot(page, 'account-failed-wait');
    throw err;
  }
}

/**
 * Records every text the matching elements show from now on (client-side navigation keeps the page):
 * a list that first showed its cached, old data would leave that text here.
 */
async function recordTexts(page: Page, selector: string) {
  await page.evaluate((sel) => {
    const w = window as unknown as { __seen: string[] };
    w.__seen = [];
    const note = () => document.querySelectorAll(sel).forEach((el) => w.__seen.push((el.textContent ?? '').trim()));
    new MutationObserver(note).observe(document.body, { childList: true, subtree: true, characterData: true });
  }, selector);
  return () => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}

describe('account and people', () => {
  it('shows holders, children with the split share, and other contacts with do-not-release last', async () => {
    for (const [width, locale] of [
      [1280, 'en-US'],
      [375, 'es-ES'],
    ] as const) {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
      await go(page, '/myaccount');
      await page.waitForSelector('section[data-section=otherContacts] article');
      expect(await cardTitles(page, 'holders')).toEqual(['Maria Garcia', 'David Garcia', 'Ana Silva']);
      expect(await cardTitles(page, 'otherContacts')).toEqual(['James Carter', 'Paula Reyes', 'Rosa Martinez', 'Kevin Brooks']);
      const kevin = page.locator('section[data-section=otherContacts] article').last();
      expect(await kevin.locator('.chakra-badge').first().textContent()).toMatch(/Do not release|No entregar/);
      expect(await kevin.locator('[data-action=editContact]').count()).toBe(0);
      expect(await kevin.locator('[data-action=dropContact]').count()).toBe(0);
      const emma = page.locator('section[data-section=children] article', { hasText: 'Emma' });
      expect(await emma.textContent()).toContain('40/60');
      expect(await emma.locator('[data-action=editChild]').count()).toBe(0);
      expect(await emma.locator('[data-action=medical]').count()).toBe(0);
      await expectNoAxeViolations(page, `my account ${width}`);
      await shot(page, `account-myaccount-${width}-${locale.slice(0, 2)}`);
      await ctx.close();
    }
  });

  it('adds an other contact, failing each contact rule once with its message, then edits it', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/myaccount');
    await page.click('[data-action=addContact]');
    await page.waitForURL(/\/editothercontact\?adultID=0$/);
    await page.waitForSelector('form input[id$=firstName]');
    await page.fill('input[id$=firstName]', 'Beatriz');
    await page.fill('input[id$=lastName]', 'Lopez');
    // nothing ticked, no phone: the page message and each rule's message
    await page.click('[data-action=save]');
    await fieldError(page, 'Please correct the error(s)');
    await fieldError(page, 'lives with for at least one child');
    await expectNoAxeViolations(page, 'contact with errors');
    await shot(page, 'account-contact-errors-1280-en');
    // home and cell equal
    await page.fill('input[id$=homePhone]', '2175550111');
    await page.fill('input[id$=cellPhone]', '2175550111');
    await page.click('[data-action=save]');
    await fieldError(page, 'must differ');
    await page.fill('input[id$=cellPhone]', '2175550112');
    // a role for the first child; Other needs its text
    await page.selectOption('select[id$=relationships_0_relationshipId]', '99');
    await page.check('input[id$=relationships_0_isEmergencyContact]');
    await page.fill('input[id$=userDefinedFields_0_value]', 'tulip');
    await page.selectOption('select[id$=userDefinedFields_1_value]', '2');
    await page.check('input[id$=userDefinedFields_2_value-0]');
    await page.click('[data-action=save]');
    await fieldError(page, 'is required');
    await page.fill('input[id$=relationships_0_otherRelationship]', 'Godmother');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    // the list refreshes with the new contact
    await page.locator('section[data-section=otherContacts] article h3', { hasText: 'Beatriz Lopez' }).waitFor();
    expect(await cardTitles(page, 'otherContacts')).toEqual(['Beatriz Lopez', 'James Carter', 'Paula Reyes', 'Rosa Martinez', 'Kevin Brooks']);
    // edit it
    await page.locator('section[data-section=otherContacts] article', { hasText: 'Beatriz' }).locator('[data-action=editContact]').click();
    await page.waitForURL(/\/editothercontact\?adultID=\d+$/);
    await page.waitForSelector('input[id$=firstName]');
    expect(await page.inputValue('input[id$=relationships_0_otherRelationship]')).toBe('Godmother');
    await page.fill('input[id$=firstName]', 'Ana Beatriz');
    const seen = await recordTexts(page, 'section[data-section=otherContacts] article h3');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    await page.locator('section[data-section=otherContacts] article h3', { hasText: 'Ana Beatriz Lopez' }).waitFor();
    expect((await cardTitles(page, 'otherContacts'))[0]).toBe('Ana Beatriz Lopez');
    // the new name at once: the list cached before the save never shows again
    expect(await seen()).toContain('Ana Beatriz Lopez');
    expect(await seen()).not.toContain('Beatriz Lopez');
    await ctx.close();
  });
  it("edits a child's medical information with standard values and an explanation", async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/myaccount');
    await page.locator('section[data-section=children] article', { hasText: 'Sofia' }).locator('[data-action=medical]').click();
    await page.waitForURL(/\/childmedicalinformation\?ChildID=\d+&Name=Sofia$/);
    await page.waitForSelector('fieldset[id$=questions_0_standardValues]');
    // the provider's message shows with its question
    await page.getByText('Tell us about every allergy').waitFor();
    // the stored answer: peanuts ticked, with the explanation
    expect(await page.isChecked('input[id$=questions_0_standardValues-0]')).toBe(true);
    await page.check('input[id$=questions_0_standardValues-2]');
    // allergies enable Other (after the five listed values), with its own text, required once ticked
    expect(await page.locator('fieldset[id$=questions_0_standardValues] input[type=checkbox]').count()).toBe(6);
    expect(await page.textContent('label[for$=questions_0_standardValues-5]')).toBe('Other');
    expect(await page.locator('textarea[id$=questions_0_otherStandardValue]').count()).toBe(0);
    await page.check('input[id$=questions_0_standardValues-5]');
    await page.waitForSelector('textarea[id$=questions_0_otherStandardValue]');
    await page.click('[data-action=save]');
    await fieldError(page, 'Other (please describe) is required');
    await page.fill('textarea[id$=questions_0_otherStandardValue]', 'Kiwi fruit');
    await page.fill('textarea[id$=questions_0_explanation]', '');
    await page.click('[data-action=save]');
    await fieldError(page, 'Explanation is required');
    await page.fill('textarea[id$=questions_0_explanation]', 'Peanuts and milk: EpiPen in the backpack');
    // a question answered yes shows its standard values; medication has no explanation (N)
    await page.check('input[id$=questions_4_answer-0]');
    await page.waitForSelector('fieldset[id$=questions_4_standardValues]');
    expect(await page.locator('textarea[id$=questions_4_explanation]').count()).toBe(0);
    // medication does not enable Other
    expect(await page.locator('fieldset[id$=questions_4_standardValues] input[type=checkbox]').count()).toBe(4);
    await page.check('input[id$=questions_4_standardValues-1]');
    await expectNoAxeViolations(page, 'medical information');
    await shot(page, 'account-medical-1280-en');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    await page.locator('section[data-section=children] article', { hasText: 'Sofia' }).locator('[data-action=medical]').click();
    await page.waitForSelector('fieldset[id$=questions_4_standardValues]');
    expect(await page.isChecked('input[id$=questions_0_standardValues-2]')).toBe(true);
    expect(await page.isChecked('input[id$=questions_4_standardValues-1]')).toBe(true);
    expect(await page.isChecked('input[id$=questions_0_standardValues-5]')).toBe(true);
    expect(await page.inputValue('textarea[id$=questions_0_otherStandardValue]')).toBe('Kiwi fruit');
    expect(await page.inputValue('textarea[id$=questions_0_explanation]')).toBe('Peanuts and milk: EpiPen in the backpack');
    await ctx.close();
  });

  it("medical 'Other' and the provider's message at 375 and 1280 px, in Spanish and English (axe)", async () => {
    // the provider's message is provider text, in the parent's language (seed translations)
    const message = { es: 'Cuéntenos sobre cada alergia', en: 'Tell us about every allergy' };
    for (const [width, locale, lang, other] of [[375, 'es-ES', 'es', 'Otro'], [1280, 'es-ES', 'es', 'Otro'], [375, 'en-US', 'en', 'Other']] as const) {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
      await go(page, '/myaccount');
      await page.locator('section[data-section=children] article', { hasText: 'Lucas' }).locator('[data-action=medical]').click();
      await page.waitForURL(/\/childmedicalinformation\?ChildID=\d+&Name=Lucas$/);
      await page.waitForSelector('input[id$=questions_0_answer-0]');
      await page.getByText(message[lang]).waitFor();
      await page.check('input[id$=questions_0_answer-0]');
      await page.waitForSelector('fieldset[id$=questions_0_standardValues]');
      expect(await page.textContent('label[for$=questions_0_standardValues-5]')).toBe(other);
      await page.check('input[id$=questions_0_standardValues-5]');
      await page.waitForSelector('textarea[id$=questions_0_otherStandardValue]');
      await page.click('[data-action=save]');
      // Other ticked without its text: the field's own message
      await page.locator('[id$=questions_0_otherStandardValue__error]').waitFor();
      await expectNoAxeViolations(page, `medical other ${width} ${lang}`);
      await shot(page, `account-medical-other-${width}-${lang}`);
      await ctx.close();
    }
  });

  it('uploads a photo (refusing a file that is not a picture) and shows it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-photo-'));
    const good = path.join(dir, 'lucas.png');
    fs.writeFileSync(good, await new Jimp({ width: 900, height: 900, color: 0x2a9d8fff }).getBuffer('image/png'));
    const bad = path.join(dir, 'notes.png');
    fs.writeFileSync(bad, 'these are notes, not a picture');
    const ctx = await newContext(e2e.browser, 375, 'pt-BR');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/myaccount');
    await page.locator('section[data-section=children] article', { hasText: 'Lucas' }).locator('[data-action=childPhoto]').click();
    await page.waitForURL(/\/uploadimage\?/);
    await page.waitForSelector('[data-action=uploadChild]');
    await expectNoAxeViolations(page, 'upload photo');
    await shot(page, 'account-upload-375-pt');
    const [badChooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-action=uploadChild]')]);
    await badChooser.setFiles(bad);
    await page.getByRole('alert').filter({ hasText: 'JPG, PNG, GIF' }).waitFor();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.click('[data-action=uploadChild]')]);
    await chooser.setFiles(good);
    await page.waitForURL(/\/myaccount$/);
    // the list reloads with the stored (re-encoded) photo
    const img = page.locator('section[data-section=children] article', { hasText: 'Lucas' }).locator('img').first();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('section[data-section=children] article')].some((a) => a.textContent?.includes('Lucas') && a.querySelector('img')?.getAttribute('src')?.startsWith('data:image/jpeg;base64,')),
    );
    expect(await img.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    await shot(page, 'account-myaccount-photo-375-pt');
    await ctx.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('changes the PIN (refusing one another adult holds) and generates PINs', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/changepin');
    await page.waitForSelector('section[data-section=viewPin] table');
    expect(await page.locator('section[data-section=viewPin] tbody tr').count()).toBe(3);
    // David's PIN
    await page.fill('input[id$=pin]', '7391');
    await page.click('[data-action=save]');
    await page.getByText('PIN already exists').first().waitFor();
    await expectNoAxeViolations(page, 'change PIN with the duplicate');
    await shot(page, 'account-pin-duplicate-1280-en');
    await page.fill('input[id$=pin]', '5173');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/changepin\?saved=true$/);
    await page.locator('section[data-section=viewPin] td', { hasText: '5173' }).waitFor();
    await page.click('[data-action=generate]');
    await page.waitForURL(/\/generatepin$/);
    await page.waitForSelector('fieldset[id$=adultIDs] input');
    await page.click('[data-action=generate]');
    await fieldError(page, 'at least one');
    await page.check('fieldset[id$=adultIDs] input >> nth=1');
    await expectNoAxeViolations(page, 'generate PIN');
    await page.click('[data-action=generate]');
    await page.waitForURL(/\/changepin\?saved=true$/);
    await page.locator('section[data-section=viewPin] td', { hasText: '5173' }).waitFor();
    // the table reloads with David's new PIN
    await page.waitForFunction(() => {
      const row = [...document.querySelectorAll('section[data-section=viewPin] tbody tr')].find((r) => r.textContent?.includes('David'));
      return row && !row.textContent?.includes('7391');
    });
    const davidPin = await page.locator('section[data-section=viewPin] tbody tr', { hasText: 'David' }).locator('td').last().textContent();
    expect(davidPin).toMatch(/^\d{4}$/);
    expect(davidPin).not.toBe('7391');
    await ctx.close();
  });

  it('drops a contact without autopay directly, and one with autopay only after ticking the confirmation', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/myaccount');
    await page.waitForSelector('section[data-section=otherContacts] article');
    await page.locator('section[data-section=otherContacts] article', { hasText: 'Rosa' }).locator('[data-action=dropContact]').click();
    const dialog = page.locator('[data-modal=dropAdult]');
    await dialog.locator('[data-action=confirmOk]').waitFor();
    expect(await dialog.locator('[data-action=confirmDelete]').count()).toBe(0);
    await expectNoAxeViolations(page, 'drop without autopay');
    await dialog.locator('[data-action=confirmOk]').click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => !document.querySelector('section[data-section=otherContacts]')?.textContent?.includes('Rosa'));

    await page.locator('section[data-section=otherContacts] article', { hasText: 'Paula' }).locator('[data-action=dropContact]').click();
    const del = dialog.locator('[data-action=confirmDelete]');
    await del.waitFor();
    expect(await del.isDisabled()).toBe(true);
    expect(await dialog.textContent()).toContain('autopay');
    expect(await dialog.textContent()).toContain('Do you want to drop Paula from your account?');
    await expectNoAxeViolations(page, 'drop with autopay');
    await shot(page, 'account-drop-autopay-1280-en');
    await dialog.locator('input[type=checkbox]').check();
    await page.waitForFunction(() => !document.querySelector('[data-modal=dropAdult] [data-action=confirmDelete]')?.hasAttribute('disabled'));
    await del.click();
    await dialog.waitFor({ state: 'detached' });
    await page.waitForFunction(() => !document.querySelector('section[data-section=otherContacts]')?.textContent?.includes('Paula'));
    expect(await cardTitles(page, 'otherContacts')).not.toContain('Paula Reyes');
    await ctx.close();
  });
  it('edits a child and a holder, and a payment-only login has no account pages', async () => {
    const ctx = await newContext(e2e.browser, 375, 'vi-VN');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'account-failed-signin' });
    await go(page, '/myaccount');
    await page.locator('section[data-section=children] article', { hasText: 'Lucas' }).locator('[data-action=editChild]').click();
    await page.waitForURL(/\/editchild\?ChildID=\d+$/);
    await page.waitForSelector('input[id$=school]');
    await page.waitForSelector('select[id$=gradeLevelCode] option[value=K]', { state: 'attached' });
    await page.fill('input[id$=school]', 'Lincoln Magnet School');
    await page.fill('input[id$=userDefinedFields_3_value]', 'Luke');
    await expectNoAxeViolations(page, 'edit child');
    await shot(page, 'account-editchild-375-vi');
    const seenChildren = await recordTexts(page, 'section[data-section=children] article');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    await page.locator('section[data-section=children] article', { hasText: 'Lincoln Magnet School' }).waitFor();
    // Lucas's card shows the new school from its first render on
    const lucasCards = (await seenChildren()).filter((t) => t.includes('Lucas'));
    expect(lucasCards.length).toBeGreaterThan(0);
    expect(lucasCards.filter((t) => t.includes('Lincoln Elementary School'))).toEqual([]);
    await page.locator('section[data-section=holders] article', { hasText: 'Maria' }).locator('[data-action=editHolder]').click();
    await page.waitForURL(/\/editcontact\?adultID=\d+$/);
    await page.waitForSelector('input[id$=driverLicenseNumber]');
    expect(await page.inputValue('input[id$=driverLicenseNumber]')).toBe('G65512345678');
    expect(await page.inputValue('select[id$=driverLicenseState]')).toBe('IL');
    expect(await page.isVisible('input[id$=smsConsent]')).toBe(true);
    await expectNoAxeViolations(page, 'edit holder');
    await shot(page, 'account-editcontact-375-vi');
    // a licence of a state not in the list: the number alone is stored, and read back as 'not listed'
    expect(await page.textContent('select[id$=driverLicenseState] option[value=notListed]')).toBe('Không có trong danh sách');
    await page.selectOption('select[id$=driverLicenseState]', 'notListed');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    await page.locator('section[data-section=holders] article', { hasText: 'Maria' }).locator('[data-action=editHolder]').click();
    await page.waitForURL(/\/editcontact\?adultID=\d+$/);
    await page.waitForSelector('input[id$=driverLicenseNumber]');
    expect(await page.inputValue('select[id$=driverLicenseState]')).toBe('notListed');
    expect(await page.inputValue('input[id$=driverLicenseNumber]')).toBe('G65512345678');
    await ctx.close();

    const pay = await newContext(e2e.browser);
    const payPage = await pay.newPage();
    await signIn(payPage, e2e.server, 'ana', { failShot: 'account-failed-signin' });
    await go(payPage, '/myaccount');
    await payPage.waitForTimeout(1000);
    expect(await payPage.locator('section[data-section=holders] article').count()).toBe(0);
    await pay.close();
  });
});
