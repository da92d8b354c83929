// Social sign-in (spec 1, 2.6): OpenID Connect authorization code flow with PKCE, state and nonce,
// through openid-client, with two identity providers configured per provider.
//
// provider.json "socialSignIn": [{id, label, issuer, clientId}], the client secret from the environment:
// SOCIAL_<APPNAME>_<ID>_CLIENT_SECRET (issuer and client id may be overridden the same way:
// SOCIAL_<APPNAME>_<ID>_ISSUER, SOCIAL_<APPNAME>_<ID>_CLIENT_ID). An identity provider without all
// three is not offered.
//
// A social identity signs in to a parent login only when it is linked to it. It is linked when the
// identity provider vouches for the e-mail (email_verified) and a login of this provider has that
// e-mail, or after the parent signs in once with the password on /sociallink. Never by an unverified
// e-mail alone.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { AppDeps } from '../../context';
import type {
  AuthenticationSocialCallbackQuery,
  AuthenticationSocialCompleteResponse,
  AuthenticationSocialLinkBody,
  AuthenticationSocialLinkResponse,
  AuthenticationSocialOptionsResponse,
  AuthenticationSocialStartResponse,
} from '../../../src/engine/contract.gen';
import { accounts, adults, logins, providers, socialIdentities, socialSignins } from '../../db/schema';
import { httpError } from '../../errors';
import { createSession, hashToken, newToken, resolveSession } from '../../auth';
import { providerByAppName, sessionState, type ProviderRow } from '../provider/provider';
import { passwordSignIn, portalNotActivated } from './authentication';
import { portalLink } from '../../links';

export const SOCIAL_TTL_MS = 10 * 60 * 1000;
const CALLBACK_PATH = '/api/Authentication/social/callback';

interface IdpConfig {
  id: string;
  label: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
}

interface IdpEntry {
  id: string;
  label?: string;
  issuer?: string;
  clientId?: string;
}

/** The configured identity providers of a provider (provider.json + environment). */
export function socialProviders(root: string, appName: string): IdpConfig[] {
  const file = join(root, 'providers', appName, 'provider.json');
  if (!existsSync(file)) return [];
  const record: { socialSignIn?: IdpEntry[] } = JSON.parse(readFileSync(file, 'utf8'));
  const entries = record.socialSignIn ?? [];
  const out: IdpConfig[] = [];
  for (const e of entries) {
    const env = (k: string) => process.env[`SOCIAL_${appName}_${e.id}_${k}`.toUpperCase()];
    const c = { id: e.id, label: e.label ?? e.id, issuer: env('ISSUER') ?? e.issuer ?? '', clientId: env('CLIENT_ID') ?? e.clientId ?? '', clientSecret: env('CLIENT_SECRET') ?? '' };
    if (c.issuer && c.clientId && c.clientSecret) out.push(c);
  }
  return out;
}

// discovery documents, per issuer and client, for an hour
const configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

function clientConfig(idp: IdpConfig): Promise<oidc.Configuration> {
  const key = `${idp.issuer}|${idp.clientId}`;
  const hit = configs.get(key);
  if (hit && Date.now() - hit.at < 60 * 60 * 1000) return hit.config;
  const url = new URL(idp.issuer);
  // plain http only for an identity provider on this machine (development and tests)
  const local = url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  const config = oidc.discovery(url, idp.clientId, undefined, oidc.ClientSecretBasic(idp.clientSecret), local ? { execute: [oidc.allowInsecureRequests] } : undefined);
  config.catch(() => configs.delete(key));
  configs.set(key, { at: Date.now(), config });
  return config;
}

function portalBase(deps: AppDeps): string {
  if (!deps.linkBase) throw new Error('PUBLIC_URL must be set in production (social sign-in return address)');
  return deps.linkBase;
}

function idpOf(deps: AppDeps, lang: string, p: ProviderRow, id: string): IdpConfig {
  const idp = socialProviders(deps.root, p.appName).find((i) => i.id === id);
  if (!idp) throw httpError({ deps, lang }, 404, 'auth.errors.socialUnavailable');
  return idp;
}

function ticketError(deps: AppDeps, lang: string) {
  return httpError({ deps, lang }, 400, 'auth.errors.socialExpired');
}

