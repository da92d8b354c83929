// The portal page of a provider's entry (/parentportal/<appName>/...) carries what its first screen
// would otherwise ask for one round trip after another once the scripts ran: the provider's record
// in the browser's language and its declaration set. On a slow network those were two round trips
// on the way to the first paint of sign-in. The data is public (the same answers as Customer.program
// and Customer.declarations) and is JSON inside a non-executed script element; '<' is escaped so no
// text in it can close the element.
import type { Db } from './db/index';
import { servedDeclarations, type DeclarationStore } from './declarations';
import { pickLang } from './i18n';
import { programConfig, providerByAppName } from './domains/provider/provider';
import { buildPath, buildQuery, splitParams, type OperationInfo } from '../src/engine/operationUrl';
import { lightFields } from '../src/engine/fields/widgetTable';
import type { DeclarationSet, ScreenDecl } from '../src/engine/types';
import { matchRoute, PRODUCT_BASES, PRODUCT_SESSION_KEYS, productOfPath, screensOfProduct } from '../src/engine/screen';
import { fileURLToPath } from 'node:url';
import { createTranslator, type Translator } from './i18n';

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
  /** the server's release version: a page of an older release's session is not seeded with this set */
  releaseVersion?: string;
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

/**
 * The provider of a portal path that is its entry (/parentportal/<appName>/parent, the provider-entry
 * screen), if it is one this server serves. Only there is the sign-in drawn ahead: any other path under
 * the name is a page the shell does not know, and drawing a sign-in form there would show a form the
 * shell then replaces with "page not found".
 */
export function entryAppName(path: string, appNames: ReadonlySet<string>): string | null {
  const m = /^\/parentportal\/([A-Za-z0-9_-]+)\/parent\/?$/.exec(path);
  const name = m?.[1].toLowerCase();
  return name && appNames.has(name) ? name : null;
}

/**
 * The provider a page of the portal belongs to, from the `pp_app` cookie the provider's entry page
 * sets (src/shell/boot/firstPaintEarly.ts; a Set-Cookie on the entry's HTML made Lighthouse's
 * simulation count the scripts in its first paint, FCP 1.1 -> 2.4 s): not a secret (the provider's name is in every link), only so that a page other
 * than the entry gets its provider's header and declarations with the HTML instead of after the
 * scripts. Only a name this server serves.
 */
export function cookieAppName(cookieHeader: string | undefined, appNames: ReadonlySet<string>): string | null {
  const name = readCookie(cookieHeader, APP_COOKIE)?.toLowerCase();
  return name && appNames.has(name) ? name : null;
}

export const APP_COOKIE = 'pp_app';
/** The cookie the language list sets (src/shell/language/locale.ts LANGUAGE_COOKIE). */
const LANGUAGE_COOKIE = 'Language';

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The boot data of a provider's page. Its language: the parent's choice (the Language cookie) if the
 * portal speaks it, else the browser's first choice it speaks.
 */
export async function bootData(db: Db, declarations: DeclarationStore, appName: string, acceptLanguage: string | undefined, cookieHeader?: string): Promise<BootData | null> {
  const decl = declarations.get(appName);
  if (!decl) return null;
  const chosen = readCookie(cookieHeader, LANGUAGE_COOKIE);
  const lang = pickLang(chosen ? `${chosen},${acceptLanguage ?? ''}` : acceptLanguage);
  return { appName, lang, program: programConfig(await providerByAppName(db, appName), lang), declarations: { ...servedDeclarations(decl.set) } };
}

/**
 * The portal page in the page's language, with the first paint in #root and the boot data before
 * </body>. `signIn`: the page is the provider's entry (the sign-in form is drawn); else the shell's
 * header only, until React's page is drawn.
 */
export function withBootData(html: string, data: BootData, opts: { signIn: boolean; path?: string } = { signIn: true }): string {
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  let paint = '';
  try {
    paint = firstPaintHtml(data, opts.signIn, opts.path);
  } catch {
    // a declaration set the drawing does not understand: the scripts draw the page, as before
  }
  if (paint) html = scriptsAfterPaint(html);
  // a page of the portal or of the parent application other than the entry: the early script asks
  // for its screen's first data loads when a session of this provider is stored under the product's
  // key (server/domains/provider/firstLoads.ts). The other products' pages (one-time enrolment ...)
  // are entered by their hand-off and not drawn ahead: they keep the entry's early script.
  const product = opts.path ? productOfPath(opts.path) : undefined;
  if (!opts.signIn && (product === 'parentportal' || product === 'parentapplication')) html = earlyScriptData(html, { app: data.appName, sessionKey: PRODUCT_SESSION_KEYS[product] });
  return html
    .replace(/<html lang="[a-z-]*"/i, `<html lang="${escapeHtml(data.lang)}"`)
    .replace('<div id="root"></div>', `<div id="root">${paint}</div>`)
    .replace('</body>', `<script type="application/json" id="${BOOT_ELEMENT_ID}">${json}</script></body>`);
}

