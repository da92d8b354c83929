// One place that configures ajv for form schemas: draft-07 default, allErrors, strict, the portal's
// annotation keywords and custom formats.
import Ajv, { _, type Options } from 'ajv';
import { formatsFor, type Country } from './formats';
import { LAYOUT_WIDTHS } from './fields/widgetTable';

/** Annotation keywords of form schemas (they carry declarations; ajv itself does not check them). */
export const ANNOTATION_KEYWORDS = [
  'x-show',
  'x-required',
  'x-enable',
  'x-validate',
  'x-widget',
  'x-options',
  'x-rowOptions',
  'x-extraOptions',
  'x-fill',
  'x-titleWhen',
  'x-enumLabels',
  'x-help',
  'x-placeholder',
  'x-order',
  'x-requiredMessage',
  'x-titleFrom',
  'x-titleParams',
  'x-titleByCountry',
  'x-formatMessageByCountry',
  'x-clearOnHide',
  'x-autocomplete',
  'x-layout',
] as const;


const ruleRef = { type: ['boolean', 'string'] };
const KEYWORD_META: Record<string, object> = {
  'x-show': ruleRef,
  'x-required': ruleRef,
  'x-enable': ruleRef,
  'x-validate': {
    type: 'array',
    items: {
      type: 'object',
      required: ['rule', 'message'],
      additionalProperties: false,
      // params: the message's values, each a path into the rule's context (e.g. {count: 'item.daysPerWeek'})
      properties: { rule: { type: 'string' }, message: { type: 'string' }, params: { type: 'object', additionalProperties: { type: 'string' } } },
    },
  },
  'x-widget': { type: 'string' },
  'x-options': {
    type: 'object',
    required: ['op', 'value', 'label'],
    additionalProperties: false,
    properties: {
      op: { type: 'string' },
      params: { type: 'object' },
      /** where the rows are in the answer, when not the answer itself or its `items` (e.g. "sites") */
      items: { type: 'string' },
      value: { type: 'string' },
      label: { type: 'string' },
      /** translation key of the leading 'Select' entry, when the list has one */
      empty: { type: 'string' },
      /** path of a row field: a row where it is true is offered disabled (shown, not chosen: the server refuses it) */
      disabled: { type: 'string' },
      /** translation key said beside a disabled option (why it cannot be chosen) */
      disabledNote: { type: 'string' },
      /** per row, the first note whose row field `when` is true or a non-empty text (or equals `equals`) is said instead (a child outside the program's ages), its params row fields by path */
      disabledNotes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['when', 'text'],
          additionalProperties: false,
          properties: { when: { type: 'string' }, equals: { type: 'string' }, text: { type: 'string' }, params: { type: 'object', additionalProperties: { type: 'string' } } },
        },
      },
    },
  },
  /** options of a field inside a row list, from a list the row itself carries (e.g. a medical question's standard values) */
  'x-rowOptions': {
    type: 'object',
    required: ['field', 'value', 'label'],
    additionalProperties: false,
    properties: {
      field: { type: 'string' },
      value: { type: 'string' },
      label: { type: 'string' },
      /** one more choice (translated label) when the row's boolean `when` field is true (spec 3: isOtherStandardEnabled) */
      other: {
        type: 'object',
        required: ['when', 'value', 'label'],
        additionalProperties: false,
        properties: { when: { type: 'string' }, value: {}, label: { type: 'string' } },
      },
    },
  },
  /** choices added after a list's own (translated labels), e.g. a driver licence state that is not listed */
  'x-extraOptions': {
    type: 'array',
    items: { type: 'object', required: ['value', 'label'], additionalProperties: false, properties: { value: {}, label: { type: 'string' } } },
  },
  /**
   * choosing an option of an x-options list fills sibling fields from the option's record (the
   * payer: name and address of the chosen adult): { field: path } or { field: [path, fallback...] }
   * (the first non-empty); the blank option clears them
   */
  'x-fill': { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' }, minItems: 1 }] } },
  /** the field's title while a rule holds: [{ when, title }], the first that holds wins */
  'x-titleWhen': { type: 'array', items: { type: 'object', required: ['when', 'title'], additionalProperties: false, properties: { when: { type: 'string' }, title: { type: 'string' } } } },
  'x-enumLabels': { type: 'object', additionalProperties: { type: 'string' } },
  'x-help': { type: 'string' },
  'x-placeholder': { type: 'string' },
  'x-autocomplete': { type: 'string' },
  'x-order': { type: 'array', items: { type: 'string' } },
  /** translation key replacing errors.required for this field */
  'x-requiredMessage': { type: 'string' },
  /** sibling property whose value is the field's display title (user-defined fields: caption) */
  'x-titleFrom': { type: 'string' },
  /**
   * values of the title's {{placeholders}}: a binding into the screen context, or { value, format } for
   * a value in a display format (the credit box's amount: { "value": "$data.app.creditBalance", "format": "cents" })
   */
  'x-titleParams': {
    type: 'object',
    additionalProperties: {
      anyOf: [
        { type: 'string' },
        { type: 'object', required: ['value'], additionalProperties: false, properties: { value: { type: 'string' }, format: { type: 'string' } } },
      ],
    },
  },
  /** the field's title key in a country's words, by country code (Canada: Province, Postal code) */
  'x-titleByCountry': { type: 'object', propertyNames: { enum: ['US', 'CA'] }, additionalProperties: { type: 'string' } },
  /** the format message key in a country's words, by country code (Canada: not a valid postal code) */
  'x-formatMessageByCountry': { type: 'object', propertyNames: { enum: ['US', 'CA'] }, additionalProperties: { type: 'string' } },
  /** the value is cleared in the form when the field hides (spec 4: unticking multi-day clears the end date) */
  'x-clearOnHide': { type: 'boolean' },
  /**
   * An object's fields in titled groups of rows: the fields of a row sit side by side on wide screens
   * and stack on phones; a field may name its width (else it follows from its widget).
   */
  'x-layout': {
    type: 'array',
    minItems: 1,
    items: {
      type: 'object',
      required: ['rows'],
      additionalProperties: false,
      properties: {
        title: { type: 'string' },
        /** `half`: the group shares its line with the next half group on wide screens (from 1024 px) */
        width: { enum: ['full', 'half'] },
        rows: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'array',
            minItems: 1,
            items: {
              anyOf: [
                { type: 'string' },
                {
                  type: 'object',
                  required: ['field', 'width'],
                  additionalProperties: false,
                  properties: { field: { type: 'string' }, width: { enum: [...LAYOUT_WIDTHS] } },
                },
              ],
            },
          },
        },
      },
    },
  },
};

export interface EngineAjvOptions {
  country: Country;
  /** generate standalone source (formats then come from the module-level `__formats` object) */
  standalone?: boolean;
}

export function createAjv(opts: EngineAjvOptions): Ajv {
  const options: Options = {
    allErrors: true,
    strict: true,
    strictTypes: false, // nested objects declare their type once; annotations carry no type
    allowUnionTypes: true,
    validateFormats: true,
    code: opts.standalone ? { source: true, esm: true, formats: _`__formats` } : undefined,
  };
  const ajv = new Ajv(options);
  for (const keyword of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword, metaSchema: KEYWORD_META[keyword] });
  for (const [name, fn] of Object.entries(formatsFor(opts.country))) ajv.addFormat(name, { type: 'string', validate: fn });
  return ajv;
}
