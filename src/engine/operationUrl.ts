// The address of a call to a contract operation: /api/<Service><path> with the path parameters filled
// in and the rest as the query. The API client (src/api/client.ts) builds its requests with these, and
// the server builds the same addresses for the loads it answers ahead in the portal page (server/boot.ts).
import { operations } from './contract.gen';

/** The parts of an operation declaration the client needs. */
export interface OperationInfo {
  method: string;
  path: string;
  service?: string;
  /** the service's calls with a `key` query carry the stored application's ids (spec 7) */
  applicationHeaders?: boolean;
}

/** How a caller reports an address that cannot be built (the API client throws its ApiError). */
export type AddressError = (message: string, op: string) => Error;
const plainError: AddressError = (message) => new Error(message);

export function buildPath(op: string, info: OperationInfo, params: Record<string, unknown> = {}, error: AddressError = plainError): string {
  const service = info.service ?? op.split('.')[0];
  const path = info.path.replace(/[:{]([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw error(`Missing path parameter ${name}`, op);
    return encodeURIComponent(String(v));
  });
  return `/api/${service}${path}`;
}

export function buildQuery(query: Record<string, unknown> = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    // a list: its name once per item, and once with no value when it is empty (the server's list
    // parameters read that as an empty list, not as absent)
    if (Array.isArray(v)) {
      if (v.length === 0) sp.append(k, '');
      for (const item of v) sp.append(k, String(item));
    }
    else sp.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** Names of the path parameters of an operation (":id" in /forms/download/:id). */
export function pathParamNames(op: string, table: Record<string, OperationInfo> = operations as unknown as Record<string, OperationInfo>, error: AddressError = plainError): string[] {
  const info = table[op];
  if (!info) throw error(`Unknown operation ${op}`, op);
  return Array.from(info.path.matchAll(/[:{]([A-Za-z_][A-Za-z0-9_]*)\}?/g), (m) => m[1]);
}

/**
 * Splits a screen's flat parameter map into path params and query, by the operation's path:
 * declarations bind `params` without caring where the server reads them.
 */
export function splitParams(
  op: string,
  values: Record<string, unknown> = {},
  table?: Record<string, OperationInfo>,
  error: AddressError = plainError,
): { params: Record<string, unknown>; query: Record<string, unknown> } {
  const names = new Set(pathParamNames(op, table, error));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) (names.has(k) ? params : query)[k] = v;
  return { params, query };
}
