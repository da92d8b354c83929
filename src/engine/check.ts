// Declaration checks: meta-schemas, cross references (rule ids, $refs, API operations, forms, modals,
// component kinds), schema compilation, and translation keys in en, es, pt and vi.
import Ajv, { type ValidateFunction } from 'ajv';
import { ruleTable, type BaseDeclarations, type DeclError, type DeclFile } from './declFiles';
import { createAjv } from './ajv';
import { escapePointer, isOperator, walkLogic } from './logic';
import type { ActionDecl, Effect, JsonSchema } from './types';
import { isWidgetName, lightFields, WIDGET_NAMES } from './fields/widgetTable';

import { LANGUAGES } from './languages';
export { LANGUAGES };
export type Translations = Record<string, Record<string, unknown>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const ptr = (...parts: (string | number)[]) => parts.map((p) => `/${escapePointer(String(p))}`).join('');

// ---------------------------------------------------------------------------------------------
// meta-schema validation

const metaCache = new WeakMap<object, ValidateFunction>();
/** A meta-schema's validator; the other meta-schemas are known too (the screen one refers to meta/section). */
function metaValidator(meta: JsonSchema, metas: BaseDeclarations['meta']): ValidateFunction {
  let v = metaCache.get(meta);
  if (!v) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const other of Object.values(metas)) {
      // added under its $id as the key: ajv would resolve a relative $id ("meta/section") again
      // against itself when a $ref enters it ("meta/meta/section")
      const { $id, ...rest } = other.json;
      if (other.json !== meta && typeof $id === 'string') ajv.addSchema(rest, $id);
    }
    v = ajv.compile(meta);
    metaCache.set(meta, v);
  }
  return v;
}

