// The hand-off to the provider's other products (spec 4 redirect flows, 7.3; amendment 4): where a
// product is served (Customer.product), the parent application's address (Registration.redirectionUrl),
// and a one-time keyelement the product redeems once (Registration.applicationToken, ...Redeem).
// The keyelement is 256 random bits; only its SHA-256 is stored, it expires within a minute and it is
// redeemed by the provider it was issued for, once, and only by the portal session that asked for it:
// the product's page sends that session's token with the redeem (the browser that clicked Register
// holds it), so a keyelement one parent asked for and lured another browser into opening signs that
// browser into nothing (login CSRF), whether it is signed in to another account or to none.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import type {
  CustomerProductResponse,
  RegistrationApplicationTokenBody,
  RegistrationApplicationTokenRedeemBody,
  RegistrationApplicationTokenRedeemResponse,
  RegistrationApplicationTokenResponse,
  RegistrationRedirectionUrlBody,
  RegistrationRedirectionUrlResponse,
} from '../../../src/engine/contract.gen';
import { createSession } from '../../auth';
import { accounts, adults, applicationTokens, logins, sessions } from '../../db/schema';
import { fail, httpError } from '../../errors';
import { iisName, productHost, productPath, providerProducts, type Product } from '../../products';
import { providerByAppName, providerOf, sessionState } from '../provider/provider';
import { programPeriodOf } from './registration';

/** How long a keyelement may be redeemed (amendment 4: within a minute). */
export const TOKEN_TTL_MS = 60_000;
/** The placeholder of parentApplicationUrl the portal replaces with the product's host (spec 3). */
export const HOST_PLACEHOLDER = '{{applicationHost}}';

export const hashKeyelement = (keyelement: string): string => createHash('sha256').update(keyelement, 'utf8').digest('hex');

function notFound(deps: AppDeps, lang: string): never {
  throw httpError({ deps, lang }, 404, 'server.errors.notFound');
}

/** The program period must be the provider's and the account the signed-in one. */
async function checkIds(deps: AppDeps, s: SessionInfo, lang: string, ids: { programPeriodID: number; accountID: number }) {
  if (ids.accountID !== s.accountId) notFound(deps, lang);
  if (!(await programPeriodOf(deps, s.providerId, ids.programPeriodID))) notFound(deps, lang);
}

/** The fields of ApplicationTokenString (7.3) the product may receive; anything else is refused. */
const TOKEN_FIELDS: Record<string, 'string' | 'integer'> = {
  token: 'string',
  applicationName: 'string',
  locale: 'string',
  programPeriodID: 'integer',
  accessibilityTheme: 'string',
  fontSize: 'string',
  siteName: 'string',
  returnUrl: 'string',
  menu: 'string',
  siteID: 'integer',
  userName: 'string',
  version: 'string',
  accountID: 'integer',
  customerID: 'integer',
  calendarProgramPeriodID: 'integer',
};


/** Parses the serialized ApplicationTokenString: an object of the known fields, each of its type. */
function parseTokenString(deps: AppDeps, lang: string, text: string): Record<string, string | number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail({ deps, lang }, 400, 'programs.errors.tokenString');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail({ deps, lang }, 400, 'programs.errors.tokenString');
  const out: Record<string, string | number> = {};
  const entries: [string, unknown][] = Object.entries(parsed);
  for (const [k, v] of entries) {
    const type = TOKEN_FIELDS[k];
    if (!type) fail({ deps, lang }, 400, 'programs.errors.tokenString');
    if (v === null || v === undefined || v === '') continue;
    if (type === 'integer' && typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 2147483647) out[k] = v;
    else if (type === 'string' && typeof v === 'string' && v.length <= 1000) out[k] = v;
    else fail({ deps, lang }, 400, 'programs.errors.tokenString');
  }
  return out;
}

