// From a declared form schema and the engine's field states to what RJSF renders: hidden fields are
// left out, required-ness comes from x-required (only for RJSF's markers; validation is the engine's),
// and x-widget / format / x-options / x-enumLabels choose our widgets.
import type { RJSFSchema, UiSchema } from '@rjsf/utils';
import type { FieldState } from '../../engine/form';
import { derefSchema } from '../../engine/fields/deref';
import type { DeclarationSet, JsonSchema } from '../../engine/types';
import { ARRAY_WIDGETS, fieldWidget, LAYOUT_WIDTHS, ROW_LIST_WIDGETS, type FieldWidget, type LayoutWidth } from '../../engine/fields/widgetTable';

const ARRAY_WIDGET_SET: ReadonlySet<string> = new Set(ARRAY_WIDGETS);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isLayoutWidth = (v: unknown): v is LayoutWidth => LAYOUT_WIDTHS.some((w) => w === v);
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

/** A field's place in a layout row. */
export interface LayoutCell {
  name: string;
  width: LayoutWidth;
  /** the widget labels itself (a checkbox): it sits level with the row's inputs */
  selfLabelled: boolean;
}
export interface LayoutGroup {
  title?: string;
  half?: boolean;
  rows: LayoutCell[][];
}

const SELF_LABELLED_WIDGETS: ReadonlySet<string> = new Set(['checkbox', 'yesNo', 'yesno', 'radio', 'checkboxes']);

/** The width a field takes beside others when its layout does not name one: what its value needs. */
export function naturalWidth(schema: JsonSchema): LayoutWidth {
  const widget = widgetFor(schema);
  if (widget === 'phoneExt' || (typeof schema.maxLength === 'number' && schema.maxLength <= 3)) return 'xs';
  if (widget === 'zip' || widget === 'state') return 'sm';
  // a date's input shares its width with the calendar button
  if (widget === 'phone' || widget === 'date') return 'md';
  return 'fill';
}

/**
 * An object's x-layout resolved against the fields shown now: hidden fields leave their row, empty
 * rows and groups go, and fields the layout does not place follow in a group of their own.
 */
