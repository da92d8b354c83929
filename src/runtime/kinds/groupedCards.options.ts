// Options of the groupedCards kind: rows grouped under headings; a layout rule may collapse a group
// into one card of a named variant.
import { binding, card, itemsPath } from './parts.options';
import { columns } from './cardList.options';

export const groupedCardsOptions = {
  title: 'GroupedCardsOptions',
  type: 'object',
  required: ['card'],
  properties: {
    items: itemsPath,
    groupBy: { type: 'array', items: { type: 'string' } },
    group: { title: 'GroupHeading', type: 'object', additionalProperties: false, properties: { title: binding, subtitle: binding, date: binding } },
    layout: {
      title: 'GroupLayout',
      type: 'object',
      required: ['rule'],
      additionalProperties: false,
      properties: { rule: { type: 'string' }, variants: { type: 'object', additionalProperties: card } },
    },
    card,
    columns,
    /** groups side by side from the extra-large breakpoint (1280 px), so short groups do not each take a full row */
    groupColumns: { type: 'integer', minimum: 1, maximum: 3 },
  },
} as const;
