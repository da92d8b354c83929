// The typed API client: every call goes to /api/<Service><path> with the session's token, the chosen
// language and the release version, and every failure becomes one ApiError shape (spec 7 and 8.1).
// Call arguments are typed per operation from the contract (src/engine/contract.gen.ts); a screen's
// declared loads and effects name their operation at run time and pass untyped arguments.
import { operations, type OperationId, type Operations } from '../engine/contract.gen';
import { buildPath as pathOf, buildQuery, pathParamNames as paramNamesOf, splitParams as splitOf, type OperationInfo } from '../engine/operationUrl';

export type { OperationId, Operations };
export { operations, buildQuery };
export type { OperationInfo };

/** The response body of an operation, from the generated contract. */
export type Response<Op extends OperationId> = Operations[Op]['response'];
/** The query of an operation, from the generated contract. */
export type Query<Op extends OperationId> = Operations[Op]['query'];

/** How a call is made, whatever its operation. */
export interface CallOptions {
  /** calls that must not raise the error handler (the caller shows its own retry panel) */
  silent?: boolean;
  /** calls that must not raise the loading counter (background refreshes) */
  ignoreLoading?: boolean;
  signal?: AbortSignal;
}

/** Arguments of an operation known only at run time (declared loads and effects). */
export interface LooseCallArgs extends CallOptions {
  query?: Record<string, unknown>;
  params?: Record<string, unknown>;
  body?: unknown;
}

/** A part the operation does not take may be left out; one with a required field must be given. */
type Part<K extends string, T> = [T] extends [undefined] ? { [P in K]?: undefined } : {} extends T ? { [P in K]?: T } : { [P in K]: T };

/**
 * The arguments of a call: typed by the contract when the operation is named in the code; untyped
 * when it is any operation (`OperationId` itself: a declaration names it).
 */
export type CallArgs<Op extends OperationId = OperationId> = [OperationId] extends [Op]
  ? LooseCallArgs
  : Part<'query', Operations[Op]['query']> & Part<'params', Operations[Op]['params']> & Part<'body', Operations[Op]['body']> & CallOptions;

/** The arguments may be left out only when nothing in them is required. */
export type ArgsOf<Op extends OperationId> = {} extends CallArgs<Op> ? [args?: CallArgs<Op>] : [args: CallArgs<Op>];

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

export class ApiError extends Error {
  readonly status: number;
  readonly op: string;
  readonly data: unknown;
  /** true when no HTTP answer came back at all */
  readonly network: boolean;
  /** the request URL (the 404 message names it) */
  url?: string;
  /** the release version the request was sent with (an answer to an older one is stale) */
  sentReleaseVersion?: string;
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

// the addresses are built by the engine (src/engine/operationUrl.ts, which the server shares); here a
// missing parameter or an unknown operation is an ApiError like every other failure of a call
const apiError = (message: string, op: string) => new ApiError(0, message, op);

export function buildPath(op: string, info: OperationInfo, params: Record<string, unknown> = {}): string {
  return pathOf(op, info, params, apiError);
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
  call<Op extends OperationId>(op: Op, ...args: ArgsOf<Op>): Promise<Response<Op>>;
  /** fetches a file operation and returns it without saving (tests, previews) */
  fetchFile<Op extends OperationId>(op: Op, ...args: ArgsOf<Op>): Promise<{ blob: Blob; fileName?: string; type: string }>;
  /** fetches a file operation and saves it under fileName (or the server's name) */
  download<Op extends OperationId>(op: Op, args: CallArgs<Op>, fileName?: string): Promise<void>;
  upload<Op extends OperationId>(op: Op, args: CallArgs<Op>, file: File, onProgress: (pct: number) => void): Promise<Response<Op>>;
  url<Op extends OperationId>(op: Op, ...args: ArgsOf<Op>): string;
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

  function url(op: string, args: LooseCallArgs = {}): string {
    return base + buildPath(op, info(op), args.params) + buildQuery(args.query);
  }

  function headers(op: string, args: LooseCallArgs): Record<string, string> {
    const h: Record<string, string> = {
      Accept: 'application/json',
      'Accept-Language': options.getLocale() || 'en',
    };
    const rv = typeof options.releaseVersion === 'function' ? options.releaseVersion() : options.releaseVersion;
    if (rv) h['X-Release-Version'] = rv;
    const token = options.getToken();
    if (token) h.Authorization = `Bearer ${token}`;
    const key = args.query?.key;
    // which services carry them is declared in the contract (applicationHeaders)
    if (typeof key === 'string' && key && info(op).applicationHeaders && options.getApplication) {
      const app = options.getApplication(key);
      if (app?.prAccountID !== undefined) h.prAccountID = String(app.prAccountID);
      if (app?.programPeriodID !== undefined) h.programPeriodID = String(app.programPeriodID);
    }
    return h;
  }

  function fail(err: ApiError, args: LooseCallArgs): never {
    if (!args.silent) options.onError?.(err);
    throw err;
  }

  async function send(op: string, args: LooseCallArgs, accept?: string): Promise<globalThis.Response> {
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
    if (!res.ok) {
      const err = await toApiError(op, res);
      err.sentReleaseVersion = h['X-Release-Version'];
      return fail(err, args);
    }
    return res;
  }

  // the implementation takes any operation's arguments; ApiClient types them per operation
  const client = {
    url,
    async call(op: string, args: LooseCallArgs = {}) {
      const res = await send(op, args);
      if (res.status === 204) return undefined;
      const text = await res.text();
      if (!text) return undefined;
      const type = res.headers.get('content-type') ?? '';
      return (type.includes('json') ? JSON.parse(text) : text) as unknown;
    },
    async fetchFile(op: string, args: LooseCallArgs = {}) {
      const res = await send(op, args, '*/*');
      const blob = await res.blob();
      return {
        blob,
        type: res.headers.get('content-type') ?? blob.type,
        fileName: fileNameFromDisposition(res.headers.get('content-disposition')),
      };
    },
    async download(op: string, args: LooseCallArgs = {}, fileName?: string) {
      const file = await this.fetchFile(op, args);
      saveBlob(file.blob, fileName || file.fileName || 'download');
    },
    upload(op: string, args: LooseCallArgs, file: File, onProgress: (pct: number) => void): Promise<unknown> {
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
              resolve(text ? JSON.parse(text) : undefined);
            } catch {
              resolve(text);
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
  return client as unknown as ApiClient;
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
export function pathParamNames(op: string, table?: Record<string, OperationInfo>): string[] {
  return paramNamesOf(op, table, apiError);
}

/**
 * Splits a screen's flat parameter map into path params and query, by the operation's path:
 * declarations bind `params` without caring where the server reads them.
 */
export function splitParams(op: string, values: Record<string, unknown> = {}, table?: Record<string, OperationInfo>): { params: Record<string, unknown>; query: Record<string, unknown> } {
  return splitOf(op, values, table, apiError);
}
