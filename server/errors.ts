// Errors answered in the form {statusCode, error, message} (spec 8). `key` is the translation key of the
// message, `errors` the field errors of a form validation.
import { STATUS_CODES } from 'node:http';
import type { Translator } from './i18n';

export interface FieldErrorBody {
  path: string;
  key: string;
  params?: Record<string, unknown>;
}

export class HttpError extends Error {
  constructor(
    public statusCode: number,
    message: string,
    public extra: { key?: string; errors?: FieldErrorBody[] } = {},
  ) {
    super(message);
  }
}

/** What an error needs to be told in the request's language: a handler context, or its deps and language. */
export interface ErrorScope {
  deps: { t: Translator };
  lang: string | undefined;
}

/**
 * The one way to answer a translated error. `key` is the full key the client receives and the one
 * translated: "<namespace>.<path>", the namespace a file of locales/en ("server.errors.notFound",
 * "programs.errors.gradeUnknown"); npm run check verifies that every literal key given here exists.
 */
export function httpError(c: ErrorScope, status: number, key: string, params?: Record<string, unknown>, extra: { errors?: FieldErrorBody[] } = {}): HttpError {
  return new HttpError(status, c.deps.t(c.lang, key, params), { key, ...extra });
}

/**
 * An error raised where no request is at hand (a domain function): it carries only its key and
 * parameters, and the error handler tells it in the request's language.
 */
export class KeyedError extends HttpError {
  constructor(
    statusCode: number,
    public key: string,
    public params?: Record<string, unknown>,
  ) {
    super(statusCode, key, { key });
  }
}

/** httpError, thrown. */
export function fail(c: ErrorScope, status: number, key: string, params?: Record<string, unknown>, extra?: { errors?: FieldErrorBody[] }): never {
  throw httpError(c, status, key, params, extra);
}

export function errorBody(statusCode: number, message: string, extra: HttpError['extra'] = {}) {
  return {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
    ...(extra.key ? { key: extra.key } : {}),
    ...(extra.errors ? { errors: extra.errors } : {}),
  };
}

/** The client matches these two texts literally (spec 4, 8.1). */
export const TOKEN_EXPIRED = 'Token Expired';
export const INVALID_RELEASE_VERSION = 'INVALID_RELEASE_VERSION';

export function noConfigurationData(appName: string): HttpError {
  // the client redirects to /invalidurl on this text (spec 8.1)
  return new HttpError(404, `no configuration data for ${appName}`, { key: 'server.errors.noConfigurationData' });
}
