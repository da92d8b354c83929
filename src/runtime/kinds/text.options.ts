// Options of the text kind: a paragraph or heading from a translation key.
import { key, params } from './parts.options';

export const textOptions = {
  title: 'TextOptions',
  type: 'object',
  required: ['text'],
  properties: { text: key, params, as: { enum: ['p', 'h2', 'h3'] }, tone: { enum: ['muted'] } },
} as const;
