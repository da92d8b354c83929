// The ways in besides sign-in (spec 1, 2.1, 2.6, 8.2): forgot password, sign up (existing parents),
// the reset / create password link, new parent registration, and changing the password when signed
// in (also with a temporary password).
//
// Answers never tell whether an e-mail has an account: forgot password and sign up always answer
// {sent: true}; what applies to the address (a link, "already signed up", "not activated", "inactive")
// is said in the e-mail to that address only. Links carry a 256-bit random token; only its SHA-256 is
// stored, it expires and works once.
import { and, count, eq, gte, isNull, ne } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import { accounts, adults, authRequests, logins, passwordTokens, sessions, signinAudit } from '../../db/schema';
import { fail, httpError } from '../../errors';
import { hashToken, newToken, type SessionInfo } from '../../auth';
import { enqueueMail } from '../../outbox';
import { checkNewPassword, rememberPassword } from '../../passwordPolicy';
import { providerByAppName, type ProviderRow } from '../provider/provider';
import { portalLink } from '../../links';
import type {
  AuthenticationForgotPasswordBody,
  AuthenticationForgotPasswordResponse,
  AuthenticationRegisterBody,
  AuthenticationRegisterResponse,
  AuthenticationResetPasswordResponse,
  AuthenticationSignUpBody,
  AuthenticationSignUpResponse,
  DemographicsChangePasswordResponse,
} from '../../../src/engine/contract.gen';

export const RESET_TTL_MS = 60 * 60 * 1000;
export const SIGNUP_TTL_MS = 24 * 60 * 60 * 1000;
/** per address and kind within the window; per IP the route limit applies */
export const PER_ADDRESS_MAX = 5;
export const PER_ADDRESS_WINDOW_MS = 15 * 60 * 1000;

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function limitPerAddress(deps: AppDeps, lang: string, p: ProviderRow, kind: string, email: string, ip: string) {
  const since = new Date(deps.clock().getTime() - PER_ADDRESS_WINDOW_MS);
  const [r] = await deps.db
    .select({ n: count() })
    .from(authRequests)
    .where(and(eq(authRequests.providerId, p.id), eq(authRequests.kind, kind), eq(authRequests.email, email), gte(authRequests.at, since)));
  if (Number(r.n) >= PER_ADDRESS_MAX) {
    throw httpError({ deps, lang }, 429, 'server.errors.tooManyRequests');
  }
  await deps.db.insert(authRequests).values({ providerId: p.id, kind, email, ip, at: deps.clock() });
}

interface MailParts {
  kind: string;
  /** auth.mail.<name>: subject and the paragraphs listed */
  name: string;
  lines: string[];
  params: Record<string, unknown>;
  link?: { url: string; label: string };
}

async function sendAuthMail(deps: AppDeps, p: ProviderRow, to: string, lang: string, m: MailParts) {
  const params = { programName: p.programName, supportPhone: p.supportPhone, supportEmail: p.supportEmail, ...m.params };
  const t = (k: string) => deps.t(lang, `auth.mail.${m.name}.${k}`, params);
  const support = deps.t(lang, 'auth.mail.support', params);
  const paragraphs = m.lines.map(t);
  const text = [...paragraphs, ...(m.link ? [`${t(m.link.label)}: ${m.link.url}`] : []), support].join('\n\n');
  const html = [
    ...paragraphs.map((l) => `<p>${escape(l)}</p>`),
    ...(m.link ? [`<p><a href="${escape(m.link.url)}">${escape(t(m.link.label))}</a></p>`] : []),
    `<p>${escape(support)}</p>`,
  ].join('');
  await enqueueMail(deps.db, deps.clock, {
    providerId: p.id,
    kind: m.kind,
    to,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    subject: t('subject'),
    text,
    html,
  });
  deps.mailQueued();
}

