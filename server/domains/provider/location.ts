// Location service: the provider's sites.
import { asc, eq } from 'drizzle-orm';
import type { Handlers } from '../../context';
import { sites } from '../../db/schema';
import { textIn } from '../../providerTexts';

export const location = {
  'Location.sites': {
    handler: async ({ deps, session, lang }) => {
      const rows = await deps.db.select().from(sites).where(eq(sites.providerId, session!.providerId)).orderBy(asc(sites.siteName));
      return rows.map((r) => ({
        siteID: r.id,
        siteName: textIn(r, 'siteName', lang),
        streetAddress: r.streetAddress,
        city: r.city,
        stateCode: r.stateCode,
        zip: r.zip,
        phone: r.phone,
      }));
    },
  },
} satisfies Partial<Handlers>;
