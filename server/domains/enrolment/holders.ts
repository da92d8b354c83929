// The primary account holders a family's mails go to, and their addresses: each holder's sign-in
// address and address on file, once each, however they are written.
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/index';
import { adults, logins } from '../../db/schema';

export async function accountHolders(db: DbOrTx, providerId: number, accountId: number) {
  const holders = await db
    .select({ firstName: adults.firstName, lastName: adults.lastName, email: adults.email, primaryLanguage: adults.primaryLanguage, login: logins.email })
    .from(adults)
    .leftJoin(logins, eq(logins.adultId, adults.id))
    .where(and(eq(adults.providerId, providerId), eq(adults.accountId, accountId), eq(adults.accountHolder, 1), eq(adults.deleted, false)));
  const to = [...new Set(holders.flatMap((h) => [h.login, h.email]).filter((e): e is string => Boolean(e?.trim())).map((e) => e.trim().toLowerCase()))];
  return { holders, to };
}