async function issueToken(deps: AppDeps, row: { providerId: number; adultId: number; loginId: number | null; purpose: 'reset' | 'signup'; email: string }, ttl: number) {
  const token = newToken();
  const now = deps.clock();
  // a new link replaces the earlier unused ones of the same login or adult
  await deps.db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.adultId, row.adultId), eq(passwordTokens.purpose, row.purpose), isNull(passwordTokens.usedAt)));
  await deps.db.insert(passwordTokens).values({ ...row, tokenHash: hashToken(token), createdAt: now, expiresAt: new Date(now.getTime() + ttl) });
  return token;
}

function linkErr(deps: AppDeps, lang: string) {
  return httpError({ deps, lang }, 400, 'auth.errors.linkInvalid');
}

/** Forgot password: a reset link to the address when a login has it (always answered the same). */
export async function forgotPassword(deps: AppDeps, lang: string, ip: string, body: AuthenticationForgotPasswordBody): Promise<AuthenticationForgotPasswordResponse> {
  const p = await providerByAppName(deps.db, body.appName);
  const email = String(body.email).trim().toLowerCase();
  await limitPerAddress(deps, lang, p, 'forgot', email, ip);
  const [row] = await deps.db
    .select({ login: logins, adult: adults })
    .from(logins)
    .innerJoin(adults, eq(adults.id, logins.adultId))
    .where(and(eq(logins.providerId, p.id), eq(logins.email, email)));
  // one password hash's work whatever the outcome, so the answer time does not tell either
  await deps.passwords.verify(null, email);
  if (!row || row.adult.deleted) return { sent: true };
  const mailLang = row.adult.primaryLanguage || lang;
  if (!row.login.active) {
    await sendAuthMail(deps, p, row.login.email, mailLang, { kind: 'inactive_login', name: 'inactive', lines: ['greeting', 'body'], params: { firstName: row.adult.firstName } });
    return { sent: true };
  }
  const token = await issueToken(deps, { providerId: p.id, adultId: row.adult.id, loginId: row.login.id, purpose: 'reset', email: row.login.email }, RESET_TTL_MS);
  await sendAuthMail(deps, p, row.login.email, mailLang, {
    kind: 'password_reset',
    name: 'reset',
    lines: ['greeting', 'body', 'expires', 'notYou'],
    params: { firstName: row.adult.firstName, minutes: RESET_TTL_MS / 60000 },
    link: { url: portalLink(deps, p.appName, 'resetpassword', { token }), label: 'link' },
  });
  return { sent: true };
}

/** Sign up (existing parents): a create-password link to an account holder's address (always answered the same). */
export async function signUp(deps: AppDeps, lang: string, ip: string, body: AuthenticationSignUpBody): Promise<AuthenticationSignUpResponse> {
  const p = await providerByAppName(deps.db, body.appName);
  const email = String(body.email).trim().toLowerCase();
  await limitPerAddress(deps, lang, p, 'signup', email, ip);
  // the account holders (1 primary, 2 secondary) of this provider with that e-mail on file
  const holders = await deps.db
    .select({ adult: adults, account: accounts })
    .from(adults)
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(adults.providerId, p.id), eq(adults.deleted, false)));
  const match = holders.find((h) => h.adult.email.trim().toLowerCase() === email && (h.adult.accountHolder === 1 || h.adult.accountHolder === 2));
  await deps.passwords.verify(null, email);
  if (!match) return { sent: true };
  const { adult } = match;
  const mailLang = adult.primaryLanguage || lang;
  const params = { firstName: adult.firstName };
  if (p.features.parentPortal === false) {
    await sendAuthMail(deps, p, email, mailLang, { kind: 'signup_not_activated', name: 'notActivated', lines: ['greeting', 'body'], params });
    return { sent: true };
  }
  const [login] = await deps.db.select().from(logins).where(and(eq(logins.providerId, p.id), eq(logins.email, email)));
  if (login) {
    const name = login.active ? 'alreadySignedUp' : 'inactive';
    await sendAuthMail(deps, p, email, mailLang, { kind: `signup_${name}`, name, lines: ['greeting', 'body'], params });
    return { sent: true };
  }
  const token = await issueToken(deps, { providerId: p.id, adultId: adult.id, loginId: null, purpose: 'signup', email }, SIGNUP_TTL_MS);
  await sendAuthMail(deps, p, email, mailLang, {
    kind: 'signup',
    name: 'signup',
    lines: ['greeting', 'body', 'expires', 'notYou'],
    params: { ...params, hours: SIGNUP_TTL_MS / 3600000 },
    link: { url: portalLink(deps, p.appName, 'createpassword', { token }), label: 'link' },
  });
  return { sent: true };
}

