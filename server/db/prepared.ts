// Prepared statements for the queries every request runs (the session behind a token, the signed-in
// parent): the query is built once per database, not on every request. Building a query is most
// of the server's own CPU time on a short read; PostgreSQL also keeps the plan per connection.
import DataLoader from 'dataloader';
import type { Db } from './index';

const cache = new WeakMap<Db, Map<string, unknown>>();

/** The statement `name` of `db`, built by `build` the first time it is asked for. */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  if (!statements.has(name)) statements.set(name, build(db));
  return statements.get(name) as T;
}

interface RawClient {
  query(q: string | { name: string; text: string; values: unknown[] }, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/**
 * One call of a SQL function that takes and answers jsonb (the submit of an application): on
 * PostgreSQL a statement prepared once per connection under `name`, on PGlite a plain query.
 */
export async function callJson<T>(db: Db, name: string, fn: string, arg: unknown): Promise<T> {
  if (!/^[a-z_]+$/.test(fn)) throw new Error(`not a function name: ${fn}`);
  const client = (db as unknown as { $client: RawClient }).$client;
  const text = `select ${fn}($1::jsonb) as r`;
  const values = [JSON.stringify(arg)];
  const { rows } = 'connect' in client && 'totalCount' in client ? await client.query({ name, text, values }) : await client.query(text, values);
  return rows[0].r as T;
}

/** A batch is what was asked for in one turn of the event loop: a lone request waits one turn. */
const oneTurn = (dispatch: () => void) => void setImmediate(dispatch);

/**
 * Loads by key with one query for many callers: the keys asked for in the same turn of the event loop
 * (at most `max`) go to `load` together. Under a rush, two thousand requests' session lookups are a
 * handful of queries, not two thousand round trips. Nothing is cached between turns (a session or a
 * draft may change with the next request).
 */
export function batchLoader<K, V>(load: (keys: K[]) => Promise<Map<K, V>>, max = 200): (key: K) => Promise<V | undefined> {
  const loader = new DataLoader<K, V | undefined>(
    async (keys) => {
      const found = await load([...new Set(keys)]);
      return keys.map((k) => found.get(k));
    },
    { cache: false, maxBatchSize: max, batchScheduleFn: oneTurn },
  );
  return (key) => loader.load(key);
}

/**
 * Calls of one moment go to the database together: the items asked for in the same turn of the event
 * loop go to `run` in lists of at most `max()` (read at each call; 1 sends each alone), and `run`
 * answers one outcome per item, in order. Under a rush, two thousand submits are a few dozen calls.
 */
export function batched<I, O>(run: (items: I[]) => Promise<O[]>, max: () => number): (item: I) => Promise<O> {
  // one loader per batch size, so a size changed between turns applies from the next call
  const loaders = new Map<number, DataLoader<I, O>>();
  return (item) => {
    const size = Math.max(1, Math.floor(max()));
    let loader = loaders.get(size);
    if (!loader) loaders.set(size, (loader = new DataLoader<I, O>(async (items) => run([...items]), { cache: false, maxBatchSize: size, batchScheduleFn: oneTurn })));
    return loader.load(item);
  };
}
