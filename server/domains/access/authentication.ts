// Authentication service's sign-in and sign-out (spec 4 Session, 8.2 account locked / inactive).
// Answers never tell whether an e-mail has a login: an unknown e-mail costs the same argon2
// verification and gets the message a wrong password gets.
import { and, count, eq, gt, gte, inArray, isNull, max, ne, or, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { AuthenticationLoginBody, AuthenticationLoginResponse, AuthenticationLogoutResponse } from '../../../src/engine/contract.gen';
import { accounts, adults, logins, signinAudit } from '../../db/schema';
import { HttpError, httpError, type ErrorScope } from '../../errors';
import { createSession, revokeSession } from '../../auth';
import { enqueueMail } from '../../outbox';
import { providerByAppName, sessionState, type ProviderRow } from '../provider/provider';

/**
 * Every attempt writes its row in signin_audit first, as 'pending', and gives it its outcome at the end.
 * Until then other attempts of the e-mail, on any instance, count it among the failures: guesses sent at once
 * cannot all pass the counts below before one of them is written. An attempt never counts its own
 * pending row.
 */
async function reserveAttempt(deps: AppDeps, row: { providerId: number; email: string; ip: string }): Promise<number> {
  const [r] = await deps.db.insert(signinAudit).values({ ...row, loginId: null, outcome: 'pending', at: deps.clock() }).returning({ id: signinAudit.id });
  return r.id;
}

async function audit(deps: AppDeps, attempt: number, row: { loginId: number | null; outcome: string }) {
  await deps.db.update(signinAudit).set(row).where(eq(signinAudit.id, attempt));
}

/** The rows counted among the failures of `attempt`: others' attempts still pending count, its own does not. */
const notOwnPending = (attempt: number) => or(ne(signinAudit.outcome, 'pending'), ne(signinAudit.id, attempt));

async function recentAttempts(deps: AppDeps, providerId: number, email: string, attempt: number): Promise<number> {
  const since = new Date(deps.clock().getTime() - deps.signin.perEmailWindowMs);
  const where = [eq(signinAudit.providerId, providerId), eq(signinAudit.email, email), gte(signinAudit.at, since), ne(signinAudit.outcome, 'rate_limited'), ne(signinAudit.outcome, 'ok'), notOwnPending(attempt)];
  const [r] = await deps.db.select({ n: count() }).from(signinAudit).where(and(...where));
  return Number(r.n);
}

/** Failures of one submitted e-mail (a login or not) since a moment: wrong passwords, unknown e-mails, attempts in progress. */
async function failuresSince(deps: AppDeps, providerId: number, email: string, since: Date, attempt: number): Promise<number> {
  const mine = and(eq(signinAudit.providerId, providerId), eq(signinAudit.email, email));
  // a sign-in or a new password starts the count afresh
  const [fresh] = await deps.db.select({ id: max(signinAudit.id) }).from(signinAudit).where(and(mine, inArray(signinAudit.outcome, ['ok', 'unlocked'])));
  const [r] = await deps.db
    .select({ n: count() })
    .from(signinAudit)
    .where(and(mine, gte(signinAudit.at, since), gt(signinAudit.id, fresh?.id ?? 0), inArray(signinAudit.outcome, ['bad_password', 'unknown', 'pending']), notOwnPending(attempt)));
  return Number(r.n);
}

/** How long an attempt waits after `failures` recent failures of its e-mail: 0, then doubling to the maximum. */
export function slowDownMs(failures: number, cfg: AppDeps['signin']): number {
  if (failures < cfg.slowDownAfter || cfg.slowDownBaseMs <= 0) return 0;
  return Math.min(cfg.slowDownMaxMs, cfg.slowDownBaseMs * 2 ** Math.min(failures - cfg.slowDownAfter, 20));
}

async function sendLockedMail(deps: AppDeps, p: ProviderRow, adult: typeof adults.$inferSelect, to: string, attempts: number, lockMinutes: number) {
  const lang = adult.primaryLanguage;
  const params = {
    programName: p.programName,
    firstName: adult.firstName,
    attempts,
    minutes: lockMinutes,
    supportPhone: p.supportPhone,
    supportEmail: p.supportEmail,
  };
  const lines = ['greeting', 'body', lockMinutes ? 'unlockTemporary' : 'unlock', 'notYou'].map((k) => deps.t(lang, `mail.accountLocked.${k}`, params));
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  await enqueueMail(deps.db, deps.clock, {
    providerId: p.id,
    kind: 'account_locked',
    to,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    subject: deps.t(lang, 'mail.accountLocked.subject', params),
    text: lines.join('\n\n'),
    html: lines.map((l) => `<p>${escape(l)}</p>`).join(''),
  });
  deps.mailQueued();
}

/** Password sign-in with all its checks (limits, slow-down, lock-out, audit, inactive logins); linking a
 * social identity signs in the same way. */
export async function passwordSignIn(deps: AppDeps, lang: string, ip: string, body: AuthenticationLoginBody): Promise<AuthenticationLoginResponse> {
  const p = await providerByAppName(deps.db, body.appName);
  const email = String(body.email).trim().toLowerCase();
  const invalid = () => httpError({ deps, lang }, 401, 'server.errors.invalidCredentials');
  const locked = (minutes: number) =>
    minutes > 0
      ? httpError({ deps, lang }, 423, 'server.errors.accountLockedTemporarily', { minutes })
      : httpError({ deps, lang }, 423, 'server.errors.accountLocked');

  // per e-mail: failed attempts only, so a parent signing in on several devices is never limited
  const attempt = await reserveAttempt(deps, { providerId: p.id, email, ip });
  const failedRecently = await recentAttempts(deps, p.id, email, attempt);
  if (failedRecently >= deps.signin.perEmailMax) {
    await audit(deps, attempt, { loginId: null, outcome: 'rate_limited' });
    throw httpError({ deps, lang }, 429, 'server.errors.tooManyAttempts');
  }
  // repeated failures of the submitted e-mail slow every next attempt down, whether or not a login
  // has it, before anything is looked up: the wait depends on the attempts only, so it reveals nothing
  const wait = slowDownMs(failedRecently, deps.signin);
  if (wait) await new Promise((r) => setTimeout(r, wait));
  // a temporary lock (provider setting): locked while the e-mail has the failures within the minutes
  const lockMinutes = deps.settings(p.appName).signIn.temporaryLockMinutes;
  const temporarilyLocked = async () =>
    lockMinutes > 0 && (await failuresSince(deps, p.id, email, new Date(deps.clock().getTime() - lockMinutes * 60_000), attempt)) >= deps.signin.maxFailed;

  const [row] = await deps.db
    .select({ login: logins, adult: adults, account: accounts })
    .from(logins)
    .innerJoin(adults, eq(adults.id, logins.adultId))
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(logins.providerId, p.id), eq(logins.email, email)));

  const ok = await deps.passwords.verify(row?.login.passwordHash ?? null, String(body.password));

  if (!row || row.adult.deleted) {
    // behave like a real login that locks, so the lock message reveals nothing either
    if (await temporarilyLocked()) {
      await audit(deps, attempt, { loginId: null, outcome: 'locked' });
      throw locked(lockMinutes);
    }
    await audit(deps, attempt, { loginId: null, outcome: 'unknown' });
    if (lockMinutes > 0 ? await temporarilyLocked() : (await recentAttempts(deps, p.id, email, attempt)) >= deps.signin.maxFailed) throw locked(lockMinutes);
    throw invalid();
  }
  const { login, adult, account } = row;

  if (login.lockedAt) {
    await audit(deps, attempt, { loginId: login.id, outcome: 'locked' });
    throw locked(0);
  }
  if (lockMinutes > 0) {
    // temporary locks are counted per e-mail in the audit, just like for an unknown e-mail
    if (await temporarilyLocked()) {
      await audit(deps, attempt, { loginId: login.id, outcome: 'locked' });
      throw locked(lockMinutes);
    }
    if (!ok) {
      await audit(deps, attempt, { loginId: login.id, outcome: 'bad_password' });
      if (await temporarilyLocked()) {
        await sendLockedMail(deps, p, adult, login.email, deps.signin.maxFailed, lockMinutes);
        throw locked(lockMinutes);
      }
      throw invalid();
    }
  } else {
    // every attempt takes its try before its answer counts: one atomic update, on whichever instance it
    // runs, so guesses sent at once (to one instance or several) cannot all pass before one is counted
    const [taken] = await deps.db
      .update(logins)
      .set({ failedCount: sql`${logins.failedCount} + 1` })
      .where(and(eq(logins.id, login.id), isNull(logins.lockedAt)))
      .returning({ failedCount: logins.failedCount });
    if (!taken || taken.failedCount > deps.signin.maxFailed) {
      await audit(deps, attempt, { loginId: login.id, outcome: 'locked' });
      throw locked(0);
    }
    if (!ok) {
      const failed = taken.failedCount;
      const lockNow = failed >= deps.signin.maxFailed;
      if (lockNow) await deps.db.update(logins).set({ lockedAt: deps.clock() }).where(eq(logins.id, login.id));
      await audit(deps, attempt, { loginId: login.id, outcome: lockNow ? 'locked' : 'bad_password' });
      if (lockNow) {
        await sendLockedMail(deps, p, adult, login.email, failed, 0);
        throw locked(0);
      }
      throw invalid();
    }
    // the right password gives its try back (a sign-in below starts the count afresh)
    await deps.db
      .update(logins)
      .set({ failedCount: sql`greatest(${logins.failedCount} - 1, 0)` })
      .where(eq(logins.id, login.id));
  }
  // spec 8.2: a provider whose parent portal is not activated lets no parent in (told after the password, like inactive)
  if (p.features.parentPortal === false) {
    await audit(deps, attempt, { loginId: login.id, outcome: 'inactive' });
    throw portalNotActivated(deps, lang, p.programName);
  }
  if (!login.active) {
    await audit(deps, attempt, { loginId: login.id, outcome: 'inactive' });
    throw httpError({ deps, lang }, 403, 'server.errors.inactiveLogin', { programName: p.programName });
  }

  await deps.db.update(logins).set({ failedCount: 0, lastLoginAt: deps.clock() }).where(eq(logins.id, login.id));
  await audit(deps, attempt, { loginId: login.id, outcome: 'ok' });
  const token = await createSession(deps.db, deps.clock, {
    providerId: p.id,
    loginId: login.id,
    adultId: adult.id,
    accountId: account.id,
    locale: lang,
  });
  return {
    token,
    session: sessionState(p, login, adult, account, deps.releaseVersion, lang),
  };
}

/** Ends a session. */
export async function signOut(deps: AppDeps, sessionId: number): Promise<AuthenticationLogoutResponse> {
  await revokeSession(deps.db, deps.clock, sessionId);
  return { signedOut: true };
}

/** Spec 8.2 'parent portal not activated': the provider has not switched the portal on (features.parentPortal false). */
export function portalNotActivated(deps: ErrorScope['deps'], lang: string, programName: string): HttpError {
  return httpError({ deps, lang }, 403, 'server.errors.portalNotActivated', { programName });
}
