// Spec 8.1: how the portal reacts to a failed API call. `decideApiError` is the pure handling table;
// `createErrorHandler` applies a decision to the session, the router and the error log.
import { firstMessagePart, NETWORK_ERROR } from '../../api/client';

/** The shape of the client's ApiError (src/api/client.ts); only what the handling table reads. */
export interface ApiErrorLike {
  status?: number;
  message?: string;
  statusText?: string;
  /** operation id, e.g. "Customer.program" */
  op?: string;
  /** request URL, used by the 404 message */
  url?: string;
  data?: unknown;
  /** no HTTP answer came back at all */
  network?: boolean;
  /** the release version the request was sent with */
  sentReleaseVersion?: string;
}

/** A message to show: a translation key of the common namespace with values, or server text. */
export type ShownMessage = { key: string; values?: Record<string, string> } | { text: string };

export interface ErrorDecision {
  /** set session.sessionExpired and go to /sessionexpired */
  sessionExpired: boolean;
  /** query type of /sessionexpired */
  expiredType?: 'INVALID_RELEASE_VERSION' | typeof TEMPORARY_AUTHENTICATION;
  /** route to go to (base-relative), if any */
  redirect?: string;
  /** what the danger banner shows; absent = nothing shown */
  message?: ShownMessage;
  /** post to Customer.errorlog */
  log: boolean;
  /** the text logged (405 logs 'Method not Allowed') */
  logMessage?: string;
  /** shown errors scroll the page to the top */
  scrollToTop: boolean;
}

const NOT_LOGGED_STATUSES = new Set([401, 504, 423, 204, 406, 404]);
const NETWORK_ERROR_TEXTS = new Set([NETWORK_ERROR, `Error: ${NETWORK_ERROR}`, 'Failed to fetch', 'TypeError: Failed to fetch']);
const SPECIAL_CHARACTERS = /[<>^]/;

/** Server messages may carry details after '|||'; only the first part is shown (null-safe). */
function firstPart(message: string | undefined | null): string {
  return message ? firstMessagePart(String(message)) : '';
}
export { firstPart as firstMessagePart };

export function isNetworkError(err: ApiErrorLike): boolean {
  const msg = (err.message ?? '').trim();
  return Boolean(err.network) || NETWORK_ERROR_TEXTS.has(msg) || ((err.status === undefined || err.status === 0) && msg === '');
}

/** The offending character of a 422: from the error data when the server names it, else from the message. */
function specialCharacterOf(err: ApiErrorLike): string | undefined {
  const data = err.data as Record<string, unknown> | null | undefined;
  const named = data && typeof data === 'object' ? (data.character ?? data.char) : undefined;
  if (typeof named === 'string' && named) return named;
  const found = SPECIAL_CHARACTERS.exec(err.message ?? '');
  return found ? found[0] : undefined;
}

/** Error code on /configurationerror when the provider is known but its portal is not set up. */
export const DECLARATIONS_UNAVAILABLE = 'DECLARATIONS_UNAVAILABLE';

/** /sessionexpired type when the session was a temporary-password one (spec 8.2 'Temporary authentication expired/failed'). */
export const TEMPORARY_AUTHENTICATION = 'TEMPORARY_AUTHENTICATION';

/**
 * `appName`: the provider of the session, the product name the configuration error page shows;
 * `temporary`: the session was signed in with a temporary password.
 */
export function decideApiError(err: ApiErrorLike, appName?: string, temporary = false): ErrorDecision {
  const status = err.status ?? 0;
  const raw = err.message ?? '';
  const network = isNetworkError(err);

  if (network) {
    return { sessionExpired: false, message: { key: 'error.network' }, log: false, scrollToTop: true };
  }

  if (status === 401 && (/Token Expired/i.test(raw) || raw.includes('INVALID_RELEASE_VERSION') || /^Unauthorized$/i.test(raw.trim()) || (!raw && /Unauthorized/i.test(err.statusText ?? '')))) {
    const invalidRelease = raw.includes('INVALID_RELEASE_VERSION');
    const expiredType = invalidRelease ? 'INVALID_RELEASE_VERSION' : temporary ? TEMPORARY_AUTHENTICATION : undefined;
    return {
      sessionExpired: true,
      expiredType,
      redirect: expiredType ? `/sessionexpired?type=${expiredType}` : '/sessionexpired',
      log: false,
      scrollToTop: false,
    };
  }

  if (/no configuration data for/i.test(raw)) {
    return { sessionExpired: false, redirect: '/invalidurl', log: !NOT_LOGGED_STATUSES.has(status), scrollToTop: false };
  }

  const log = !NOT_LOGGED_STATUSES.has(status);

  // spec 8.2: the provider exists but has no declaration set (not set up yet, or its overlays are
  // refused): the configuration error page, with a code to quote to the program office; logged
  const data = err.data as { key?: unknown } | null | undefined;
  if (status === 503 && data && typeof data === 'object' && data.key === 'server.errors.declarationsUnavailable') {
    const q = new URLSearchParams({ errorcode: DECLARATIONS_UNAVAILABLE, ...(appName ? { productname: appName } : {}) });
    return { sessionExpired: false, redirect: `/configurationerror?${q}`, log, scrollToTop: false };
  }

  if (status === 422) {
    const character = specialCharacterOf(err);
    return {
      sessionExpired: false,
      message: character ? { key: 'error.specialCharacter', values: { character } } : { key: 'error.specialCharacters' },
      log,
      scrollToTop: true,
    };
  }

  if (status === 404) {
    return {
      sessionExpired: false,
      message: { key: 'error.notFoundUrl', values: { url: err.url ?? err.op ?? '' } },
      log: false,
      scrollToTop: true,
    };
  }

  const text = firstPart(raw) || firstPart(err.statusText);
  return {
    sessionExpired: false,
    message: text ? { text } : { key: 'error.unknown' },
    log,
    logMessage: status === 405 ? 'Method not Allowed' : text || undefined,
    scrollToTop: true,
  };
}

