// Screens: URL -> screen, typed query, bindings ($query.x, $session.y, ...), and the screen model the
// runtime renders (sections, actions and modals with their show/enable rules evaluated, data loads
// with resolved parameters, the flow's progress bar).
import { isTrue, walkLogic } from './logic';
import type { RuleContext } from './form';
import type { ActionDecl, Binding, DataLoad, DeclarationSet, Effect, KindName, ModalDecl, QueryParamDecl, RuleRef, ScreenDecl, SectionDecl, SectionOf } from './types';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The portal is served under this base path; routes are declared without it. */
export const BASE_PATH = '/parentportal';

/**
 * Where each of the provider's products (spec 3 Product record) is served on this deployment, one base
 * path each under the same host. The calendar product is /flexcalendar: /calendar is a screen of the
 * portal (the events calendar, /parentportal/calendar), and the two are never to be taken for each
 * other, in an address or in a provider's record (server/providerRecord.ts refuses another path for a
 * product on this deployment).
 */
export const PRODUCT_PATHS = {
  parentportal: BASE_PATH,
  parentapplication: '/parentapplication',
  onetimeenrollment: '/onetimeenrollment',
  calendar: '/flexcalendar',
  punchpass: '/punchpass',
} as const;

/**
 * The products whose screens this portal's shell draws, each under its base path: the parent portal,
 * the parent application, the one-time enrolment, the calendar (/flexcalendar) and the punch pass. A screen belongs to the portal unless it names
 * its `product`; routes are declared relative to their product's base.
 */
export const PRODUCT_BASES = {
  parentportal: PRODUCT_PATHS.parentportal,
  parentapplication: PRODUCT_PATHS.parentapplication,
  onetimeenrollment: PRODUCT_PATHS.onetimeenrollment,
  calendar: PRODUCT_PATHS.calendar,
  punchpass: PRODUCT_PATHS.punchpass,
} as const;
export type ProductName = keyof typeof PRODUCT_BASES;

/** Where the browser keeps each product's session (sessionStorage): the portal's, and the one each hand-off was redeemed into. */
export const PRODUCT_SESSION_KEYS: Readonly<Record<ProductName, string>> = { parentportal: 'pp.session', parentapplication: 'pa.session', onetimeenrollment: 'ot.session', calendar: 'fc.session', punchpass: 'pu.session' };

const isProductName = (k: string): k is ProductName => k in PRODUCT_BASES;

/** The product a browser path belongs to (the portal unless it is under another product's base). */
export function productOfPath(pathname: string): ProductName {
  for (const [name, base] of Object.entries(PRODUCT_BASES)) {
    if (name !== 'parentportal' && isProductName(name) && (pathname === base || pathname.startsWith(`${base}/`))) return name;
  }
  return 'parentportal';
}

/** Pages every product shows: the ones the shell draws when nothing else can be (not found, errors). */
const SHARED_SHELL_PARTS = new Set(['notFound', 'genericError', 'sessionEnded']);

/** The screens of one product (with the shared error pages). */
export function screensOfProduct(screens: Record<string, ScreenDecl>, product: ProductName): Record<string, ScreenDecl> {
  const out: Record<string, ScreenDecl> = {};
  for (const [id, s] of Object.entries(screens)) if (isScreenOfProduct(s, product)) out[id] = s;
  return out;
}

/** Whether a product's pages draw a screen: its own, and the pages every product shows. */
export function isScreenOfProduct(s: Pick<ScreenDecl, 'product' | 'shellPart'>, product: string): boolean {
  return (s.product ?? 'parentportal') === product || (!!s.shellPart && SHARED_SHELL_PARTS.has(s.shellPart));
}

