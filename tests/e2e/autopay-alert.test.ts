// Spec 2.12's autopay alert in a real browser at 375 and 1280 px with axe: `npm run autopay -- run`
// on the day the demo's autopay invoice falls due finds Maria Garcia's autopay card without a gateway
// token, records the charge as an autopay error (SCHEDULING FAILED) and e-mails her; Home and Pay now
// show her the alert in her language, and Karen, whose account has no autopay error, sees none.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { and, eq, gt } from 'drizzle-orm';
import { openDb } from '../../server/db/index';
import * as s from '../../server/db/schema';
import { businessClock, isoDay, systemClock } from '../../server/clock';
import { ROOT } from '../../server/app';
import { expectNoAxeViolations, newContext, shot, signIn, text, withServerAndBrowser, LOCALES } from './kit';

const e2e = withServerAndBrowser();

/** The due date of the Garcias' open invoice (the demo's autopay account). */
async function openAutopayInvoice(dataDir: string, today: string): Promise<{ dueDate: string; accountId: number }> {
  const handle = await openDb({ pgliteDir: dataDir });
  try {
    const db = handle.db;
    const [reg] = await db
      .select({ accountId: s.autopayRegistrations.accountId })
      .from(s.autopayRegistrations)
      .innerJoin(s.logins, eq(s.logins.email, 'maria.garcia@example.com'))
      .innerJoin(s.adults, eq(s.adults.id, s.logins.adultId))
      .where(and(eq(s.autopayRegistrations.accountId, s.adults.accountId), eq(s.autopayRegistrations.active, true)));
    const [inv] = await db
      .select({ dueDate: s.invoices.paymentDueDate })
      .from(s.invoices)
      .where(and(eq(s.invoices.accountId, reg.accountId), gt(s.invoices.paymentDueDate, today)));
    return { dueDate: inv.dueDate, accountId: reg.accountId };
  } finally {
    await handle.close();
  }
}

describe('the autopay alert', () => {
  it('shows on Home and Pay now after the autopay run could not charge, to that account only', async () => {
    const today = isoDay(businessClock(systemClock)());
    await e2e.server.restart(async () => {
      const { dueDate } = await openAutopayInvoice(e2e.server.dataDir, today);
      // on its due date (at the latest) the run charges it: the demo's card has no token
      const env = { ...process.env, PGLITE_DIR: e2e.server.dataDir, DATABASE_URL: '', PORT: '18723' };
      const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/autopay.ts', 'run', '--date', dueDate, '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
      expect(out).toMatch(/brightpath \d{4}-\d{2}-\d{2}: 1 charge\(s\) made .* 1 not possible/);
      // again: nothing more
      const again = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/autopay.ts', 'run', '--date', dueDate, '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
      expect(again).toMatch(/: 0 charge\(s\) made/);
    });

    for (const [who, lang, width] of [
      ['maria', 'es', 375],
      ['karen', 'en', 1280],
    ] as const) {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, who);
        const heading = text(lang, 'payment', 'autopayFailed.heading');
        await page.locator('[data-section=payments]').waitFor();
        if (who === 'maria') {
          await page.locator('[data-section=autopayFailed]').getByText(heading).waitFor();
          expect(await page.locator('[data-section=autopayFailed]').innerText()).toContain(text(lang, 'payment', 'autopayFailed.text'));
          await expectNoAxeViolations(page, `autopay alert on Home (${who}, ${width}, ${lang})`);
          await shot(page, `autopay-alert-home-${width}-${lang}`);
        } else {
          expect(await page.locator('[data-section=autopayFailed]').count()).toBe(0);
        }
        await page.goto(e2e.portal('/paynow'));
        await page.locator('[data-section=summary]').waitFor();
        if (who === 'maria') {
          await page.locator('[data-section=autopayFailed]').getByText(heading).waitFor();
          await expectNoAxeViolations(page, `autopay alert on Pay now (${who}, ${width}, ${lang})`);
          await shot(page, `autopay-alert-paynow-${width}-${lang}`);
        } else {
          expect(await page.locator('[data-section=autopayFailed]').count()).toBe(0);
        }
      } catch (err) {
        await shot(page, `autopay-alert-failed-${who}-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    }
  }, 300_000);
});
