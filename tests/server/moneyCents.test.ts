// Migration 0026 (money in integer cents) changes no amount by a cent: a database as 0025 left it
// (numeric(12,2) dollars) with the demo data and odd amounts, read before and after 0026 is applied
// by the migrator, gives the same balances, receipts, ledger lines and amounts, and the API answers
// the same dollars. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
import { mkdtempSync, cpSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freshDatabase } from './freshDatabase';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/index';
import { applyMigrations } from '../../server/db/migrate';
import { accountMoneyOf, type LedgerRow } from '../../server/domains/billing/ledger';
import { BACKENDS, createTestApp, tokenFor, MARIA, LINH, callOperation, type Backend, type TestApp } from './helpers';

const MIGRATIONS = fileURLToPath(new URL('../../server/db/migrations', import.meta.url));
const CENTS_WHEN = 1795900200000;

/** Every money column 0026 converts: table, the column as 0025 had it (numeric dollars). */
const MONEY: [string, string][] = [
  ['accounts', 'late_fee_after_due_date'],
  ['program_periods', 'registration_fee'],
  ['activities', 'first_child_reg_fee'],
  ['activities', 'second_child_reg_fee'],
  ['activities', 'third_child_reg_fee'],
  ['activities', 'fee'],
  ['activities', 'sibling_fee'],
  ['invoices', 'amount'],
  ['invoices', 'auto_pay_discount_value'],
  ['payments', 'amount'],
  ['payments', 'processing_fee'],
];
const DEFAULTED = new Set(MONEY.filter(([t, c]) => !(c === 'amount' && (t === 'invoices' || t === 'payments'))).map(([t, c]) => `${t}.${c}`));

const rows = async <T>(db: Db, q: ReturnType<typeof sql>) => (await db.execute(q)) as unknown as { rows: T[] } | T[];
async function select<T>(db: Db, q: ReturnType<typeof sql>): Promise<T[]> {
  const r = await rows<T>(db, q);
  return Array.isArray(r) ? r : r.rows;
}

/** The money columns' definitions as information_schema gives them. */
async function moneyColumns(db: Db, suffix: '' | '_cents') {
  const names = MONEY.map(([t, c]) => `${t}.${c}${suffix}`);
  const cols = await select<{ t: string; c: string; type: string; precision: number | null; scale: number | null; dflt: string | null; nullable: string }>(
    db,
    sql`select table_name as t, column_name as c, data_type as type, numeric_precision as precision, numeric_scale as scale, column_default as dflt, is_nullable as nullable
        from information_schema.columns where table_schema = 'public' order by table_name, column_name`,
  );
  return cols.filter((x) => names.includes(`${x.t}.${x.c}`)).map((x) => ({ ...x, precision: x.precision === null ? null : Number(x.precision), scale: x.scale === null ? null : Number(x.scale) }));
}

