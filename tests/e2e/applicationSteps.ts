// Steps of the parent application the browser tests share: the programs list's Register hand-off
// into the application, a step's page, and a child's week choice.
import type { Locator, Page } from 'playwright-core';
import { escapeRegExp, expectNoAxeViolations, portalUrl, shot, text, type Lang, type RunningServer } from './kit';

/** The demo camp's texts in the four languages (server/seed/texts.ts). */
export const SUMMER: Record<Lang, string> = { en: 'Summer Adventure Camp', es: 'Campamento de verano Aventura', pt: 'Acampamento de verão Aventura', vi: 'Trại hè Phiêu lưu' };
export const ADVENTURE: Record<Lang, string> = { en: 'Adventure Week', es: 'Semana de aventura', pt: 'Semana de aventura', vi: 'Tuần phiêu lưu' };
export const T_SHIRT: Record<Lang, string> = { en: 'Camp T-shirt', es: 'Camiseta del campamento', pt: 'Camiseta do acampamento', vi: 'Áo thun trại hè' };

export const programCard = (page: Page, lang: Lang): Locator =>
  page.locator('section[data-section=programs] article').filter({ has: page.getByRole('heading', { name: SUMMER[lang] }) });

export async function openPrograms(server: RunningServer, page: Page, lang: Lang): Promise<Locator> {
  await page.goto(portalUrl(server, '/programlist'));
  const c = programCard(page, lang);
  await c.waitFor({ timeout: 30_000 });
  return c;
}

/** Register (or Add child) on the summer camp card, through the grade roll-up when it asks, into the application. */
export async function register(server: RunningServer, page: Page, lang: Lang): Promise<void> {
  const c = await openPrograms(server, page, lang);
  const name = new RegExp(`^(${escapeRegExp(text(lang, 'programs', 'button.register'))}|${escapeRegExp(text(lang, 'programs', 'button.addChild'))})$`);
  await c.getByRole('button', { name }).click();
  const rollup = page.getByRole('alertdialog', { name: text(lang, 'programs', 'rollup.title') });
  const save = rollup.getByRole('button', { name: text(lang, 'programs', 'rollup.continue') });
  const deadline = Date.now() + 90_000;
  while (!/\/parentapplication\//.test(page.url())) {
    if (Date.now() > deadline) throw new Error(`Register did not reach the parent application (at ${page.url()})`);
    if ((await rollup.isVisible()) && (await save.isEnabled())) await save.click({ timeout: 5_000 }).catch(() => undefined);
    await page.waitForURL(/\/parentapplication\//, { timeout: 3_000 }).catch(() => undefined);
  }
  await page.waitForURL(/\/parentapplication\/(children|enrollment|fee|review)\?key=/, { timeout: 60_000 });
}

export const continueButton = (page: Page, lang: Lang) => page.getByRole('button', { name: text(lang, 'application', 'continue'), exact: true });

/** A step's page is in: its heading, axe clean, a screenshot. */
export async function step(page: Page, lang: Lang, heading: string, label: string) {
  await page.getByRole('heading', { level: 1, name: text(lang, 'application', heading) }).waitFor({ timeout: 30_000 });
  await expectNoAxeViolations(page, label);
  await shot(page, label);
}

/** The activity choice of a child: its week (0 = the camp's first) and activity. */
export async function choose(page: Page, lang: Lang, child: number, week: number) {
  const picker = page.locator('[data-testid^=activity-picker-]').nth(child);
  await picker.locator('fieldset[data-week]').nth(week).getByRole('checkbox', { name: ADVENTURE[lang] }).check();
}
