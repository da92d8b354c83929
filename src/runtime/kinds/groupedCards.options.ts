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
  },
} as const;
