// Passwords (argon2id) and sessions: opaque 256-bit tokens, of which only SHA-256 hashes are
// stored, with an idle expiry (30 minutes, renewed on use) and an absolute expiry (12 hours),
// revoked at sign-out.
import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from './db/index';
import { batchLoader, prepared } from './db/prepared';
import { sessions, logins, adults } from './db/schema';
import type { Clock } from './clock';

export interface Argon2Options {
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP-recommended argon2id parameters; tests pass a lower cost through buildApp. */
export const PRODUCTION_ARGON2: Argon2Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export const IDLE_MS = 30 * 60 * 1000;
export const ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** A session row is written at most once a minute: reads under load are not one write each. */
export const TOUCH_MS = 60 * 1000;

export class Passwords {
  private dummy: Promise<string>;
  constructor(private opts: Argon2Options) {
    // a hash to verify against for unknown users, so both answers take the same time
    this.dummy = this.hash(randomBytes(16).toString('hex'));
  }
  hash(password: string): Promise<string> {
    // 2 = Algorithm.Argon2id (a const enum, not importable under isolatedModules)
    return hash(password, { algorithm: 2, ...this.opts });
  }
  async verify(stored: string | null, password: string): Promise<boolean> {
    if (!stored) {
      await verify(await this.dummy, password).catch(() => false);
      return false;
    }
    try {
      return await verify(stored, password);
    } catch {
      return false;
    }
  }
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface SessionInfo {
  sessionId: number;
  providerId: number;
  loginId: number;
  adultId: number;
  accountId: number;
  isTemporaryPassword: boolean;
  accessType: string;
  accountHolder: number;
  locale: string;
  /** the signed-in parent's sign-in e-mail and name (a confirmation e-mail goes to this address) */
  email: string;
  firstName: string;
  lastName: string;
}

export async function createSession(
  db: Db,
  clock: Clock,
  s: { providerId: number; loginId: number; adultId: number; accountId: number; locale: string },
): Promise<string> {
  const token = newToken();
  const now = clock();
  // sessions past their absolute expiry for a day are of no use any more
  await db.delete(sessions).where(lt(sessions.absoluteExpiresAt, new Date(now.getTime() - 24 * 60 * 60 * 1000)));
  await db.insert(sessions).values({
    ...s,
    tokenHash: hashToken(token),
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: new Date(now.getTime() + IDLE_MS),
    absoluteExpiresAt: new Date(now.getTime() + ABSOLUTE_MS),
  });
  return token;
}

/** The live session of a token, its idle expiry renewed; null when unknown, expired or revoked. */
export async function resolveSession(db: Db, clock: Clock, token: string): Promise<SessionInfo | null> {
  const now = clock();
  const row = await prepared(db, 'sessions_by_token', (d) => {
    const query = d
      .select({
        s: sessions,
        isTemporaryPassword: logins.isTemporaryPassword,
        active: logins.active,
        email: logins.email,
        firstName: adults.firstName,
        lastName: adults.lastName,
        accessType: adults.accessType,
        accountHolder: adults.accountHolder,
        adultDeleted: adults.deleted,
      })
      .from(sessions)
      .innerJoin(logins, eq(logins.id, sessions.loginId))
      .innerJoin(adults, eq(adults.id, sessions.adultId))
      .where(and(sql`${sessions.tokenHash} = any(${sql.placeholder('tokenHashes')})`, isNull(sessions.revokedAt)))
      .prepare('sessions_by_token');
    // the requests of one moment are looked up together (a token hash is unique)
    return batchLoader(async (tokenHashes: string[]) => new Map((await query.execute({ tokenHashes })).map((r) => [r.s.tokenHash, r])));
  })(hashToken(token));
  if (!row) return null;
  const s = row.s;
  if (now >= s.idleExpiresAt || now >= s.absoluteExpiresAt || !row.active || row.adultDeleted) return null;
  // the idle expiry moves on with use, but the row is touched at most once a minute
  if (now.getTime() - s.lastSeenAt.getTime() >= TOUCH_MS) {
    await db
      .update(sessions)
      .set({ lastSeenAt: now, idleExpiresAt: new Date(now.getTime() + IDLE_MS) })
      .where(eq(sessions.id, s.id));
  }
  return {
    sessionId: s.id,
    providerId: s.providerId,
    loginId: s.loginId,
    adultId: s.adultId,
    accountId: s.accountId,
    isTemporaryPassword: row.isTemporaryPassword,
    accessType: row.accessType,
    accountHolder: row.accountHolder,
    locale: s.locale,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
  };
}

export async function revokeSession(db: Db, clock: Clock, sessionId: number): Promise<void> {
  await db.update(sessions).set({ revokedAt: clock() }).where(eq(sessions.id, sessionId));
}
