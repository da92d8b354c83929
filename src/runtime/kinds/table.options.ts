// Options of the table kind: rows of the section's data.
import { actions, itemsPath, key, labelledValue } from './parts.options';

export const tableOptions = {
  title: 'TableOptions',
  type: 'object',
  required: ['columns'],
  properties: { columns: { type: 'array', items: labelledValue }, items: itemsPath, caption: key, rowActions: actions },
} as const;
