// The effect runner with the real form engine and the real API client against a local server: the
// order validate -> call -> then, what is sent, and what the follow-up effects see.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { createFormEngine } from '../../../src/engine';
import type { RuleContext } from '../../../src/engine/form';
import type { DeclarationSet, Effect } from '../../../src/engine/types';
import { createApiClient } from '../../../src/api/client';
import { createEffectRunner, type EffectDeps } from '../../../src/runtime/effects';
import type { FormHandle } from '../../../src/runtime/context';
import { defaultSession, type SessionState } from '../../../src/state/session';
import { getFlow, newFlowKey, setFlowValues } from '../../../src/state/flow';
import fixture from '../../fixtures/runtime/contact-set.json';

const base0 = fixture as unknown as DeclarationSet;
// a rule reading a call's answer, for the branch effect
const set: DeclarationSet = { ...base0, rules: { ...base0.rules, 'contact.answered': { logic: { '==': [{ var: ['result.absenceNoticeID', null] }, 42] } } } };
const engine = createFormEngine(set, { country: 'US' });
let app: FastifyInstance;
let base = '';
const received: { url: string; body: unknown }[] = [];

beforeAll(async () => {
  app = Fastify();
  app.post('/api/Attendance/absence', async (req) => {
    received.push({ url: req.url, body: req.body });
    return { absenceNoticeID: 42 };
  });
  app.get('/api/Customer/application', async (req) => {
    received.push({ url: req.url, body: undefined });
    return { url: 'https://apps.example/enrol?x=1', token: 'tok-9', session: { firstName: 'Ana', accountID: 7 } };
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => app.close());

interface Log {
  calls: string[];
  session: SessionState;
  values: Record<string, unknown>;
}

function harness(values: Record<string, unknown>, ctxExtra: Partial<RuleContext> = {}, withForm: boolean | (() => boolean) = true) {
  const log: Log = { calls: [], session: { ...defaultSession, appName: 'brightpath' }, values };
  const waiters: (() => void)[] = [];
  const form: FormHandle = {
    schemaId: 'contact',
    section: { id: 'contactForm', kind: 'form' },
    getValues: () => log.values,
    showAllErrors: () => log.calls.push('showAllErrors'),
  };
  const deps: EffectDeps = {
    set,
    api: createApiClient({ getToken: () => 't', getLocale: () => 'en', releaseVersion: '1', baseUrl: base, onError: (e) => log.calls.push(`onError:${e.status}`) }),
    engine,
    getCtx: () => ({ query: {}, session: log.session as unknown as Record<string, unknown>, provider: {}, data: {}, form: log.values, flow: {}, ...ctxExtra }),
    forms: () => ((typeof withForm === 'function' ? withForm() : withForm) ? [form] : []),
    formRegistered: () => new Promise<void>((r) => waiters.push(r)),
    formWaitMs: 500,
    navigate: (to, query, replace) => log.calls.push(`navigate:${to}:${JSON.stringify(query)}:${replace}`),
    openModal: (id, pending) => log.calls.push(`modal:${id}:${pending ? pending.effect.type : ''}`),
    closeModal: () => log.calls.push('closeModal'),
    signOut: () => log.calls.push('signOut'),
    reload: async (keys, ops) => {
      // other screens' loads are fetched over the network: `then` must wait for them
      if (ops) await new Promise((r) => setTimeout(r, 20));
      log.calls.push(`reload:${keys?.join(',') ?? '*'}${ops ? `:ops=${ops.join(',')}` : ''}`);
    },
    updateSession: (fn) => {
      log.session = fn(log.session);
    },
    setPageError: (key) => log.calls.push(`pageError:${key}`),
    pickFile: async () => null,
    setUpload: () => undefined,
    setUploadError: () => undefined,
    assignLocation: (url) => log.calls.push(`location:${url}`),
    origin: 'https://portal.example',
  };
  return { log, runner: createEffectRunner(deps), registered: () => waiters.splice(0).forEach((w) => w()) };
}

beforeEach(() => {
  received.length = 0;
});

describe('call and navigate to another product', () => {
  it('`call` sends its bound body without validating the form on the screen, then runs `then` with $result', async () => {
    // the form on the screen is invalid: a call (e.g. discarding an application) goes through anyway
    const { log, runner } = harness({ firstName: '' });
    await runner.run({ type: 'call', op: 'Attendance.notifyAbsence', body: { appName: '$session.appName' }, then: { type: 'navigate', to: '/home', query: { id: '$result.absenceNoticeID' } } });
    expect(received).toEqual([{ url: '/api/Attendance/absence', body: { appName: 'brightpath' } }]);
    expect(log.calls).toEqual(['navigate:/home:{"id":42}:false']);
  });

  it('a navigate naming another product is a full navigation to its base path; its own product stays in the router', async () => {
    const { log, runner } = harness({});
    await runner.run({ type: 'navigate', to: '/home', product: 'parentportal' });
    await runner.run({ type: 'navigate', to: '/children', product: 'parentapplication', query: { key: 'abc123ff', empty: '' } });
    // the runner's page is the portal (no currentPath: the portal's base)
    expect(log.calls).toEqual(['navigate:/home:{}:false', 'location:/parentapplication/children?key=abc123ff']);
  });
});

describe('branch', () => {
  it('runs `then` when its rule holds with the call\'s $result, `else` otherwise', async () => {
    const { log, runner } = harness({});
    const branch = (id: string): Effect => ({ type: 'branch', when: 'contact.answered', then: { type: 'navigate', to: '/paymentreceipt', query: { id } }, else: { type: 'navigate', to: '/paymentfailed' } });
    await runner.run({ type: 'call', op: 'Attendance.notifyAbsence', then: branch('$result.absenceNoticeID') });
    await runner.run(branch('x'));
    expect(log.calls).toEqual(['navigate:/paymentreceipt:{"id":42}:false', 'navigate:/paymentfailed:{}:false']);
  });
});

describe('submit', () => {
  it('waits for a form that is still loading (a modal pressed at once) instead of dropping the press', async () => {
    let mounted = false;
    const { log, runner, registered } = harness({ firstName: 'Ana', noPhone: true, stateCode: 'IL', zip: '12345' }, {}, () => mounted);
    const running = runner.run({ type: 'submit', op: 'Attendance.notifyAbsence', form: 'contactForm', then: { type: 'navigate', to: '/home' } });
    await new Promise((r) => setTimeout(r, 20));
    expect(received).toHaveLength(0);
    mounted = true;
    registered();
    await running;
    expect(received).toHaveLength(1);
    expect(log.calls).toEqual(['pageError:null', 'navigate:/home:{}:false']);
  });

  it('stops at an invalid form: page-level message, all errors shown, nothing sent', async () => {
    const { log, runner } = harness({ firstName: '' });
    await runner.run({ type: 'submit', op: 'Attendance.notifyAbsence', form: 'contact', then: { type: 'navigate', to: '/home' } });
    expect(log.calls).toEqual(['pageError:errors.pageLevel', 'showAllErrors']);
    expect(received).toHaveLength(0);
  });

  it('sends the pruned, normalised values and gives the answer to `then` as $result', async () => {
    const { log, runner } = harness({ firstName: 'Ana', noPhone: true, cellPhone: '(555)123-4567', stateCode: 'IL', zip: '12345-' });
    await runner.run({
      type: 'submit',
      op: 'Attendance.notifyAbsence',
      params: { lang: '$session.locale' },
      form: 'contactForm',
      then: { type: 'navigate', to: '/home', query: { id: '$result.absenceNoticeID' } },
    });
    expect(received).toEqual([{ url: '/api/Attendance/absence?lang=en', body: { firstName: 'Ana', noPhone: true, stateCode: 'IL', zip: '12345' } }]);
    expect(log.calls).toEqual(['pageError:null', 'navigate:/home:{"id":42}:false']);
  });

  it('merges `body` bindings into the form values (bound values win); without a form they are the body', async () => {
    const { runner } = harness({ firstName: 'Ana', noPhone: true, stateCode: 'IL', zip: '12345' });
    await runner.run({ type: 'submit', op: 'Attendance.notifyAbsence', form: 'contact', body: { appName: '$session.appName', firstName: 'Bound' } });
    const { runner: bare } = harness({}, {}, false);
    await bare.run({ type: 'submit', op: 'Attendance.notifyAbsence', body: { appName: '$session.appName', fixed: 3 } });
    expect(received.map((r) => r.body)).toEqual([
      { firstName: 'Bound', noPhone: true, stateCode: 'IL', zip: '12345', appName: 'brightpath' },
      { appName: 'brightpath', fixed: 3 },
    ]);
  });

  it('rejects a submit naming a form that is not on the screen', async () => {
    const { runner } = harness({});
    await expect(runner.run({ type: 'submit', op: 'Attendance.notifyAbsence', form: 'payer' })).rejects.toThrow('not on the screen');
  });
});

describe('other effects', () => {
  it('asks first when an action names a confirm modal', async () => {
    const { log, runner } = harness({});
    await runner.runAction({ id: 'drop', label: 'x', confirm: 'sure', effect: { type: 'signOut' } });
    expect(log.calls).toEqual(['modal:sure:signOut']);
  });

  it('setFlow starts a flow under a new key and hands the key to `then`', async () => {
    const { log, runner } = harness({}, { item: { programPeriodID: 4 } });
    await runner.run({
      type: 'setFlow',
      values: { programPeriodID: '$item.programPeriodID', applicationTypeID: 4, step: 'children' },
      then: { type: 'navigate', to: '/changeschedule', query: { key: '$query.key' } },
    });
    const keys = Object.keys(log.session.applications);
    expect(keys).toHaveLength(1);
    expect(getFlow(log.session, keys[0])).toEqual({ prAccountID: 0, programPeriodID: 4, applicationTypeID: 4, data: { step: 'children' } });
    expect(log.calls).toEqual([`navigate:/changeschedule:{"key":"${keys[0]}"}:false`]);
  });

  it('clearFlow drops the flow of the current key', async () => {
    const key = newFlowKey();
    const { log, runner } = harness({}, { query: { key } });
    log.session = setFlowValues(log.session, key, { programPeriodID: 4 });
    await runner.run({ type: 'clearFlow', then: { type: 'navigate', to: '/home' } });
    expect(log.session.applications).toEqual({});
    expect(log.calls).toEqual(['navigate:/home:{}:false']);
  });

  it('redirectOut asks the API for the address and sends the return route along', async () => {
    const { log, runner } = harness({});
    const effect: Effect = {
      type: 'redirectOut',
      op: 'Customer.application',
      returnTo: '/home',
    };
    await runner.run(effect);
    expect(log.calls).toEqual(['location:https://apps.example/enrol?x=1&returnUrl=https%3A%2F%2Fportal.example%2Fparentportal%2Fhome']);
    expect(received.map((r) => r.url)).toEqual(['/api/Customer/application']);
  });

  it('setSession stores the answer of a call without a form (object merged, single values)', async () => {
    const { log, runner } = harness({}, {}, false);
    await runner.run({ type: 'submit', op: 'Customer.application', then: { type: 'setSession', from: '$result.session', values: { token: '$result.token' } } });
    expect(log.session).toMatchObject({ token: 'tok-9', firstName: 'Ana', accountID: 7, appName: 'brightpath' });
  });

  it('reload of other screens\' operations finishes before its then runs', async () => {
    const { log, runner } = harness({});
    await runner.run({ type: 'reload', data: ['contact'], ops: ['Demographics.adults'], then: { type: 'navigate', to: '/myaccount' } });
    expect(log.calls).toEqual(['reload:contact:ops=Demographics.adults', 'navigate:/myaccount:{}:false']);
  });

  it('reload, closeModal with then, and signOut reach their handlers', async () => {
    const { log, runner } = harness({});
    await runner.run({ type: 'reload', data: ['programs'] });
    await runner.run({ type: 'closeModal', then: { type: 'signOut' } });
    expect(log.calls).toEqual(['reload:programs', 'closeModal', 'signOut']);
  });
});
