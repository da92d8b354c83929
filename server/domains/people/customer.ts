// Customer service: provider configuration, declarations, versions, error log, provider look-ups.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Handlers } from '../../context';
import type { CustomerDeclarationsResponse } from '../../../src/engine/contract.gen';
import { providers, logins, adults, accounts, errorLog, absenceReasons } from '../../db/schema';
import { HttpError, httpError } from '../../errors';
import { prepared } from '../../db/prepared';
import { inLanguage } from '../../providerTexts';
import { programConfig, providerByAppName, providerOf } from '../provider/provider';

export const customer = {
  'Customer.program': {
    // the provider's pages in the request's language (the client keys this answer by language)
    handler: async ({ deps, query, lang }) => programConfig(await providerByAppName(deps.db, query.appName), lang),
  },

  'Customer.declarations': {
    handler: async ({ deps, query, reply, req, lang }) => {
      const p = await providerByAppName(deps.db, query.appName);
      const decl = deps.declarations.get(p.appName);
      if (!decl) throw httpError({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
      const etag = `"${decl.set.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      // the set is large and changes rarely: a client holding this version gets 304
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      // the browser renders screens and forms; the API contract reaches it as generated types
      const { version, schemas, rules, screens } = decl.set;
      // the contract sees the declarations as JSON objects; their own meta-schemas check them
      return { version, schemas, rules, screens } as unknown as CustomerDeclarationsResponse;
    },
  },

  'Customer.version': {
    handler: async ({ deps }) => ({
      version: deps.version,
      releaseVersion: deps.releaseVersion,
      serverTime: deps.clock().toISOString(),
    }),
  },

  'Customer.serverDate': {
    handler: async ({ deps }) => ({ serverTime: deps.clock().toISOString() }),
  },

  'Customer.errorlog': {
    handler: async ({ deps, body, session, req }) => {
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
          ip: req.ip,
          createdAt: deps.clock(),
        })
        .returning({ id: errorLog.id });
      return { errorLogID: row.id };
    },
  },

  'Customer.providers': {
    handler: async ({ deps }) =>
      deps.db.select({ appName: providers.appName, programName: providers.programName }).from(providers).orderBy(asc(providers.programName)),
  },

  'Customer.application': {
    handler: async ({ deps, query }) => {
      const email = String(query.parentemail).trim().toLowerCase();
      const rows = await deps.db
        .selectDistinct({ appName: providers.appName, programName: providers.programName })
        .from(logins)
        .innerJoin(providers, eq(providers.id, logins.providerId))
        .where(and(eq(logins.email, email), eq(logins.active, true)))
        .orderBy(asc(providers.programName));
      return rows;
    },
  },

  'Customer.parent': {
    handler: async ({ deps, session }) => {
      const s = session!;
      const [row] = await prepared(deps.db, 'customer_parent', (db) =>
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
      if (!row) throw new HttpError(404, 'Not Found');
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
    },
  },

  'Customer.feature': {
    handler: async ({ deps, session }) => ({ features: (await providerOf(deps.db, session!)).features }),
  },

  'Customer.absenceReasons': {
    handler: async ({ deps, session, query, lang }) => {
      const where = [eq(absenceReasons.providerId, session!.providerId)];
      if (query.ShowInParentPortal !== undefined) where.push(eq(absenceReasons.showInParentPortal, query.ShowInParentPortal));
      const rows = await deps.db
        .select()
        .from(absenceReasons)
        .where(and(...where))
        .orderBy(asc(absenceReasons.sortOrder), asc(absenceReasons.id));
      return inLanguage(rows, lang).map((r) => ({ absenceReasonID: r.id, reason: r.reason, showInParentPortal: r.showInParentPortal }));
    },
  },
} satisfies Partial<Handlers>;
