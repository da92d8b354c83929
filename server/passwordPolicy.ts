// Server checks of a new password beyond the declared rules (rules/password.rules.json, which the
// registrar already ran): not one of the most common passwords, not the user name, and not the
// current or an earlier password of the login (spec 5.2).
import { dictionary } from '@zxcvbn-ts/language-common';
import { desc, eq } from 'drizzle-orm';
import type { AppDeps } from './context';
import { passwordHistory, logins } from './db/schema';
import { httpError, type HttpError } from './errors';

// zxcvbn's list of common passwords (MIT), most common first, about 49,000 entries; far too large
// for the browser, so this check runs on the server only
const COMMON = new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));

/** How many earlier passwords a new one must differ from (besides the current one). */
export const HISTORY_DEPTH = 5;

export function isCommonPassword(password: string): boolean {
  const p = password.toLowerCase();
  if (COMMON.has(p)) return true;
  // "Password1!" style: a common word with the usual digits and symbols around it
  const core = p.replace(/^[^a-z]+|[^a-z]+$/g, '');
  return core.length >= 4 && core.length < p.length && COMMON.has(core) && p.length - core.length <= 4;
}

export function commonPasswordCount(): number {
  return COMMON.size;
}

function fieldError(deps: AppDeps, lang: string, key: string): HttpError {
  return httpError({ deps, lang }, 400, key, undefined, { errors: [{ path: '/newPassword', key }] });
}

/**
 * Refuses the new password (400 with the field error on /newPassword) when it is common, equals the
 * user name, or equals the login's current or one of its last HISTORY_DEPTH passwords.
 */
export async function checkNewPassword(deps: AppDeps, lang: string, opts: { loginId: number | null; email: string; newPassword: string }): Promise<void> {
  const pw = opts.newPassword;
  if (pw.toLowerCase() === opts.email.toLowerCase()) throw fieldError(deps, lang, 'auth.errors.sameAsUserName');
  if (isCommonPassword(pw)) throw fieldError(deps, lang, 'auth.errors.commonPassword');
  if (opts.loginId === null) return;
  const [login] = await deps.db.select({ passwordHash: logins.passwordHash }).from(logins).where(eq(logins.id, opts.loginId));
  const old = await deps.db
    .select({ passwordHash: passwordHistory.passwordHash })
    .from(passwordHistory)
    .where(eq(passwordHistory.loginId, opts.loginId))
    .orderBy(desc(passwordHistory.id))
    .limit(HISTORY_DEPTH);
  for (const h of [login?.passwordHash, ...old.map((o) => o.passwordHash)]) {
    if (h && (await deps.passwords.verify(h, pw))) throw fieldError(deps, lang, 'auth.errors.passwordUsedBefore');
  }
}

/** Keeps the replaced hash so that it cannot come back (called before the login gets its new hash). */
export async function rememberPassword(deps: AppDeps, loginId: number, oldHash: string): Promise<void> {
  await deps.db.insert(passwordHistory).values({ loginId, passwordHash: oldHash, createdAt: deps.clock() });
}
