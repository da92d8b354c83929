// Provider data in the parent's language (spec 1, 2.8): in Spanish and Vietnamese, Home, edit contact,
// medical information and notify absence show none of the demo provider's English texts. The list is
// the seed's translated texts (server/seed/texts.ts), so names of people, sites and schools are not
// counted; each page also shows one known translation, so an empty page cannot pass.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newContext, shot, signIn, withServerAndBrowser } from './kit';
import { englishPiecesNotIn } from '../../server/seed/texts';

const e2e = withServerAndBrowser();

/** Client-side navigation (keeps the session in memory like a parent following links). */
async function go(page: Page, p: string) {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, `/parentportal${p}`);
}

/** Waits until no section is loading and no option list is being fetched. */
async function settled(page: Page) {
  await page.waitForFunction(() => !document.querySelector('[data-state=loading], [aria-busy=true]'));
}

/** Everything the page shows, including the options of closed lists, placeholders and input values. */
function shown(page: Page): Promise<string> {
  return page.evaluate(() =>
    [
      document.body.innerText,
      ...Array.from(document.querySelectorAll('option, [role=option]'), (o) => o.textContent ?? ''),
      ...Array.from(document.querySelectorAll('input, textarea'), (i) => (i as HTMLInputElement).placeholder ?? ''),
      // read-only texts such as a medical question are shown in inputs (the parent's own answers in
      // text areas are not the provider's)
      ...Array.from(document.querySelectorAll('input'), (i) => i.value),
    ].join('\n'),
  );
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** the English pieces found as whole words in the page's text */
function englishOn(text: string, pieces: string[]): string[] {
  return pieces.filter((p) => new RegExp(`(^|[^\\p{L}])${escapeRe(p)}($|[^\\p{L}])`, 'u').test(text));
}

const EXPECTED = {
  es: { home: 'Cuidado antes y después de clases del año escolar', contact: 'Talla de camiseta de voluntario', medical: 'Cuéntenos sobre cada alergia', absence: 'Cita médica' },
  vi: { home: 'Chăm sóc trước và sau giờ học năm học', contact: 'Cỡ áo thun tình nguyện viên', medical: 'Vui lòng cho chúng tôi biết mọi loại dị ứng', absence: 'Lịch hẹn khám bệnh' },
} as const;

describe('provider texts in the parent language', () => {
  for (const [lang, locale] of [
    ['es', 'es-ES'],
    ['vi', 'vi-VN'],
  ] as const) {
    it(`shows no English provider text in ${lang} on home, edit contact, medical information and notify absence`, async () => {
      const pieces = englishPiecesNotIn(lang);
      const expected = EXPECTED[lang];
      const ctx = await newContext(e2e.browser, 1280, locale);
      const page = await ctx.newPage();
      const check = async (name: keyof typeof expected) => {
        try {
          // the known translation, wherever the page shows it (text, a list's option, an input)
          await page.waitForFunction(
            (text) =>
              document.body.innerText.includes(text) ||
              Array.from(document.querySelectorAll('option, input'), (e) => (e instanceof HTMLInputElement ? e.value : e.textContent ?? '')).some((x) => x.includes(text)),
            expected[name],
          );
        } catch (err) {
          await shot(page, `provider-texts-${name}-${lang}-missing`);
          throw err;
        }
        await settled(page);
        const found = englishOn(await shown(page), pieces);
        if (found.length) await shot(page, `provider-texts-${name}-${lang}`);
        expect(found, `${name} in ${lang}`).toEqual([]);
      };
      try {
        await signIn(page, e2e.server, 'maria');
        await page.waitForSelector('section[data-section=registration] article');
        await page.waitForSelector('section[data-section=forms] article');
        await check('home');

        await go(page, '/myaccount');
        await page.locator('section[data-section=holders] article').first().locator('[data-action=editHolder]').click();
        await page.waitForURL(/\/editcontact\?adultID=\d+$/);
        await page.waitForSelector('form input[id$=firstName]');
        await check('contact');

        await go(page, '/myaccount');
        await page.locator('section[data-section=children] article', { hasText: 'Sofia' }).locator('[data-action=medical]').click();
        await page.waitForURL(/\/childmedicalinformation\?/);
        await check('medical');

        await go(page, '/notifyabsence');
        await check('absence');
      } finally {
        await ctx.close();
      }
    });
  }
});
