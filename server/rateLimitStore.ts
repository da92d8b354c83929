// Where the per-address limits are counted. Several instances behind one load balancer must count
// together, or each instance multiplies a guesser's tries: by default in the database every instance
// uses (request_counts), with Redis (REDIS_URL) when there is one. The store follows @fastify/rate-limit's
// interface (incr, read, child); a window starts at a key's first request, like the plugin's own
// in-memory store does.
import { lt, sql, and, eq } from 'drizzle-orm';
import type { Db } from './db/index';
import { requestCounts } from './db/schema';
import type { Clock } from './clock';
import { isRecord } from './json';

type Counted = { current: number; ttl: number };
type Done = (err: Error | null, res?: Counted) => void;

/** How often an instance deletes the rows of ended windows (each instance; a delete is idempotent). */
export const PURGE_EVERY_MS = 60_000;

/** A @fastify/rate-limit `store` class counting in the database: one atomic upsert per request. */
export function databaseRateLimitStore(db: Db, clock: Clock, onError: (err: unknown) => void) {
  let lastPurge = 0;
  const purge = (now: Date) => {
    if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
    lastPurge = now.getTime();
    db.delete(requestCounts).where(lt(requestCounts.windowEnds, now)).catch(onError);
  };

  class DatabaseStore {
    readonly route: string;
    // the plugin constructs the root store with its options; each limited route gets a child
    constructor(_options?: unknown, route = '') {
      this.route = route;
    }

    incr(key: string, done: Done, timeWindow: number) {
      const now = clock();
      const ends = new Date(now.getTime() + timeWindow);
      // one statement, so concurrent requests on any instance each get their own count; a window that
      // has ended starts again at this request
      const ended = sql`${requestCounts.windowEnds} <= ${now.toISOString()}::timestamptz`;
      db.insert(requestCounts)
        .values({ route: this.route, key, windowStart: now, windowEnds: ends, count: 1 })
        .onConflictDoUpdate({
          target: [requestCounts.route, requestCounts.key],
          set: {
            count: sql`CASE WHEN ${ended} THEN 1 ELSE ${requestCounts.count} + 1 END`,
            windowStart: sql`CASE WHEN ${ended} THEN ${now.toISOString()}::timestamptz ELSE ${requestCounts.windowStart} END`,
            windowEnds: sql`CASE WHEN ${ended} THEN ${ends.toISOString()}::timestamptz ELSE ${requestCounts.windowEnds} END`,
          },
        })
        .returning({ count: requestCounts.count, windowEnds: requestCounts.windowEnds })
        .then(
          ([row]) => done(null, { current: row.count, ttl: Math.max(0, row.windowEnds.getTime() - now.getTime()) }),
          (err: Error) => done(err),
        );
      purge(now);
    }

    read(key: string, done: Done) {
      const now = clock();
      db.select({ count: requestCounts.count, windowEnds: requestCounts.windowEnds })
        .from(requestCounts)
        .where(and(eq(requestCounts.route, this.route), eq(requestCounts.key, key)))
        .then(
          ([row]) =>
            done(null, !row || row.windowEnds <= now ? { current: 0, ttl: 0 } : { current: row.count, ttl: row.windowEnds.getTime() - now.getTime() }),
          (err: Error) => done(err),
        );
    }

    // the plugin passes the route's limit with the route under routeInfo (its types say the route)
    child(opts: object) {
      const info = 'routeInfo' in opts && isRecord(opts.routeInfo) ? opts.routeInfo : {};
      const { method, url } = info;
      return new DatabaseStore(undefined, `${Array.isArray(method) ? method.join(',') : typeof method === 'string' ? method : ''}${typeof url === 'string' ? url : ''}`);
    }
  }
  return DatabaseStore;
}
