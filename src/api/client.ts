// The typed API client: every call goes to /api/<Service><path> with the session's token, the chosen
// language and the release version, and every failure becomes one ApiError shape (spec 7 and 8.1).
import { operations, type OperationId, type Operations } from './contract.gen';

export type { OperationId, Operations };

/** The response body of an operation, from the generated contract. */
export type Response<Op extends OperationId> = Operations[Op]['response'];
/** The query of an operation, from the generated contract. */
export type Query<Op extends OperationId> = Operations[Op]['query'];

export interface CallArgs {
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
  body?: unknown;
  /** calls that must not raise the error handler (the caller shows its own retry panel) */
  silent?: boolean;
  /** calls that must not raise the loading counter (background refreshes) */
  ignoreLoading?: boolean;
  signal?: AbortSignal;
}

/** One stored in-progress application, as kept in session.applications under its key. */
export interface ApplicationRef {
  prAccountID?: number;
  programPeriodID?: number;
}

export interface ApiClientOptions {
  getToken: () => string | null | undefined;
  getLocale: () => string;
  releaseVersion: string | (() => string);
  onError?: (err: ApiError) => void;
  /** a request starts / ends (spec 4: the loading counter is raised per request unless ignored) */
  onRequest?: (op: string) => void;
  onSettled?: (op: string) => void;
  /** in-progress application data for the `key` query (headers prAccountID and programPeriodID, spec 7) */
  getApplication?: (key: string) => ApplicationRef | undefined;
  /** origin for absolute URLs (tests, server-side callers); the browser uses relative URLs */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** the operation table; defaults to the generated contract */
  operations?: Record<string, OperationInfo>;
}

/** The parts of an operation declaration the client needs. */
export interface OperationInfo {
  method: string;
  path: string;
  service?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly op: string;
  readonly data: unknown;
  /** true when no HTTP answer came back at all */
  readonly network: boolean;
  /** the request URL (the 404 message names it) */
  url?: string;
  constructor(status: number, message: string, op: string, data?: unknown, network = false, url?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.op = op;
    this.data = data;
    this.network = network;
    this.url = url;
  }
}

/** The text the portal shows for a failed call: the server's message up to '|||' (spec 8.1). */
export function firstMessagePart(message: string): string {
  const i = message.indexOf('|||');
  return (i >= 0 ? message.slice(0, i) : message).trim();
}

export const NETWORK_ERROR = 'Network Error';

/** Services whose calls carry the stored application's ids when a `key` query is present. */
const KEYED_SERVICES = new Set(['ParentApplication', 'Billing']);

export function buildPath(op: string, info: OperationInfo, params: Record<string, unknown> = {}): string {
  const service = info.service ?? op.split('.')[0];
  const path = info.path.replace(/[:{]([A-Za-z_][A-Za-z0-9_]*)\}?/g, (_m, name: string) => {
    const v = params[name];
    if (v === undefined || v === null || v === '') throw new ApiError(0, `Missing path parameter ${name}`, op);
    return encodeURIComponent(String(v));
  });
  return `/api/${service}${path}`;
}

export function buildQuery(query: Record<string, unknown> = {}): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) for (const item of v) sp.append(k, String(item));
    else sp.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const s = sp.toString();
  return s ? `?${s}` : '';
}

/** Reads an error body (JSON {message}/{error} or text) into the ApiError of spec 8.1. */
export async function toApiError(op: string, res: globalThis.Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  let data: unknown = text;
  let message = '';
  try {
    data = text ? JSON.parse(text) : undefined;
    if (data && typeof data === 'object') {
      const d = data as Record<string, unknown>;
      message = String(d.message ?? d.Message ?? d.error ?? '');
    } else if (typeof data === 'string') message = data;
  } catch {
    message = text;
  }
  if (!message) message = res.statusText || `HTTP ${res.status}`;
  return new ApiError(res.status, firstMessagePart(message), op, data, false, res.url || undefined);
}

/** File name from a Content-Disposition header (RFC 6266 filename* first). */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      /* fall through to the plain form */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(header);
  return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

export interface ApiClient {
  call<Op extends OperationId>(op: Op, args?: CallArgs): Promise<Response<Op>>;
  /** fetches a file operation and returns it without saving (tests, previews) */
  fetchFile(op: OperationId, args?: CallArgs): Promise<{ blob: Blob; fileName?: string; type: string }>;
  /** fetches a file operation and saves it under fileName (or the server's name) */
  download(op: OperationId, args?: CallArgs, fileName?: string): Promise<void>;
  upload<Op extends OperationId>(op: Op, args: CallArgs, file: File, onProgress: (pct: number) => void): Promise<Response<Op>>;
  url(op: OperationId, args?: CallArgs): string;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const table = (options.operations ?? (operations as unknown as Record<string, OperationInfo>)) as Record<string, OperationInfo>;
  const doFetch = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const base = options.baseUrl ?? '';

