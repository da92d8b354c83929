// Location service: the provider's sites.
import { asc, eq } from 'drizzle-orm';
import type { Handlers } from '../context';
import { sites } from '../db/schema';

export const location = {
  'Location.sites': {
    handler: async ({ deps, session }) => {
      const rows = await deps.db.select().from(sites).where(eq(sites.providerId, session!.providerId)).orderBy(asc(sites.siteName));
      return rows.map((r) => ({
        siteID: r.id,
        siteName: r.siteName,
        streetAddress: r.streetAddress,
        city: r.city,
        stateCode: r.stateCode,
        zip: r.zip,
        phone: r.phone,
      }));
    },
  },
} satisfies Partial<Handlers>;
