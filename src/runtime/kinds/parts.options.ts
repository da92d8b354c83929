// JSON Schema fragments the component kinds' option schemas share (plain data, no React: the
// generator scripts/gen-kinds.ts and the checks read them). `$ref`s to screen# name the
// screen meta-schema's own definitions; `tsType` names the engine type they stand for.

/** A "$..." binding into the screen context, or a literal. */
export const binding = { tsType: 'Binding' } as const;
/** A rule id or a constant. */
export const ruleRef = { $ref: 'screen#/definitions/ruleRef', tsType: 'RuleRef' } as const;
/** Bindings by name (parameters of a text, the query of a link). */
export const params = { type: 'object', additionalProperties: binding, tsType: 'Record<string, Binding>' } as const;
/** A translation key. */
export const key = { type: 'string' } as const;
export const action = { $ref: 'screen#/definitions/action', tsType: 'ActionDecl' } as const;
export const actions = { type: 'array', items: action } as const;
export const effect = { $ref: 'screen#/definitions/effect', tsType: 'Effect' } as const;
/** A route of the portal (a declared screen's path or a planned route, checked by npm run check) or a $binding. */
export const route = { type: 'string' } as const;

/** Display formats of values in summaries, tables and cards (src/runtime/format.ts). */
export const VALUE_FORMATS = ['text', 'date', 'datetime', 'time', 'money', 'cents', 'phone', 'zip', 'yesno', 'number', 'percent'] as const;
export const format = { enum: VALUE_FORMATS } as const;
export const STATUSES = ['info', 'warning', 'error', 'success', 'neutral'] as const;
export const status = { enum: STATUSES } as const;

/** A label and a value: summary items, table columns, card fields. */
export const labelledValue = {
  title: 'LabelledValue',
  type: 'object',
  required: ['label', 'value'],
  additionalProperties: false,
  properties: { label: key, value: binding, format, show: ruleRef },
} as const;

/** Path of the rows inside the section's data (default: the data itself). */
export const itemsPath = { type: 'string' } as const;

/** Text lines of a list: bindings see $item (the line) and $parent. */
export const lines = {
  title: 'CardLines',
  type: 'object',
  required: ['text'],
  additionalProperties: false,
  properties: {
    items: binding,
    text: key,
    params,
    show: ruleRef,
    /** more texts after the line's own, each shown by its rule (e.g. a child's status in a program) */
    parts: {
      type: 'array',
      items: { title: 'CardLinePart', type: 'object', required: ['text'], additionalProperties: false, properties: { text: key, params, show: ruleRef } },
    },
  },
} as const;

/**
 * The seven weekday chips of spec 9 (S M T W TH F SA): `value` binds the list of selected codes;
 * the weekend chips (S, SA) show only while the `weekend` rule holds (spec 2.11).
 */
export const weekdays = {
  title: 'CardWeekdays',
  type: 'object',
  required: ['label', 'value'],
  additionalProperties: false,
  properties: { label: key, value: binding, weekend: ruleRef },
} as const;

/**
 * Sub-items of a card, each with its own heading (a child's enrolled activities, a week of a
 * weekly program): bindings see $item (the entry) and $parent (the card's item).
 */
export const entries = {
  title: 'CardEntries',
  type: 'object',
  required: ['items', 'title'],
  additionalProperties: false,
  properties: {
    items: binding,
    title: binding,
    show: ruleRef,
    fields: { type: 'array', items: labelledValue },
    weekdays,
    lines,
  },
} as const;

/** One card of a list: bindings see $item (the card's item); lines see $item (the line) and $parent. */
export const card = {
  title: 'CardTemplate',
  type: 'object',
  additionalProperties: false,
  properties: {
    show: ruleRef,
    title: binding,
    subtitle: binding,
    description: binding,
    image: binding,
    imageAlt: key,
    /** program category colours: schoolYear, summerCamp, preschool, holidayCare, other */
    category: binding,
    badges: {
      type: 'array',
      items: { title: 'CardBadge', type: 'object', required: ['text'], additionalProperties: false, properties: { text: key, show: ruleRef, status } },
    },
    fields: { type: 'array', items: labelledValue },
    notices: {
      type: 'array',
      items: { title: 'CardNotice', type: 'object', required: ['text'], additionalProperties: false, properties: { text: key, params, status, show: ruleRef } },
    },
    lines,
    entries,
    actions,
    to: route,
    query: params,
    fileType: binding,
    html: binding,
  },
} as const;
