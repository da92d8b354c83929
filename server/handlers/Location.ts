// Location service: the provider's sites.
import type { ServiceHandlers } from '../context';
import { providerSites } from '../domains/provider/location';

export const locationHandlers = {
  'Location.sites': {
    handler: async ({ deps, session, lang }) => providerSites(deps.db, session.providerId, lang),
  },
} satisfies ServiceHandlers<'Location.sites'>;