/** The reset / create password link: sets the new password once (a new login for a create link). */
export async function resetPassword(
  deps: AppDeps,
  lang: string,
  ip: string,
  appName: string,
  v: { mode: 'reset' | 'create'; newPassword: string; token: string },
): Promise<AuthenticationResetPasswordResponse> {
  const p = await providerByAppName(deps.db, appName);
  const purpose = v.mode === 'create' ? 'signup' : 'reset';
  const [tok] = await deps.db
    .select()
    .from(passwordTokens)
    .where(and(eq(passwordTokens.tokenHash, hashToken(String(v.token))), eq(passwordTokens.providerId, p.id), eq(passwordTokens.purpose, purpose)));
  const now = deps.clock();
  if (!tok || tok.usedAt || now >= tok.expiresAt) throw linkErr(deps, lang);
  await limitPerAddress(deps, lang, p, 'reset', tok.email, ip);
  await checkNewPassword(deps, lang, { loginId: tok.loginId, email: tok.email, newPassword: v.newPassword });
  const newHash = await deps.passwords.hash(v.newPassword);
  // single use even when two requests race: only the one that marks it used goes on
  const claimed = await deps.db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.id, tok.id), isNull(passwordTokens.usedAt)))
    .returning({ id: passwordTokens.id });
  if (!claimed.length) throw linkErr(deps, lang);

  if (tok.loginId !== null) {
    const [login] = await deps.db.select().from(logins).where(eq(logins.id, tok.loginId));
    await rememberPassword(deps, login.id, login.passwordHash);
    // a new password unlocks the login (spec 8.2) and ends every session of the old one
    await deps.db
      .update(logins)
      .set({ passwordHash: newHash, isTemporaryPassword: false, failedCount: 0, lockedAt: null })
      .where(eq(logins.id, login.id));
    await deps.db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.loginId, login.id), isNull(sessions.revokedAt)));
    // and ends a temporary lock, which is counted from the sign-in audit
    await deps.db.insert(signinAudit).values({ providerId: p.id, email: login.email, loginId: login.id, ip, outcome: 'unlocked', at: now });
  } else {
    const [exists] = await deps.db.select({ id: logins.id }).from(logins).where(and(eq(logins.providerId, p.id), eq(logins.email, tok.email)));
    if (exists) throw linkErr(deps, lang);
    await deps.db.insert(logins).values({ providerId: p.id, adultId: tok.adultId, email: tok.email, passwordHash: newHash });
  }
  return { changed: true, email: tok.email };
}

