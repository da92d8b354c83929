// The account forms laid out for people (x-layout): titled groups, fields side by side at 1280 px
// and one column at 375 px, widths that fit the value, and a contact form at most half as tall as
// the single column of full-width fields it replaced (about 3,900 px).
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

async function go(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

/** The boxes of the form's visible fields (one per layout cell). */
function cells(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.pp-form .pp-cell')]
      .map((el) => {
        const r = el.getBoundingClientRect();
        return { name: el.querySelector('[data-field]')?.getAttribute('data-field') ?? '', x: Math.round(r.left), y: Math.round(r.top + window.scrollY), w: Math.round(r.width) };
      })
      .filter((c) => c.w > 0),
  );
}

const box = async (page: Page, selector: string) => {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not shown`);
  return b;
};

async function openHolder(page: Page) {
  await go(page, '/myaccount');
  await page.locator('section[data-section=holders] article', { hasText: 'Maria' }).locator('[data-action=editHolder]').click();
  await page.waitForURL(/\/editcontact\?adultID=\d+$/);
  await page.waitForSelector('input[id$=driverLicenseNumber]');
}

describe('account forms laid out in groups and rows', () => {
  it('shows the contact form in columns at 1280 px, half as tall as one column, and in one column at 375 px', async () => {
    const wide = await newContext(e2e.browser, 1280);
    const page = await wide.newPage();
    await signIn(page, e2e.server, 'maria');
    await openHolder(page);
    // master-data choices by name, never by code (spec 7.2)
    await page.locator('select[id$=_primaryLanguage] option', { hasText: 'Spanish' }).first().waitFor({ state: 'attached' });
    expect(await page.locator('select[id$=_primaryLanguage] option:checked').textContent()).toBe('Spanish');
    // each master-data list arrives on its own; wait for this one's choices before reading them
    await page.locator('select[id$=_transportation] option', { hasText: 'School bus' }).first().waitFor({ state: 'attached' });
    expect(await page.locator('select[id$=_transportation] option').allTextContents()).toContain('School bus');
    await page.locator('select[id$=_maritalStatus] option', { hasText: 'Married' }).first().waitFor({ state: 'attached' });
    expect(await page.locator('select[id$=_maritalStatus] option:checked').textContent()).toBe('Married');
    // marital status sits in the primary language's row
    const language = await box(page, 'select[id$=_primaryLanguage]');
    const marital = await box(page, 'select[id$=_maritalStatus]');
    expect(Math.round(marital.y)).toBe(Math.round(language.y));
    expect(marital.x).toBeGreaterThan(language.x);
    const legends = await page.locator('.pp-form fieldset.pp-group > legend').allTextContents();
    for (const title of ['Name', 'Address', 'Phones', 'E-mail and text messages', 'Driver licence', 'Employment and household', 'Relationship to the children']) {
      expect(legends).toContain(title);
    }
    const wideCells = await cells(page);
    const columnsAt = new Set(wideCells.map((c) => c.x));
    expect(columnsAt.size).toBeGreaterThanOrEqual(2);
    // first name, middle initial and last name on one line, the initial narrow
    const first = await box(page, 'input[id$=_firstName]');
    const mi = await box(page, 'input[id$=_middleInitial]');
    const last = await box(page, 'input[id$=_lastName]');
    expect(Math.round(mi.y)).toBe(Math.round(first.y));
    expect(Math.round(last.y)).toBe(Math.round(first.y));
    expect(mi.x).toBeGreaterThan(first.x);
    expect(mi.width).toBeLessThan(first.width / 2);
    // city, state and zip on one line; zip and extension narrower than the street
    const city = await box(page, 'input[id$=_city]');
    const zip = await box(page, 'input[id$=_zip]');
    const street = await box(page, 'input[id$=_streetAddress]');
    expect(Math.round(zip.y)).toBe(Math.round(city.y));
    expect(zip.width).toBeLessThan(street.width);
    expect(zip.width).toBeLessThan(first.width);
    const cell = await box(page, 'input[id$=_cellPhone]');
    const ext = await box(page, 'input[id$=_cellPhoneExt]');
    expect(Math.round(ext.y)).toBe(Math.round(cell.y));
    expect(ext.width).toBeLessThan(cell.width);
    await shot(page, 'layout-editcontact-1280');
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height).toBeLessThanOrEqual(1950);
    await expectNoAxeViolations(page, 'contact form at 1280 px');
    await wide.close();

    const narrow = await newContext(e2e.browser, 375);
    const phone = await narrow.newPage();
    await signIn(phone, e2e.server, 'maria');
    await openHolder(phone);
    const narrowCells = await cells(phone);
    expect(narrowCells.length).toBeGreaterThan(10);
    // one column: every field starts at the same left edge, each on its own line
    expect(new Set(narrowCells.map((c) => c.x)).size).toBe(1);
    expect(new Set(narrowCells.map((c) => c.y)).size).toBe(narrowCells.length);
    const widest = Math.max(...narrowCells.map((c) => c.w));
    expect(widest).toBeLessThanOrEqual(375);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(phone, 'layout-editcontact-375');
    await narrow.close();
  });

  it('lays out the other contact, child and medical forms in columns too', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'es-ES');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria');
    for (const [open, name] of [
      [async () => {
        await go(page, '/myaccount');
        await page.locator('section[data-section=children] article').filter({ has: page.locator('[data-action=editChild]') }).first().locator('[data-action=editChild]').click();
        await page.waitForURL(/\/editchild\?ChildID=\d+$/);
      }, 'editchild'],
      [async () => {
        await go(page, '/myaccount');
        await page.locator('section[data-section=children] article').filter({ has: page.locator('[data-action=medical]') }).first().locator('[data-action=medical]').click();
        await page.waitForURL(/\/childmedicalinformation\?ChildID=\d+&Name=/);
      }, 'medical'],
      [async () => {
        await go(page, '/myaccount');
        await page.locator('section[data-section=otherContacts] article').filter({ has: page.locator('[data-action=editContact]') }).first().locator('[data-action=editContact]').click();
        await page.waitForURL(/\/editothercontact\?adultID=\d+$/);
      }, 'editothercontact'],
    ] as const) {
      await open();
      await page.waitForSelector('.pp-form .pp-cell');
      if (name === 'editchild') {
        // Lucas's meal eligibility and T-shirt size, by name in Spanish, side by side in their own group
        await page.locator('select[id$=_tshirtSize] option', { hasText: 'Juvenil pequeña' }).first().waitFor({ state: 'attached' });
        await page.locator('select[id$=_mealEligibility] option', { hasText: 'Comidas a precio reducido' }).first().waitFor({ state: 'attached' });
        expect(await page.locator('select[id$=_mealEligibility] option:checked').textContent()).toBe('Comidas a precio reducido');
        expect(await page.locator('select[id$=_tshirtSize] option:checked').textContent()).toBe('Juvenil pequeña');
        expect(await page.locator('select[id$=_tshirtSize] option').allTextContents()).toEqual(['Seleccionar', 'Juvenil pequeña', 'Juvenil mediana', 'Juvenil grande', 'Adulto pequeña', 'Adulto mediana', 'Adulto grande']);
        expect(await page.locator('.pp-form fieldset.pp-group > legend').allTextContents()).toContain('Comidas y camiseta');
        const meal = await box(page, 'select[id$=_mealEligibility]');
        const size = await box(page, 'select[id$=_tshirtSize]');
        expect(Math.round(size.y)).toBe(Math.round(meal.y));
        expect(size.x).toBeGreaterThan(meal.x);
      }
      if (name === 'editothercontact') expect(await page.locator('select[id$=_maritalStatus]').count(), 'an other contact is not asked').toBe(0);
      const at = await cells(page);
      expect(new Set(at.map((c) => c.x)).size, name).toBeGreaterThanOrEqual(2);
      expect(await page.locator('.pp-form fieldset.pp-group > legend').count(), name).toBeGreaterThanOrEqual(2);
      await shot(page, `layout-${name}-1280-es`);
    }
    // My Account names them, never by code
    await go(page, '/myaccount');
    const lucas = page.locator('section[data-section=children] article', { hasText: 'Lucas' });
    await lucas.waitFor();
    const card = (await lucas.textContent()) ?? '';
    for (const text of ['Elegibilidad para comidas', 'Comidas a precio reducido', 'Talla de camiseta', 'Juvenil pequeña']) expect(card).toContain(text);
    expect(card).not.toMatch(/\bYS\b/);
    await shot(page, 'layout-myaccount-1280-es');
    // the holder's marital status in Spanish
    await openHolder(page);
    await page.locator('select[id$=_maritalStatus] option', { hasText: 'Casado/a' }).first().waitFor({ state: 'attached' });
    expect(await page.locator('select[id$=_maritalStatus] option:checked').textContent()).toBe('Casado/a');
    expect(await page.locator('label[for$=_maritalStatus]').first().textContent()).toContain('Estado civil');
    await expectNoAxeViolations(page, 'contact form in Spanish');
    await shot(page, 'layout-editcontact-1280-es');
    await ctx.close();
  });

  it('hides meal eligibility and T-shirt size where the provider offers no choice', async () => {
    const ctx = await newContext(e2e.browser, 1280);
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'linh');
    await go(page, '/myaccount');
    await page.locator('section[data-section=children] article').filter({ has: page.locator('[data-action=editChild]') }).first().locator('[data-action=editChild]').click();
    await page.waitForURL(/\/editchild\?ChildID=\d+$/);
    await page.waitForSelector('select[id$=_gradeLevelCode]');
    // the lists answer empty: no field, and no empty group
    await page.waitForFunction(() => !document.querySelector('[data-state=loading], [aria-busy=true]'));
    expect(await page.locator('select[id$=_mealEligibility], select[id$=_tshirtSize]').count()).toBe(0);
    expect(await page.locator('.pp-form fieldset.pp-group > legend').allTextContents()).not.toContain('Meals and T-shirt');
    // the holder's marital status is asked there (Northridge offers that list)
    await go(page, '/myaccount');
    await page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
    await page.waitForURL(/\/editcontact\?adultID=\d+$/);
    await page.locator('select[id$=_maritalStatus] option', { hasText: 'Married' }).first().waitFor({ state: 'attached' });
    await ctx.close();
  });
});
