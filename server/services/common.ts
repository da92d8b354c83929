// Shared look-ups for the services: the provider record and HTML sanitising.
import { eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../db/index';
import { providers } from '../db/schema';
import { noConfigurationData } from '../errors';
import type { SessionInfo } from '../auth';

export type ProviderRow = typeof providers.$inferSelect;

export async function providerByAppName(db: Db, appName: string): Promise<ProviderRow> {
  const [p] = await db.select().from(providers).where(eq(providers.appName, appName.toLowerCase()));
  if (!p) throw noConfigurationData(appName);
  return p;
}

export async function providerOf(db: Db, session: SessionInfo): Promise<ProviderRow> {
  const [p] = await db.select().from(providers).where(eq(providers.id, session.providerId));
  return p;
}

/** The provider configuration of the session state (Customer.program). */
export function programConfig(p: ProviderRow) {
  return {
    appName: p.appName,
    customerID: p.customerID,
    programName: p.programName,
    logoUrl: p.logoUrl,
    organisation: p.organisation,
    supportPhone: p.supportPhone,
    supportEmail: p.supportEmail,
    countryCode: p.countryCode as 'US' | 'CA',
    languages: p.languages,
    isMultiLanguageSupport: p.languages.length > 1,
    isSchoolDistrict: p.isSchoolDistrict,
    hasSmsLicense: p.hasSmsLicense,
    features: p.features,
    programOptions: p.programOptions,
    attendanceAllowed: p.attendanceAllowed,
  };
}

/** Provider-authored HTML (alerts, bulletins, e-mails) is shown as HTML: keep formatting only. */
export function safeHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'td', 'th'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['https', 'http', 'mailto', 'tel'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  });
}

