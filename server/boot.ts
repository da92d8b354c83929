// The portal page of a provider's entry (/parentportal/<appName>/...) carries what its first screen
// would otherwise ask for one round trip after another once the scripts ran: the provider's record
// in the browser's language and its declaration set. On a slow network those were two round trips
// on the way to the first paint of sign-in. The data is public (the same answers as Customer.program
// and Customer.declarations) and is JSON inside a non-executed script element; '<' is escaped so no
// text in it can close the element.
import type { Db } from './db/index';
import type { DeclarationStore } from './declarations';
import { pickLang } from './i18n';
import { programConfig, providerByAppName } from './services/common';

export const BOOT_ELEMENT_ID = 'pp-boot';

export interface BootData {
  appName: string;
  /** the language the provider's record is in (the browser's first choice the portal speaks) */
  lang: string;
  program: ReturnType<typeof programConfig>;
  /** the declaration set's version, schemas, rules and screens (Customer.declarations) */
  declarations: Record<string, unknown>;
}

/** The provider named by a portal path's first segment, if it is one this server serves. */
export function entryAppName(path: string, appNames: ReadonlySet<string>): string | null {
  const m = /^\/parentportal\/([A-Za-z0-9_-]+)(?:\/|$)/.exec(path);
  const name = m?.[1].toLowerCase();
  return name && appNames.has(name) ? name : null;
}

export async function bootData(db: Db, declarations: DeclarationStore, appName: string, acceptLanguage: string | undefined): Promise<BootData | null> {
  const decl = declarations.get(appName);
  if (!decl) return null;
  const lang = pickLang(acceptLanguage);
  const { version, schemas, rules, screens } = decl.set;
  return { appName, lang, program: programConfig(await providerByAppName(db, appName), lang), declarations: { version, schemas, rules, screens } };
}

/** The portal page with the boot data before </body>. */
export function withBootData(html: string, data: BootData): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return html.replace('</body>', `<script type="application/json" id="${BOOT_ELEMENT_ID}">${json}</script></body>`);
}