async function signInAs(deps: AppDeps, p: ProviderRow, loginId: number, lang: string) {
  const [row] = await deps.db
    .select({ login: logins, adult: adults, account: accounts })
    .from(logins)
    .innerJoin(adults, eq(adults.id, logins.adultId))
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(logins.id, loginId), eq(logins.providerId, p.id)));
  if (!row || row.adult.deleted) throw ticketError(deps, lang);
  if (row.login.lockedAt) throw httpError({ deps, lang }, 423, 'server.errors.accountLocked');
  if (p.features.parentPortal === false) throw portalNotActivated(deps, lang, p.programName);
  if (!row.login.active) throw httpError({ deps, lang }, 403, 'server.errors.inactiveLogin', { programName: p.programName });
  await deps.db.update(logins).set({ lastLoginAt: deps.clock() }).where(eq(logins.id, loginId));
  const token = await createSession(deps.db, deps.clock, { providerId: p.id, loginId, adultId: row.adult.id, accountId: row.account.id, locale: lang });
  return { token, session: sessionState(p, row.login, row.adult, row.account, deps.releaseVersion, lang) };
}

/** The attempt a ticket names: after the callback, not yet used, not expired. */
async function attemptOf(deps: AppDeps, lang: string, p: ProviderRow, ticket: string) {
  const [a] = await deps.db
    .select()
    .from(socialSignins)
    .where(and(eq(socialSignins.linkTokenHash, hashToken(ticket)), eq(socialSignins.providerId, p.id)));
  const subject = a?.subject;
  const issuer = a?.issuer;
  if (!a || !subject || !issuer || a.linkedAt || deps.clock() >= a.expiresAt) throw ticketError(deps, lang);
  return { ...a, subject, issuer };
}

/** Marks the ticket used; only the first of two racing requests goes on. */
async function claim(deps: AppDeps, lang: string, id: number) {
  const done = await deps.db
    .update(socialSignins)
    .set({ linkedAt: deps.clock() })
    .where(and(eq(socialSignins.id, id), isNull(socialSignins.linkedAt)))
    .returning({ id: socialSignins.id });
  if (!done.length) throw ticketError(deps, lang);
}

/** The identity providers offered on the sign-in page. */
export async function socialOptions(deps: AppDeps, appName: string): Promise<AuthenticationSocialOptionsResponse> {
  const p = await providerByAppName(deps.db, String(appName));
  const list = socialProviders(deps.root, p.appName);
  return { providers: list.map((i) => ({ id: i.id, label: i.label })), google: list.some((i) => i.id === 'google'), microsoft: list.some((i) => i.id === 'microsoft') };
}

/** Starts a social sign-in: a new attempt with its state, nonce and PKCE verifier. */
export async function socialStart(deps: AppDeps, lang: string, appName: string, idpId: string): Promise<AuthenticationSocialStartResponse> {
  const p = await providerByAppName(deps.db, String(appName));
  const idp = idpOf(deps, lang, p, String(idpId));
  await clientConfig(idp);
  const state = oidc.randomState();
  const now = deps.clock();
  await deps.db.insert(socialSignins).values({
    providerId: p.id,
    idp: idp.id,
    stateHash: hashToken(state),
    nonce: oidc.randomNonce(),
    codeVerifier: oidc.randomPKCECodeVerifier(),
    locale: lang,
    createdAt: now,
    expiresAt: new Date(now.getTime() + SOCIAL_TTL_MS),
  });
  // the browser leaves the portal through this server, which sends it on to the identity provider
  return { url: `${portalBase(deps)}/api/Authentication/social/authorize?state=${state}` };
}

