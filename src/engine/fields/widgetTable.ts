// The form widgets a field may name with `x-widget`: one table, from which the runtime's widget
// registry (its keys must match), the row lists, the light renderer's widgets and the check of
// `x-widget` values derive. Pure data, no React: the checks and the light renderer read it.
import { derefSchema } from './deref';
import type { DeclarationSet, JsonSchema } from '../types';

/**
 * `light`: the light renderer draws it too (public pages such as sign-in); `rows`: an array shown
 * as a fixed list of rows from the data (no add, remove or reorder); `array`: one widget edits the
 * whole array (the parent application's activity choice); `alias`: another name for a widget.
 */
export const WIDGETS = {
  text: { light: true },
  password: { light: true },
  email: { light: true },
  select: { light: true },
  checkbox: { light: true },
  phone: {},
  phoneExt: {},
  zip: {},
  date: {},
  textarea: {},
  checkboxes: { array: true },
  activityPicker: { array: true },
  yesno: {},
  radio: {},
  hidden: {},
  readonly: {},
  note: {},
  amount: {},
  pin: {},
  state: {},
  udf: {},
  relationshipRows: { rows: true },
  udfList: { rows: true },
  medicalQuestions: { rows: true },
  /** any list of rows the data fixes (e.g. one row per child) */
  fixedRows: { rows: true },
  yesNo: { alias: 'yesno' },
} as const satisfies Record<string, { light?: true; rows?: true; array?: true; alias?: string }>;

type Table = typeof WIDGETS;
/** Every name `x-widget` accepts. */
export type WidgetName = keyof Table;
/** Widgets that draw one field (the runtime's widget registry has exactly these). */
export type FieldWidget = { [K in WidgetName]: Table[K] extends { rows: true } | { alias: string } ? never : K }[WidgetName];
/** Arrays drawn as a fixed list of rows. */
export type RowListWidget = { [K in WidgetName]: Table[K] extends { rows: true } ? K : never }[WidgetName];
/** What the light renderer draws. */
export type LightWidget = { [K in WidgetName]: Table[K] extends { light: true } ? K : never }[WidgetName];

const names = Object.keys(WIDGETS) as WidgetName[];
const hasOwn = (key: string): key is WidgetName => Object.prototype.hasOwnProperty.call(WIDGETS, key);
const isField = (k: WidgetName): k is FieldWidget => !('rows' in WIDGETS[k]) && !('alias' in WIDGETS[k]);
const isRowList = (k: WidgetName): k is RowListWidget => 'rows' in WIDGETS[k];
const isLight = (k: WidgetName): k is LightWidget => 'light' in WIDGETS[k];

export const WIDGET_NAMES: readonly WidgetName[] = names;
export const FIELD_WIDGETS: readonly FieldWidget[] = names.filter(isField);
export const ROW_LIST_WIDGETS: readonly RowListWidget[] = names.filter(isRowList);
export const LIGHT_WIDGETS: readonly LightWidget[] = names.filter(isLight);
/** Widgets that edit a whole array value. */
export const ARRAY_WIDGETS: readonly WidgetName[] = names.filter((k) => 'array' in WIDGETS[k]);

export function isWidgetName(name: unknown): name is WidgetName {
  return typeof name === 'string' && hasOwn(name);
}

/** The field widget an `x-widget` value names (aliases followed); undefined for row lists and unknown names. */
export function fieldWidget(name: unknown): FieldWidget | undefined {
  if (!isWidgetName(name)) return undefined;
  const entry = WIDGETS[name];
  const target = 'alias' in entry ? entry.alias : name;
  return isWidgetName(target) && isField(target) ? target : undefined;
}

export function isRowListWidget(name: unknown): name is RowListWidget {
  return isWidgetName(name) && isRowList(name);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface LightField {
  name: string;
  schema: JsonSchema;
  widget: LightWidget;
  autoComplete?: string;
}

/** Why a light form cannot draw a field, with the field's name. */
export interface LightFieldProblem {
  name: string;
  message: string;
}

function lightWidgetOf(fs: JsonSchema): LightWidget | string {
  const declared = fs['x-widget'];
  if (declared !== undefined) {
    const w = fieldWidget(declared);
    return w && isLight(w) ? w : String(declared);
  }
  if (Array.isArray(fs.enum)) return 'select';
  if (fs.type === 'boolean') return 'checkbox';
  if (fs.type === 'string') return fs.format === 'email' ? 'email' : 'text';
  return `a field of type ${String(fs.type)}`;
}

/**
 * The fields of a flat form schema the light renderer draws (string, boolean and enum fields; the
 * light widgets), and the fields it cannot draw: `npm run check` refuses a light form with any.
 */
export function lightFields(set: Pick<DeclarationSet, 'schemas'>, schemaId: string): { fields: LightField[]; problems: LightFieldProblem[] } {
  const root = set.schemas[schemaId];
  if (!root) return { fields: [], problems: [{ name: '', message: `form schema "${schemaId}" is not declared` }] };
  const { schema, docId } = derefSchema(set, root, schemaId);
  const props = isObject(schema.properties) ? schema.properties : {};
  const fields: LightField[] = [];
  const problems: LightFieldProblem[] = [];
  for (const [name, raw] of Object.entries(props)) {
    if (!isObject(raw)) continue;
    const fs = derefSchema(set, raw, docId).schema;
    const widget = lightWidgetOf(fs);
    if (!isWidgetName(widget) || !isLight(widget)) {
      problems.push({ name, message: `the light form renderer cannot draw field "${name}" (${widget}); it draws ${LIGHT_WIDGETS.join(', ')} fields` });
      continue;
    }
    const auto = fs['x-autocomplete'];
    const autoComplete = typeof auto === 'string' ? auto : widget === 'password' ? 'current-password' : widget === 'email' ? 'email' : undefined;
    fields.push({ name, schema: fs, widget, autoComplete });
  }
  return { fields, problems };
}

/** Widths a field of an `x-layout` row may take (the runtime picks one from the widget when none is given). */
export const LAYOUT_WIDTHS = ['xs', 'sm', 'md', 'lg', 'fill'] as const;
export type LayoutWidth = (typeof LAYOUT_WIDTHS)[number];