  function info(op: string): OperationInfo {
    const i = table[op];
    if (!i) throw new ApiError(0, `Unknown operation ${op}`, op);
    return i;
  }

  function url(op: string, args: CallArgs = {}): string {
    return base + buildPath(op, info(op), args.params) + buildQuery(args.query);
  }

  function headers(op: string, args: CallArgs): Record<string, string> {
    const h: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': options.getLocale() || 'en',
    };
    const rv = typeof options.releaseVersion === 'function' ? options.releaseVersion() : options.releaseVersion;
    if (rv) h['X-Release-Version'] = rv;
    const token = options.getToken();
    if (token) h.Authorization = `Bearer ${token}`;
    const key = args.query?.key;
    const service = info(op).service ?? op.split('.')[0];
    if (typeof key === 'string' && key && KEYED_SERVICES.has(service) && options.getApplication) {
      const app = options.getApplication(key);
      if (app?.prAccountID !== undefined) h.prAccountID = String(app.prAccountID);
      if (app?.programPeriodID !== undefined) h.programPeriodID = String(app.programPeriodID);
    }
    return h;
  }

  function fail(err: ApiError, args: CallArgs): never {
    if (!args.silent) options.onError?.(err);
    throw err;
  }

  async function send(op: string, args: CallArgs, accept?: string): Promise<globalThis.Response> {
    const i = info(op);
    const h = headers(op, args);
    if (accept) h.Accept = accept;
    let body: string | undefined;
    if (args.body !== undefined && i.method !== 'GET') {
      h['Content-Type'] = 'application/json';
      body = JSON.stringify(args.body);
    }
    let res: globalThis.Response;
    const counted = !args.ignoreLoading;
    if (counted) options.onRequest?.(op);
    try {
      res = await doFetch(url(op, args), { method: i.method, headers: h, body, signal: args.signal });
    } catch (e) {
      if (counted) options.onSettled?.(op);
      if ((e as Error)?.name === 'AbortError') throw e;
      return fail(new ApiError(0, NETWORK_ERROR, op, undefined, true, url(op, args)), args);
    }
    if (counted) options.onSettled?.(op);
    if (!res.ok) return fail(await toApiError(op, res), args);
    return res;
  }

  return {
    url,
    async call(op, args = {}) {
      const res = await send(op, args);
      if (res.status === 204) return undefined as unknown as Response<typeof op>;
      const text = await res.text();
      if (!text) return undefined as unknown as Response<typeof op>;
      const type = res.headers.get('content-type') ?? '';
      return (type.includes('json') ? JSON.parse(text) : text) as Response<typeof op>;
    },
    async fetchFile(op, args = {}) {
      const res = await send(op, args, '*/*');
      const blob = await res.blob();
      return {
        blob,
        type: res.headers.get('content-type') ?? blob.type,
        fileName: fileNameFromDisposition(res.headers.get('content-disposition')),
      };
    },
    async download(op, args = {}, fileName) {
      const file = await this.fetchFile(op, args);
      saveBlob(file.blob, fileName || file.fileName || 'download');
    },
    upload(op, args, file, onProgress) {
      const i = info(op);
      const counted = !args.ignoreLoading;
      if (counted) options.onRequest?.(op);
      const settle = () => {
        if (counted) options.onSettled?.(op);
      };
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.onloadend = settle;
        xhr.open(i.method, url(op, args));
        for (const [k, v] of Object.entries(headers(op, args))) xhr.setRequestHeader(k, v);
        xhr.upload.onprogress = (e) => {
          if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
        };
        xhr.onerror = () => {
          const err = new ApiError(0, NETWORK_ERROR, op, undefined, true);
          if (!args.silent) options.onError?.(err);
          reject(err);
        };
        xhr.onload = () => {
          const text = xhr.responseText;
          if (xhr.status >= 200 && xhr.status < 300) {
            onProgress(100);
            try {
              resolve((text ? JSON.parse(text) : undefined) as Response<typeof op>);
            } catch {
              resolve(text as unknown as Response<typeof op>);
            }
            return;
          }
          const res = new globalThis.Response(text, { status: xhr.status, statusText: xhr.statusText });
          void toApiError(op, res).then((err) => {
            if (!args.silent) options.onError?.(err);
            reject(err);
          });
        };
        const form = new FormData();
        form.append('file', file, file.name);
        xhr.send(form);
      });
    },
  };
}

/** Saves a blob under a file name through a temporary link (browser only). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/** Names of the path parameters of an operation (":id" in /forms/download/:id). */
export function pathParamNames(op: string, table: Record<string, OperationInfo> = operations as unknown as Record<string, OperationInfo>): string[] {
  const info = table[op];
  if (!info) throw new ApiError(0, `Unknown operation ${op}`, op);
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
): { params: Record<string, unknown>; query: Record<string, unknown> } {
  const names = new Set(pathParamNames(op, table));
  const params: Record<string, unknown> = {};
  const query: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) (names.has(k) ? params : query)[k] = v;
  return { params, query };
}
