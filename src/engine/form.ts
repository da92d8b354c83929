// The form engine: which fields show and are required (rules), what a submit sends (hidden values
// pruned, phones and zips normalised) and which errors to show (as translation keys with params).
// No ajv here: the browser validates with the provider's standalone module (`compiled`), so this file
// stays free of a schema compiler; index.ts adds in-process compilation for the server and the CLIs.
import type { ValidateFunction, ErrorObject } from 'ajv';
import { isPhoneEmpty, normalizePhone, normalizeZip, type Country } from './formats';
import { isTrue } from './logic';
import { derefSchema } from './fields/deref';
import type { DeclarationSet, FieldValidation, JsonSchema, RuleRef } from './types';

export { derefSchema };
export { formDependencies } from './fields/formDependencies';

/** What a rule sees: the screen context (ARCHITECTURE.md). `form` is set by the engine. */
export interface RuleContext {
  form?: unknown;
  query?: Record<string, unknown>;
  session?: Record<string, unknown>;
  provider?: Record<string, unknown>;
  data?: Record<string, unknown>;
  item?: unknown;
  flow?: Record<string, unknown>;
  /** what the page that navigated here told this one (a navigate effect's `notice`, kept in history state) */
  notice?: Record<string, unknown>;
  /** mm/dd/yyyy; rules use it as today instead of the clock when given */
  today?: string;
  [extra: string]: unknown;
}

export interface FieldState {
  shown: boolean;
  required: boolean;
  enabled: boolean;
  /** x-titleWhen: the title key of the first rule that holds (the payer's name on a card says so) */
  title?: string;
}

export interface FieldError {
  /** JSON pointer of the value: '/cellPhone', '/relationships/0/relationshipId' */
  path: string;
  /** dotted field path: 'cellPhone', 'relationships.0.relationshipId' */
  field: string;
  /** translation key of the message */
  key: string;
  /** interpolation params; `field` is the translation key of the field's title */
  params: Record<string, unknown>;
}

export interface ValidationResult<T = Record<string, unknown>> {
  valid: boolean;
  /** values to submit: hidden values pruned, phones and zips in stored form (typed by a caller that knows the form's values, e.g. an operation's body) */
  data: T;
  errors: FieldError[];
  /** 'errors.pageLevel' when there are errors */
  pageError?: string;
}

export const PAGE_LEVEL_ERROR = 'errors.pageLevel';