/** Where the browser goes to the identity provider for an attempt's state. */
export async function socialAuthorizeUrl(deps: AppDeps, lang: string, stateParam: string): Promise<string> {
  const state = String(stateParam);
  const [a] = await deps.db.select().from(socialSignins).where(eq(socialSignins.stateHash, hashToken(state)));
  if (!a || a.usedAt || deps.clock() >= a.expiresAt) throw ticketError(deps, lang);
  const p = await providerRow(deps, a.providerId);
  const idp = idpOf(deps, lang, p, a.idp);
  const config = await clientConfig(idp);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${portalBase(deps)}${CALLBACK_PATH}`,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(a.codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce: a.nonce,
  });
  return url.href;
}

/**
 * The identity provider's answer: the code exchanged for the identity, linked to a login when the
 * e-mail is verified; the address of the portal page the browser goes back to.
 */
export async function socialCallback(
  deps: AppDeps,
  lang: string,
  query: AuthenticationSocialCallbackQuery,
  log: { warn: (o: unknown, m: string) => void },
): Promise<string> {
  const base = portalBase(deps);
  const state = typeof query.state === 'string' ? query.state : '';
  const [a] = state ? await deps.db.select().from(socialSignins).where(eq(socialSignins.stateHash, hashToken(state))) : [];
  if (!a) throw ticketError(deps, lang);
  const p = await providerRow(deps, a.providerId);
  const back = (screen: 'sociallink' | 'socialsignin', q: Record<string, string>) => portalLink(deps, p.appName, screen, q);
  // single use: the state is spent whatever the outcome
  const spent = await deps.db
    .update(socialSignins)
    .set({ usedAt: deps.clock() })
    .where(and(eq(socialSignins.id, a.id), isNull(socialSignins.usedAt)))
    .returning({ id: socialSignins.id });
  if (!spent.length || deps.clock() >= a.expiresAt || query.error) return back('sociallink', { failed: '1' });

  const idp = idpOf(deps, lang, p, a.idp);
  const config = await clientConfig(idp);
  const current = new URL(`${base}${CALLBACK_PATH}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) current.searchParams.set(k, v);
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: a.codeVerifier,
      expectedState: state,
      expectedNonce: a.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (!idToken) throw new Error('no ID token');
    claims = idToken;
    // some identity providers give the e-mail only at the userinfo endpoint
    if (claims.email === undefined && tokens.access_token) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub));
      claims = { ...claims, email: info.email, email_verified: info.email_verified };
    }
  } catch (err) {
    log.warn({ err, idp: a.idp }, 'social sign-in: code exchange refused');
    return back('sociallink', { failed: '1' });
  }
  const issuer = String(claims.iss);
  const subject = String(claims.sub);
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  const verified = claims.email_verified === true;

  const [known] = await deps.db
    .select({ loginId: socialIdentities.loginId })
    .from(socialIdentities)
    .where(and(eq(socialIdentities.providerId, p.id), eq(socialIdentities.issuer, issuer), eq(socialIdentities.subject, subject)));
  let loginId = known?.loginId ?? null;
  if (!loginId && verified && email) {
    const [byEmail] = await deps.db.select({ id: logins.id }).from(logins).where(and(eq(logins.providerId, p.id), eq(logins.email, email)));
    if (byEmail) {
      await deps.db.insert(socialIdentities).values({ providerId: p.id, loginId: byEmail.id, idp: a.idp, issuer, subject, email, linkedAt: deps.clock() }).onConflictDoNothing();
      loginId = byEmail.id;
    }
  }
  const ticket = newToken();
  await deps.db.update(socialSignins).set({ issuer, subject, email, linkTokenHash: hashToken(ticket) }).where(eq(socialSignins.id, a.id));
  // a linked identity continues to sign in; any other first signs in once with the password
  return back(loginId ? 'socialsignin' : 'sociallink', { ticket });
}

/** Signs in with a linked identity's ticket. */
export async function socialComplete(deps: AppDeps, lang: string, appName: string, ticket: string): Promise<AuthenticationSocialCompleteResponse> {
  const p = await providerByAppName(deps.db, String(appName));
  const a = await attemptOf(deps, lang, p, String(ticket));
  const [known] = await deps.db
    .select({ loginId: socialIdentities.loginId })
    .from(socialIdentities)
    .where(and(eq(socialIdentities.providerId, p.id), eq(socialIdentities.issuer, a.issuer), eq(socialIdentities.subject, a.subject)));
  if (!known) throw ticketError(deps, lang);
  await claim(deps, lang, a.id);
  return signInAs(deps, p, known.loginId, lang);
}

/** Links an identity's ticket to a login by signing in once with the password. */
export async function socialLink(deps: AppDeps, lang: string, ip: string, body: AuthenticationSocialLinkBody): Promise<AuthenticationSocialLinkResponse> {
  const p = await providerByAppName(deps.db, body.appName);
  const a = await attemptOf(deps, lang, p, body.ticket);
  // the password sign-in with all its checks (lock-out, limits, audit, inactive logins)
  const signedIn = await passwordSignIn(deps, lang, ip, { appName: p.appName, email: body.email, password: body.password });
  const s = await resolveSession(deps.db, deps.clock, signedIn.token);
  if (!s) throw ticketError(deps, lang);
  await claim(deps, lang, a.id);
  await deps.db
    .insert(socialIdentities)
    .values({ providerId: p.id, loginId: s.loginId, idp: a.idp, issuer: a.issuer, subject: a.subject, email: a.email ?? '', linkedAt: deps.clock() })
    .onConflictDoNothing();
  return signedIn;
}

async function providerRow(deps: AppDeps, id: number): Promise<ProviderRow> {
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, id));
  return p;
}
