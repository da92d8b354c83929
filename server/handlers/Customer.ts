// Customer service: provider configuration, declarations, versions, error log, provider look-ups, the
// signed-in parent, the native app version check and the provider's products.
import type { ServiceHandlers } from '../context';
import type { CustomerDeclarationsResponse } from '../../src/engine/contract.gen';
import { absenceReasonList, declarationsOf, logClientError, parentOf, programOf, providerFeatures, providerList, providersOfEmail } from '../domains/people/customer';
import { servedDeclarations } from '../declarations';
import { nativeVersionCheck } from '../domains/provider/nativeVersion';
import { productOf } from '../domains/enrolment/handoff';
import { firstLoads } from '../domains/provider/firstLoads';

type CustomerOps =
  | 'Customer.program'
  | 'Customer.declarations'
  | 'Customer.firstLoads'
  | 'Customer.version'
  | 'Customer.serverDate'
  | 'Customer.errorlog'
  | 'Customer.providers'
  | 'Customer.application'
  | 'Customer.parent'
  | 'Customer.feature'
  | 'Customer.absenceReasons'
  | 'Customer.nativeVersion'
  | 'Customer.product';

export const customerHandlers = {
  'Customer.program': {
    handler: async ({ deps, query, lang }) => programOf(deps.db, query.appName, lang),
  },

  'Customer.declarations': {
    handler: async ({ deps, query, reply, req, lang }) => {
      const decl = await declarationsOf(deps, query.appName, lang);
      const etag = `"${decl.set.version}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      // the set is large and changes rarely: a client holding this version gets 304
      if (req.headers['if-none-match'] === etag) return reply.status(304).send();
      // the browser renders screens and forms; the API contract reaches it as generated types
      // the contract sees the declarations as JSON objects; their own meta-schemas check them
      return servedDeclarations(decl.set) as unknown as CustomerDeclarationsResponse;
    },
  },

  'Customer.firstLoads': {
    handler: async ({ deps, req, session, body, lang }) => firstLoads(deps, req, session, body, lang),
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
    handler: async ({ deps, body, session, req }) => ({ errorLogID: await logClientError(deps, session, body, req.ip) }),
  },

  'Customer.providers': {
    handler: async ({ deps }) => providerList(deps.db),
  },

  'Customer.application': {
    handler: async ({ deps, query }) => providersOfEmail(deps.db, query.parentemail),
  },

  'Customer.parent': {
    handler: async ({ deps, session }) => parentOf(deps.db, session),
  },

  'Customer.feature': {
    handler: async ({ deps, session }) => providerFeatures(deps.db, session),
  },

  'Customer.absenceReasons': {
    handler: async ({ deps, session, query, lang }) => absenceReasonList(deps.db, session.providerId, query.ShowInParentPortal, lang),
  },

  'Customer.nativeVersion': {
    // signed in: the session's provider; before sign-in the app names its provider
    handler: async ({ deps, query, session }) => nativeVersionCheck(deps.db, session, query.appName, query.OS, String(query.CurrentVersion)),
  },

  'Customer.product': {
    handler: async ({ deps, session, query }) => productOf(deps, session, query.productname),
  },
} satisfies ServiceHandlers<CustomerOps>;
