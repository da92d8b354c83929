// Location service's data: the provider's sites.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/index';
import type { LocationSitesResponse } from '../../../src/engine/contract.gen';
import { sites } from '../../db/schema';
import { textIn } from '../../providerTexts';

/** The provider's sites by name, in the language asked for. */
export async function providerSites(db: Db, providerId: number, lang: string): Promise<LocationSitesResponse> {
  const rows = await db.select().from(sites).where(eq(sites.providerId, providerId)).orderBy(asc(sites.siteName));
  return rows.map((r) => ({
    siteID: r.id,
    siteName: textIn(r, 'siteName', lang),
    streetAddress: r.streetAddress,
    city: r.city,
    stateCode: r.stateCode,
    zip: r.zip,
    phone: r.phone,
  }));
}
