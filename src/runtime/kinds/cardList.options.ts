// Options of the cardList kind: one card per item, an optional search box (spec 2.8).
import { card, itemsPath, key } from './parts.options';

export const columns = { type: 'integer', minimum: 1, maximum: 4 } as const;

export const cardListOptions = {
  title: 'CardListOptions',
  type: 'object',
  required: ['card'],
  properties: {
    items: itemsPath,
    columns,
    search: { title: 'CardSearch', type: 'object', required: ['field'], additionalProperties: false, properties: { field: { type: 'string' }, label: key } },
    card,
  },
} as const;
