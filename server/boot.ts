// The portal page of a provider's entry (/parentportal/<appName>/...) carries what its first screen
// would otherwise ask for one round trip after another once the scripts ran: the provider's record
// in the browser's language and its declaration set. On a slow network those were two round trips
// on the way to the first paint of sign-in. The data is public (the same answers as Customer.program
// and Customer.declarations) and is JSON inside a non-executed script element; '<' is escaped so no
// text in it can close the element.
import type { Db } from './db/index';
import type { DeclarationStore } from './declarations';
import { pickLang } from './i18n';
import { programConfig, providerByAppName } from './domains/provider/provider';
import { buildPath, buildQuery, splitParams, type OperationInfo } from '../src/engine/operationUrl';

export const BOOT_ELEMENT_ID = 'pp-boot';

export interface BootData {
  appName: string;
  /** the language the provider's record is in (the browser's first choice the portal speaks) */
  lang: string;
  program: ReturnType<typeof programConfig>;
  /** the declaration set's version, schemas, rules and screens (Customer.declarations) */
  declarations: Record<string, unknown>;
  /** the sign-in screen's public data loads with their answers, in `lang` */
  loads?: BootLoad[];
}

/** One data load of a screen (its operation and resolved parameters) and the API's answer to it. */
export interface BootLoad {
  op: string;
  params: Record<string, unknown>;
  answer: unknown;
}

/** What the entry needs to know of an operation to answer it here: public, a GET, no rate limit. */
export interface BootOperation extends OperationInfo {
  auth: string;
  rateLimit?: unknown;
}

/**
 * The sign-in screen's data loads that anyone may ask for (the login alerts, the social sign-in
 * options), answered through the API itself (`get`, the server's own inject) so the answers are the
 * ones the browser would get; a load that needs more than the provider's name, or fails, is left to
 * the browser. Each was a round trip after the scripts on the way to sign-in's first paint.
 */
export async function signInLoads(
  screens: Record<string, unknown>,
  ops: ReadonlyMap<string, BootOperation>,
  appName: string,
  get: (url: string) => Promise<{ statusCode: number; body: string }>,
): Promise<BootLoad[]> {
  // the portal's screen at '/' (the parent application has one of its own there)
  const signin = Object.values(screens).find((s) => {
    const screen = s as { path?: string; product?: string };
    return screen.path === '/' && (screen.product ?? 'parentportal') === 'parentportal';
  }) as { data?: Record<string, { op: string; params?: Record<string, unknown>; when?: unknown }> } | undefined;
  const out: BootLoad[] = [];
  for (const load of Object.values(signin?.data ?? {})) {
    const op = ops.get(load.op);
    if (!op || op.method !== 'GET' || op.auth !== 'public' || op.rateLimit || load.when !== undefined) continue;
    const params: Record<string, unknown> = {};
    let resolvable = true;
    for (const [k, v] of Object.entries(load.params ?? {})) {
      if (v === '$session.appName') params[k] = appName;
      else if (typeof v === 'string' && v.startsWith('$')) resolvable = false;
      else params[k] = v;
    }
    if (!resolvable) continue;
    // the URL the browser's API client would build for the same load
    const split = splitParams(load.op, params, { [load.op]: op });
    const url = (() => {
      try {
        return buildPath(load.op, op, split.params) + buildQuery(split.query);
      } catch {
        return null; // a path parameter the load does not give
      }
    })();
    const res = url ? await get(url).catch(() => null) : null;
    if (res?.statusCode !== 200) continue;
    out.push({ op: load.op, params, answer: JSON.parse(res.body) as unknown });
  }
  return out;
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
