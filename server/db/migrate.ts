// Applies the SQL migrations of server/db/migrations (drizzle's files, journal and record table),
// with two differences from drizzle's own migrator that matter once several people add migrations
// and several instances start at once:
// - a migration is applied when the database has no record of it (its journal time or its hash),
//   not when its time is after the newest applied one: drizzle's rule silently skips a migration
//   merged with an earlier time than one a database already has;
// - all of it runs in one transaction under an advisory lock, so instances starting together on one
//   PostgreSQL apply each migration once (the others wait, then find it recorded).
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { queryRows, type RunsSql } from './rows';

/** What the migrator needs of a database (PGlite's or node-postgres' drizzle) */
interface Database {
  transaction<T>(run: (tx: RunsSql) => Promise<T>): Promise<T>;
}

/** pg_advisory_xact_lock key of applyMigrations ('ppmg') */
const MIGRATIONS_LOCK = 0x70706d67;

/** Applies, in journal order, every migration the database has no record of; answers their tags' times. */
export async function applyMigrations(db: Database, migrationsFolder: string): Promise<number[]> {
  const migrations = readMigrationFiles({ migrationsFolder });
  const applied: number[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATIONS_LOCK})`);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
    const done = await queryRows<{ hash: string; created_at: string | number }>(tx, sql`select hash, created_at from drizzle.__drizzle_migrations`);
    const hashes = new Set(done.map((r) => r.hash));
    const times = new Set(done.map((r) => Number(r.created_at)));
    for (const m of migrations) {
      if (hashes.has(m.hash) || times.has(m.folderMillis)) continue;
      for (const statement of m.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.folderMillis})`);
      applied.push(m.folderMillis);
    }
  });
  return applied;
}
