// Grouping of list rows for the groupedCards kind (pure, tested without a browser).
import { fieldOf } from '../guards';

export interface RowGroup {
  /** the group's key values joined, stable for React keys */
  key: string;
  /** the rows of the group, in their original order */
  records: unknown[];
  /** the first row: group titles bind to it ($item.first.childName) */
  first: unknown;
}

/** Groups rows by the values of `fields` (in order of first appearance); no fields: one group per row. */
export function groupRows(rows: unknown[], fields: string[]): RowGroup[] {
  const groups = new Map<string, RowGroup>();
  rows.forEach((row, i) => {
    const key = fields.length ? JSON.stringify(fields.map((f) => fieldOf(row, f) ?? null)) : String(i);
    const g = groups.get(key);
    if (g) g.records.push(row);
    else groups.set(key, { key, records: [row], first: row });
  });
  return [...groups.values()];
}