/** Where one of the provider's products is served (Customer.product). */
export async function productOf(deps: AppDeps, s: SessionInfo, name: Product): Promise<CustomerProductResponse> {
  const p = await providerOf(deps.db, s);
  const config = providerProducts(deps.root, p.appName)[name];
  const path = config?.path ?? productPath(name);
  return { productname: name, iisName: config ? iisName(config) : name, path, host: productHost(config, deps.linkBase) };
}

/** The parent application's address for a program, with a placeholder for the product's host. */
export async function redirectionUrl(deps: AppDeps, s: SessionInfo, lang: string, body: RegistrationRedirectionUrlBody): Promise<RegistrationRedirectionUrlResponse> {
  await checkIds(deps, s, lang, body);
  const p = await providerOf(deps.db, s);
  if (body.applicationName.toLowerCase() !== p.appName) notFound(deps, lang);
  const config = providerProducts(deps.root, p.appName).parentapplication;
  const q = new URLSearchParams({ appName: p.appName, programPeriodID: String(body.programPeriodID), source: body.source, destination: body.destination, lang });
  return { parentApplicationUrl: `${HOST_PLACEHOLDER}${config?.path ?? '/parentapplication/'}?${q}` };
}

/** Issues a one-time keyelement for a product, bound to the asking session. */
export async function applicationToken(deps: AppDeps, s: SessionInfo, lang: string, body: RegistrationApplicationTokenBody): Promise<RegistrationApplicationTokenResponse> {
  await checkIds(deps, s, lang, body);
  const p = await providerOf(deps.db, s);
  const fields = parseTokenString(deps, lang, body.ApplicationTokenString);
  // what the string says must agree with the request and the session; the portal's own session
  // token never travels to another product
  if (fields.token !== undefined) fail({ deps, lang }, 400, 'programs.errors.tokenString');
  if (fields.programPeriodID !== undefined && fields.programPeriodID !== body.programPeriodID) notFound(deps, lang);
  if (fields.accountID !== undefined && fields.accountID !== s.accountId) notFound(deps, lang);
  if (fields.customerID !== undefined && fields.customerID !== p.customerID) notFound(deps, lang);
  if (fields.applicationName !== undefined && String(fields.applicationName).toLowerCase() !== p.appName) notFound(deps, lang);
  const config = providerProducts(deps.root, p.appName)[body.product];
  if (!productHost(config, deps.linkBase)) throw httpError({ deps, lang }, 409, 'programs.errors.productNotConfigured');
  const [login] = await deps.db.select({ email: logins.email }).from(logins).where(and(eq(logins.id, s.loginId), eq(logins.providerId, s.providerId)));
  const keyelement = randomBytes(32).toString('base64url');
  const now = deps.clock();
  const expiresAt = new Date(now.getTime() + TOKEN_TTL_MS);
  const details = {
    ...fields,
    product: body.product,
    programPeriodID: body.programPeriodID,
    accountID: s.accountId,
    adultID: s.adultId,
    customerID: p.customerID,
    applicationName: p.appName,
    userName: login?.email ?? '',
    locale: typeof fields.locale === 'string' && ['en', 'es', 'pt', 'vi'].includes(fields.locale) ? fields.locale : lang,
  };
  await deps.db.insert(applicationTokens).values({
    providerId: s.providerId,
    accountId: s.accountId,
    adultId: s.adultId,
    loginId: s.loginId,
    sessionId: s.sessionId,
    product: body.product,
    programPeriodId: body.programPeriodID,
    tokenHash: hashKeyelement(keyelement),
    details,
    createdAt: now,
    expiresAt,
  });
  return { keyelement, expiresAt: expiresAt.toISOString() };
}

/**
 * Redeems a keyelement once, only from the session that asked for it and only by the product it was
 * issued for (a calendar's keyelement opens no one-time enrolment): the product's own session for
 * the same login, with what the hand-off carries.
 */
