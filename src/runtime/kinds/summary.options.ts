// Options of the summary kind: label/value items of one record ($item is the section's data).
import { labelledValue } from './parts.options';

export const summaryOptions = {
  title: 'SummaryOptions',
  type: 'object',
  required: ['items'],
  properties: { items: { type: 'array', items: labelledValue } },
} as const;