function metaErrors(file: DeclFile<unknown>, meta: DeclFile<JsonSchema> | undefined, out: DeclError[], metas: BaseDeclarations['meta']): boolean {
  if (!meta) return true;
  const validate = metaValidator(meta.json, metas);
  if (validate(file.json)) return true;
  // the most specific errors are the useful ones: drop anyOf/oneOf summaries when details exist
  const errs = validate.errors ?? [];
  const detailed = errs.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
  for (const e of (detailed.length ? detailed : errs).slice(0, 20)) {
    const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
    const allowed = e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
    out.push({ file: file.file, path: e.instancePath, message: `${e.message ?? 'invalid'}${extra}${allowed}` });
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// walking declarations

function walk(node: unknown, visit: (obj: Record<string, unknown>, pointer: string) => void, pointer = ''): void {
  if (Array.isArray(node)) node.forEach((x, i) => walk(x, visit, `${pointer}/${i}`));
  else if (isObject(node)) {
    visit(node, pointer);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${pointer}/${escapePointer(k)}`);
  }
}

function resolvePointer(doc: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return doc;
  let cur: unknown = doc;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** Whether a route (declared path, ":name" segments match any) matches a target path; case-insensitive like matchRoute. */
function routeMatches(route: string, path: string): boolean {
  const a = route.toLowerCase().split('/').filter(Boolean);
  const b = path.toLowerCase().split('/').filter(Boolean);
  return a.length === b.length && a.every((seg, i) => seg.startsWith(':') || seg === b[i]);
}

/** Every effect of an action, following `then`. */
function effectsOf(effect: Effect | undefined, pointer: string, out: { effect: Effect; pointer: string }[]): void {
  if (!effect || !isObject(effect)) return;
  out.push({ effect, pointer });
  const then = (effect as { then?: Effect }).then;
  if (then) effectsOf(then, `${pointer}/then`, out);
  if (effect.type === 'branch' && effect.else) effectsOf(effect.else, `${pointer}/else`, out);
}

const NULL_UNSAFE = new Set(['<', '<=', '>', '>=', 'in', '+', '-', '*', '/', '%', 'max', 'min', 'substr', 'cat', 'map', 'filter', 'reduce', 'all', 'some', 'none']);
const RULE_REF_KEYS = new Set(['show', 'enable', 'when', 'confirmWhen', 'rule', 'x-show', 'x-required', 'x-enable']);
const NON_KEY_KEYS = new Set(['$ref', '$id', '$schema', 'op', 'form', 'schema', 'path', 'to', 'returnTo', 'id', 'kind', 'source', 'modal', 'confirm', 'type', 'variant', 'layout', 'access', 'name', 'url', 'fileName']);

// ---------------------------------------------------------------------------------------------
// structural checks (no translations): used by buildDeclarationSet and by checkDeclarations

export function structuralErrors(d: BaseDeclarations): { errors: DeclError[]; warnings: DeclError[] } {
  // an unknown fragment or fragments that include each other: the screen is not what was written
  const errors: DeclError[] = [...(d.fragmentErrors ?? [])];
  const warnings: DeclError[] = [];
  const rules = ruleTable(d.rules);
  const ops = new Set<string>();
  /** operations a payment-only login may call (their declared policy) */
  const paymentOnlyOps = new Set<string>();
  for (const [service, f] of Object.entries(d.api)) {
    for (const [name, op] of Object.entries(isObject(f.json?.operations) ? f.json.operations : {})) {
      const id = name.startsWith(`${service}.`) ? name : `${service}.${name}`;
      ops.add(id);
      if (isObject(op) && (op.paymentOnly === true || op.auth === 'public')) paymentOnlyOps.add(id);
    }
  }

  // API files
  for (const [service, f] of Object.entries(d.api)) {
    if (!metaErrors(f, d.meta.api, errors, d.meta)) continue;
    if (f.json.service !== service) errors.push({ file: f.file, path: '/service', message: `service must be "${service}" (the file name)` });
    for (const [name, op] of Object.entries(f.json.operations)) {
      if (op.form && !d.schemas[op.form]) errors.push({ file: f.file, path: ptr('operations', name, 'form'), message: `unknown form schema "${op.form}"` });
    }
  }

  // rule files
  for (const [area, f] of Object.entries(d.rules)) {
    if (!metaErrors(f, d.meta.rules, errors, d.meta)) continue;
    if (f.json.area !== area) errors.push({ file: f.file, path: '/area', message: `area must be "${area}" (the file name)` });
    for (const [id, def] of Object.entries(f.json.rules)) {
      if (!id.startsWith(`${area}.`)) errors.push({ file: f.file, path: ptr('rules', id), message: `rule id must start with "${area}."` });
      if (isObject(def.logic) && Object.keys(def.logic).length !== 1) {
        errors.push({ file: f.file, path: ptr('rules', id, 'logic'), message: 'a logic object has exactly one operator' });
      }
      walkLogic(def.logic, (op, args, pointer) => {
        const at = `${ptr('rules', id, 'logic')}${pointer}`;
        if (!isOperator(op)) errors.push({ file: f.file, path: at, message: `unknown operator "${op}"` });
        // a missing or null value compares like 0 and breaks "in": such operands need a default
        if (NULL_UNSAFE.has(op)) {
          args.forEach((arg, i) => {
            if (op === 'in' && i === 0) return;
            if (!isObject(arg) || Object.keys(arg).length !== 1 || !('var' in arg)) return;
            const v = Array.isArray(arg.var) ? arg.var : [arg.var];
            const scoped = v[0] === '' || v[0] === 'current' || v[0] === 'accumulator' || v[0] === undefined;
            if (!scoped && v.length < 2) {
              errors.push({ file: f.file, path: `${at}/${i}`, message: `var "${String(v[0])}" is an operand of "${op}": give it a default ({"var": [path, default]})` });
            }
          });
        }
        if (op === 'rule' && typeof args[0] === 'string' && !rules[args[0]]) errors.push({ file: f.file, path: at, message: `unknown rule id "${args[0]}"` });
      });
    }
  }

  // cases tables
  for (const [area, f] of Object.entries(d.cases)) {
    if (!metaErrors(f, d.meta.cases, errors, d.meta)) continue;
    if (!d.rules[area]) errors.push({ file: f.file, path: '/area', message: `no rules/${area}.rules.json for these cases` });
    f.json.cases.forEach((row, i) => {
      if (typeof row !== 'string' && !rules[row.rule]) errors.push({ file: f.file, path: ptr('cases', i, 'rule'), message: `unknown rule id "${row.rule}"` });
    });
  }
  for (const [area, f] of Object.entries(d.rules)) {
    if (!d.cases[area]) errors.push({ file: f.file, path: '', message: `missing cases table rules/${area}.cases.json` });
  }

  // form and entity schemas
  const checkRuleRef = (file: string, pointer: string, ref: unknown) => {
    if (typeof ref === 'string' && !rules[ref]) errors.push({ file, path: pointer, message: `unknown rule id "${ref}"` });
  };
  for (const [id, f] of Object.entries(d.schemas)) {
    if (f.json.$id !== id) errors.push({ file: f.file, path: '/$id', message: `$id must be "${id}" (the file name)` });
    walk(f.json, (node, pointer) => {
      if (Array.isArray(node.required)) errors.push({ file: f.file, path: `${pointer}/required`, message: 'use "x-required" (a rule) instead of "required"' });
      for (const k of ['x-show', 'x-required', 'x-enable']) {
        if (!(k in node)) continue;
        if (typeof node[k] !== 'boolean' && typeof node[k] !== 'string') errors.push({ file: f.file, path: `${pointer}/${k}`, message: `${k} must be a rule id or a boolean` });
        else checkRuleRef(f.file, `${pointer}/${k}`, node[k]);
      }
      if ('x-validate' in node && !Array.isArray(node['x-validate'])) errors.push({ file: f.file, path: `${pointer}/x-validate`, message: 'x-validate must be a list of {rule, message}' });
      if (Array.isArray(node['x-validate'])) {
        node['x-validate'].forEach((v, i) => isObject(v) && checkRuleRef(f.file, `${pointer}/x-validate/${i}/rule`, v.rule));
      }
      if (Array.isArray(node['x-titleWhen'])) {
        node['x-titleWhen'].forEach((v, i) => isObject(v) && checkRuleRef(f.file, `${pointer}/x-titleWhen/${i}/when`, v.when));
      }
      if ('x-widget' in node && !isWidgetName(node['x-widget'])) {
        errors.push({ file: f.file, path: `${pointer}/x-widget`, message: `unknown x-widget "${String(node['x-widget'])}" (widgets: ${WIDGET_NAMES.join(', ')})` });
      }
      if (Array.isArray(node['x-layout'])) {
        // every placed field is a property of this object, placed once
        const props = isObject(node.properties) ? node.properties : {};
        const placed = new Set<string>();
        node['x-layout'].forEach((g, gi) => {
          const rows = isObject(g) && Array.isArray(g.rows) ? g.rows : [];
          rows.forEach((row, ri) => {
            (Array.isArray(row) ? row : []).forEach((cell, ci) => {
              const name = typeof cell === 'string' ? cell : isObject(cell) ? cell.field : undefined;
              if (typeof name !== 'string') return;
              const at = `${pointer}/x-layout/${gi}/rows/${ri}/${ci}`;
              if (!(name in props)) errors.push({ file: f.file, path: at, message: `x-layout places "${name}", which is not a property of this object` });
              else if (placed.has(name)) errors.push({ file: f.file, path: at, message: `x-layout places "${name}" twice` });
              placed.add(name);
            });
          });
        });
      }
      const options = node['x-options'];
      if (isObject(options) && typeof options.op === 'string' && !ops.has(options.op)) {
        errors.push({ file: f.file, path: `${pointer}/x-options/op`, message: `unknown API operation "${options.op}"` });
      }
      if (typeof node.$ref === 'string') {
        const [target, frag = ''] = node.$ref.split('#');
        const doc = target === '' ? f.json : d.schemas[target.replace(/\.json$/, '')]?.json;
        if (!doc) errors.push({ file: f.file, path: `${pointer}/$ref`, message: `unknown schema "${target}" in $ref` });
        else if (resolvePointer(doc, frag) === undefined) errors.push({ file: f.file, path: `${pointer}/$ref`, message: `$ref "${node.$ref}" points at nothing` });
      }
    });
  }
  if (!errors.some((e) => e.file.includes('schemas/') && !e.file.includes('schemas/api/'))) {
    // compile every schema together (unknown formats and keywords, bad $refs)
    for (const country of ['US', 'CA'] as const) {
      const ajv = createAjv({ country });
      // against the JSON Schema meta-schema first, so a bad keyword value names its file and path
      for (const f of Object.values(d.schemas)) {
        if (ajv.validateSchema(f.json)) continue;
        for (const e of ajv.errors ?? []) errors.push({ file: f.file, path: e.instancePath, message: `not a valid JSON Schema: ${e.message}` });
      }
      if (errors.length) break;
      for (const f of Object.values(d.schemas)) {
        try {
          ajv.addSchema(f.json);
        } catch (e) {
          errors.push({ file: f.file, path: '', message: (e as Error).message });
        }
      }
      if (errors.length) break;
      for (const [id, f] of Object.entries(d.schemas)) {
        try {
          ajv.getSchema(id);
        } catch (e) {
          errors.push({ file: f.file, path: '', message: (e as Error).message });
        }
      }
      if (errors.length) break;
    }
  }

  // fragments (screens/fragments/): their own shape; their content is checked in the screens that include them
  for (const [id, f] of Object.entries(d.fragments ?? {})) {
    if (!metaErrors(f, d.meta.fragment, errors, d.meta)) continue;
    if (f.json.id !== id) errors.push({ file: f.file, path: '/id', message: `id must be "${id}" (the file name)` });
  }

  // screens
  const paths = new Map<string, string>();
  for (const [id, f] of Object.entries(d.screens)) {
    if (!metaErrors(f, d.meta.screen, errors, d.meta)) continue;
    const s = f.json;
    if (s.id !== id) errors.push({ file: f.file, path: '/id', message: `id must be "${id}" (the file name)` });
    // a route is unique within its product (the portal and the parent application have their own '/')
    const route = `${s.product ?? 'parentportal'} ${s.path}`;
    if (paths.has(route)) errors.push({ file: f.file, path: '/path', message: `path ${s.path} is also declared by ${paths.get(route)}` });
    paths.set(route, f.file);
    const modals = new Set((s.modals ?? []).map((m) => m.id));
    walk(s, (node, pointer) => {
      for (const k of ['show', 'enable', 'when', 'confirmWhen']) if (k in node) checkRuleRef(f.file, `${pointer}/${k}`, node[k]);
      if (typeof node.kind === 'string' && d.kinds && 'id' in node && !d.kinds.includes(node.kind)) {
        errors.push({ file: f.file, path: `${pointer}/kind`, message: `unknown component kind "${node.kind}"` });
      }
      for (const k of ['schema', 'form']) {
        if (typeof node[k] === 'string' && !d.schemas[node[k] as string]) errors.push({ file: f.file, path: `${pointer}/${k}`, message: `unknown form schema "${String(node[k])}"` });
      }
    });
    const loads = s.data ?? {};
    for (const [key, load] of Object.entries(loads)) {
      if (!ops.has(load.op)) errors.push({ file: f.file, path: ptr('data', key, 'op'), message: `unknown API operation "${load.op}"` });
      // a screen open to payment-only logins must not load what the contract refuses them
      if (s.paymentOnly && !load.when && ops.has(load.op) && !paymentOnlyOps.has(load.op)) {
        errors.push({ file: f.file, path: ptr('data', key, 'op'), message: `the screen is paymentOnly but "${load.op}" is not paymentOnly in the contract (give the load a \`when\` rule or change the policy)` });
      }
    }
    if (s.paymentOnly) {
      (s.actions ?? []).forEach((a, i) => {
        const effects: { effect: Effect; pointer: string }[] = [];
        effectsOf(a.effect, `${ptr('actions', i)}/effect`, effects);
        for (const { effect, pointer: ep } of effects) {
          const op = (effect as { op?: string }).op;
          if (op && ops.has(op) && !paymentOnlyOps.has(op) && !a.show) errors.push({ file: f.file, path: `${ep}/op`, message: `the screen is paymentOnly but "${op}" is not paymentOnly in the contract` });
        }
      });
    }
    const actions: { a: ActionDecl; pointer: string }[] = [];
    (s.actions ?? []).forEach((a, i) => actions.push({ a, pointer: ptr('actions', i) }));
    s.sections.forEach((sec, i) => (sec.actions ?? []).forEach((a, j) => actions.push({ a, pointer: ptr('sections', i, 'actions', j) })));
    (s.modals ?? []).forEach((m, i) => {
      m.actions.forEach((a, j) => actions.push({ a, pointer: ptr('modals', i, 'actions', j) }));
      (m.sections ?? []).forEach((sec, k) => (sec.actions ?? []).forEach((a, j) => actions.push({ a, pointer: ptr('modals', i, 'sections', k, 'actions', j) })));
    });
    // section options may hold card templates with their own actions
    walk(s.sections, (node, pointer) => {
      if (Array.isArray(node.actions) && pointer.split('/').length > 2) {
        (node.actions as ActionDecl[]).forEach((a, j) => actions.push({ a, pointer: `/sections${pointer}/actions/${j}` }));
      }
    });
    for (const { a, pointer } of actions) {
      if (a.confirm && !modals.has(a.confirm)) errors.push({ file: f.file, path: `${pointer}/confirm`, message: `unknown modal "${a.confirm}"` });
      const effects: { effect: Effect; pointer: string }[] = [];
      effectsOf(a.effect, `${pointer}/effect`, effects);
      for (const { effect, pointer: ep } of effects) {
        const op = (effect as { op?: string }).op;
        if (op !== undefined && !ops.has(op)) errors.push({ file: f.file, path: `${ep}/op`, message: `unknown API operation "${op}"` });
        if (effect.type === 'modal' && !modals.has(effect.modal)) errors.push({ file: f.file, path: `${ep}/modal`, message: `unknown modal "${effect.modal}"` });
        if (effect.type === 'reload') {
          for (const key of effect.data ?? []) if (!(key in loads)) errors.push({ file: f.file, path: `${ep}/data`, message: `unknown data load "${key}"` });
          for (const o of effect.ops ?? []) if (!ops.has(o)) errors.push({ file: f.file, path: `${ep}/ops`, message: `unknown API operation "${o}"` });
        }
      }
    }
    s.sections.forEach((sec, i) => {
      if (sec.source && !(sec.source in loads)) errors.push({ file: f.file, path: ptr('sections', i, 'source'), message: `unknown data load "${sec.source}"` });
    });
  }

  // navigation targets (`to` of effects, links and cards, `returnTo` of redirects out): a declared
  // screen, or a route of screens/planned-routes.json (hidden at run time until its screen lands)
  const screenPaths = Object.values(d.screens).map((f) => f.json.path).filter((p): p is string => typeof p === 'string');
  const plannedFile = d.plannedRoutes;
  const planned = plannedFile && isObject(plannedFile.json.routes) ? Object.keys(plannedFile.json.routes) : undefined;
  if (plannedFile && !planned) errors.push({ file: plannedFile.file, path: '/routes', message: 'routes must be an object: route -> what it is' });
  for (const route of planned ?? []) {
    if (!route.startsWith('/')) errors.push({ file: plannedFile!.file, path: ptr('routes', route), message: 'a route starts with /' });
  }
  if (planned) {
    for (const route of planned) {
      if (screenPaths.some((p) => routeMatches(p, route))) {
        errors.push({ file: d.plannedRoutes!.file, path: ptr('routes', route), message: `${route} has a screen now: remove it from the planned routes` });
      }
    }
    // a route of a product: its own screens' paths (a navigate naming `product` goes to that one's)
    const pathsOf = (product: string) =>
      Object.values(d.screens)
        .filter((f) => (f.json.product ?? 'parentportal') === product)
        .map((f) => f.json.path)
        .filter((p): p is string => typeof p === 'string');
    for (const f of Object.values(d.screens)) {
      const own = f.json.product ?? 'parentportal';
      walk(f.json, (node, pointer) => {
        for (const k of ['to', 'returnTo']) {
          const target = node[k];
          if (typeof target !== 'string' || target.startsWith('$')) continue;
          const path = target.split(/[?#]/)[0];
          // returnTo is always the portal's (the way back from a hand-off or a payment page)
          const product = k === 'returnTo' ? 'parentportal' : typeof node.product === 'string' ? node.product : own;
          if (pathsOf(product).some((p) => routeMatches(p, path)) || (product === 'parentportal' && planned.some((p) => routeMatches(p, path)))) continue;
          errors.push({ file: f.file, path: `${pointer}/${k}`, message: `navigation target "${target}" is neither a declared screen nor a planned route (screens/planned-routes.json)` });
        }
      });
    }
  }

  // a light form draws only flat text, e-mail, password, checkbox and select fields: a field it
  // cannot draw (e.g. added by a provider overlay) is refused here, not when the page renders
  const schemaJson: Record<string, JsonSchema> = Object.fromEntries(Object.entries(d.schemas).map(([id, f]) => [id, f.json]));
  if (!errors.some((e) => e.message.includes('$ref'))) {
    for (const f of Object.values(d.screens)) {
      const sections = [...(f.json.sections ?? []).map((sec, i) => ({ sec, at: ptr('sections', i) }))];
      (f.json.modals ?? []).forEach((m, i) => (m.sections ?? []).forEach((sec, j) => sections.push({ sec, at: ptr('modals', i, 'sections', j) })));
      for (const { sec, at } of sections) {
        if (sec.kind !== 'form' || sec.renderer !== 'light' || !schemaJson[sec.schema]) continue;
        for (const p of lightFields({ schemas: schemaJson }, sec.schema).problems) {
          errors.push({ file: d.schemas[sec.schema].file, path: ptr('properties', p.name), message: `${p.message} (${f.file} ${at})` });
        }
      }
    }
  }
  return { errors, warnings };
}

// ---------------------------------------------------------------------------------------------
// translation keys

const KEY_RE = /^([a-z][a-zA-Z]*)\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)$/;

