import { describe, expect, it, vi } from 'vitest';
import { createErrorHandler, decideApiError, firstMessagePart, RouteError, shellPartOf, type ErrorHandlerDeps } from '../../../src/shell/errors/errors';

describe('decideApiError (spec 8.1 handling table)', () => {
  it.each([
    ['Token Expired', undefined],
    ['INVALID_RELEASE_VERSION', 'INVALID_RELEASE_VERSION'],
    ['Unauthorized', undefined],
  ])('401 %s expires the session', (message, type) => {
    const d = decideApiError({ status: 401, message, op: 'Billing.accountSummary' });
    expect(d.sessionExpired).toBe(true);
    expect(d.expiredType).toBe(type);
    expect(d.redirect).toBe(type ? '/sessionexpired?type=INVALID_RELEASE_VERSION' : '/sessionexpired');
    expect(d.log).toBe(false);
    expect(d.message).toBeUndefined();
  });

  it("401 of a temporary-password session goes to the 'Temporary authentication expired/failed' notice; a new release still wins", () => {
    const d = decideApiError({ status: 401, message: 'Token Expired' }, 'brightpath', true);
    expect(d).toMatchObject({ sessionExpired: true, expiredType: 'TEMPORARY_AUTHENTICATION', redirect: '/sessionexpired?type=TEMPORARY_AUTHENTICATION', log: false });
    expect(decideApiError({ status: 401, message: 'INVALID_RELEASE_VERSION' }, 'brightpath', true).redirect).toBe('/sessionexpired?type=INVALID_RELEASE_VERSION');
    expect(decideApiError({ status: 401, message: 'Token Expired' }, 'brightpath', false).redirect).toBe('/sessionexpired');
    // a wrong current password of a temporary session is no expiry
    expect(decideApiError({ status: 401, message: 'Password Change Failed. Wrong current password.' }, 'brightpath', true).sessionExpired).toBe(false);
  });

  it('401 with no message but status text Unauthorized expires the session', () => {
    expect(decideApiError({ status: 401, message: '', statusText: 'Unauthorized' }).sessionExpired).toBe(true);
  });

  it('401 with another message (wrong password) is shown, not an expiry, and not logged', () => {
    const d = decideApiError({ status: 401, message: 'Invalid e-mail or password.|||attempt 2' });
    expect(d.sessionExpired).toBe(false);
    expect(d.redirect).toBeUndefined();
    expect(d.message).toEqual({ text: 'Invalid e-mail or password.' });
    expect(d.log).toBe(false);
  });

  it('422 names the special character from the data or the message', () => {
    expect(decideApiError({ status: 422, message: 'x', data: { character: '^' } }).message).toEqual({
      key: 'error.specialCharacter',
      values: { character: '^' },
    });
    expect(decideApiError({ status: 422, message: 'Character < not supported' }).message).toEqual({
      key: 'error.specialCharacter',
      values: { character: '<' },
    });
    expect(decideApiError({ status: 422, message: 'bad', data: null }).message).toEqual({ key: 'error.specialCharacters' });
    expect(decideApiError({ status: 422, message: 'bad' }).log).toBe(true);
  });

  it('404 shows "404 {url} Not found" and is not logged', () => {
    const d = decideApiError({ status: 404, message: 'whatever', url: '/api/Customer/nothing' });
    expect(d.message).toEqual({ key: 'error.notFoundUrl', values: { url: '/api/Customer/nothing' } });
    expect(d.log).toBe(false);
  });

  it('"no configuration data for" goes to /invalidurl', () => {
    const d = decideApiError({ status: 400, message: 'There is no configuration data for acme' });
    expect(d.redirect).toBe('/invalidurl');
    expect(d.message).toBeUndefined();
    expect(d.sessionExpired).toBe(false);
  });

  it('a provider without a declaration set goes to /configurationerror with a code and the product name, and is logged', () => {
    const err = { status: 503, message: 'The portal is not available.', op: 'Customer.declarations', data: { statusCode: 503, key: 'server.errors.declarationsUnavailable' } };
    const d = decideApiError(err, 'lakeside');
    expect(d).toMatchObject({ redirect: '/configurationerror?errorcode=DECLARATIONS_UNAVAILABLE&productname=lakeside', log: true, sessionExpired: false });
    expect(d.message).toBeUndefined();
    expect(decideApiError(err).redirect).toBe('/configurationerror?errorcode=DECLARATIONS_UNAVAILABLE');
    // another 503 is an ordinary error
    expect(decideApiError({ ...err, data: { statusCode: 503 } }).redirect).toBeUndefined();
  });

  it('other errors show the first part of the message, scroll to top and are logged', () => {
    const d = decideApiError({ status: 500, message: 'Something broke|||stack trace here' });
    expect(d.message).toEqual({ text: 'Something broke' });
    expect(d.scrollToTop).toBe(true);
    expect(d.log).toBe(true);
  });

  it('falls back to the status text, then to the unknown-error key', () => {
    expect(decideApiError({ status: 502, message: '', statusText: 'Bad Gateway' }).message).toEqual({ text: 'Bad Gateway' });
    expect(decideApiError({ status: 500, message: '', statusText: '' }).message).toEqual({ key: 'error.unknown' });
  });

  it('405 logs "Method not Allowed"', () => {
    const d = decideApiError({ status: 405, message: 'nope' });
    expect(d.log).toBe(true);
    expect(d.logMessage).toBe('Method not Allowed');
  });

  it.each([504, 423, 204, 406])('status %i is shown but not logged', (status) => {
    const d = decideApiError({ status, message: 'm' });
    expect(d.log).toBe(false);
    expect(d.message).toEqual({ text: 'm' });
  });

  it('a client error flagged as network (no HTTP answer) is a network error', () => {
    expect(decideApiError({ status: 0, message: 'Network Error', network: true }).message).toEqual({ key: 'error.network' });
  });

  it.each(['Network Error', 'Error: Network Error'])('%s is replaced by the localised message and not logged', (message) => {
    const d = decideApiError({ status: 0, message });
    expect(d.message).toEqual({ key: 'error.network' });
    expect(d.log).toBe(false);
  });

  it('firstMessagePart handles null and missing separators', () => {
    expect(firstMessagePart(null)).toBe('');
    expect(firstMessagePart('plain')).toBe('plain');
    expect(firstMessagePart('a|||b|||c')).toBe('a');
  });
});

