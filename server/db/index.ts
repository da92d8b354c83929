// Opens the database and applies the migrations: embedded PGlite by default (data folder
// .data/pglite, or PGLITE_DIR; ':memory:' for tests) or PostgreSQL through node-postgres when a
// connection URL is given. Both run the same SQL migrations from server/db/migrations.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface OpenDbOptions {
  /** postgres://… — use PostgreSQL */
  databaseUrl?: string;
  /** PGlite data folder, or ':memory:' */
  pgliteDir?: string;
  /** PostgreSQL connections at most (DATABASE_POOL_SIZE; default 10) */
  poolSize?: number;
}

export const DEFAULT_POOL_SIZE = 10;

export async function openDb(opts: OpenDbOptions): Promise<DbHandle> {
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize || DEFAULT_POOL_SIZE });
    // an idle connection the server ends (restart, failover, a dropped database) must not take the
    // process down: the pool replaces it on the next query
    pool.on('error', (err) => console.error(`database connection lost: ${err.message}`));
    const db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = opts.pgliteDir ?? '.data/pglite';
  if (dir !== ':memory:') mkdirSync(dir, { recursive: true });
  const client = dir === ':memory:' ? new PGlite() : new PGlite(dir);
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}

export { schema };
