// npm run billing -- <command>: the billing job by hand, on the same database as the server
// (DATABASE_URL, else the embedded database in PGLITE_DIR or .data/pglite; the embedded one is one
// process's at a time, so stop the server first when it runs on it). The server runs the same job
// every morning (billing.run); running it again posts nothing twice.
//
//   run [--provider APP] [--date YYYY-MM-DD]             make the service periods, invoice the due
//                                                        ones, post late fees (as the daily run)
//   invoice --period ID|YYYY-MM-DD [--provider APP]      invoice one service period (its id), or every
//                                                        billed program's period holding that day
//   periods --provider APP                               list the service periods
//   late-fees [--provider APP] [--date YYYY-MM-DD]       post the late fees due
import { join } from 'node:path';
import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { openDb } from '../server/db/index';
import { ROOT } from '../server/app';
import { businessClock, isoDay, systemClock } from '../server/clock';
import { servicePeriods } from '../server/db/schema';
import { readProviderRecords } from '../server/providers';
import { settingsOf } from '../server/providerSettings';
import { ensureServicePeriods, invoicePeriod, postLateFees, providerIds, runBilling, type BillingContext } from '../server/domains/billing/invoicing';
import { buildDeclarationSet } from '../src/engine/index';
import { readBaseDeclarations, readProviderOverlays } from '../src/engine/node';
import { moneyText } from '../src/engine/money';

const USAGE = `Usage:
  npm run billing -- run [--provider APP] [--date YYYY-MM-DD]
  npm run billing -- invoice --period ID|YYYY-MM-DD [--provider APP]
  npm run billing -- periods --provider APP
  npm run billing -- late-fees [--provider APP] [--date YYYY-MM-DD]`;

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

const args = process.argv.slice(2);
const command = args[0] ?? '';
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const date = option(args, '--date');
const period = option(args, '--period');
const only = option(args, '--provider');
if (!['run', 'invoice', 'periods', 'late-fees'].includes(command) || (date && !DAY.test(date)) || (command === 'invoice' && !(period && (DAY.test(period) || /^\d+$/.test(period)))) || (command === 'periods' && !only)) {
  console.error(USAGE);
  process.exit(2);
}

const records = readProviderRecords(ROOT);
const base = readBaseDeclarations(ROOT);
const handle = await openDb({ databaseUrl: process.env.DATABASE_URL || undefined, pgliteDir: process.env.PGLITE_DIR || join(ROOT, '.data', 'pglite') });
try {
  const today = date ?? isoDay(businessClock(systemClock)());
  const now = new Date();
  const billed = (await providerIds(handle.db, only ? [only] : undefined)).filter((p) => {
    const rec = records.find((r) => r.appName === p.appName);
    return rec && settingsOf(rec).billing;
  });
  if (only && !billed.length) {
    console.error(`${only}: no such provider, or it does not bill through the portal (provider.json billing).`);
    process.exitCode = 1;
  }
  for (const p of billed) {
    const rec = records.find((r) => r.appName === p.appName)!;
    const built = buildDeclarationSet(base, readProviderOverlays(ROOT, p.appName), { appName: p.appName });
    if (!built.ok) throw new Error(`${p.appName}: its declarations are refused: ${built.errors.map((e) => `${e.file} ${e.path}: ${e.message}`).join('; ')}`);
    const c: BillingContext = { db: handle.db, providerId: p.id, billing: settingsOf(rec).billing!, rules: built.set.rules, today, now };
    const money = (cents: number) => moneyText(cents, 'en', rec.countryCode);
    if (command === 'run') {
      const r = await runBilling(c);
      console.log(`${p.appName}: ${r.periods} period(s) invoiced, ${r.invoices} new invoice(s), ${r.lines} line(s), ${money(r.postedCents)} posted; ${r.lateFees} late fee(s).`);
    } else if (command === 'late-fees') {
      console.log(`${p.appName}: ${await postLateFees(c)} late fee(s) posted.`);
    } else if (command === 'periods') {
      await ensureServicePeriods(c);
      const rows = await handle.db.select().from(servicePeriods).where(eq(servicePeriods.providerId, p.id)).orderBy(asc(servicePeriods.programPeriodId), asc(servicePeriods.startDate));
      for (const r of rows) console.log([r.id, r.programPeriodId, r.periodType, r.startDate, r.endDate, `invoice ${r.invoiceDate}`, `due ${r.dueDate}`, r.invoicedAt ? `invoiced ${r.invoicedAt.toISOString()}` : 'not invoiced'].join('\t'));
    } else {
      await ensureServicePeriods(c);
      const which = DAY.test(period!) ? and(lte(servicePeriods.startDate, period!), gte(servicePeriods.endDate, period!)) : eq(servicePeriods.id, Number(period));
      const rows = await handle.db.select().from(servicePeriods).where(and(eq(servicePeriods.providerId, p.id), which));
      for (const sp of rows) {
        const r = await invoicePeriod(c, sp);
        console.log(`${p.appName}: period ${sp.id} (${sp.startDate} to ${sp.endDate}): ${r.invoices} new invoice(s), ${r.lines} line(s), ${money(r.postedCents)} posted.`);
      }
      if (!rows.length) console.log(`${p.appName}: no service period ${DAY.test(period!) ? `holds ${period}` : `has id ${period}`}.`);
    }
  }
} finally {
  await handle.close();
}
