// The registration programs list (spec 2.8) in a real browser: cards with category colours, child
// lines, notices and buttons from the programs rules; search; the other-district toggle; the program
// report PDF; the hand-off to the parent application with a one-time keyelement (redeemed once); a
// product without a host reaching the configuration error page. 375 and 1280 px, English and Spanish.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expectNoAxeViolations, newContext, shot, signIn, withServerAndBrowser } from './kit';
import { inRollup, providerRollup } from '../../server/gradeRollup';
import { isoDay } from '../../server/clock';

const e2e = withServerAndBrowser();
let tmp = '';
/** View or enrol navigates to /viewenrollment: the shell shows it once that screen is declared */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HAS_VIEW = existsSync(join(ROOT, 'screens', 'viewenrollment.json'));
/** The server's business day: PORTAL_TODAY when set (README, Test it), else today. */
const businessDay = () => process.env.PORTAL_TODAY || isoDay(new Date());

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'pp-programs-'));
});

/** Client-side navigation (keeps the session in memory like a parent following links). */
async function go(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

const cards = (page: Page) => page.locator('section[data-section=programs] article');
const card = (page: Page, title: string | RegExp): Locator => cards(page).filter({ has: page.getByRole('heading', { name: title }) });
const titles = (page: Page) => cards(page).locator('h3').allTextContents();
const buttons = async (c: Locator) => (await c.getByRole('button').allTextContents()).map((s) => s.trim()).sort();

async function openList(page: Page) {
  await go(page, '/programlist');
  try {
    await card(page, /School Year|Año escolar|Cuidado/).first().waitFor({ timeout: 30_000 });
  } catch (err) {
    await shot(page, 'programlist-failed-open');
    throw err;
  }
}

const TEXT = {
  en: {
    school: 'School Year Before & After Care',
    summer: 'Summer Adventure Camp',
    winter: 'Winter Break Holiday Care',
    spring: 'Spring Break Adventure',
    soccer: 'Fall Soccer Clinic',
    art: 'Fall Art Workshop',
    riverside: 'Riverside District Summer Academy',
    pending: 'Approval Pending',
    opening: 'Registration opening on',
    register: 'Register',
    addChild: 'Add child',
    view: 'View or enrol',
    calendar: 'Calendar',
    punch: 'Punch pass',
    download: 'Download report',
    review: 'Application under review',
    registeredOn: 'Registered on',
    otherDistrict: 'Show programs of other districts',
    search: 'Search programs by name',
    reportTitle: 'Program report',
  },
  es: {
    school: 'Cuidado antes y después de clases del año escolar',
    summer: 'Campamento de verano Aventura',
    winter: 'Cuidado durante las vacaciones de invierno',
    spring: 'Aventura de vacaciones de primavera',
    soccer: 'Clínica de fútbol de otoño',
    art: 'Taller de arte de otoño',
    riverside: '',
    pending: 'Aprobación pendiente',
    opening: 'La inscripción abre el',
    register: 'Inscribir',
    addChild: 'Agregar niño',
    view: 'Ver o matricular',
    calendar: 'Calendario',
    punch: 'Pase de visitas',
    download: 'Descargar informe',
    review: 'Solicitud en revisión',
    registeredOn: 'Inscrito el',
    otherDistrict: 'Mostrar programas de otros distritos',
    search: 'Buscar programas por nombre',
    reportTitle: 'Informe del programa',
  },
};

describe('registration programs list', () => {
  it('cards, child lines, notices and buttons; search; other districts; at 375 and 1280 in English and Spanish', async () => {
    for (const [width, locale] of [
      [1280, 'en-US'],
      [375, 'es-ES'],
      [375, 'en-US'],
      [1280, 'es-ES'],
    ] as const) {
      const lang = locale.slice(0, 2) as 'en' | 'es';
      const T = TEXT[lang];
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'maria', { failShot: 'programlist-failed-signin' });
      await openList(page);
      await card(page, T.school).waitFor();
      // Spanish titles come from the provider's own translations
      const shown = await titles(page);
      // ended programs: shown when a child has an enrolment date (soccer), hidden otherwise (art)
      expect(shown).toContain(T.soccer);
      expect(shown).not.toContain(T.art);
      // the other district's program only with the checkbox
      expect(shown.some((t) => t.startsWith('Riverside') || t.includes('Riverside'))).toBe(false);

      // a pending approval (W): the notice, the child's 'under review' line, no Register
      const summer = card(page, T.summer);
      await expect(summer.getByText(T.pending, { exact: true }).count()).resolves.toBeGreaterThan(0);
      // Sofia's application is pending (Lucas, registered and enrolled in weeks, has his own line)
      const sofia = summer.locator('li', { hasText: 'Sofia' });
      await expect(sofia.textContent()).resolves.toContain(T.review);
      await expect(sofia.textContent()).resolves.toContain(T.registeredOn);
      expect(await buttons(summer)).not.toContain(T.register);

      // opening later: with the time (9:00 AM in English, 09:00 in Spanish) and without it (midnight)
      const winter = await card(page, T.winter).getByText(T.opening).textContent();
      expect(winter).toMatch(lang === 'en' ? /\d{2}\/\d{2}\/\d{4} 09:00 AM/ : /\d{2}\/\d{2}\/\d{4} 09:00(?! ?[AP]M)/);
      const spring = await card(page, T.spring).getByText(T.opening).textContent();
      expect(spring).toMatch(/\d{2}\/\d{2}\/\d{4}$/);
      expect(await buttons(card(page, T.spring))).toEqual([T.download]);

      // a registered program with children: View or enrol, Add child (open for registration), download
      const school = await buttons(card(page, T.school));
      expect(school).toEqual([T.addChild, T.download, ...(HAS_VIEW ? [T.view] : [])].sort());
      // a button every card repeats is read with its card's name (described by the card's title)
      const addChild = card(page, T.school).getByRole('button', { name: T.addChild, exact: true });
      expect(await addChild.getAttribute('aria-describedby')).toBeTruthy();
      expect(await page.locator(`[id="${await addChild.getAttribute('aria-describedby')}"]`).textContent()).toContain(T.school);
      // option C: the calendar variant; the punch pass program: the punch pass button
      const punch = cards(page).filter({ has: page.getByRole('button', { name: T.punch }) });
      expect(await punch.count()).toBe(1);
      expect(await cards(page).filter({ has: page.getByRole('button', { name: T.calendar }) }).count()).toBe(1);
      // category colours on the cards
      expect(await card(page, T.school).getAttribute('data-category')).toBe('schoolYear');
      expect(await card(page, T.summer).getAttribute('data-category')).toBe('summerCamp');

      await expectNoAxeViolations(page, `programs ${width} ${locale}`);
      await shot(page, `programlist-${width}-${lang}`);

      // search: trimmed, whitespace collapsed, case-insensitive substring; empty shows all
      const all = (await titles(page)).length;
      const search = page.getByLabel(T.search);
      await search.fill(lang === 'en' ? '  summer   ADVENTURE ' : '  campamento DE   verano ');
      await expect.poll(() => titles(page)).toEqual([T.summer]);
      await search.fill('');
      await expect.poll(async () => (await titles(page)).length).toBe(all);

      // the other-district checkbox reloads the list with the other district's program
      if (lang === 'en') {
        await page.getByRole('checkbox', { name: T.otherDistrict }).check();
        await card(page, T.riverside).waitFor();
        await expectNoAxeViolations(page, `programs other district ${width} ${locale}`);
        await page.getByRole('checkbox', { name: T.otherDistrict }).uncheck();
        await expect.poll(async () => (await titles(page)).includes(T.riverside)).toBe(false);
      }
      await ctx.close();
    }
  }, 420_000);

  it('searching keeps the page: each search shows the matching cards, for a parent with hidden (ended) programs too', async () => {
    // the list holds ended programs its card rule hides; a search moving a hidden program into a shown
    // card's place keeps the page (no generic error page)
    // 'workshop' and 'taller' find only the ended art workshop, which no card shows
    const SEARCHES = { en: ['camp', 'school', 'summer', 'a', 'workshop', 'SPRING', ''], es: ['campamento', 'escolar', 'verano', 'a', 'taller', ''] };
    const NO_MATCHES = { en: 'Nothing matches your search.', es: 'Nada coincide con su búsqueda.' };
    const normal = (s: string) => s.normalize('NFC').toLocaleLowerCase().replace(/\s+/g, ' ').trim();
    for (const [width, locale, email] of [
      [375, 'en-US', 'amara.mensah@example.com'],
      [1280, 'es-ES', 'amara.mensah@example.com'],
      [1280, 'en-US', 'maria.garcia@example.com'],
      [375, 'es-ES', 'maria.garcia@example.com'],
    ] as const) {
      const lang = locale.slice(0, 2) as 'en' | 'es';
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      const errors: string[] = [];
      const logged: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      page.on('console', (m) => void (m.type() === 'error' && logged.push(m.text().slice(0, 300))));
      await signIn(page, e2e.server, { email, password: 'Sunshine#2026' }, { failShot: 'programlist-failed-signin' });
      await openList(page);
      const all = await titles(page);
      const search = page.getByLabel(TEXT[lang].search);
      const who = email.split('.')[0];
      for (const term of SEARCHES[lang]) {
        await search.fill(term);
        const expected = all.filter((t) => normal(t).includes(normal(term)));
        try {
          await expect.poll(() => titles(page), { timeout: 10_000 }).toEqual(expected);
        } catch (err) {
          await shot(page, `programlist-search-failed-${who}-${width}-${lang}`);
          throw new Error(`search "${term}" as ${email} at ${width} ${locale}: ${(err as Error).message}; the page's errors: ${[...errors, ...logged].join(' | ')}`);
        }
        expect(await page.getByTestId('generic-error').count()).toBe(0);
        if (expected.length === 0) await page.locator('section[data-section=programs]').getByText(NO_MATCHES[lang]).waitFor({ timeout: 10_000 });
        if (term === 'a' || term === 'camp' || term === 'campamento' || expected.length === 0) {
          await expectNoAxeViolations(page, `programs search "${term}" ${who} ${width} ${locale}`);
          await shot(page, `programlist-search-${term}-${who}-${width}-${lang}`);
        }
      }
      expect(errors).toEqual([]);
      await ctx.close();
    }
  }, 420_000);

  it('a suspended account: the notice, no Register or Add child, View or enrol with the pending flag', async () => {
    for (const [width, locale] of [
      [375, 'en-US'],
      [1280, 'es-ES'],
    ] as const) {
      const lang = locale.slice(0, 2) as 'en' | 'es';
      const T = TEXT[lang];
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'priya', { failShot: 'programlist-failed-signin' });
      await openList(page);
      await page.locator('section[data-section=accountBlocked]').waitFor();
      for (const c of await cards(page).all()) {
        const b = await buttons(c);
        expect(b).not.toContain(T.register);
        expect(b).not.toContain(T.addChild);
      }
      // nothing invites an account that may not register to do so
      expect(await page.getByText(lang === 'en' ? 'Register online' : 'Inscríbase en línea', { exact: true }).count()).toBe(0);
      const school = card(page, T.school);
      expect(await buttons(school)).toEqual([T.download, ...(HAS_VIEW ? [T.view] : [])].sort());
      await expectNoAxeViolations(page, `programs suspended ${width} ${locale}`);
      await shot(page, `programlist-suspended-${width}-${lang}`);
      if (!HAS_VIEW) {
        await ctx.close();
        continue;
      }
      await school.getByRole('button', { name: T.view }).click();
      await page.waitForURL(/\/viewenrollment\?/);
      const q = new URL(page.url()).searchParams;
      expect(q.get('IsPending')).toBe('1');
      expect(Number(q.get('programPeriodID'))).toBeGreaterThan(0);
      expect(q.get('OT')).toBe('0');
      await ctx.close();
    }
  }, 420_000);

  it('downloads the program report as a PDF in the parent’s language', async () => {
    // the program's dates as the English report writes them (mm/dd/yyyy), to read back in Spanish as dd/mm/yyyy
    let period: string[] = [];
    for (const locale of ['en-US', 'es-ES'] as const) {
      const lang = locale.slice(0, 2) as 'en' | 'es';
      const T = TEXT[lang];
      const ctx = await newContext(e2e.browser, 1280, locale);
      const page = await ctx.newPage();
      await signIn(page, e2e.server, 'maria', { failShot: 'programlist-failed-signin' });
      await openList(page);
      const [download] = await Promise.all([page.waitForEvent('download'), card(page, T.school).getByRole('button', { name: T.download }).click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      const file = join(tmp, `report-${lang}.pdf`);
      await download.saveAs(file);
      expect(readFileSync(file).subarray(0, 5).toString()).toBe('%PDF-');
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toContain(T.reportTitle);
      expect(text).toContain(T.school);
      expect(text).toContain('Sofia Garcia');
      expect(text).toContain('Lucas Garcia');
      if (lang === 'en') {
        period = /Program dates: (\d{2}\/\d{2}\/\d{4}) to (\d{2}\/\d{2}\/\d{4})/.exec(text)?.slice(1) ?? [];
        expect(period).toHaveLength(2);
      } else {
        const dmy = period.map((d) => `${d.slice(3, 5)}/${d.slice(0, 2)}/${d.slice(6)}`);
        expect(text).toContain(`Fechas del programa: del ${dmy[0]} al ${dmy[1]}`);
      }
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', file, join(tmp, `report-${lang}`)]);
      expect(existsSync(join(tmp, `report-${lang}-1.png`))).toBe(true);
      await ctx.close();
    }
  }, 420_000);

  it('Register hands off to the parent application with a keyelement redeemed once', async () => {
    const ctx = await newContext(e2e.browser, 1280, 'en-US');
    const page = await ctx.newPage();
    await signIn(page, e2e.server, 'maria', { failShot: 'programlist-failed-signin' });
    await openList(page);
    expect(await buttons(card(page, TEXT.en.spring))).not.toContain(TEXT.en.register);
    // the drop-in punch pass program is open and none of the account's children is in it
    const withRegister = cards(page).filter({ has: page.getByRole('button', { name: TEXT.en.register, exact: true }) }).first();
    await withRegister.waitFor();
    // the keyelement is redeemed below, with the portal session that asked for it, instead of by the application page
    const portalToken = await page.evaluate(() => JSON.parse(localStorage.getItem('pp.session') ?? '{}').token as string);
    await page.route('**/api/Registration/program/application-token/details', (route) => route.abort());
    await withRegister.getByRole('button', { name: TEXT.en.register, exact: true }).click();
    // while the provider's year-end grade roll-up is open (provider.json; CI's PORTAL_TODAY is inside
    // its window) the parent confirms next year's grades before she is handed off; outside it, Register
    // hands off at once
    if (inRollup(providerRollup(ROOT, 'brightpath'), businessDay())) {
      const rollup = page.getByRole('alertdialog', { name: "Confirm next year's grades" });
      await rollup.waitFor();
      // the modal's form draws when its chunk is in: one grade per child
      await rollup.locator('select').nth(1).waitFor();
      await expect(rollup.locator('select').count()).resolves.toBeGreaterThan(1);
      await expectNoAxeViolations(page, 'grade roll-up');
      await shot(page, 'programlist-grade-rollup-1280-en');
      await rollup.getByRole('button', { name: 'Save and continue' }).click();
    }
    await page.waitForURL(/\/parentapplication\/\?/);
    const url = new URL(page.url());
    expect(url.searchParams.get('destination')).toBe('INSTRUCTION');
    expect(url.searchParams.get('source')).toBe('PROGRAMLIST');
    expect(url.searchParams.get('_')).toMatch(/^\d+$/);
    const keyelement = url.searchParams.get('keyelement') ?? '';
    expect(keyelement).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const redeem = (token?: string) =>
      fetch(`${e2e.server.url}/api/Registration/program/application-token/details`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ appName: 'brightpath', keyelement, product: 'parentapplication' }),
      });
    // a browser without the session that asked for it is refused (and does not use it up)
    expect((await redeem()).status).toBe(403);
    const first = await redeem(portalToken);
    expect(first.status).toBe(200);
    const details = (await first.json()) as Record<string, unknown>;
    expect(details.product).toBe('parentapplication');
    expect(details.userName).toBe('maria.garcia@example.com');
    expect(details.returnUrl).toBe(e2e.portal('/programlist'));
    expect((await redeem(portalToken)).status).toBe(410);
    await page.unroute('**/api/Registration/program/application-token/details');
    // confirmed once this season: Register hands off without asking again
    await page.goto(e2e.portal('/programlist'));
    await openList(page);
    const again = cards(page).filter({ has: page.getByRole('button', { name: TEXT.en.register, exact: true }) }).first();
    await again.getByRole('button', { name: TEXT.en.register, exact: true }).click();
    await page.waitForURL(/\/parentapplication\/\?/);
    await ctx.close();
  }, 420_000);

  it('a product without a host leads to the configuration error page', async () => {
    for (const [width, locale] of [
      [375, 'es-ES'],
      [1280, 'en-US'],
    ] as const) {
      const lang = locale.slice(0, 2) as 'en' | 'es';
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      // Northridge has no calendar product (Bright Path's hands off to /flexcalendar)
      await signIn(page, e2e.server, 'linh', { failShot: 'programlist-failed-signin' });
      await go(page, '/programlist');
      await cards(page).getByRole('button', { name: TEXT[lang].calendar }).first().click({ timeout: 30_000 });
      await page.waitForURL(/\/configurationerror\?/);
      const q = new URL(page.url()).searchParams;
      expect(q.get('errorcode')).toBe('PRODUCT_HOST_MISSING');
      expect(q.get('productname')).toBe('calendar');
      await page.locator('[data-testid=configuration-error]').waitFor();
      await expectNoAxeViolations(page, `configuration error ${width} ${locale}`);
      await shot(page, `programlist-config-error-${width}-${lang}`);
      await ctx.close();
    }
  }, 420_000);
});
