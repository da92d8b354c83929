// Options of the table kind: rows of the section's data.
import { actions, binding, itemsPath, key, labelledValue } from './parts.options';

/**
 * A column: its `show` rule is read per row, and a row where it is false shows `otherwise` (a text:
 * a key, or `{value, labels}`) in place of the value (a fee not charged: 'Waitlist: not charged').
 */
const column = {
  ...labelledValue,
  title: 'TableColumn',
  properties: { ...labelledValue.properties, otherwise: binding },
} as const;

export const tableOptions = {
  title: 'TableOptions',
  type: 'object',
  required: ['columns'],
  properties: { columns: { type: 'array', items: column }, items: itemsPath, caption: key, rowActions: actions },
} as const;
