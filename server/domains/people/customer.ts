// Customer service's data: provider configuration, declarations, error log, provider look-ups, the
// signed-in parent.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Db } from '../../db/index';
import type { SessionInfo } from '../../auth';
import type { ProviderDeclarations } from '../../declarations';
import type {
  CustomerAbsenceReasonsResponse,
  CustomerApplicationResponse,
  CustomerErrorlogBody,
  CustomerFeatureResponse,
  CustomerParentResponse,
  CustomerProgramResponse,
  CustomerProvidersResponse,
} from '../../../src/engine/contract.gen';
import { providers, logins, adults, accounts, errorLog, absenceReasons } from '../../db/schema';
import { KeyedError, httpError } from '../../errors';
import { prepared } from '../../db/prepared';
import { inLanguage } from '../../providerTexts';
import { programConfig, providerByAppName, providerOf } from '../provider/provider';

/** The provider's pages in the language asked for (the client keys this answer by language). */
export async function programOf(db: Db, appName: string, lang: string): Promise<CustomerProgramResponse> {
  return programConfig(await providerByAppName(db, appName), lang);
}

/** The provider's loaded declarations; 503 while they are not. */
export async function declarationsOf(deps: AppDeps, appName: string, lang: string): Promise<ProviderDeclarations> {
  const p = await providerByAppName(deps.db, appName);
  const decl = deps.declarations.get(p.appName);
  if (!decl) throw httpError({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  return decl;
}

/** Records a client's error report: the session's provider, or the one the report names. */
export async function logClientError(
  deps: AppDeps,
  session: SessionInfo | null,
  body: CustomerErrorlogBody,
  ip: string,
): Promise<number> {
  let providerId: number | null = session?.providerId ?? null;
  if (!providerId && body.appName) {
    const [p] = await deps.db.select({ id: providers.id }).from(providers).where(eq(providers.appName, String(body.appName).toLowerCase()));
    providerId = p?.id ?? null;
  }
  const [row] = await deps.db
    .insert(errorLog)
    .values({
      providerId,
      adultId: session?.adultId ?? null,
      device: body.Device ?? '',
      pageName: body.PageName,
      url: body.Url,
      previousUrl: body.PreviousURL ?? '',
      userName: body.UserName ?? '',
      browser: body.Browser ?? '',
      eventDateTime: body.EventDateTime ?? '',
      apiErrorLogId: body.APIErrorLogID ?? '',
      stackTrace: body.StackTrace ?? '',
      message: body.Message ?? '',
      source: body.Source,
      ip,
      createdAt: deps.clock(),
    })
    .returning({ id: errorLog.id });
  return row.id;
}

/** Every provider by program name. */
export async function providerList(db: Db): Promise<CustomerProvidersResponse> {
  return db.select({ appName: providers.appName, programName: providers.programName }).from(providers).orderBy(asc(providers.programName));
}

/** The providers where an e-mail has an active login. */
export async function providersOfEmail(db: Db, parentEmail: string): Promise<CustomerApplicationResponse> {
  const email = String(parentEmail).trim().toLowerCase();
  const rows = await db
    .selectDistinct({ appName: providers.appName, programName: providers.programName })
    .from(logins)
    .innerJoin(providers, eq(providers.id, logins.providerId))
    .where(and(eq(logins.email, email), eq(logins.active, true)))
    .orderBy(asc(providers.programName));
  return rows;
}

/** The signed-in adult with the account number and user name; 404 when gone. */
export async function parentOf(db: Db, s: SessionInfo): Promise<CustomerParentResponse> {
  const [row] = await prepared(db, 'customer_parent', (db) =>
    db
      .select({
        id: adults.id,
        accountId: adults.accountId,
        accountHolder: adults.accountHolder,
        accessType: adults.accessType,
        firstName: adults.firstName,
        lastName: adults.lastName,
        email: adults.email,
        primaryLanguage: adults.primaryLanguage,
        // whether there is a photo, not the photo: it can be large
        hasPhoto: sql<boolean>`${adults.photo} is not null`,
        accountNo: accounts.accountNo,
        userName: logins.email,
      })
      .from(adults)
      .innerJoin(accounts, eq(accounts.id, adults.accountId))
      .innerJoin(logins, eq(logins.id, sql.placeholder('loginId')))
      .where(and(eq(adults.id, sql.placeholder('adultId')), eq(adults.providerId, sql.placeholder('providerId')), eq(adults.accountId, sql.placeholder('accountId'))))
      .prepare('customer_parent'),
  ).execute({ loginId: s.loginId, adultId: s.adultId, providerId: s.providerId, accountId: s.accountId });
  if (!row) throw new KeyedError(404, 'server.errors.notFound');
  return {
    adultID: row.id,
    accountID: row.accountId,
    accountNo: row.accountNo,
    accountHolder: row.accountHolder,
    accessType: row.accessType,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    userName: row.userName,
    primaryLanguage: row.primaryLanguage,
    hasPhoto: row.hasPhoto,
  };
}

/** The session's provider's feature switches. */
export async function providerFeatures(db: Db, s: SessionInfo): Promise<CustomerFeatureResponse> {
  return { features: (await providerOf(db, s)).features };
}

/** The provider's absence reasons in order, optionally only those shown (or not) in the portal. */
export async function absenceReasonList(db: Db, providerId: number, showInParentPortal: boolean | undefined, lang: string): Promise<CustomerAbsenceReasonsResponse> {
  const where = [eq(absenceReasons.providerId, providerId)];
  if (showInParentPortal !== undefined) where.push(eq(absenceReasons.showInParentPortal, showInParentPortal));
  const rows = await db
    .select()
    .from(absenceReasons)
    .where(and(...where))
    .orderBy(asc(absenceReasons.sortOrder), asc(absenceReasons.id));
  return inLanguage(rows, lang).map((r) => ({ absenceReasonID: r.id, reason: r.reason, showInParentPortal: r.showInParentPortal }));
}
