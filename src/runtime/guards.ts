// Reading JSON of unknown shape (API answers, declarations, form values) by narrowing, not casting.
import { operations, type OperationId } from '../engine/contract.gen';

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value under `key` of an object, or at index `key` of a list; undefined for anything else. */
export function fieldOf(v: unknown, key: string): unknown {
  if (Array.isArray(v)) return /^\d+$/.test(key) ? v[Number(key)] : undefined;
  return isRecord(v) ? v[key] : undefined;
}

/** The value at a dotted path ("attachments", "adults.0"). */
export function pathOf(v: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => fieldOf(cur, k), v);
}

/** An object's string values (translation keys by value: x-enumLabels); anything else is left out. */
export function stringsOf(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isRecord(v)) for (const [k, x] of Object.entries(v)) if (typeof x === 'string') out[k] = x;
  return out;
}

/** An operation id of the API contract (declarations name operations as plain strings). */
export function isOperationId(op: string): op is OperationId {
  return Object.prototype.hasOwnProperty.call(operations, op);
}

/** The contract's id of an operation a declaration names; `npm run check` refuses unknown ones. */
export function operationId(op: string): OperationId {
  if (!isOperationId(op)) throw new Error(`unknown API operation "${op}"`);
  return op;
}
