import { describe, expect, it } from 'vitest';
import { clearFlow, getFlow, newFlowKey, setFlowValues, FLOW_KEY_PATTERN } from '../../../src/state/flow';
import { defaultSession, reviveSession, signedOutSession } from '../../../src/state/session';

describe('flow state under key', () => {
  it('makes random hex keys', () => {
    const a = newFlowKey();
    const b = newFlowKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(FLOW_KEY_PATTERN.test(a)).toBe(true);
  });

  it('creates a flow with ids and data, without changing the input session', () => {
    const key = newFlowKey();
    const s1 = setFlowValues(defaultSession, key, { prAccountID: '31', programPeriodID: 4, applicationTypeID: 4, step: 'children' });
    expect(defaultSession.applications).toEqual({});
    expect(getFlow(s1, key)).toEqual({ prAccountID: 31, programPeriodID: 4, applicationTypeID: 4, data: { step: 'children' } });
  });

  it('merges later values, removes undefined ones and keeps other flows apart', () => {
    const k1 = newFlowKey();
    const k2 = newFlowKey();
    let s = setFlowValues(defaultSession, k1, { programPeriodID: 4, a: 1, b: 2 });
    s = setFlowValues(s, k2, { programPeriodID: 9 });
    s = setFlowValues(s, k1, { b: undefined, c: 3 });
    expect(getFlow(s, k1)?.data).toEqual({ a: 1, c: 3 });
    expect(getFlow(s, k1)?.programPeriodID).toBe(4);
    expect(getFlow(s, k2)?.programPeriodID).toBe(9);
    s = clearFlow(s, k1);
    expect(getFlow(s, k1)).toBeUndefined();
    expect(getFlow(s, k2)).toBeDefined();
  });

  it('rejects keys that are not hex and non-numeric ids', () => {
    expect(() => setFlowValues(defaultSession, '../x', { a: 1 })).toThrow('Invalid flow key');
    expect(() => setFlowValues(defaultSession, newFlowKey(), { prAccountID: 'abc' })).toThrow('must be a number');
  });

  it('does not read inherited properties as flows', () => {
    expect(getFlow(defaultSession, 'constructor')).toBeUndefined();
    expect(getFlow(defaultSession, undefined)).toBeUndefined();
  });
});

describe('session state', () => {
  it('revives stored sessions over the defaults and drops a stored loading counter', () => {
    const s = reviveSession({ token: 't', loading: 3, error: { show: true } });
    expect(s.token).toBe('t');
    expect('loading' in s).toBe(false);
    expect(s.countryCode).toBe('US');
    expect(s.error).toEqual({ statusCode: 0, message: '', show: true });
    expect(reviveSession('garbage')).toEqual(defaultSession);
  });

  it('sign out drops the token and account but keeps language and provider', () => {
    const k = newFlowKey();
    const signedIn = setFlowValues({ ...defaultSession, token: 't', locale: 'vi', appName: 'northridge', countryCode: 'CA', accountID: 5, firstName: 'Maria' }, k, { a: 1 });
    const out = signedOutSession(signedIn);
    expect(out.token).toBeNull();
    expect(out.accountID).toBeNull();
    expect(out.firstName).toBe('');
    expect(out.applications).toEqual({});
    expect(out).toMatchObject({ locale: 'vi', appName: 'northridge', countryCode: 'CA' });
  });
});

describe('loading counter', () => {
  it('rises per request and never goes below 0', async () => {
    const { loadingDelta } = await import('../../../src/state');
    let n = loadingDelta(0, 1);
    n = loadingDelta(n, 1);
    expect(n).toBe(2);
    n = loadingDelta(loadingDelta(loadingDelta(n, -1), -1), -1);
    expect(n).toBe(0);
  });
});