interface FieldNode {
  name: string;
  schema: JsonSchema;
  kind: 'leaf' | 'object' | 'array';
  children: FieldNode[];
  /** for arrays of objects: the row's fields */
  row?: FieldNode[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function fieldTree(set: Pick<DeclarationSet, 'schemas'>, schema: JsonSchema, docId: string): FieldNode[] {
  const { schema: s, docId: doc } = derefSchema(set, schema, docId);
  const props = isObject(s.properties) ? (s.properties as Record<string, JsonSchema>) : {};
  return Object.entries(props).map(([name, raw]) => {
    const { schema: fs, docId: fdoc } = derefSchema(set, raw, doc);
    if (fs.type === 'object' && isObject(fs.properties)) return { name, schema: fs, kind: 'object', children: fieldTree(set, fs, fdoc) };
    if (fs.type === 'array' && isObject(fs.items)) {
      const { schema: items, docId: idoc } = derefSchema(set, fs.items as JsonSchema, fdoc);
      if (items.type === 'object') return { name, schema: fs, kind: 'array', children: [], row: fieldTree(set, items, idoc) };
    }
    return { name, schema: fs, kind: 'leaf', children: [] };
  });
}

function isEmpty(value: unknown, schema: JsonSchema): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value === 'string' && value.trim() === '') return true;
  if (schema.format === 'phone' && typeof value === 'string') return isPhoneEmpty(value);
  // dropdowns: value 0 counts as empty (spec 5.1)
  if (value === 0 && (schema['x-widget'] === 'select' || isObject(schema['x-options']))) return true;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** An annotation's word for the provider's country (`{"CA": "fields.address.postalCode"}`), if any. */
export function byCountry(schema: JsonSchema, annotation: 'x-titleByCountry' | 'x-formatMessageByCountry', country: string | undefined): string | undefined {
  const table = schema[annotation];
  const word = isObject(table) && country ? table[country] : undefined;
  return typeof word === 'string' ? word : undefined;
}

/**
 * The field's title key: the country's word (x-titleByCountry: a Canadian address says Province and
 * Postal code), the text of a sibling (x-titleFrom: user-defined fields carry their caption), or the title.
 */
function titleOf(schema: JsonSchema, fallback: string, container: Record<string, unknown> | undefined, country: string): string {
  const local = byCountry(schema, 'x-titleByCountry', country);
  if (local) return local;
  const from = schema['x-titleFrom'];
  if (typeof from === 'string' && container && typeof container[from] === 'string' && container[from] !== '') return container[from] as string;
  return typeof schema.title === 'string' ? schema.title : fallback;
}

export type SchemaValidator = ValidateFunction | ((data: unknown) => boolean);

export interface FormEngineOptions {
  country: Country;
  /** standalone validators by schema $id (the browser) */
  compiled?: Record<string, SchemaValidator>;
  /** compiles a schema of the set in process (server, CLIs, tests: see index.ts) */
  compile?: (schemaId: string) => SchemaValidator | undefined;
}

export interface ValidateOptions {
  /** checks only the fields at these pointers (typing: the changed field and its dependents) */
  only?: (pointer: string) => boolean;
}

export interface FormEngine {
  fieldStates(schemaId: string, ctx: RuleContext): Record<string, FieldState>;
  validate(schemaId: string, values: unknown, ctx: RuleContext, opts?: ValidateOptions): ValidationResult;
  /** normalise what the user typed (phones, zips) without validating */
  normalize(schemaId: string, values: unknown): Record<string, unknown>;
}

export function createFormEngine(set: DeclarationSet, opts: FormEngineOptions): FormEngine {
  const trees = new Map<string, FieldNode[]>();
  const validators = new Map<string, SchemaValidator>();

  const tree = (schemaId: string): FieldNode[] => {
    let t = trees.get(schemaId);
    if (!t) {
      const schema = set.schemas[schemaId];
      if (!schema) throw new Error(`unknown schema "${schemaId}"`);
      t = fieldTree(set, schema, schemaId);
      trees.set(schemaId, t);
    }
    return t;
  };

  const validator = (schemaId: string): SchemaValidator => {
    const v = validators.get(schemaId) ?? opts.compiled?.[schemaId] ?? opts.compile?.(schemaId);
    if (!v) throw new Error(`no validator for schema "${schemaId}"`);
    validators.set(schemaId, v);
    return v;
  };

  const rule = (ref: unknown, ctx: RuleContext, dflt: boolean): boolean =>
    ref === undefined ? dflt : isTrue(set.rules, ref as RuleRef, ctx);

  /** Visit every field with its state; hidden objects hide their children. */
  function visit(
    nodes: FieldNode[],
    values: unknown,
    ctx: RuleContext,
    prefix: string,
    parentShown: boolean,
    fn: (node: FieldNode, pointer: string, value: unknown, state: FieldState, ctx: RuleContext, container: Record<string, unknown> | undefined) => void,
  ) {
    const container = isObject(values) ? values : undefined;
    for (const node of nodes) {
      const pointer = `${prefix}/${esc(node.name)}`;
      const value = container?.[node.name];
      const shown = parentShown && rule(node.schema['x-show'], ctx, true);
      const state: FieldState = {
        shown,
        required: shown && rule(node.schema['x-required'], ctx, false),
        enabled: shown && rule(node.schema['x-enable'], ctx, true),
      };
      const titles = node.schema['x-titleWhen'];
      if (shown && Array.isArray(titles)) {
        const hit = titles.find((t) => isObject(t) && typeof t.title === 'string' && rule(t.when, ctx, false));
        if (hit) state.title = (hit as { title: string }).title;
      }
      fn(node, pointer, value, state, ctx, container);
      if (node.kind === 'object') visit(node.children, value, ctx, pointer, shown, fn);
      if (node.kind === 'array' && node.row && Array.isArray(value)) {
        value.forEach((row, i) => visit(node.row!, row, { ...ctx, item: row, index: i }, `${pointer}/${i}`, shown, fn));
      }
    }
  }

  function normalizeInto(nodes: FieldNode[], values: unknown): void {
    if (!isObject(values)) return;
    for (const node of nodes) {
      const v = values[node.name];
      if (node.kind === 'object') normalizeInto(node.children, v);
      else if (node.kind === 'array' && node.row && Array.isArray(v)) v.forEach((row) => normalizeInto(node.row!, row));
      else if (typeof v === 'string') {
        if (node.schema.format === 'phone') values[node.name] = isPhoneEmpty(v) ? '' : normalizePhone(v);
        else if (node.schema.format === 'phone-ext') values[node.name] = v.trim();
        else if (node.schema.format === 'zip') values[node.name] = normalizeZip(v, opts.country);
      }
    }
  }

  const clone = (v: unknown): Record<string, unknown> => (isObject(v) ? (JSON.parse(JSON.stringify(v)) as Record<string, unknown>) : {});

  function normalize(schemaId: string, values: unknown): Record<string, unknown> {
    const data = clone(values);
    normalizeInto(tree(schemaId), data);
    return data;
  }

  function fieldStates(schemaId: string, ctx: RuleContext): Record<string, FieldState> {
    const out: Record<string, FieldState> = {};
    const form = ctx.form ?? {};
    visit(tree(schemaId), form, { ...ctx, form }, '', true, (_n, pointer, _v, state) => {
      out[pointer] = state;
    });
    return out;
  }

  /** Remove empty values (not given) so that optional fields are not format-checked. */
  function withoutEmpty(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(withoutEmpty);
    if (isObject(v)) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (x !== null && x !== '' && x !== undefined) out[k] = withoutEmpty(x);
      return out;
    }
    return v;
  }

