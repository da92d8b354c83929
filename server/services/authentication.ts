// Authentication service: sign-in and sign-out (spec 4 Session, 8.2 account locked / inactive).
// Answers never tell whether an e-mail has a login: an unknown e-mail costs the same argon2
// verification and gets the same message as a wrong password.
import { and, count, eq, gte, ne } from 'drizzle-orm';
import type { ServiceHandlers, AppDeps } from '../context';
import { accounts, adults, logins, signinAudit } from '../db/schema';
import { HttpError } from '../errors';
import { createSession, revokeSession } from '../auth';
import { enqueueMail } from '../outbox';
import { providerByAppName, sessionState, type ProviderRow } from './common';

async function audit(deps: AppDeps, row: { providerId: number | null; email: string; loginId: number | null; ip: string; outcome: string }) {
  await deps.db.insert(signinAudit).values({ ...row, at: deps.clock() });
}

async function recentAttempts(deps: AppDeps, providerId: number, email: string, outcomes?: 'failed'): Promise<number> {
  const since = new Date(deps.clock().getTime() - deps.signin.perEmailWindowMs);
  const where = [eq(signinAudit.providerId, providerId), eq(signinAudit.email, email), gte(signinAudit.at, since), ne(signinAudit.outcome, 'rate_limited')];
  if (outcomes === 'failed') where.push(ne(signinAudit.outcome, 'ok'));
  const [r] = await deps.db.select({ n: count() }).from(signinAudit).where(and(...where));
  return Number(r.n);
}

async function sendLockedMail(deps: AppDeps, p: ProviderRow, adult: typeof adults.$inferSelect, to: string, attempts: number) {
  const lang = adult.primaryLanguage;
  const params = {
    programName: p.programName,
    firstName: adult.firstName,
    attempts,
    supportPhone: p.supportPhone,
    supportEmail: p.supportEmail,
  };
  const lines = ['greeting', 'body', 'unlock', 'notYou'].map((k) => deps.t(lang, `mail.accountLocked.${k}`, params));
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

export const authentication: ServiceHandlers = {
  'Authentication.login': {
    providerFrom: 'body.appName',
    // per IP; the per e-mail limit is counted in signin_audit below
    rateLimit: { max: 20, timeWindow: 60_000 },
    handler: async ({ deps, body, lang, req }) => {
      const p = await providerByAppName(deps.db, body.appName);
      const email = String(body.email).trim().toLowerCase();
      const ip = req.ip;
      const invalid = () => new HttpError(401, deps.t(lang, 'errors.invalidCredentials'), { key: 'server.errors.invalidCredentials' });
      const locked = () => new HttpError(423, deps.t(lang, 'errors.accountLocked'), { key: 'server.errors.accountLocked' });

      // per e-mail: failed attempts only, so a parent signing in on several devices is never limited
      if ((await recentAttempts(deps, p.id, email, 'failed')) >= deps.signin.perEmailMax) {
        await audit(deps, { providerId: p.id, email, loginId: null, ip, outcome: 'rate_limited' });
        throw new HttpError(429, deps.t(lang, 'errors.tooManyAttempts'), { key: 'server.errors.tooManyAttempts' });
      }

      const [row] = await deps.db
        .select({ login: logins, adult: adults, account: accounts })
        .from(logins)
        .innerJoin(adults, eq(adults.id, logins.adultId))
        .innerJoin(accounts, eq(accounts.id, adults.accountId))
        .where(and(eq(logins.providerId, p.id), eq(logins.email, email)));

      const ok = await deps.passwords.verify(row?.login.passwordHash ?? null, String(body.password));

      if (!row || row.adult.deleted) {
        await audit(deps, { providerId: p.id, email, loginId: null, ip, outcome: 'unknown' });
        // behave like a real login that locks, so the lock message reveals nothing either
        if ((await recentAttempts(deps, p.id, email, 'failed')) >= deps.signin.maxFailed) throw locked();
        throw invalid();
      }
      const { login, adult, account } = row;

      if (login.lockedAt) {
        await audit(deps, { providerId: p.id, email, loginId: login.id, ip, outcome: 'locked' });
        throw locked();
      }
      if (!ok) {
        const failed = login.failedCount + 1;
        const lockNow = failed >= deps.signin.maxFailed;
        await deps.db
          .update(logins)
          .set({ failedCount: failed, ...(lockNow ? { lockedAt: deps.clock() } : {}) })
          .where(eq(logins.id, login.id));
        await audit(deps, { providerId: p.id, email, loginId: login.id, ip, outcome: lockNow ? 'locked' : 'bad_password' });
        if (lockNow) {
          await sendLockedMail(deps, p, adult, login.email, failed);
          throw locked();
        }
        throw invalid();
      }
      if (!login.active) {
        await audit(deps, { providerId: p.id, email, loginId: login.id, ip, outcome: 'inactive' });
        throw new HttpError(403, deps.t(lang, 'errors.inactiveLogin', { programName: p.programName }), { key: 'server.errors.inactiveLogin' });
      }

      await deps.db.update(logins).set({ failedCount: 0, lastLoginAt: deps.clock() }).where(eq(logins.id, login.id));
      await audit(deps, { providerId: p.id, email, loginId: login.id, ip, outcome: 'ok' });
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
    },
  },

  'Authentication.logout': {
    paymentOnly: true,
    temporaryAllowed: true,
    handler: async ({ deps, session }) => {
      await revokeSession(deps.db, deps.clock, session!.sessionId);
      return { signedOut: true };
    },
  },
};
