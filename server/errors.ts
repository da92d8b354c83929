// Errors answered as {statusCode, error, message} (spec 8). `key` is the translation key of the
// message, `errors` the field errors of a form validation.
import { STATUS_CODES } from 'node:http';

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