/**
 * A page with a first paint asks for its scripts once that paint is on screen: the early script
 * (src/shell/boot/firstPaintEarly.ts) adds the module scripts named in its `data-after-paint`
 * after the first frame. On a slow network the header and form then show as soon as the HTML and
 * the stylesheet are in, without the scripts competing with them for the line. The page is left as
 * built when it does not have both the module scripts and the early script.
 */
export function scriptsAfterPaint(html: string): string {
  const modules: string[] = [];
  const early = /<script async src="([^"]*\/first-paint-[^"]+)"([^>]*)><\/script>/;
  if (!early.test(html)) return html;
  const without = html.replace(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g, (_m, src: string) => {
    modules.push(src);
    return '';
  });
  if (!modules.length) return html;
  return without.replace(early, (_m, src: string, attrs: string) => `<script async src="${src}"${attrs} data-after-paint="${escapeHtml(modules.join(' '))}"></script>`);
}

/**
 * A signed-in page's early script (src/shell/boot/firstPaintEarly.ts, the build's `data-page-script`)
 * in place of the entry's, with data attributes it reads.
 */
export function earlyScriptData(html: string, data: Record<string, string>): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${escapeHtml(v)}"`)
    .join('');
  return html.replace(/<script async src="[^"]*\/first-paint-[^"]+" data-page-script="([^"]+)"/, (_m, page: string) => `<script async src="${page}"${attrs}`);
}

/**
 * The title key of the screen at a portal path (/parentportal/home, /parentapplication/fee), when
 * the screen's title is fixed: not one drawn from its data or its query, which React draws.
 */
export function staticTitleOf(screens: Record<string, unknown>, path: string): string | undefined {
  const product = productOfPath(path);
  const rest = path.slice(PRODUCT_BASES[product].length) || '/';
  const match = matchRoute({ screens: screensOfProduct(screens as Record<string, ScreenDecl>, product) }, rest.startsWith('/') ? rest : `/${rest}`);
  const screen = match?.screen as (ScreenDecl & { titleWhen?: unknown }) | undefined;
  if (!screen || screen.titleFrom || screen.titleByQuery || screen.titleWhen || screen.shellPart) return undefined;
  return typeof screen.title === 'string' && screen.title ? screen.title : undefined;
}

// ---- the first paint: drawn as HTML so the page shows before the scripts arrive ----

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text or attribute value, escaped. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);

let translator: Translator | undefined;
const tr = (): Translator => (translator ??= createTranslator(fileURLToPath(new URL('..', import.meta.url))));

type ScreenLike = { path?: string; product?: string; title?: string; params?: unknown; sections?: Array<Record<string, unknown>> };

/**
 * The provider's sign-in page as HTML, in the page's language: the shell's header (logo and name),
 * the page title, the sign-in form (its schema's light fields as real inputs, its submit button) and
 * the welcome text, classed for the first-paint rules of the portal's stylesheet
 * (src/shell/boot/firstPaint.css), which give them the sizes React's page has. The form is
 * `method="dialog"`: pressed before the scripts, it goes nowhere; src/shell/boot/firstPaintEarly.ts
 * holds the press and the entry replays it in React's form with what was typed
 * (src/shell/boot/firstPaint.ts). Cached per provider, declaration version and language.
 */
