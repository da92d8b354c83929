// Opens the database and applies the migrations: embedded PGlite by default (data folder
// .data/pglite, or PGLITE_DIR; ':memory:' for tests) or PostgreSQL through node-postgres when a
// connection URL is given. Both run the same SQL migrations from server/db/migrations, then the
// database functions of server/db/functions.
import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';
import { applyMigrations } from './migrate';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction of the database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** What a query that may run inside a transaction takes: the database or the transaction. */
export type DbOrTx = Db | Tx;

export interface DbHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PostgreSQL: the pool's connections (open, idle, waiting, the maximum), for the metrics */
  poolStats?: () => { total: number; idle: number; waiting: number; max: number };
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');
const functionsFolder = join(dirname(fileURLToPath(import.meta.url)), 'functions');

/**
 * The database functions' current bodies: one file per function, server/db/functions/<name>.sql,
 * a single CREATE OR REPLACE statement each, in file-name order. Migrations do not restate them: a
 * change to a function is an edit of its file.
 */
export function functionSources(): { name: string; sql: string }[] {
  return readdirSync(functionsFolder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ name: f.slice(0, -'.sql'.length), sql: readFileSync(join(functionsFolder, f), 'utf8') }));
}

/** pg_advisory_xact_lock key of applyFunctions ('ppfn') */
const FUNCTIONS_LOCK = 0x7070666e;

/**
 * Applies every function file after the migrations, on every start: CREATE OR REPLACE, so applying
 * twice changes nothing. In one transaction under an advisory lock, because servers starting together on
 * one PostgreSQL would otherwise replace a function at once ('tuple concurrently updated').
 */
export async function applyFunctions(db: Db): Promise<void> {
  const sources = functionSources();
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${FUNCTIONS_LOCK})`);
    for (const f of sources) await tx.execute(sql.raw(f.sql));
  });
}

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
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize || DEFAULT_POOL_SIZE });
    // an idle connection the server ends (restart, failover, a dropped database) must not take the
    // process down: the pool replaces it on the next query
    pool.on('error', (err) => console.error(`database connection lost: ${err.message}`));
    const db = drizzle(pool, { schema });
    await applyMigrations(db, migrationsFolder);
    await applyFunctions(db);
    const max = opts.poolSize || DEFAULT_POOL_SIZE;
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max });
    return { db, kind: 'postgres', close: () => pool.end(), poolStats };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const dir = opts.pgliteDir ?? '.data/pglite';
  if (dir !== ':memory:') mkdirSync(dir, { recursive: true });
  const client = dir === ':memory:' ? new PGlite() : new PGlite(dir);
  const db = drizzle(client, { schema });
  await applyMigrations(db, migrationsFolder);
  await applyFunctions(db);
  return { db, kind: 'pglite', close: () => client.close() };
}

export { schema };