describe('createErrorHandler', () => {
  function deps(): ErrorHandlerDeps & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      setError: vi.fn((e, expired) => calls.push(`setError:${e ? e.message : 'null'}:${expired ? 'expired' : ''}`)),
      navigate: vi.fn((to) => calls.push(`navigate:${to}`)),
      log: vi.fn(async () => calls.push('log')),
      translate: (key, values) => `${key}${values ? JSON.stringify(values) : ''}`,
      context: () => ({ page: 'home', url: '/parentportal/home', previousUrl: '/parentportal/', userName: 'm@x', device: 'Linux', browser: 'Chrome 120' }),
      scrollToTop: vi.fn(() => calls.push('scroll')),
    };
  }

  it('applies an expiry: flag, navigate, no log', () => {
    const d = deps();
    createErrorHandler(d)({ status: 401, message: 'Token Expired', op: 'Billing.accountSummary' });
    expect(d.calls).toEqual(['setError:null:expired', 'navigate:/sessionexpired']);
  });

  it('shows, scrolls and logs a server error with the log record', () => {
    const d = deps();
    createErrorHandler(d)({ status: 405, message: 'x|||y', op: 'Customer.program' });
    expect(d.calls).toEqual(['setError:x:', 'scroll', 'log']);
    const record = (d.log as ReturnType<typeof vi.fn>).mock.calls[0][0];
    expect(record).toMatchObject({ Source: 'PARENT PORTAL', PageName: 'home', UserName: 'm@x', Browser: 'Chrome 120' });
    expect(record.StackTrace).toContain('Method not Allowed');
    expect(record.Message).toBe('Method not Allowed');
  });

  it('an outdated-release answer to a request sent before the portal took the current version changes nothing', () => {
    const d = deps();
    const ctx = d.context();
    d.context = () => ({ ...ctx, releaseVersion: '0.2.0' });
    createErrorHandler(d)({ status: 401, message: 'INVALID_RELEASE_VERSION', op: 'Billing.accountSummary', sentReleaseVersion: '0.1.0' });
    expect(d.calls).toEqual([]);
    createErrorHandler(d)({ status: 401, message: 'INVALID_RELEASE_VERSION', op: 'Billing.accountSummary', sentReleaseVersion: '0.2.0' });
    expect(d.calls).toEqual(['setError:null:expired', 'navigate:/sessionexpired?type=INVALID_RELEASE_VERSION']);
  });

  it('never logs a failure of the error log call itself', () => {
    const d = deps();
    createErrorHandler(d)({ status: 500, message: 'down', op: 'Customer.errorlog' });
    expect(d.log).not.toHaveBeenCalled();
  });

  it('translates keyed messages', () => {
    const d = deps();
    createErrorHandler(d)({ status: 0, message: 'Network Error' });
    expect(d.calls[0]).toBe('setError:error.network:');
  });
});

describe('shell parts (spec 8.1 unknown middleware)', () => {
  const parts = { notFound: 'the not-found page' };
  it('gives the part a screen names, and nothing for a screen that names none', () => {
    expect(shellPartOf(parts, 'notFound')).toBe('the not-found page');
    expect(shellPartOf(parts, undefined)).toBeUndefined();
  });
  it("an unknown part is a 500 route error 'Unknown middleware'", () => {
    for (const name of ['newerPart', 'toString', '__proto__']) {
      let caught: unknown;
      try {
        shellPartOf(parts, name);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(RouteError);
      expect(caught).toMatchObject({ status: 500, message: 'Unknown middleware', name: 'RouteError' });
    }
  });
});