/** New parent registration: a new account, its primary holder and the login, in one transaction. */
export async function register(deps: AppDeps, lang: string, ip: string, appName: string, v: Required<AuthenticationRegisterBody>): Promise<AuthenticationRegisterResponse> {
  const p = await providerByAppName(deps.db, appName);
  const email = v.email.trim().toLowerCase();
  await limitPerAddress(deps, lang, p, 'register', email, ip);
  const duplicate = () =>
    httpError({ deps, lang }, 409, 'auth.errors.emailRegistered', { programName: p.programName }, { errors: [{ path: '/email', key: 'auth.errors.emailRegistered' }] });
  const [login] = await deps.db.select({ id: logins.id }).from(logins).where(and(eq(logins.providerId, p.id), eq(logins.email, email)));
  const holders = await deps.db
    .select({ email: adults.email })
    .from(adults)
    .where(and(eq(adults.providerId, p.id), eq(adults.deleted, false), ne(adults.accountHolder, 4), ne(adults.accountHolder, 5)));
  if (login || holders.some((h) => h.email.trim().toLowerCase() === email)) throw duplicate();
  await checkNewPassword(deps, lang, { loginId: null, email, newPassword: v.newPassword });
  const passwordHash = await deps.passwords.hash(v.newPassword);
  return deps.db.transaction(async (tx) => {
    // account numbers continue the provider's series: <prefix>-<n+1>
    const existing = await tx.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.providerId, p.id));
    const prefix = existing.map((a) => /^(.*?)\d+$/.exec(a.accountNo)?.[1]).find(Boolean) ?? `${p.appName.slice(0, 2).toUpperCase()}-`;
    const next = Math.max(10000, ...existing.map((a) => Number(/(\d+)$/.exec(a.accountNo)?.[1] ?? 0))) + 1;
    const accountNo = `${prefix}${next}`;
    const [account] = await tx.insert(accounts).values({ providerId: p.id, accountNo }).returning();
    const [adult] = await tx
      .insert(adults)
      .values({
        providerId: p.id,
        accountId: account.id,
        accountHolder: 1,
        firstName: v.firstName,
        lastName: v.lastName,
        streetAddress: v.streetAddress,
        apartmentNo: v.apartmentNo ?? '',
        city: v.city,
        stateCode: v.stateCode,
        zip: v.zip,
        cellPhone: v.cellPhone ?? '',
        homePhone: v.homePhone ?? '',
        email,
        primaryLanguage: lang,
      })
      .returning();
    await tx.insert(logins).values({ providerId: p.id, adultId: adult.id, email, passwordHash });
    return { registered: true, accountNo };
  });
}

/**
 * Changes the signed-in login's password: the current one is required unless a temporary-password
 * session sets its new one; every other session of the login ends.
 */
export async function changePassword(
  deps: AppDeps,
  s: SessionInfo,
  lang: string,
  v: { mode: 'change' | 'temporary'; currentPassword?: string; newPassword: string },
): Promise<DemographicsChangePasswordResponse> {
  const [login] = await deps.db.select().from(logins).where(and(eq(logins.id, s.loginId), eq(logins.providerId, s.providerId)));
  // only a temporary-password session may skip the current password
  if (!s.isTemporaryPassword || v.mode === 'change') {
    if (v.mode !== 'change' || !(await deps.passwords.verify(login.passwordHash, v.currentPassword ?? ''))) {
      fail({ deps, lang }, 400, 'server.errors.wrongCurrentPassword', undefined, { errors: [{ path: '/currentPassword', key: 'server.errors.wrongCurrentPassword' }] });
    }
  }
  if (await deps.passwords.verify(login.passwordHash, v.newPassword)) {
    fail({ deps, lang }, 400, 'server.errors.passwordReused', undefined, { errors: [{ path: '/newPassword', key: 'server.errors.passwordReused' }] });
  }
  // not common, not the user name, not an earlier password (spec 5.2)
  await checkNewPassword(deps, lang, { loginId: login.id, email: login.email, newPassword: v.newPassword });
  await rememberPassword(deps, login.id, login.passwordHash);
  await deps.db
    .update(logins)
    .set({ passwordHash: await deps.passwords.hash(v.newPassword), isTemporaryPassword: false, failedCount: 0, lockedAt: null })
    .where(eq(logins.id, login.id));
  // every other session of this login ends with the old password
  await deps.db
    .update(sessions)
    .set({ revokedAt: deps.clock() })
    .where(and(eq(sessions.loginId, login.id), ne(sessions.id, s.sessionId), isNull(sessions.revokedAt)));
  return { changed: true };
}