const paints = new Map<string, string>();
export function firstPaintHtml(data: BootData, signIn = true, path?: string): string {
  const decl = data.declarations as Pick<DeclarationSet, 'schemas'> & { version?: string; screens?: Record<string, ScreenLike> };
  const t0 = (k: string, params?: Record<string, unknown>) => tr()(data.lang, k, params);
  // another page: its title (or, for a title drawn from its data, a loading text) in the main area
  const pageTitle = signIn || !path ? '' : t0(staticTitleOf(decl.screens ?? {}, path) ?? 'common.status.loading');
  const key = `${data.appName}|${decl.version ?? ''}|${data.lang}|${data.program.programName}|${data.program.logoUrl ?? ''}|${signIn}|${pageTitle}`;
  const known = paints.get(key);
  if (known !== undefined) return known;
  const t = (k: string, params?: Record<string, unknown>) => tr()(data.lang, k, params);
  const signin = signIn ? Object.values(decl.screens ?? {}).find((s) => s.path === '/' && (s.product ?? 'parentportal') === 'parentportal') : undefined;
  const form = signin?.sections?.find((s) => s.kind === 'form' && s.renderer === 'light');
  const name = escapeHtml(data.program.programName ?? '');
  const logo = data.program.logoUrl ? `<img class="pp-fp-logo" src="${escapeHtml(data.program.logoUrl)}" alt="" width="40" height="40">` : '';
  const header = `<header class="pp-fp-header"><div class="pp-fp-bar"><span class="pp-fp-brand">${logo}<span class="pp-fp-name">${name}</span></span><span class="pp-fp-tools"></span></div></header>`;
  let body = '';
  if (signin && form && typeof form.schema === 'string') {
    const { fields, problems } = lightFields(decl, form.schema);
    if (problems.length) throw new Error(problems[0].message);
    const inputs = fields.map((f) => {
      const id = `pp-fp-${f.name}`;
      const label = escapeHtml(t(typeof f.schema.title === 'string' ? f.schema.title : f.name));
      const required = f.schema['x-required'] === true;
      if (f.widget === 'checkbox') {
        return `<div class="pp-fp-field"><label class="pp-fp-check" for="${id}"><input type="checkbox" id="${id}" name="${escapeHtml(f.name)}"><span>${label}</span></label></div>`;
      }
      if (f.widget === 'select') throw new Error('a select on the sign-in form'); // not drawn ahead
      const mark = required ? '<span class="pp-fp-req" aria-hidden="true">*</span>' : ` <span class="pp-fp-opt">${escapeHtml(t('runtime.optional'))}</span>`;
      const auto = f.autoComplete ? ` autocomplete="${escapeHtml(f.autoComplete)}"` : '';
      const mode = f.widget === 'email' ? ' inputmode="email"' : '';
      return `<div class="pp-fp-field"><label for="${id}">${label}${mark}</label><input id="${id}" name="${escapeHtml(f.name)}" type="${escapeHtml(f.widget)}"${auto}${mode}${required ? ' required' : ''}></div>`;
    });
    const actions = Array.isArray(form.actions) ? (form.actions as Array<{ label?: string; effect?: { type?: string } }>) : [];
    const submit = actions.find((a) => a.effect?.type === 'submit');
    const button = submit?.label ? `<div class="pp-fp-actions"><button type="submit" class="pp-fp-submit">${escapeHtml(t(submit.label))}</button></div>` : '';
    const formLabel = typeof form.label === 'string' ? ` aria-label="${escapeHtml(t(form.label))}"` : '';
    const sections = [`<section><form class="pp-fp-form" method="dialog" novalidate${formLabel}>${inputs.join('')}${button}</form></section>`];
    // the screen's plain texts that follow the form (the welcome), as React draws them
    for (const s of signin.sections ?? []) {
      if (s.kind !== 'text' || typeof s.text !== 'string') continue;
      const params: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.params ?? {}) as Record<string, unknown>)) params[k] = v === '$session.programName' ? data.program.programName : v;
      if (Object.values(params).some((v) => typeof v === 'string' && v.startsWith('$'))) continue;
      sections.push(`<section><p class="pp-fp-text${s.tone === 'muted' ? ' pp-fp-muted' : ''}">${escapeHtml(t(s.text, params))}</p></section>`);
    }
    const title = signin.title ? `<h1 class="pp-fp-title">${escapeHtml(t(signin.title))}</h1>` : '';
    body = `<main class="pp-fp-main"><div class="pp-fp-page">${title}<div class="pp-fp-sections">${sections.join('')}</div></div></main>`;
  }
  if (!body && pageTitle) body = `<main class="pp-fp-main"><div class="pp-fp-page"><h1 class="pp-fp-title">${escapeHtml(pageTitle)}</h1></div></main>`;
  const long = (data.program.programName ?? '').length > 34 ? ' pp-fp-long' : '';
  const html = `<div class="pp-fp${long}" data-first-paint="${signin && body ? 'signin' : 'chrome'}" data-app="${escapeHtml(data.appName)}">${header}${body}</div>`;
  if (paints.size > 200) paints.clear();
  paints.set(key, html);
  return html;
}
