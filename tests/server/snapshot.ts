// A snapshot of every table of the database, to prove a run of requests changed nothing: each table's
// rows in id order, leaving out what any request may write (sessions, the sign-in audit, per-address
// request counts and the limits' counters, the outbox and the error log).
import { getTableName, is, Table } from 'drizzle-orm';
import type { Db } from '../../server/db/index';
import { eq } from 'drizzle-orm';
import * as schema from '../../server/db/schema';

const LEFT_OUT = new Set(['sessions', 'signin_audit', 'auth_requests', 'outbox', 'error_log', 'request_counts']);

/**
 * `own` leaves out the rows of one account (its account row, every row carrying its account id or one
 * of its logins, its adults' links to children): what a signed-in parent may change with requests the
 * server accepted.
 */
export async function snapshotDb(db: Db, own?: OwnAccount): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of Object.values(schema)) {
    if (!is(t, Table)) continue;
    const name = getTableName(t);
    if (LEFT_OUT.has(name)) continue;
    let rows = (await db.select().from(t as any)) as Record<string, unknown>[];
    if (own) {
      rows = rows.filter(
        (r) =>
          !(
            r.accountId === own.accountId ||
            (name === 'accounts' && r.id === own.accountId) ||
            (name === 'logins' && own.loginIds.includes(r.id as number)) ||
            own.loginIds.includes(r.loginId as number) ||
            // links between its adults and children (a contact's relationships)
            (name === 'child_adults' && own.adultIds.includes(r.adultId as number))
          ),
      );
    }
    const text = rows.map((r) => JSON.stringify(r, (_k, v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).sort();
    out[name] = text.join('\n');
  }
  return out;
}

/** The tables whose rows differ between two snapshots. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before).filter((k) => before[k] !== after[k]);
}

export interface OwnAccount {
  accountId: number;
  loginIds: number[];
  adultIds: number[];
}

/** The account of a login e-mail, its adults and their logins. */
export async function ownAccount(db: Db, email: string): Promise<OwnAccount> {
  const [me] = await db.select().from(schema.adults).where(eq(schema.adults.email, email));
  const rows = await db
    .select({ id: schema.logins.id })
    .from(schema.logins)
    .innerJoin(schema.adults, eq(schema.adults.id, schema.logins.adultId))
    .where(eq(schema.adults.accountId, me.accountId));
  const adults = await db.select({ id: schema.adults.id }).from(schema.adults).where(eq(schema.adults.accountId, me.accountId));
  return { accountId: me.accountId, loginIds: rows.map((r) => r.id), adultIds: adults.map((a) => a.id) };
}