function lookup(tree: unknown, path: string): unknown {
  let cur = tree;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function hasKey(translations: Translations, lang: string, key: string): boolean {
  const m = KEY_RE.exec(key);
  if (!m) return false;
  const ns = translations[lang]?.[m[1]];
  if (typeof lookup(ns, m[2]) === 'string') return true;
  // i18next plurals: key_one / key_other
  return typeof lookup(ns, `${m[2]}_other`) === 'string';
}

const PLURAL = /_(zero|one|two|few|many|other)$/;
const pluralBase = (key: string) => key.replace(PLURAL, '');

function leafKeys(tree: unknown, prefix: string, out: string[]): void {
  if (isObject(tree)) for (const [k, v] of Object.entries(tree)) leafKeys(v, prefix ? `${prefix}.${k}` : k, out);
  else out.push(prefix);
}

/** Translation keys a set of declarations uses, with where each is used. */
export function usedKeys(d: BaseDeclarations, namespaces: string[], rules: Record<string, unknown>): { key: string; file: string; path: string }[] {
  const out: { key: string; file: string; path: string }[] = [];
  for (const f of Object.values(d.schemas)) {
    walk(f.json, (node, pointer) => {
      for (const k of ['title', 'description', 'x-help', 'x-placeholder', 'x-requiredMessage']) {
        if (typeof node[k] === 'string') out.push({ key: node[k] as string, file: f.file, path: `${pointer}/${k}` });
      }
      if (Array.isArray(node['x-validate'])) {
        node['x-validate'].forEach((v, i) => isObject(v) && typeof v.message === 'string' && out.push({ key: v.message, file: f.file, path: `${pointer}/x-validate/${i}/message` }));
      }
      if (isObject(node['x-enumLabels'])) {
        for (const [k, v] of Object.entries(node['x-enumLabels'])) if (typeof v === 'string') out.push({ key: v, file: f.file, path: `${pointer}/x-enumLabels/${escapePointer(k)}` });
      }
      const options = node['x-options'];
      if (isObject(options) && typeof options.empty === 'string') out.push({ key: options.empty, file: f.file, path: `${pointer}/x-options/empty` });
      if (isObject(options) && typeof options.disabledNote === 'string') out.push({ key: options.disabledNote, file: f.file, path: `${pointer}/x-options/disabledNote` });
      if (isObject(options) && Array.isArray(options.disabledNotes)) {
        options.disabledNotes.forEach((n, i) => isObject(n) && typeof n.text === 'string' && out.push({ key: n.text, file: f.file, path: `${pointer}/x-options/disabledNotes/${i}/text` }));
      }
      const rowOther = isObject(node['x-rowOptions']) ? node['x-rowOptions'].other : undefined;
      if (isObject(rowOther) && typeof rowOther.label === 'string') out.push({ key: rowOther.label, file: f.file, path: `${pointer}/x-rowOptions/other/label` });
      if (Array.isArray(node['x-titleWhen'])) {
        node['x-titleWhen'].forEach((o, i) => isObject(o) && typeof o.title === 'string' && out.push({ key: o.title, file: f.file, path: `${pointer}/x-titleWhen/${i}/title` }));
      }
      if (Array.isArray(node['x-extraOptions'])) {
        node['x-extraOptions'].forEach((o, i) => isObject(o) && typeof o.label === 'string' && out.push({ key: o.label, file: f.file, path: `${pointer}/x-extraOptions/${i}/label` }));
      }
    });
  }
  const nsSet = new Set(namespaces);
  for (const f of Object.values(d.screens)) {
    const visit = (node: unknown, pointer: string, prop: string) => {
      if (typeof node === 'string') {
        if (RULE_REF_KEYS.has(prop) || NON_KEY_KEYS.has(prop) || node in rules) return;
        const m = KEY_RE.exec(node);
        if (m && nsSet.has(m[1])) out.push({ key: node, file: f.file, path: pointer });
        else if ((prop === 'title' || prop === 'label' || prop === 'body') && !node.startsWith('$')) {
          out.push({ key: node, file: f.file, path: pointer });
        }
      } else if (Array.isArray(node)) node.forEach((x, i) => visit(x, `${pointer}/${i}`, prop));
      else if (isObject(node)) for (const [k, v] of Object.entries(node)) visit(v, `${pointer}/${escapePointer(k)}`, k);
    };
    visit(f.json, '', '');
  }
  return out;
}

/**
 * All checks of `npm run check` over base declarations: meta-schemas, cross references, schema
 * compilation, and translation keys (each key used exists in every language; every key of en exists
 * in es, pt and vi).
 */
export function checkDeclarations(base: BaseDeclarations, translations: Translations): DeclError[] {
  const { errors } = structuralErrors(base);
  const namespaces = Object.keys(translations.en ?? {});
  const rules = ruleTable(base.rules);
  for (const { key, file, path } of usedKeys(base, namespaces, rules)) {
    if (!KEY_RE.test(key)) {
      errors.push({ file, path, message: `"${key}" is not a translation key (namespace.path)` });
      continue;
    }
    const missing = LANGUAGES.filter((lang) => !hasKey(translations, lang, key));
    if (missing.length) errors.push({ file, path, message: `translation key "${key}" missing in ${missing.join(', ')}` });
  }
  for (const ns of namespaces) {
    // plural forms differ by language (vi has only _other, es and pt add _many): compare base keys
    const keys: string[] = [];
    leafKeys(translations.en[ns], '', keys);
    const enBases = new Set(keys.map(pluralBase));
    for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
      const tree = translations[lang]?.[ns];
      const missing = [...enBases].filter((k) => typeof lookup(tree, k) !== 'string' && typeof lookup(tree, `${k}_other`) !== 'string');
      for (const k of missing) errors.push({ file: `locales/${lang}/${ns}.json`, path: `/${k.split('.').map(escapePointer).join('/')}`, message: `missing translation (present in en)` });
      const extra: string[] = [];
      leafKeys(tree, '', extra);
      for (const k of extra.filter((x) => x && !enBases.has(pluralBase(x)))) {
        errors.push({ file: `locales/${lang}/${ns}.json`, path: `/${k.split('.').map(escapePointer).join('/')}`, message: 'key not in en' });
      }
    }
  }
  return errors;
}
