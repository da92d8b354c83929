// The migrator: a migration merged with an earlier journal time than one a database already has is
// still applied (drizzle's own rule, "newer than the newest applied", skips it), none is applied twice,
// and instances starting together on one PostgreSQL apply each migration once.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { freshDatabase } from './freshDatabase';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../server/db/migrate';
import { BACKENDS, type Backend } from './helpers';

const MIGRATIONS = join(import.meta.dirname, '../../server/db/migrations');

/** A migrations folder of its own: entries [tag, when, sql], in journal order. */
function folder(entries: [string, number, string][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'pp-migrations-'));
  mkdirSync(join(dir, 'meta'));
  for (const [tag, , text] of entries) writeFileSync(join(dir, `${tag}.sql`), text);
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: entries.map(([tag, when], idx) => ({ idx, version: '7', when, tag, breakpoints: true })) }));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

type AnyDb = ReturnType<typeof drizzlePglite> | ReturnType<typeof drizzlePg>;

/** An empty database, and a way to open more connections to it (PostgreSQL). */
async function emptyDb(backend: Backend): Promise<{ db: AnyDb; more?: () => AnyDb }> {
  if (backend === 'pglite') {
    const client = new PGlite();
    cleanups.push(() => client.close());
    return { db: drizzlePglite(client) };
  }
  const fresh = await freshDatabase();
  const pools: pg.Pool[] = [];
  const open = () => {
    const pool = new pg.Pool({ connectionString: fresh.url, max: 2 });
    pools.push(pool);
    return drizzlePg(pool);
  };
  cleanups.push(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await fresh.drop();
  });
  return { db: open(), more: open };
}

const tables = async (db: AnyDb) => {
  const r = (await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`)) as unknown as { rows: { table_name: string }[] };
  return r.rows.map((x) => x.table_name);
};
const recorded = async (db: AnyDb) => {
  const r = (await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by id`)) as unknown as { rows: { created_at: string }[] };
  return r.rows.map((x) => Number(x.created_at));
};

describe.each(BACKENDS)('migrations on %s', (backend) => {
  it('applies a migration merged with an earlier time than one already applied, and nothing twice', async () => {
    const { db } = await emptyDb(backend);
    const a: [string, number, string] = ['0001_a', 1000, 'create table mig_a (x int)'];
    const b: [string, number, string] = ['0003_b', 3000, 'create table mig_b (x int);\n--> statement-breakpoint\ninsert into mig_b values (1)'];
    expect(await applyMigrations(db, folder([a, b]))).toEqual([1000, 3000]);
    // a branch merged later brings 0002 with a time before 0003's
    const c: [string, number, string] = ['0002_c', 2000, 'create table mig_c (x int)'];
    const merged = folder([a, c, b]);
    expect(await applyMigrations(db, merged)).toEqual([2000]);
    expect(await tables(db)).toEqual(['mig_a', 'mig_b', 'mig_c']);
    expect(await applyMigrations(db, merged)).toEqual([]);
    expect(await recorded(db)).toEqual([1000, 3000, 2000]);
  });

  it('takes a migration recorded by its time as applied, even if its file was edited since', async () => {
    const { db } = await emptyDb(backend);
    await applyMigrations(db, folder([['0001_a', 1000, 'create table mig_a (x int)']]));
    expect(await applyMigrations(db, folder([['0001_a', 1000, 'create table mig_a (x int, y int)']]))).toEqual([]);
  });

  it('rolls back all of a run whose migration fails, and records none of it', async () => {
    const { db } = await emptyDb(backend);
    await expect(applyMigrations(db, folder([['0001_a', 1000, 'create table mig_a (x int)'], ['0002_bad', 2000, 'create table mig_a (x int)']]))).rejects.toThrow();
    expect(await tables(db)).toEqual([]);
  });

  it.runIf(backend === 'postgres')('applies each of the portal\'s migrations once when three instances start together', async () => {
    const { more } = await emptyDb(backend);
    const dbs = [more!(), more!(), more!()];
    const runs = await Promise.all(dbs.map((db) => applyMigrations(db, MIGRATIONS)));
    const all = runs.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeGreaterThan(20);
    expect((await recorded(dbs[0])).length).toBe(all.length);
  });
});