function normalizePath(pathname: string): string {
  let p = pathname.split(/[?#]/)[0] || '/';
  if (p === BASE_PATH || p.startsWith(`${BASE_PATH}/`)) p = p.slice(BASE_PATH.length) || '/';
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}

/** Match a pathname to a screen. Static routes win over ones with :params (e.g. /:appName/parent). */
export function matchRoute(set: Pick<DeclarationSet, 'screens'>, pathname: string): { screen: ScreenDecl; params: Record<string, string> } | null {
  const path = normalizePath(pathname);
  const parts = path.split('/');
  let best: { screen: ScreenDecl; params: Record<string, string>; score: number } | null = null;
  for (const screen of Object.values(set.screens)) {
    const pattern = normalizePath(screen.path).split('/');
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    let ok = true;
    for (let i = 0; i < pattern.length; i++) {
      if (pattern[i].startsWith(':')) params[pattern[i].slice(1)] = decodeURIComponent(parts[i]);
      else if (pattern[i].toLowerCase() === parts[i].toLowerCase()) score++;
      else {
        ok = false;
        break;
      }
    }
    if (ok && (!best || score > best.score)) best = { screen, params, score };
  }
  return best && { screen: best.screen, params: best.params };
}

export interface QueryError {
  param: string;
  key: string;
}

/** Typed query of a screen: declared parameters converted, defaults applied, errors as keys. */
export function parseQuery(screen: ScreenDecl, search: string): { query: Record<string, string | number | boolean>; errors: QueryError[] } {
  const sp = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const raw = new Map<string, string>();
  for (const [k, v] of sp) if (!raw.has(k)) raw.set(k, v);
  const query: Record<string, string | number | boolean> = {};
  const errors: QueryError[] = [];
  for (const [name, decl] of Object.entries(screen.query ?? {}) as [string, QueryParamDecl][]) {
    // old links differ in case (childid, ChildID): exact name first, then case-insensitive
    let value = raw.get(name);
    if (value === undefined) for (const [k, v] of raw) if (k.toLowerCase() === name.toLowerCase()) value = v;
    if (value === undefined || value === '') {
      if (decl.default !== undefined) query[name] = decl.default;
      else if (decl.required) errors.push({ param: name, key: 'errors.query.required' });
      continue;
    }
    if (decl.type === 'integer') {
      if (/^-?\d+$/.test(value.trim())) query[name] = Number(value.trim());
      else errors.push({ param: name, key: 'errors.query.integer' });
    } else if (decl.type === 'boolean') {
      const v = value.trim().toLowerCase();
      if (['true', '1', 'yes'].includes(v)) query[name] = true;
      else if (['false', '0', 'no'].includes(v)) query[name] = false;
      else errors.push({ param: name, key: 'errors.query.boolean' });
    } else query[name] = value;
  }
  return { query, errors };
}

/** A binding: "$query.ChildID" and the like are paths into the context; anything else is a literal. */
export function resolveBinding(binding: Binding, ctx: RuleContext): unknown {
  if (typeof binding === 'string' && binding.startsWith('$')) {
    const [root, ...rest] = binding.slice(1).split('.');
    let cur: unknown = (ctx as Record<string, unknown>)[root];
    for (const part of rest) {
      if (cur === null || cur === undefined) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    }
    return cur;
  }
  if (Array.isArray(binding)) return binding.map((b) => resolveBinding(b, ctx));
  if (isObject(binding)) return resolveParams(binding, ctx);
  return binding;
}

export function resolveParams(params: Record<string, Binding> | undefined, ctx: RuleContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params ?? {})) out[k] = resolveBinding(v, ctx);
  return out;
}

/** An effect with its bindings resolved (params, query, body, url, fileName, values), following `then`. */
export function resolveEffect(effect: Effect, ctx: RuleContext): Effect {
  const e = { ...effect } as Record<string, unknown>;
  for (const k of ['params', 'query', 'notice', 'values', 'body']) if (isObject(e[k])) e[k] = resolveParams(e[k] as Record<string, Binding>, ctx);
  for (const k of ['url', 'fileName']) if (k in e) e[k] = resolveBinding(e[k], ctx);
  if (isObject(e.then)) e.then = resolveEffect(e.then as Effect, ctx);
  if (isObject(e.else)) e.else = resolveEffect(e.else as Effect, ctx);
  return e as Effect;
}

export interface ActionModel extends ActionDecl {
  visible: boolean;
  enabled: boolean;
}
/** A section of kind K with its rules evaluated. */
export type SectionModelOf<K extends KindName> = Omit<SectionOf<K>, 'actions'> & { visible: boolean; actions: ActionModel[] };
/** A section of any kind with its rules evaluated, discriminated by `kind`. */
export type SectionModel = { [K in KindName]: SectionModelOf<K> }[KindName];
export interface ModalModel extends Omit<ModalDecl, 'actions' | 'sections'> {
  actions: ActionModel[];
  sections: SectionModel[];
}
export interface LoadModel extends DataLoad {
  key: string;
  /** false when the load's `when` rule is false: do not call it */
  active: boolean;
  params: Record<string, unknown>;
}
export interface FlowProgress {
  name: string;
  current: number;
  steps: { step: number; label: string; state: 'done' | 'current' | 'todo' }[];
}
export interface ScreenModel {
  screen: ScreenDecl;
  title: string;
  sections: SectionModel[];
  actions: ActionModel[];
  modals: ModalModel[];
  loads: LoadModel[];
  progress?: FlowProgress;
}

function actionModel(set: DeclarationSet, a: ActionDecl, ctx: RuleContext): ActionModel {
  const visible = isTrue(set.rules, a.show, ctx);
  return { ...a, visible, enabled: visible && isTrue(set.rules, a.enable, ctx) };
}