export async function redeemApplicationToken(
  deps: AppDeps,
  session: SessionInfo | null,
  lang: string,
  body: RegistrationApplicationTokenRedeemBody,
): Promise<RegistrationApplicationTokenRedeemResponse> {
  const p = await providerByAppName(deps.db, body.appName);
  const hash = hashKeyelement(body.keyelement);
  const now = deps.clock();
  // the session the request carries (the registrar resolved its bearer token: live, or null) must
  // be the one that asked for the keyelement, of this provider
  const asker = session && session.providerId === p.id ? session.sessionId : null;
  // one statement marks it used, so two redeems at once cannot both succeed; a refused browser
  // does not use it up
  const [row] =
    asker === null
      ? []
      : await deps.db
          .update(applicationTokens)
          .set({ usedAt: now })
          .where(
            and(
              eq(applicationTokens.tokenHash, hash),
              eq(applicationTokens.providerId, p.id),
              eq(applicationTokens.sessionId, asker),
              eq(applicationTokens.product, body.product),
              isNull(applicationTokens.usedAt),
              gt(applicationTokens.expiresAt, now),
            ),
          )
          .returning();
  if (!row) {
    const [known] = await deps.db
      .select({ usedAt: applicationTokens.usedAt, expiresAt: applicationTokens.expiresAt, sessionId: applicationTokens.sessionId, product: applicationTokens.product })
      .from(applicationTokens)
      .where(and(eq(applicationTokens.tokenHash, hash), eq(applicationTokens.providerId, p.id)));
    // a hand-off from a session that has ended since is expired (a redeemed one's session is live:
    // the registrar resolved it from the request)
    const live = async (sessionId: number) =>
      (
        await deps.db
          .select({ id: sessions.id })
          .from(sessions)
          .where(and(eq(sessions.id, sessionId), eq(sessions.providerId, p.id), isNull(sessions.revokedAt), gt(sessions.absoluteExpiresAt, now)))
      ).length > 0;
    // another provider's keyelement reads like an unknown one, saying nothing of its existence
    const key = !known
      ? 'programs.errors.tokenInvalid'
      : known.usedAt
        ? 'programs.errors.tokenUsed'
        : known.expiresAt <= now || !(await live(known.sessionId))
          ? 'programs.errors.tokenExpired'
          : known.product !== body.product
            ? 'programs.errors.tokenOtherProduct'
            : 'programs.errors.tokenOtherSession';
    fail({ deps, lang }, !known ? 404 : key === 'programs.errors.tokenOtherSession' || key === 'programs.errors.tokenOtherProduct' ? 403 : 410, key);
  }
  const d = row.details;
  const str = (k: string) => {
    const v = d[k];
    return typeof v === 'string' ? { [k]: v } : {};
  };
  const int = (k: string) => {
    const v = d[k];
    return typeof v === 'number' ? { [k]: v } : {};
  };
  // the product's own session, for the same login (amendment 4: redeemed into its own session)
  const [who] = await deps.db
    .select({ login: logins, adult: adults, account: accounts })
    .from(logins)
    .innerJoin(adults, eq(adults.id, logins.adultId))
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(logins.id, row.loginId), eq(logins.providerId, p.id), eq(adults.id, row.adultId), eq(accounts.id, row.accountId)));
  if (!who || !who.login.active || who.adult.deleted) throw httpError({ deps, lang }, 410, 'programs.errors.tokenExpired');
  const locale = String(d.locale ?? 'en');
  const token = await createSession(deps.db, deps.clock, { providerId: p.id, loginId: row.loginId, adultId: row.adultId, accountId: row.accountId, locale });
  return {
    token,
    session: sessionState(p, who.login, who.adult, who.account, deps.releaseVersion, locale),
    product: row.product,
    programPeriodID: row.programPeriodId,
    accountID: row.accountId,
    adultID: row.adultId,
    customerID: p.customerID,
    applicationName: p.appName,
    userName: String(d.userName ?? ''),
    locale,
    ...str('accessibilityTheme'),
    ...str('fontSize'),
    ...str('siteName'),
    ...int('siteID'),
    ...str('returnUrl'),
    ...str('menu'),
    ...str('version'),
    ...int('calendarProgramPeriodID'),
  };
}