/** An empty database migrated with a copy of the journal that stops before 0026 (the migrator, as a server of 0025 ran it). */
async function databaseAt0025(backend: Backend): Promise<{ db: Db; close(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'pp-migrations-'));
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { when: number }[] };
  journal.entries = journal.entries.filter((e) => e.when < CENTS_WHEN);
  writeFileSync(journalFile, JSON.stringify(journal));
  try {
    if (backend === 'pglite') {
      const { PGlite } = await import('@electric-sql/pglite');
      const { drizzle } = await import('drizzle-orm/pglite');
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      const client = new PGlite();
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: folder });
      return { db: db as unknown as Db, close: () => client.close() };
    }
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const fresh = await freshDatabase();
    const pool = new pg.Pool({ connectionString: fresh.url, max: 2 });
    const db = drizzle(pool);
    await migrate(db, { migrationsFolder: folder });
    return {
      db: db as unknown as Db,
      async close() {
        await pool.end();
        await fresh.drop();
      },
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Books {
  /** per table, per row id, per money column: cents */
  amounts: Record<string, Record<number, Record<string, number>>>;
  ledger: LedgerRow[];
  /** per account id: balance, past due, credit (cents) */
  balances: Record<number, { balanceCents: number; pastDueCents: number; creditCents: number; paymentDue: string | null }>;
  /** per payment id: amount, fee and total as the receipt shows them (cents) */
  receipts: Record<number, { amount: number; fee: number; total: number }>;
}

const TODAY = '2026-11-23';

/** Everything with an amount, in cents: before 0026 from the numeric dollars as the server converted them, after from the cents columns. */
async function books(db: Db, stage: 'before' | 'after'): Promise<Books> {
  const amounts: Books['amounts'] = {};
  for (const [table, column] of MONEY) {
    const col = stage === 'before' ? column : `${column}_cents`;
    const found = await select<{ id: number; v: string | number }>(db, sql.raw(`select id, ${col}::text as v from ${table} order by id`));
    for (const r of found) {
      // before: numeric text to cents as the server of 0025 did (Math.round(Number(x) * 100)); after: the integer itself
      const cents = stage === 'before' ? Math.round(Number(r.v) * 100) : Number(r.v);
      if (stage === 'after') expect(String(r.v)).toMatch(/^-?\d+$/);
      ((amounts[table] ??= {})[Number(r.id)] ??= {})[column] = cents;
    }
  }
  const ledger = (
    await select<{ id: number; kind: string; amountCents: number; entryDate: string; dueDate: string | null; invoiceId: number | null; accountId: number }>(
      db,
      sql`select id, kind, amount_cents as "amountCents", entry_date::text as "entryDate", due_date::text as "dueDate", invoice_id as "invoiceId", account_id as "accountId" from ledger_entries order by id`,
    )
  ).map((r) => ({ ...r, id: Number(r.id), amountCents: Number(r.amountCents), invoiceId: r.invoiceId === null ? null : Number(r.invoiceId), accountId: Number(r.accountId) }));
  const balances: Books['balances'] = {};
  for (const a of await select<{ id: number }>(db, sql`select id from accounts order by id`)) {
    const m = accountMoneyOf(ledger.filter((l) => l.accountId === Number(a.id)), TODAY);
    balances[Number(a.id)] = { balanceCents: m.balanceCents, pastDueCents: m.pastDueCents, creditCents: m.creditCents, paymentDue: m.paymentDue };
  }
  const receipts: Books['receipts'] = {};
  for (const [id, p] of Object.entries(amounts.payments ?? {})) receipts[Number(id)] = { amount: p.amount, fee: p.processing_fee, total: p.amount + p.processing_fee };
  return { amounts, ledger, balances, receipts };
}

describe.each(BACKENDS)('migration 0026: money in cents (%s)', (backend) => {
  let t: TestApp;
  let db: Db;
  let before: Books;
  let after: Books;
  let garciaId: number;
  let nguyenId: number;
  const odd = ['0.01', '0.29', '4.35', '12.34', '999999.99', '21474836.47'];

  beforeAll(async () => {
    // the demo data as the server writes it, then the money columns put back as 0025 had them
    // (numeric dollars, exactly) and 0026 taken off the migrations applied
    t = await createTestApp(backend);
    db = t.db.handle.db;
    for (const [table, column] of MONEY) {
      await db.execute(sql.raw(`ALTER TABLE "${table}" ALTER COLUMN "${column}_cents" DROP DEFAULT`));
      await db.execute(sql.raw(`ALTER TABLE "${table}" ALTER COLUMN "${column}_cents" SET DATA TYPE numeric(12, 2) USING "${column}_cents" / 100.0`));
      if (DEFAULTED.has(`${table}.${column}`)) await db.execute(sql.raw(`ALTER TABLE "${table}" ALTER COLUMN "${column}_cents" SET DEFAULT '0'`));
      await db.execute(sql.raw(`ALTER TABLE "${table}" RENAME COLUMN "${column}_cents" TO "${column}"`));
    }
    await db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = ${CENTS_WHEN}`);
    [{ id: garciaId }] = await select<{ id: number }>(db, sql`select id from accounts where account_no = 'BP-10234'`);
    [{ id: nguyenId }] = await select<{ id: number }>(db, sql`select id from accounts where account_no = 'NR-5521'`);

    // odd amounts as the server of 0025 wrote them: charges and payments in dollars, their ledger lines in cents
    const [pp] = await select<{ pid: number; ppid: number; site: number }>(db, sql`select a.provider_id as pid, a.program_period_id as ppid, a.site_id as site from activities a join accounts acc on acc.provider_id = a.provider_id where acc.id = ${garciaId} limit 1`);
    for (const [i, amount] of odd.entries()) {
      const [inv] = await select<{ id: number }>(
        db,
        sql`insert into invoices (provider_id, account_id, service_period_detail_id, service_period, invoice_date, payment_due_date, amount, auto_pay_discount_value)
            values (${pp.pid}, ${garciaId}, ${9900 + i}, ${`Odd ${amount}`}, '2026-10-01', '2026-10-10', ${amount}::numeric, ${odd[(i + 1) % odd.length]}::numeric) returning id`,
      );
      await db.execute(sql`insert into ledger_entries (provider_id, account_id, kind, amount_cents, entry_date, due_date, invoice_id, description, created_at)
            values (${pp.pid}, ${garciaId}, 'CHARGE', round(${amount}::numeric * 100)::integer, '2026-10-01', '2026-10-10', ${inv.id}, 'odd', now())`);
      const [pay] = await select<{ id: number }>(
        db,
        sql`insert into payments (provider_id, account_id, payment_date, amount, payment_method_code, processing_fee, payer_name)
            values (${pp.pid}, ${garciaId}, '2026-11-02', ${amount}::numeric, 'CCD', ${odd[(i + 2) % odd.length]}::numeric, 'Odd Payer') returning id`,
      );
      await db.execute(sql`insert into ledger_entries (provider_id, account_id, kind, amount_cents, entry_date, payment_id, description, created_at)
            values (${pp.pid}, ${garciaId}, 'PAYMENT', round(${amount}::numeric * 100)::integer, '2026-11-02', ${pay.id}, 'odd', now())`);
      await db.execute(sql`insert into activities (provider_id, program_period_id, site_id, activity, start_date, end_date, first_child_reg_fee, second_child_reg_fee, third_child_reg_fee, fee, sibling_fee)
            values (${pp.pid}, ${pp.ppid}, ${pp.site}, ${`Odd ${amount}`}, '2026-09-01', '2027-06-01', ${amount}::numeric, ${odd[(i + 1) % odd.length]}::numeric, ${odd[(i + 2) % odd.length]}::numeric, ${odd[(i + 3) % odd.length]}::numeric, ${odd[(i + 4) % odd.length]}::numeric)`);
    }
    await db.execute(sql`update accounts set late_fee_after_due_date = 12.35 where id = ${garciaId}`);
    await db.execute(sql`update program_periods set registration_fee = 999999.99 where id = ${pp.ppid}`);

    before = await books(db, 'before');
    // the portal's migrator (drizzle's would skip 0026 now that later migrations are recorded)
    await applyMigrations(db as never, MIGRATIONS);
    after = await books(db, 'after');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it('the database put back is what the migrator leaves at 0025', async () => {
    // (checked before 0026 ran through the migrator's own table: nothing of it is left there)
    const at0025 = await databaseAt0025(backend);
    try {
      const expected = await moneyColumns(at0025.db, '');
      expect(expected).toHaveLength(MONEY.length);
      expect(expected.every((c) => c.type === 'numeric' && c.precision === 12 && c.scale === 2)).toBe(true);
      // the converted columns: integer cents, not null, defaults 0 where 0025 had them
      const converted = await moneyColumns(db, '_cents');
      expect(converted.map(({ t, c, type, nullable }) => ({ t, c, type, nullable }))).toEqual(expected.map(({ t, c, nullable }) => ({ t, c: `${c}_cents`, type: 'integer', nullable })));
      expect(converted.map((c) => (c.dflt === null ? null : c.dflt.replace(/[^0-9]/g, '')))).toEqual(expected.map((c) => (c.dflt === null ? null : '0')));
      expect(await moneyColumns(db, '')).toEqual([]);
    } finally {
      await at0025.close();
    }
  });

  it('0026 ran once, through the migrator', async () => {
    const applied = await select<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations where created_at = ${CENTS_WHEN}`);
    expect(Number(applied[0].n)).toBe(1);
  });

  it('every amount, ledger line, balance and receipt is the same to the cent', () => {
    // the odd amounts are there, down to the cent and up to the largest an integer column holds
    const oddCents = odd.map((a) => Math.round(Number(a) * 100));
    expect(oddCents).toEqual([1, 29, 435, 1234, 99999999, 2147483647]);
    const paid = Object.values(after.amounts.payments).map((p) => p.amount);
    for (const c of oddCents) expect(paid).toContain(c);
    expect(after.amounts.accounts[garciaId].late_fee_after_due_date).toBe(1235);
    expect(Object.keys(after.balances).length).toBeGreaterThan(2);

    expect(after.amounts).toEqual(before.amounts);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.balances).toEqual(before.balances);
    expect(after.receipts).toEqual(before.receipts);
  });

  it('the API answers the same dollars as before', async () => {
    const maria = await tokenFor(t.app, ...MARIA);
    const summary = (await callOperation(t.app, 'Billing.accountSummary', { token: maria })).json();
    expect(summary.lateFeeAfterDueDate).toBe(12.35);
    const invoices = (await callOperation(t.app, 'Billing.invoices', { token: maria })).json() as { invoiceID: number; amount: number; autoPayDiscountValue: number }[];
    expect(invoices.map((i) => [i.invoiceID, i.amount, i.autoPayDiscountValue])).toEqual(
      invoices.map((i) => [i.invoiceID, before.amounts.invoices[i.invoiceID].amount / 100, before.amounts.invoices[i.invoiceID].auto_pay_discount_value / 100]),
    );
    const received = (await callOperation(t.app, 'Billing.paymentsReceived', { token: maria })).json() as { accountPaymentID: number; amount: number }[];
    // the demo's card payments of the months before this one (two or three) and Ana's
    expect(received.length).toBeGreaterThanOrEqual(odd.length + 3);
    for (const p of received) {
      expect(p.amount).toBe(before.amounts.payments[p.accountPaymentID].amount / 100);
      const receipt = (await callOperation(t.app, 'Billing.receipt', { token: maria, params: { accountpaymentid: p.accountPaymentID } })).json();
      const r = before.receipts[p.accountPaymentID];
      expect([receipt.amount, receipt.processingFee, receipt.total]).toEqual([r.amount / 100, r.fee / 100, r.total / 100]);
    }
    const linh = await tokenFor(t.app, ...LINH);
    const other = (await callOperation(t.app, 'Billing.accountSummary', { token: linh })).json();
    expect(Math.round(other.currentBalance * 100)).toBe(before.balances[nguyenId].balanceCents);
    expect(Math.round(summary.currentBalance * 100)).toBe(before.balances[garciaId].balanceCents);
  });
});
