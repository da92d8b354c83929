// Prepared statements for the queries every request runs (the session behind a token, the signed-in
// parent): the query is built once per database, not on every request. Building a query is most
// of the server's own CPU time on a short read; PostgreSQL also keeps the plan per connection.
import type { Db } from './index';

const cache = new WeakMap<Db, Map<string, unknown>>();

/** The statement `name` of `db`, built by `build` the first time it is asked for. */
export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = cache.get(db);
  if (!statements) cache.set(db, (statements = new Map()));
  if (!statements.has(name)) statements.set(name, build(db));
  return statements.get(name) as T;
}