export function resolveLayout(layout: unknown, fields: Record<string, JsonSchema>): LayoutGroup[] | undefined {
  if (!Array.isArray(layout)) return undefined;
  const placed = new Set<string>();
  const groups: LayoutGroup[] = [];
  const cellOf = (name: string, width: LayoutWidth | undefined): LayoutCell => {
    const schema = fields[name];
    return { name, width: width ?? naturalWidth(schema), selfLabelled: SELF_LABELLED_WIDGETS.has(String(widgetFor(schema) ?? (schema.type === 'boolean' ? 'checkbox' : ''))) };
  };
  for (const g of layout) {
    if (!isObject(g) || !Array.isArray(g.rows)) continue;
    const rows: LayoutCell[][] = [];
    for (const row of g.rows) {
      const cells: LayoutCell[] = [];
      for (const c of Array.isArray(row) ? row : []) {
        const name = typeof c === 'string' ? c : isObject(c) && typeof c.field === 'string' ? c.field : undefined;
        if (!name || placed.has(name)) continue;
        placed.add(name);
        if (!(name in fields)) continue;
        const width = isObject(c) && isLayoutWidth(c.width) ? c.width : undefined;
        cells.push(cellOf(name, width));
      }
      if (cells.length) rows.push(cells);
    }
    if (rows.length) groups.push({ ...(typeof g.title === 'string' ? { title: g.title } : {}), ...(g.width === 'half' ? { half: true } : {}), rows });
  }
  const rest = Object.keys(fields).filter((n) => !placed.has(n));
  if (rest.length) groups.push({ rows: rest.map((n) => [cellOf(n, 'fill')]) });
  return groups;
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
    for (const k of ['type', 'title', 'description', 'enum', 'const', 'format', 'maxLength', 'minLength', 'minimum', 'maximum', 'default', 'x-options', 'x-enumLabels', 'x-titleFrom', 'x-titleParams', 'x-titleByCountry']) {
      if (s[k] !== undefined) out[k] = s[k];
    }
    const widget = widgetFor(s);
    // arrays take a widget only when it edits the whole array (checkboxes, the activity choice);
    // otherwise RJSF lists their rows
    if (widget && s.type !== 'object' && (s.type !== 'array' || ARRAY_WIDGET_SET.has(widget))) ui['ui:widget'] = widget;
    if (typeof s['x-help'] === 'string') ui['ui:help'] = s['x-help'];
    if (typeof s['x-placeholder'] === 'string') ui['ui:placeholder'] = s['x-placeholder'];
    const options: Record<string, unknown> = {};
    if (isObject(s['x-options'])) options.optionsSource = s['x-options'];
    if (isObject(s['x-rowOptions'])) options.rowOptions = s['x-rowOptions'];
    if (Array.isArray(s['x-extraOptions'])) options.extraOptions = s['x-extraOptions'];
    if (isObject(s['x-fill'])) options.fill = s['x-fill'];
    if (s.type === 'array' && ROW_LISTS.has(String(s['x-widget']))) Object.assign(options, { addable: false, removable: false, orderable: false, copyable: false, rowList: true });
    // user-defined fields are independent questions of one field each: two to a line on wide screens
    if (s.type === 'array' && s['x-widget'] === 'udfList') options.rowColumns = 2;
    if (Object.keys(options).length) ui['ui:options'] = options;

    if (s.type === 'object' && isObject(s.properties)) {
      const props: Record<string, RJSFSchema> = {};
      // the rendered fields' own schemas ($refs followed): what their layout reads
      const fields: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const [name, sub] of Object.entries(s.properties)) {
        if (!isObject(sub)) continue;
        const p = `${pointer}/${esc(name)}`;
        const state = states[p];
        // array rows: the rules run per row in the engine; RJSF shows every row's fields
        if (!inArray && state && !state.shown) continue;
        const field = derefSchema(set, sub, doc).schema;
        // carried values (ids, a row's type and caption): kept in the form data, never rendered
        if (field['x-widget'] === 'hidden') continue;
        const child = walk(sub, doc, p, inArray);
        props[name] = child.schema;
        fields[name] = field;
        if (Object.keys(child.uiSchema).length) ui[name] = child.uiSchema;
        if (!inArray && state?.required) required.push(name);
        if (!inArray && state && !state.enabled) ui[name] = { ...(isObject(ui[name]) ? ui[name] : {}), 'ui:disabled': true };
      }
      out.properties = props;
      if (required.length) out.required = required;
      const layout = resolveLayout(s['x-layout'], fields);
      if (layout) {
        ui['ui:layout'] = layout;
        // a titled group of one list or object: the group's title stands for the field's own
        for (const g of layout) {
          const only = g.title && g.rows.length === 1 && g.rows[0].length === 1 ? g.rows[0][0].name : undefined;
          const type = only ? props[only].type : undefined;
          if (!only || (type !== 'array' && type !== 'object')) continue;
          const cur = ui[only];
          const own: Record<string, unknown> = isObject(cur) ? cur : {};
          ui[only] = { ...own, 'ui:options': { ...(isObject(own['ui:options']) ? own['ui:options'] : {}), untitled: true } };
        }
      }
      if (Array.isArray(s['x-order'])) ui['ui:order'] = [...s['x-order'].filter((n): n is string => typeof n === 'string' && n in props), '*'];
    }
    if (s.type === 'array' && isObject(s.items)) {
      const items = walk(s.items, doc, `${pointer}/0`, true);
      out.items = items.schema;
      // a multiple choice has no per-row widgets
      if (Object.keys(items.uiSchema).length && !ARRAY_WIDGET_SET.has(String(ui['ui:widget']))) ui.items = items.uiSchema;
      for (const k of ['minItems', 'maxItems', 'uniqueItems']) if (s[k] !== undefined) out[k] = s[k];
    }
    return { schema: out as RJSFSchema, uiSchema: ui as UiSchema };
  }

  const result = walk(root, schemaId, '', false);
  result.schema.$id = schemaId;
  return result;
}

export { fieldIdOf } from './light/fieldId';

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