/** Spec 3 error log record, posted to Customer.errorlog. */
export interface ErrorLogRecord {
  Device: string;
  PageName: string;
  Url: string;
  PreviousURL: string;
  UserName: string;
  Browser: string;
  EventDateTime: string;
  APIErrorLogID: string;
  StackTrace: string;
  Message: string;
  Source: 'PARENT PORTAL';
  appName?: string;
}

export interface ErrorHandlerDeps {
  /** mark the session expired and store the banner error */
  setError(error: { statusCode: number; message: string; show: boolean } | null, sessionExpired?: boolean): void;
  navigate(to: string): void;
  log(record: ErrorLogRecord): Promise<unknown> | void;
  translate(key: string, values?: Record<string, string>): string;
  context(): { page: string; url: string; previousUrl: string; userName: string; device: string; browser: string; appName?: string; temporaryPassword?: boolean; releaseVersion?: string };
  scrollToTop(): void;
}

export function shownText(message: ShownMessage, translate: ErrorHandlerDeps['translate']): string {
  return 'text' in message ? message.text : translate(message.key, message.values);
}

export function buildErrorLogRecord(
  err: ApiErrorLike,
  ctx: ReturnType<ErrorHandlerDeps['context']>,
  logMessage: string | undefined,
  now: Date = new Date(),
): ErrorLogRecord {
  const head = `${err.status ?? 0} ${err.op ?? ''} ${logMessage ?? firstPart(err.message)}`.trim();
  return {
    Device: ctx.device,
    PageName: ctx.page,
    Url: err.url ?? ctx.url,
    PreviousURL: ctx.previousUrl,
    UserName: ctx.userName,
    Browser: ctx.browser,
    EventDateTime: now.toISOString(),
    APIErrorLogID: '',
    StackTrace: head,
    Message: logMessage ?? firstPart(err.message),
    Source: 'PARENT PORTAL',
    ...(ctx.appName ? { appName: ctx.appName } : {}),
  };
}

/** The onError of createApiClient: applies the decision; never throws, never logs its own log call. */
export function createErrorHandler(deps: ErrorHandlerDeps) {
  return function handleApiError(err: ApiErrorLike): ErrorDecision {
    const ctx = deps.context();
    const decision = decideApiError(err, ctx.appName, ctx.temporaryPassword === true);
    // an answer to a request sent before the portal took the current release version: stale, not a new expiry
    if (decision.expiredType === 'INVALID_RELEASE_VERSION' && err.sentReleaseVersion !== undefined && ctx.releaseVersion && err.sentReleaseVersion !== ctx.releaseVersion) {
      return { ...decision, sessionExpired: false, redirect: undefined };
    }
    if (decision.sessionExpired) {
      deps.setError(null, true);
    } else if (decision.message) {
      deps.setError({ statusCode: err.status ?? 0, message: shownText(decision.message, deps.translate), show: true });
    }
    if (decision.redirect) deps.navigate(decision.redirect);
    if (decision.scrollToTop) deps.scrollToTop();
    if (decision.log && err.op !== 'Customer.errorlog') {
      try {
        const pending = deps.log(buildErrorLogRecord(err, deps.context(), decision.logMessage));
        if (pending && typeof (pending as Promise<unknown>).catch === 'function') (pending as Promise<unknown>).catch(() => undefined);
      } catch {
        // a failing error log must not hide the original error
      }
    }
    return decision;
  };
}

export { RouteError, shellPartOf } from '../routing/shellParts';