  function validate(schemaId: string, values: unknown, ctx: RuleContext, vopts: ValidateOptions = {}): ValidationResult {
    const only = vopts.only ?? (() => true);
    const nodes = tree(schemaId);
    const data = normalize(schemaId, values);
    const ruleCtx = (c: RuleContext) => ({ ...c, form: data });

    // 1. states on the normalised values; prune hidden values
    const fields: { node: FieldNode; pointer: string; value: unknown; state: FieldState; ctx: RuleContext; container?: Record<string, unknown> }[] = [];
    const hidden: { container: Record<string, unknown>; name: string }[] = [];
    visit(nodes, data, ruleCtx(ctx), '', true, (node, pointer, value, state, c, container) => {
      fields.push({ node, pointer, value, state, ctx: c, container });
      if (!state.shown && container && node.name in container) hidden.push({ container, name: node.name });
    });
    for (const h of hidden) delete h.container[h.name];
    const byPointer = new Map(fields.map((f) => [f.pointer, f]));

    const errors: FieldError[] = [];
    const failed = new Set<string>();
    const add = (pointer: string, key: string, params: Record<string, unknown> = {}) => {
      if (!only(pointer)) return;
      if (errors.some((e) => e.path === pointer && e.key === key)) return;
      const f = byPointer.get(pointer);
      const field = pointer.replace(/^\//, '').split('/').join('.');
      // a format message in the country's words ('not a valid postal code' in Canada)
      const message = (f && key.startsWith('errors.format.') && byCountry(f.node.schema, 'x-formatMessageByCountry', opts.country)) || key;
      errors.push({ path: pointer, field, key: message, params: { field: f ? (f.state.title ?? titleOf(f.node.schema, field, f.container, opts.country)) : field, ...params } });
      failed.add(pointer);
    };

    // 2. schema (types, formats, lengths, enums) on what would be submitted
    const v = validator(schemaId);
    const ok = v(withoutEmpty(data));
    if (!ok) for (const e of ((v as ValidateFunction).errors ?? []) as ErrorObject[]) mapAjvError(e, add);

    // 3. required-ness from x-required, only for shown fields
    for (const f of fields) {
      if (f.state.shown && f.state.required && only(f.pointer) && !failed.has(f.pointer) && isEmpty(f.value, f.node.schema)) {
        const key = f.node.schema['x-requiredMessage'];
        add(f.pointer, typeof key === 'string' ? key : 'errors.required');
      }
    }

    // 4. cross-field checks (x-validate) on shown fields without another error
    for (const f of fields) {
      const checks = f.node.schema['x-validate'] as FieldValidation[] | undefined;
      if (!f.state.shown || !checks || !only(f.pointer) || failed.has(f.pointer)) continue;
      for (const check of checks) {
        const ruleCtx = { ...f.ctx, form: data, value: f.value };
        if (!isTrue(set.rules, check.rule, ruleCtx)) {
          add(f.pointer, check.message, check.params ? Object.fromEntries(Object.entries(check.params).map(([k, path]) => [k, valueAt(ruleCtx, path)])) : {});
          break;
        }
      }
    }

    const order = new Map(fields.map((f, i) => [f.pointer, i]));
    errors.sort((a, b) => (order.get(a.path) ?? 1e9) - (order.get(b.path) ?? 1e9));
    return errors.length ? { valid: false, data, errors, pageError: PAGE_LEVEL_ERROR } : { valid: true, data, errors };
  }

  return { fieldStates, validate, normalize };
}

/** ajv error -> translation key and params (spec 5.1 messages live in locales/<lang>/errors.json). */
export function mapAjvError(e: ErrorObject, add: (pointer: string, key: string, params?: Record<string, unknown>) => void): void {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'format':
      return add(e.instancePath, `errors.format.${String(p.format).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase())}`);
    case 'maxLength':
    case 'minLength':
    case 'maxItems':
    case 'minItems':
    case 'minimum':
    case 'maximum':
      return add(e.instancePath, `errors.${e.keyword}`, { limit: p.limit });
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return add(e.instancePath, `errors.${e.keyword}`, { limit: p.limit });
    case 'pattern':
      return add(e.instancePath, 'errors.pattern');
    case 'enum':
    case 'const':
      return add(e.instancePath, 'errors.enum');
    case 'type':
      return add(e.instancePath, 'errors.type', { type: p.type });
    case 'additionalProperties':
      return add(`${e.instancePath}/${esc(String(p.additionalProperty))}`, 'errors.additionalProperty');
    case 'required':
      return add(`${e.instancePath}/${esc(String(p.missingProperty))}`, 'errors.required');
    default:
      return add(e.instancePath, 'errors.invalid');
  }
}

/** The value at a dotted path of a rule context ('item.daysPerWeek'). */
function valueAt(ctx: unknown, path: string): unknown {
  let cur: unknown = ctx;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}
