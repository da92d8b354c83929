// Spec 8.2: the configuration error page shows an error code and the product name. It is drawn by the
// shell (no declaration set is needed), and a provider whose declaration set the server cannot give
// (503 server.errors.declarationsUnavailable, see tests/server/configurationError.test.ts) lands on it.
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations, newContext, shot, withServerAndBrowser } from './kit';

const e2e = withServerAndBrowser();

describe('configuration error page', () => {
  it('shows the code and product of its address, in the browser language, at 375 and 1280', async () => {
    for (const [width, locale, heading, code] of [
      [375, 'en-US', 'This service is not set up yet', 'Error code'],
      [1280, 'es-ES', 'Este servicio todavía no está configurado', 'Código de error'],
    ] as const) {
      const ctx = await newContext(e2e.browser, width, locale);
      const page = await ctx.newPage();
      await page.goto(e2e.portal('/configurationerror?errorcode=CFG-204&productname=Lakeside%20Kids'));
      // the page in the browser's language
      const box = page.locator('[data-testid=configuration-error]', { hasText: heading });
      await box.waitFor();
      expect(await box.locator('dt').allTextContents()).toEqual([code, locale === 'en-US' ? 'Product' : 'Producto']);
      expect(await box.locator('dd').allTextContents()).toEqual(['CFG-204', 'Lakeside Kids']);
      expect(await page.textContent('body')).toContain(locale === 'en-US' ? '(error code CFG-204)' : '(código de error CFG-204)');
      await expectNoAxeViolations(page, `configuration error ${width} ${locale}`);
      await shot(page, `configuration-error-${width}-${locale.slice(0, 2)}`);
      await ctx.close();
    }
  });

  it('without code or product the page still reads (a dash for each)', async () => {
    const ctx = await newContext(e2e.browser);
    const page = await ctx.newPage();
    await page.goto(e2e.portal('/configurationerror'));
    await page.locator('[data-testid=configuration-error]').waitFor();
    expect(await page.locator('[data-testid=configuration-error] dd').allTextContents()).toEqual(['—', '—']);
    await ctx.close();
  });

  it('a provider whose declaration set is unavailable opens the configuration error page, and the error is logged', async () => {
    const ctx = await newContext(e2e.browser, 375);
    const page = await ctx.newPage();
    await page.route('**/api/Customer/declarations*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: "The program's screens are being updated.", key: 'server.errors.declarationsUnavailable' }),
      }),
    );
    // a server without the set puts none into the entry page (server/boot.ts): the page asks for it
    await page.route('**/parentportal/brightpath/parent', async (route) => {
      const res = await route.fetch();
      await route.fulfill({ response: res, body: (await res.text()).replace(/<script type="application\/json" id="pp-boot">[\s\S]*?<\/script>/, '') });
    });
    const logged = page.waitForRequest((r) => r.url().includes('/api/Customer/errorlog') && r.method() === 'POST');
    await page.goto(e2e.portal('/brightpath/parent'));
    await page.waitForURL((u) => u.pathname === '/parentportal/configurationerror');
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ errorcode: 'DECLARATIONS_UNAVAILABLE', productname: 'brightpath' });
    await page.locator('[data-testid=configuration-error]').waitFor();
    expect(await page.locator('[data-testid=configuration-error] dd').allTextContents()).toEqual(['DECLARATIONS_UNAVAILABLE', 'brightpath']);
    expect(await page.isVisible('[data-testid=error-banner]')).toBe(false);
    const record = (await logged).postDataJSON() as { Message: string; appName?: string };
    expect(record.Message).toBe("The program's screens are being updated.");
    expect(record.appName).toBe('brightpath');
    await expectNoAxeViolations(page, 'configuration error after a refused declaration set');
    await ctx.close();
  });
});
