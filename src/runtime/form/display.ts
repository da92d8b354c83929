// From a declared form schema and the engine's field states to what RJSF renders: hidden fields are
// left out, required-ness comes from x-required (only for RJSF's markers; validation is the engine's),
// and x-widget / format / x-options / x-enumLabels choose our widgets.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldState } from '../../engine/form';
import { derefSchema } from '../../engine/form';
import type { DeclarationSet, JsonSchema } from '../../engine/types';
import { fieldWidget, ROW_LIST_WIDGETS, type FieldWidget } from '../../engine/widgets';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Arrays shown as a fixed list of rows (no add, remove or reorder): the rows come from the data. */
export const ROW_LISTS: ReadonlySet<string> = new Set(ROW_LIST_WIDGETS);

/** Which widget a field gets: x-widget first, then x-options/enum (select), format and type. */
export function widgetFor(schema: JsonSchema): FieldWidget | undefined {
  const declared = fieldWidget(schema['x-widget']);
  if (declared) return declared;
  if (isObject(schema['x-options']) || Array.isArray(schema.enum)) return 'select';
  switch (schema.format) {
    case 'phone':
      return 'phone';
    case 'phone-ext':
      return 'phoneExt';
    case 'zip':
      return 'zip';
    case 'date-mdy':
      return 'date';
    case 'email':
      return 'email';
  }
  if (schema.type === 'boolean') return 'checkbox';
  return undefined;
}

export interface DisplayForm {
  schema: RJSFSchema;
  uiSchema: UiSchema;
}

/**
 * The schema RJSF renders for the current field states (keyed by JSON pointer, as the engine gives
 * them). $refs are inlined so RJSF never needs a schema compiler.
 */
export function displayForm(set: Pick<DeclarationSet, 'schemas'>, schemaId: string, states: Record<string, FieldState>): DisplayForm {
  const root = set.schemas[schemaId];
  if (!root) throw new Error(`unknown schema "${schemaId}"`);

  function walk(raw: JsonSchema, docId: string, pointer: string, inArray: boolean): DisplayForm {
    const { schema: s, docId: doc } = derefSchema(set, raw, docId);
    const ui: Record<string, unknown> = {};
    const out: Record<string, unknown> = {};
    for (const k of ['type', 'title', 'description', 'enum', 'const', 'format', 'maxLength', 'minLength', 'minimum', 'maximum', 'default', 'x-options', 'x-enumLabels', 'x-titleFrom', 'x-titleByCountry']) {
      if (s[k] !== undefined) out[k] = s[k];
    }
    const widget = widgetFor(s);
    // arrays take a widget only as a multiple choice (checkboxes); otherwise RJSF lists their rows
    if (widget && s.type !== 'object' && (s.type !== 'array' || widget === 'checkboxes')) ui['ui:widget'] = widget;
    if (typeof s['x-help'] === 'string') ui['ui:help'] = s['x-help'];
    if (typeof s['x-placeholder'] === 'string') ui['ui:placeholder'] = s['x-placeholder'];
    const options: Record<string, unknown> = {};
    if (isObject(s['x-options'])) options.optionsSource = s['x-options'];
    if (isObject(s['x-rowOptions'])) options.rowOptions = s['x-rowOptions'];
    if (Array.isArray(s['x-extraOptions'])) options.extraOptions = s['x-extraOptions'];
    if (s.type === 'array' && ROW_LISTS.has(String(s['x-widget']))) Object.assign(options, { addable: false, removable: false, orderable: false, copyable: false, rowList: true });
    if (Object.keys(options).length) ui['ui:options'] = options;

    if (s.type === 'object' && isObject(s.properties)) {
      const props: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [name, sub] of Object.entries(s.properties as Record<string, JsonSchema>)) {
        const p = `${pointer}/${esc(name)}`;
        const state = states[p];
        // array rows: the rules run per row in the engine; RJSF shows every row's fields
        if (!inArray && state && !state.shown) continue;
        // carried values (ids, a row's type and caption): kept in the form data, never rendered
        if (derefSchema(set, sub, doc).schema['x-widget'] === 'hidden') continue;
        const child = walk(sub, doc, p, inArray);
        props[name] = child.schema;
        if (Object.keys(child.uiSchema).length) ui[name] = child.uiSchema;
        if (!inArray && state?.required) required.push(name);
        if (!inArray && state && !state.enabled) ui[name] = { ...(isObject(ui[name]) ? ui[name] : {}), 'ui:disabled': true };
      }
      out.properties = props;
      if (required.length) out.required = required;
      if (Array.isArray(s['x-order'])) ui['ui:order'] = [...s['x-order'].filter((n): n is string => typeof n === 'string' && n in props), '*'];
    }
    if (s.type === 'array' && isObject(s.items)) {
      const items = walk(s.items as JsonSchema, doc, `${pointer}/0`, true);
      out.items = items.schema;
      // a multiple choice has no per-row widgets
      if (Object.keys(items.uiSchema).length && ui['ui:widget'] !== 'checkboxes') ui.items = items.uiSchema;
      for (const k of ['minItems', 'maxItems', 'uniqueItems']) if (s[k] !== undefined) out[k] = s[k];
    }
    return { schema: out as RJSFSchema, uiSchema: ui as UiSchema };
  }

  const result = walk(root, schemaId, '', false);
  result.schema.$id = schemaId;
  return result;
}

/** RJSF's id of a field at a JSON pointer: '<prefix>_children_0_childName'. */
export function fieldIdOf(prefix: string, pointer: string): string {
  const segs = pointer.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return [prefix, ...segs].join('_');
}

/** Keeps only the errors of touched fields (all of them once a submit was tried). */
export function visibleErrors(errorSchema: Record<string, unknown>, isShown: (pointer: string) => boolean, pointer = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(errorSchema)) {
    if (k === '__errors') {
      if (isShown(pointer)) out.__errors = v;
      continue;
    }
    if (!isObject(v)) continue;
    const sub = visibleErrors(v, isShown, `${pointer}/${esc(k)}`);
    if (Object.keys(sub).length) out[k] = sub;
  }
  return out;
}
