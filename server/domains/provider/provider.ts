// Shared look-ups for the services: the provider record and HTML sanitising.
import { and, eq } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../../db/index';
import { providers, logins, adults, accounts, type LinkByLanguage } from '../../db/schema';
import { noConfigurationData } from '../../errors';
import type { SessionInfo } from '../../auth';

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

/** A provider page's address in this language, else in the provider's default language. */
function linkIn(link: LinkByLanguage | undefined, lang: string, defaultLang: string): string | undefined {
  return link?.[lang as keyof LinkByLanguage] ?? link?.[defaultLang as keyof LinkByLanguage];
}

/**
 * The provider configuration of the session state (Customer.program); the provider's pages in `lang`
 * (rules on the server see them in the provider's default language).
 */
export function programConfig(p: ProviderRow, lang?: string) {
  const defaultLang = p.languages[0]?.code ?? 'en';
  const userGuideUrl = linkIn(p.links.userGuideUrl, lang ?? defaultLang, defaultLang);
  const privacyPolicyUrl = linkIn(p.links.privacyPolicyUrl, lang ?? defaultLang, defaultLang);
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
    fieldOptions: p.fieldOptions,
    ...(userGuideUrl ? { userGuideUrl } : {}),
    ...(privacyPolicyUrl ? { privacyPolicyUrl } : {}),
  };
}

/**
 * Provider-authored HTML (alerts, bulletins, e-mails, custom texts) reaches the page: keep formatting
 * only. No scripts, event handlers, style attributes or style elements (nothing can hide or overlay
 * the page), no javascript:/data: URLs, no forms, frames or embedded objects. Applied before storing
 * and again before serving.
 */
export function safeHtml(html: string): string {
  // NUL never reaches a browser or the database
  return sanitizeHtml(html.replace(/\u0000/g, ''), {
    allowedTags: ['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'td', 'th'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['https', 'http', 'mailto', 'tel'],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'xmp', 'iframe', 'noembed', 'noframes', 'template', 'title'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer', target: '_blank' }) },
  });
}

/** Plain text placed inside HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}


type LoginRow = typeof logins.$inferSelect;
type AdultRow = typeof adults.$inferSelect;
type AccountRow = typeof accounts.$inferSelect;

/** The session fields of spec section 3 (login answer, and the `session` rules see on the server). */
export function sessionState(p: ProviderRow, login: LoginRow, adult: AdultRow, account: AccountRow, releaseVersion: string, locale: string) {
  return {
    accessType: adult.accessType as 'F' | 'P',
    accountHolder: adult.accountHolder,
    countryCode: p.countryCode as 'US' | 'CA',
    customerID: p.customerID,
    programName: p.programName,
    logo: p.logoUrl,
    organisation: p.organisation,
    supportPhone: p.supportPhone,
    supportEmail: p.supportEmail,
    isMultiLanguageSupport: p.languages.length > 1,
    hasSmsLicense: p.hasSmsLicense,
    accountID: account.id,
    adultID: adult.id,
    accountNo: account.accountNo,
    userName: login.email,
    firstName: adult.firstName,
    lastName: adult.lastName,
    email: adult.email,
    applicationName: p.appName,
    releaseVersion,
    isSchoolDistrict: p.isSchoolDistrict,
    isTemporaryPassword: login.isTemporaryPassword,
    locale,
  };
}

/** provider configuration and session fields of a signed-in session, for server-side rules */
export async function ruleContextOf(db: Db, session: SessionInfo, releaseVersion: string) {
  const [row] = await db
    .select({ p: providers, login: logins, adult: adults, account: accounts })
    .from(logins)
    .innerJoin(providers, eq(providers.id, logins.providerId))
    .innerJoin(adults, eq(adults.id, logins.adultId))
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(logins.id, session.loginId), eq(logins.providerId, session.providerId)));
  return {
    appName: row.p.appName,
    provider: programConfig(row.p),
    session: sessionState(row.p, row.login, row.adult, row.account, releaseVersion, session.locale),
  };
}