function sectionModel(set: DeclarationSet, s: SectionDecl, ctx: RuleContext): SectionModel {
  const visible = isTrue(set.rules, s.show, ctx);
  return { ...s, visible, actions: (s.actions ?? []).map((a) => actionModel(set, a, ctx)) };
}

/** The progress bar of a flow step, with rule-driven label variants. */
export function flowProgress(set: DeclarationSet, screen: ScreenDecl, ctx: RuleContext): FlowProgress | undefined {
  const flow = screen.flow;
  if (!flow) return undefined;
  return {
    name: flow.name,
    current: flow.step,
    steps: flow.steps.map((label, i) => {
      const step = i + 1;
      const variant = (flow.variants ?? []).find((v) => v.step === step && isTrue(set.rules, v.when, ctx));
      return { step, label: variant ? variant.label : label, state: step < flow.step ? 'done' : step === flow.step ? 'current' : 'todo' };
    }),
  };
}

/** In-progress application data of a flow: the session's applications under the `key` query. */
export function flowData(applications: Record<string, unknown> | undefined, query: Record<string, unknown> | undefined): Record<string, unknown> {
  const key = query?.key;
  const app = typeof key === 'string' && applications ? applications[key] : undefined;
  return isObject(app) ? app : {};
}

export function screenModel(set: DeclarationSet, screenId: string, ctx: RuleContext): ScreenModel {
  const screen = set.screens[screenId];
  if (!screen) throw new Error(`unknown screen "${screenId}"`);
  const loads = Object.entries(screen.data ?? {}).map(([key, load]) => ({
    ...load,
    key,
    active: isTrue(set.rules, load.when, ctx),
    params: resolveParams(load.params, ctx),
  }));
  return {
    screen,
    title: screen.title,
    sections: screen.sections.map((s) => sectionModel(set, s, ctx)),
    actions: (screen.actions ?? []).map((a) => actionModel(set, a, ctx)),
    modals: (screen.modals ?? []).map((m) => ({
      ...m,
      actions: m.actions.map((a) => actionModel(set, a, ctx)),
      sections: (m.sections ?? []).map((s) => sectionModel(set, s, ctx)),
    })),
    loads,
    progress: flowProgress(set, screen, ctx),
  };
}

/**
 * One item of a list section (a card): the template's bindings resolved with `$item`, and every
 * object with `show`/`enable` (and every action) given `visible`/`enabled`. Effects keep their bindings (resolved when run
 * with resolveEffect and the same item context).
 */
export function itemModel(set: DeclarationSet, template: unknown, item: unknown, ctx: RuleContext): unknown {
  const c: RuleContext = { ...ctx, item };
  const go = (node: unknown, prop: string): unknown => {
    if (prop === 'effect') return node;
    if (typeof node === 'string') return prop === 'show' || prop === 'enable' || prop === 'when' ? node : resolveBinding(node, c);
    if (Array.isArray(node)) return node.map((x) => go(x, prop));
    if (!isObject(node)) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) out[k] = go(v, k);
    const isAction = 'effect' in node;
    if ('show' in node || 'when' in node || isAction) out.visible = isTrue(set.rules, (node.show ?? node.when) as RuleRef | undefined, c);
    if ('enable' in node || isAction) out.enabled = out.visible !== false && isTrue(set.rules, node.enable as RuleRef | undefined, c);
    return out;
  };
  return go(template, '');
}

/**
 * Whether anything on a screen reads its forms' values through the screen context: a `$form`
 * binding, or a rule (or a rule it calls) reading `form`. Only then does typing re-render the
 * screen; a submit reads the values from the form itself either way.
 */
export function screenReadsForm(set: Pick<DeclarationSet, 'rules'>, screen: ScreenDecl): boolean {
  const seen = new Map<string, boolean>();
  const ruleReads = (id: string): boolean => {
    const known = seen.get(id);
    if (known !== undefined) return known;
    seen.set(id, false);
    let reads = false;
    walkLogic(set.rules[id]?.logic, (op, args) => {
      const first = args[0];
      if (op === 'var' && (typeof first !== 'string' || first === '' || /^form(\.|$)/.test(first))) reads = true;
      if (op === 'rule' && (typeof first !== 'string' || ruleReads(first))) reads = true;
    });
    seen.set(id, reads);
    return reads;
  };
  const visit = (v: unknown): boolean => {
    if (typeof v === 'string') return v.startsWith('$form') || (Object.prototype.hasOwnProperty.call(set.rules, v) && ruleReads(v));
    if (Array.isArray(v)) return v.some(visit);
    return typeof v === 'object' && v !== null && Object.values(v).some(visit);
  };
  return visit(screen);
}
