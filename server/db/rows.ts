// Raw SQL's rows, whichever driver runs it: node-postgres and PGlite answer { rows }.
import type { SQL } from 'drizzle-orm';
import { isRecord } from '../json';

/** What runs raw SQL: drizzle's database or transaction, over PGlite or node-postgres. */
export interface RunsSql {
  execute(query: SQL): Promise<unknown>;
}

/**
 * The rows of a raw query. Row is the caller's word for its SELECT list (the drivers' answers are
 * untyped), so it is the one place a raw query's columns are named.
 */
export async function queryRows<Row extends Record<string, unknown>>(db: RunsSql, query: SQL): Promise<Row[]> {
  const result = await db.execute(query);
  const rows: unknown = Array.isArray(result) ? result : isRecord(result) ? result.rows : undefined;
  if (!Array.isArray(rows)) throw new Error('the database answered a query without rows');
  return rows as Row[];
}
