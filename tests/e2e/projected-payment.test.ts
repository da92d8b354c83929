// Bills in a real browser at 375 and 1280 px with axe: the provider bills a program monthly through
// the portal (a billed program, Tyler Johnson's charges split 60/40 between his mother Karen's account
// and Maria Garcia's), `npm run billing -- invoice` invoices this month, and each parent's projected
// payment (spec 2.12) and her invoice PDF show her own invoice's lines, Tyler's at her share only,
// and never the other account's lines.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { openDb } from '../../server/db/index';
import * as s from '../../server/db/schema';
import { businessClock, isoDay, systemClock } from '../../server/clock';
import { ROOT } from '../../server/app';
import { expectNoAxeViolations, newContext, shot, signIn, text, withServerAndBrowser, LOCALES, type Lang } from './kit';

const e2e = withServerAndBrowser();

/** The provider's setup, as its office would make it: a program billed monthly and a split child. */
async function billedProgram(dataDir: string, today: string) {
  const handle = await openDb({ pgliteDir: dataDir });
  try {
    const db = handle.db;
    const [bp] = await db.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    const kids = await db.select().from(s.children).where(eq(s.children.providerId, bp.id));
    const sofia = kids.find((k) => k.firstName === 'Sofia')!;
    const lucas = kids.find((k) => k.firstName === 'Lucas')!;
    const tyler = kids.find((k) => k.firstName === 'Tyler')!;
    const first = `${today.slice(0, 7)}-01`;
    const [pp] = await db
      .insert(s.programPeriods)
      .values({ providerId: bp.id, programPeriod: 'Extended Care (billed monthly)', category: 'schoolYear', programKind: 'childcare', enrollmentOption: 'T', startDate: first, endDate: `${Number(today.slice(0, 4)) + 1}-06-30`, billingCycle: 'M', canRegisterOnline: false, canEnrollOnline: false })
      .returning();
    const [care] = await db
      .insert(s.activities)
      .values({ providerId: bp.id, programPeriodId: pp.id, siteId: sofia.homeSiteId!, activity: 'Extended Care', startDate: first, endDate: pp.endDate, feeCents: 300_00, siblingFeeCents: 250_00, feeType: 'PER_SP' })
      .returning();
    await db.insert(s.enrollments).values([
      { providerId: bp.id, accountId: sofia.accountId, childId: sofia.id, activityId: care.id, enrollmentDate: first, daysOfWeek: 'M,T,W,TH,F' },
      { providerId: bp.id, accountId: lucas.accountId, childId: lucas.id, activityId: care.id, enrollmentDate: first, daysOfWeek: 'M,W,F' },
      { providerId: bp.id, accountId: tyler.accountId, childId: tyler.id, activityId: care.id, enrollmentDate: first, daysOfWeek: 'M,T,W,TH,F' },
    ]);
    await db.insert(s.splitChildren).values({ providerId: bp.id, childId: tyler.id, primaryAccountId: tyler.accountId, splitAccountId: sofia.accountId, splitPercentage: 60 });
    await db.update(s.accounts).set({ showProjectedPayment: true }).where(and(eq(s.accounts.providerId, bp.id), eq(s.accounts.id, tyler.accountId)));
  } finally {
    await handle.close();
  }
}

async function openProjected(page: import('playwright-core').Page, lang: Lang) {
  await page.getByRole('button', { name: text(lang, 'screens', 'home.payments.projected') }).click();
  await page.waitForURL(/\/viewprojectedpayment$/);
  await page.getByRole('heading', { level: 1, name: text(lang, 'payment', 'projected.title') }).waitFor();
  await page.locator('[data-section=fees] table').waitFor();
}

describe('the projected payment of a billed program', () => {
  it('invoiced by the billing command, each parent sees her own lines and Tyler at her share only', async () => {
    const today = isoDay(businessClock(systemClock)());
    await e2e.server.restart(async () => {
      await billedProgram(e2e.server.dataDir, today);
      const env = { ...process.env, PGLITE_DIR: e2e.server.dataDir, DATABASE_URL: '' };
      const out = execFileSync(join(ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/billing.ts', 'invoice', '--period', today, '--provider', 'brightpath'], { cwd: ROOT, env, encoding: 'utf8' });
      // Maria's and Karen's accounts get this month's invoice
      expect(out).toMatch(/2 new invoice\(s\), 4 line\(s\)/);
    });

    for (const [who, lang, width] of [
      ['maria', 'es', 375],
      ['karen', 'en', 1280],
    ] as const) {
      const ctx = await newContext(e2e.browser, width, LOCALES[lang]);
      const page = await ctx.newPage();
      try {
        await signIn(page, e2e.server, who);
        await openProjected(page, lang);
        const fees = await page.locator('[data-section=fees]').innerText();
        expect(fees).toContain('Tyler Johnson');
        if (who === 'maria') {
          // her own children in full, Tyler's 40 %
          expect(fees).toContain('Sofia Garcia');
          expect(fees).toContain('Lucas Garcia');
          expect(fees).toMatch(/40\s?%/);
          expect(fees).not.toMatch(/60\s?%/);
        } else {
          // Karen sees her 60 % of Tyler, nothing of the Garcias
          expect(fees).toMatch(/60\s?%/);
          expect(fees).not.toContain('Sofia');
          expect(fees).not.toContain('Lucas');
        }
        const summary = await page.locator('[data-section=projection]').innerText();
        expect(summary).toContain(text(lang, 'payment', 'projected.amountDue'));
        expect(summary).toContain(who === 'maria' ? 'BP-10234' : 'BP-');
        // the invoice's period in the reader's language: the program and the month's first and last day
        const [y, m] = today.split('-').map(Number);
        const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
        const day = (d: number) => (lang === 'en' ? `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${y}` : `${String(d).padStart(2, '0')}/${String(m).padStart(2, '0')}/${y}`);
        expect(summary).toContain(`Extended Care (billed monthly): ${day(1)} – ${day(last)}`);
        await expectNoAxeViolations(page, `projected payment (${who}, ${width}, ${lang})`);
        await shot(page, `projected-payment-${who}-${width}-${lang}`);

        // the invoice of the billed month, from View statement: a line per child and activity, this account's only
        await page.getByRole('link', { name: text(lang, 'payment', 'projected.statements') }).click();
        await page.waitForURL(/\/viewstatement$/);
        const card = page.locator('section[data-section=invoices] article').filter({ hasText: 'Extended Care (billed monthly)' });
        await card.waitFor();
        const [d] = await Promise.all([page.waitForEvent('download'), card.locator('[data-action=invoicePdf]').click()]);
        const file = `${fs.mkdtempSync(`${os.tmpdir()}/invoice-`)}/${d.suggestedFilename()}`;
        await d.saveAs(file);
        const pdf = execFileSync('pdftotext', ['-layout', file, '-']).toString().replace(/\s+/g, ' ');
        expect(pdf).toContain(`Extended Care (billed monthly): ${day(1)} – ${day(last)}`);
        expect(pdf).toContain('Tyler Johnson: Extended Care');
        if (who === 'maria') expect(pdf).toContain('Sofia Garcia: Extended Care');
        else expect(pdf).not.toContain('Sofia');
      } catch (err) {
        await shot(page, `projected-payment-failed-${who}-${width}-${lang}`);
        throw err;
      } finally {
        await ctx.close();
      }
    }
  }, 300_000);
});
