// Screens expressed as declarations (tests/fixtures/engine): a multi-step flow with its progress bar
// and in-progress data under `key`, a confirm modal, cards with per-item rules, options from an API
// call, a redirect out and back, a download and an upload with limits.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import {
  buildDeclarationSet,
  createFormEngine,
  flowData,
  itemModel,
  matchRoute,
  parseQuery,
  redirectTarget,
  resolveBinding,
  resolveEffect,
  resolveParams,
  screenModel,
  validateUpload,
  type DeclarationSet,
  type Effect,
} from '../../../src/engine/index';
import { readBaseDeclarations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const base = readBaseDeclarations(resolve(root, 'tests/fixtures/engine'));
base.meta = readBaseDeclarations(root).meta;
const built = buildDeclarationSet(base, []);
if (!built.ok) throw new Error(JSON.stringify(built.errors));
const set: DeclarationSet = built.set;

const applications = { abc123: { prAccountID: 55, programPeriodID: 9, applicationTypeID: 4, paymentOptions: 'N' } };

describe('routes and typed queries', () => {
  it('matches paths (base path, trailing slash, case) and prefers static routes', () => {
    expect(matchRoute(set, '/programlist')?.screen.id).toBe('programlist');
    expect(matchRoute(set, '/parentportal/programlist/')?.screen.id).toBe('programlist');
    expect(matchRoute(set, '/ProgramList')?.screen.id).toBe('programlist');
    expect(matchRoute(set, '/changeschedule/children?key=x')?.screen.id).toBe('changeschedule-children');
    expect(matchRoute(set, '/brightpath/parent')).toEqual({ screen: set.screens['program-entry'], params: { appName: 'brightpath' } });
    expect(matchRoute(set, '/nowhere')).toBeNull();
  });
  it('parses typed query parameters with defaults and errors', () => {
    const screen = set.screens.viewenrollment;
    expect(parseQuery(screen, '?programPeriodID=12&IsPending=true')).toEqual({ query: { programPeriodID: 12, IsPending: true, OT: 0 }, errors: [] });
    expect(parseQuery(screen, 'programperiodid=7&ot=1')).toEqual({ query: { programPeriodID: 7, IsPending: false, OT: 1 }, errors: [] });
    expect(parseQuery(screen, '?programPeriodID=abc&IsPending=maybe').errors).toEqual([
      { param: 'programPeriodID', key: 'errors.query.integer' },
      { param: 'IsPending', key: 'errors.query.boolean' },
    ]);
    expect(parseQuery(screen, '').errors).toEqual([{ param: 'programPeriodID', key: 'errors.query.required' }]);
  });
  it('bindings read the context; anything else is a literal', () => {
    const ctx = { query: { key: 'abc123' }, flow: applications.abc123, session: { accountID: 3 } };
    expect(resolveBinding('$flow.prAccountID', ctx)).toBe(55);
    expect(resolveBinding('$session.missing.deeper', ctx)).toBeUndefined();
    expect(resolveBinding('literal', ctx)).toBe('literal');
    expect(resolveBinding(-1, ctx)).toBe(-1);
    expect(resolveParams({ a: '$query.key', b: ['$session.accountID', 2], c: { d: '$flow.programPeriodID' } }, ctx)).toEqual({ a: 'abc123', b: [3, 2], c: { d: 9 } });
  });
});

describe('multi-step flow: progress bar and in-progress data under key', () => {
  const query = parseQuery(set.screens['changeschedule-children'], '?key=abc123').query;
  const flow = flowData(applications, query);

  it('in-progress data comes from the session applications under the key', () => {
    expect(flow).toEqual(applications.abc123);
    expect(flowData(applications, { key: 'other' })).toEqual({});
    expect(flowData(undefined, {})).toEqual({});
  });

  it('three steps; plural enrol label for application type 4; fee instead of payment for option N', () => {
    const m = screenModel(set, 'changeschedule-children', { query, flow });
    expect(m.progress).toEqual({
      name: 'changeSchedule',
      current: 1,
      steps: [
        { step: 1, label: 'screens.flow.child', state: 'current' },
        { step: 2, label: 'screens.flow.enrolPlural', state: 'todo' },
        { step: 3, label: 'screens.flow.fee', state: 'todo' },
      ],
    });
    const plain = screenModel(set, 'changeschedule-enrollment', { query, flow: { ...flow, applicationTypeID: 5, paymentOptions: 'O' } });
    expect(plain.progress?.steps.map((s) => `${s.label}:${s.state}`)).toEqual(['screens.flow.child:done', 'screens.flow.enrol:current', 'screens.flow.payment:todo']);
  });

  it('data loads resolve their parameters from flow and query, and wait for their rule', () => {
    const m = screenModel(set, 'changeschedule-children', { query, flow });
    expect(m.loads).toEqual([
      { key: 'children', op: 'Fixture.children', label: 'screens.changeSchedule.children', when: 'fixture.hasKey', active: true, params: { prAccountID: 55, programPeriodID: 9, key: 'abc123' } },
    ]);
    expect(screenModel(set, 'changeschedule-children', { query, flow: {} }).loads[0].active).toBe(false);
    expect(screenModel(set, 'changeschedule-children', { query, flow: {} }).actions.find((a) => a.id === 'next')).toMatchObject({ visible: true, enabled: false });
  });

  it('next stores in the flow and navigates with the key', () => {
    const next = screenModel(set, 'changeschedule-children', { query, flow }).actions.find((a) => a.id === 'next')!;
    expect(resolveEffect(next.effect, { query, flow })).toEqual({
      type: 'setFlow',
      values: { step: 2 },
      then: { type: 'navigate', to: '/changeschedule/enrollment', query: { key: 'abc123' } },
    });
    expect(matchRoute(set, '/changeschedule/enrollment')?.screen.id).toBe('changeschedule-enrollment');
  });
});

describe('a modal with confirm and cancel', () => {
  it('exit opens the modal; return closes and goes home; continue only closes', () => {
    const m = screenModel(set, 'changeschedule-children', {});
    expect(m.actions.find((a) => a.id === 'exit')?.effect).toEqual({ type: 'modal', modal: 'exit' });
    const modal = m.modals.find((x) => x.id === 'exit')!;
    expect(modal.title).toBe('screens.changeSchedule.exitTitle');
    expect(modal.actions.map((a) => [a.id, a.visible, a.enabled, a.effect])).toEqual([
      ['return', true, true, { type: 'closeModal', then: { type: 'navigate', to: '/home' } }],
      ['continue', true, true, { type: 'closeModal' }],
    ]);
  });
});

describe('a list of cards with per-item rules', () => {
  const programs = [
    { programPeriodID: 1, programPeriod: 'Summer Camp', canRegisterOnline: true, isRegistered: false, children: [] },
    { programPeriodID: 2, programPeriod: 'After School', canRegisterOnline: true, isRegistered: true, children: [{ childID: 3 }] },
    { programPeriodID: 3, programPeriod: 'Holiday Care', canRegisterOnline: false, isRegistered: true, children: null },
  ];
  const section = screenModel(set, 'programlist', {}).sections[0];
  if (section.kind !== 'cardList') throw new Error('programlist lists cards');
  const cards = programs.map((p) => itemModel(set, section.card, p, { data: { programs } }) as { title: string; notices: { visible: boolean }[]; actions: { id: string; visible: boolean }[] });
  const shown = (c: (typeof cards)[number]) => c.actions.filter((a) => a.visible).map((a) => a.id);

  it('bindings resolve per item and buttons follow their rules', () => {
    expect(cards.map((c) => c.title)).toEqual(['Summer Camp', 'After School', 'Holiday Care']);
    expect(cards.map(shown)).toEqual([['register', 'download'], ['view', 'download'], ['download']]);
    expect(cards.map((c) => c.notices[0].visible)).toEqual([false, true, false]);
  });

  it('effects keep their bindings until run with the item', () => {
    const view = section.card.actions!.find((a) => a.id === 'view')!;
    expect(resolveEffect(view.effect, { item: programs[1] })).toEqual({ type: 'navigate', to: '/viewenrollment', query: { programPeriodID: 2 } });
  });

  it('a file download resolves its operation parameters and file name', () => {
    const download = section.card.actions!.find((a) => a.id === 'download')!;
    expect(resolveEffect(download.effect, { item: programs[0] })).toEqual({ type: 'download', op: 'Fixture.report', params: { programPeriodID: 1 }, fileName: 'Summer Camp' });
    expect(set.api?.Fixture.operations['Fixture.report'].response).toEqual({ file: true });
  });

  it('a redirect out to an external URL and back to a return route', () => {
    const register = section.card.actions!.find((a) => a.id === 'register')!;
    const effect = resolveEffect(register.effect, { item: programs[0] }) as Extract<Effect, { type: 'redirectOut' }>;
    expect(effect.params).toEqual({ programPeriodID: 1 });
    // the token call answers the external URL; the runtime puts it under data.token
    const ctx = { item: programs[0], data: { token: { parentApplicationUrl: 'https://apply.example.org/start?keyelement=k1' } } };
    expect(redirectTarget(set, register.effect as Extract<Effect, { type: 'redirectOut' }>, ctx, 'https://portal.example.org')).toEqual({
      url: 'https://apply.example.org/start?keyelement=k1&returnUrl=https%3A%2F%2Fportal.example.org%2Fparentportal%2Fprogramlist',
      returnUrl: 'https://portal.example.org/parentportal/programlist',
    });
    expect(matchRoute(set, new URL('https://portal.example.org/parentportal/programlist').pathname)?.screen.id).toBe('programlist');
    expect(() => redirectTarget(set, register.effect as Extract<Effect, { type: 'redirectOut' }>, { item: programs[0] }, 'https://p')).toThrow(/missing/);
    expect(() => redirectTarget(set, { ...(register.effect as Extract<Effect, { type: 'redirectOut' }>), returnTo: '/nowhere' }, ctx, 'https://p')).toThrow(/not a screen/);
  });
});

describe('a form whose options come from an API call', () => {
  it('x-options names the operation, its parameters (bound to the flow) and the value/label fields', () => {
    const m = screenModel(set, 'changeschedule-enrollment', {});
    const form = m.sections.find((s) => s.kind === 'form');
    if (form?.kind !== 'form') throw new Error('no form');
    const schema = set.schemas[form.schema] as { properties: { siteID: Record<string, unknown> } };
    const options = schema.properties.siteID['x-options'] as { op: string; params: Record<string, unknown>; value: string; label: string };
    expect(options.op).toBe('Fixture.sites');
    expect(resolveParams(options.params, { flow: applications.abc123 })).toEqual({ ProgramPeriodID: 9, SiteID: -1 });
    const sites = [{ siteID: 4, siteName: 'North' }, { siteID: 5, siteName: 'South' }];
    expect(sites.map((s) => ({ value: s[options.value as 'siteID'], label: s[options.label as 'siteName'] }))).toEqual([
      { value: 4, label: 'North' },
      { value: 5, label: 'South' },
    ]);
  });
  it('the dropdown is mandatory (0 counts as empty) and the submit is enabled once chosen', () => {
    const engine = createFormEngine(set, { country: 'US' });
    expect(engine.validate('changeSite', { prChildID: 1, siteID: 0 }, {}).errors.map((e) => e.key)).toEqual(['errors.required']);
    expect(engine.validate('changeSite', { prChildID: 1, siteID: 5 }, {}).valid).toBe(true);
    const save = (form: unknown) => screenModel(set, 'changeschedule-enrollment', { form }).actions[0];
    expect(save({ siteID: 0 }).enabled).toBe(false);
    expect(save({ siteID: 5 })).toMatchObject({ visible: true, enabled: true, effect: { type: 'submit', op: 'Fixture.changeSite', form: 'changeSite' } });
    expect(set.api?.Fixture.operations['Fixture.changeSite'].form).toBe('changeSite');
  });
});

describe('a file upload with progress', () => {
  const action = screenModel(set, 'uploadimage', { query: { id: 3 } }).actions[0];
  const effect = action.effect as Extract<Effect, { type: 'upload' }>;
  it('declares the operation, accept list and size limit', () => {
    expect(resolveEffect(effect, { query: { id: 3 } })).toMatchObject({ type: 'upload', op: 'Fixture.photo', params: { childId: 3 }, accept: ['jpg', 'jpeg', 'png'], maxMB: 5 });
  });
  it.each([
    [{ name: 'me.JPG', size: 1000 }, { ok: true }],
    [{ name: 'me.photo.png', size: 5 * 1024 * 1024 }, { ok: true }],
    [{ name: 'me.gif', size: 1000 }, { ok: false, key: 'errors.upload.type', params: { accept: 'jpg, jpeg, png' } }],
    [{ name: 'me', size: 1000 }, { ok: false, key: 'errors.upload.type', params: { accept: 'jpg, jpeg, png' } }],
    [{ name: 'me.png', size: 5 * 1024 * 1024 + 1 }, { ok: false, key: 'errors.upload.size', params: { maxMB: 5 } }],
    [{ name: 'me.png', size: 0 }, { ok: false, key: 'errors.upload.empty', params: {} }],
  ])('validateUpload(%j)', (file, out) => expect(validateUpload(file, effect)).toEqual(out));
  it('accept entries may carry a dot', () => expect(validateUpload({ name: 'a.PDF', size: 1 }, { accept: ['.pdf'] })).toEqual({ ok: true }));
});

describe('screen model', () => {
  it('sections and actions carry their evaluated rules', () => {
    const m = screenModel(set, 'programlist', {});
    expect(m.title).toBe('screens.programList.title');
    expect(m.sections.map((s) => [s.id, s.visible])).toEqual([['programs', true]]);
    expect(m.loads.map((l) => [l.key, l.active])).toEqual([['programs', true]]);
    expect(() => screenModel(set, 'nope', {})).toThrow(/unknown screen/);
  });
});
