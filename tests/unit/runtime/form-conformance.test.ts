// One suite, both form renderers: the full form (RJSF) and the light form share the form host, so
// the same cases hold for each. A form is driven through its host (as its fields do: a change, a
// field left, a submit through the effect runner) and drawn on the server after each step.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import { addTexts, fixedT } from '../../../src/runtime/texts';
import { buildDeclarationSet } from '../../../src/engine/declarations';
import { readBaseDeclarations, readTranslations } from '../../../src/engine/node';
import { createFormEngine } from '../../../src/engine';
import type { DeclarationSet, Effect } from '../../../src/engine/types';
import type { FormEngine } from '../../../src/engine/form';
import { ScreenRuntimeContext, type ScreenRuntime } from '../../../src/runtime/context';
import type { RenderSectionOf } from '../../../src/runtime/kindProps';
import LightForm from '../../../src/runtime/form/light/LightForm';
import FormKind from '../../../src/runtime/form/FormKind';
import { createFormHost, formHandle, type FormHost } from '../../../src/runtime/form/light/host';
import { createEffectRunner } from '../../../src/runtime/effects';
import { createApiClient } from '../../../src/api/client';
import { getPortalSystem } from '../../../src/shell/theme/theme';

const root = resolve(__dirname, '../../..');

// a small form both renderers can draw: required text and e-mail, and a nickname shown (and
// required) only while its checkbox is ticked, its value dropped while hidden
function conformanceSet(): DeclarationSet {
  const r = buildDeclarationSet(readBaseDeclarations(root), [], {});
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('\n'));
  const set = r.set;
  set.rules['conformance.hasNickname'] = { logic: { '==': [{ var: ['form.hasNickname', false] }, true] } };
  set.schemas.conformance = {
    $id: 'conformance',
    type: 'object',
    properties: {
      name: { type: 'string', title: 'Name', maxLength: 40, 'x-required': true },
      email: { type: 'string', format: 'email', title: 'E-mail', 'x-widget': 'email', 'x-required': true },
      hasNickname: { type: 'boolean', title: 'Has a nickname', 'x-widget': 'checkbox' },
      nickname: { type: 'string', title: 'Nickname', 'x-show': 'conformance.hasNickname', 'x-required': 'conformance.hasNickname', 'x-clearOnHide': true },
    },
  };
  return set;
}

const translations = readTranslations(root);
for (const [ns, texts] of Object.entries(translations.en)) addTexts('en', ns, texts as Record<string, unknown>);

const set = conformanceSet();
const engine: FormEngine = createFormEngine(set, { country: 'US' });
const ctx = { query: {}, session: {}, provider: {}, data: {}, form: {}, flow: {} };
const section: RenderSectionOf<'form'> = { id: 'conf', kind: 'form', schema: 'conformance', actions: [], visible: true } as unknown as RenderSectionOf<'form'>;

function runtime(): ScreenRuntime {
  return {
    set,
    screen: { id: 'conf', path: '/conf', sections: [] } as unknown as ScreenRuntime['screen'],
    rules: set.rules,
    ctx,
    formCtx: ctx,
    engine,
    engineFailed: false,
    wantEngine: () => undefined,
    country: 'US',
    data: {},
    isTrue: () => true,
    resolve: () => ({}),
    resolveOne: () => undefined,
    runAction: async () => undefined,
    runEffect: async () => undefined,
    reload: () => undefined,
    registerForm: () => () => undefined,
    setFormValues: () => undefined,
    busy: null,
  };
}

interface Renderer {
  name: string;
  component: ComponentType<{ section: RenderSectionOf<'form'>; data: unknown; host?: FormHost }>;
  /** the light form shows the page-level message itself; the full form leaves it to the screen */
  ownsPageMessage: boolean;
}

const renderers: Renderer[] = [
  { name: 'full form (RJSF)', component: FormKind, ownsPageMessage: false },
  { name: 'light form', component: LightForm, ownsPageMessage: true },
];

const text = (html: string) => html.replace(/<style[^>]*>.*?<\/style>/g, '').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
// a field's control: the full form names it by id (conf_<name>), the light form by name
const nameOf = (tag: string) => /\sid="conf_([^"]+)"/.exec(tag)?.[1] ?? /\sname="([^"]+)"/.exec(tag)?.[1];
const controls = (html: string) => [...html.matchAll(/<(input|select|textarea)[^>]*>/g)].map((m) => m[0]);
const inputOf = (html: string, id: string) => controls(html).find((t) => `conf_${nameOf(t)}` === id);
const invalidIds = (html: string) => controls(html).filter((t) => /aria-invalid="true"/.test(t)).map((t) => `conf_${nameOf(t)}`);

describe.each(renderers)('form conformance: $name', ({ component, ownsPageMessage }) => {
  function form(initial: Record<string, unknown> = {}) {
    const host = createFormHost(initial);
    const draw = () =>
      renderToString(
        createElement(ChakraProvider, {
          value: getPortalSystem(),
          children: createElement(ScreenRuntimeContext.Provider, { value: runtime() }, createElement(component, { section, data: undefined, host })),
        }),
      );
    const edit = (name: string, value: unknown) => {
      host.setValues((prev) => ({ ...prev, [name]: value }));
      host.touch(`conf_${name}`);
    };
    return { host, draw, edit };
  }

  it('shows the initial values and no error before the parent turns to a field', () => {
    const { draw } = form({ name: 'Maria', email: 'not-an-email' });
    const html = draw();
    expect(inputOf(html, 'conf_name')).toMatch(/value="Maria"/);
    expect(inputOf(html, 'conf_email')).toMatch(/value="not-an-email"/);
    expect(invalidIds(html)).toEqual([]);
    expect(text(html)).not.toMatch(/is required/);
  });

  it('shows a field’s errors once it was changed or left, and only that field’s', () => {
    const { host, draw, edit } = form({ name: 'Maria' });
    edit('email', 'maria@');
    let html = draw();
    expect(invalidIds(html)).toEqual(['conf_email']);
    // a field left empty shows its required message; the others stay quiet
    edit('name', '');
    html = draw();
    expect(invalidIds(html)).toEqual(['conf_name', 'conf_email']);
    expect(text(html)).toMatch(/Name is required/);
    // fixing the value clears its error as the parent types
    edit('email', 'maria@example.com');
    expect(invalidIds(draw())).toEqual(['conf_name']);
    host.touch('conf_hasNickname');
    expect(invalidIds(draw())).toEqual(['conf_name']);
  });

  it('a rule on another field updates as the parent types: the shown field, its required mark and error', () => {
    const { host, draw, edit } = form({ name: 'Maria', email: 'maria@example.com' });
    expect(inputOf(draw(), 'conf_nickname')).toBeUndefined();
    edit('hasNickname', true);
    host.touch('conf_nickname');
    const html = draw();
    expect(inputOf(html, 'conf_nickname')).toBeDefined();
    expect(invalidIds(html)).toEqual(['conf_nickname']);
    edit('nickname', 'Mari');
    expect(invalidIds(draw())).toEqual([]);
  });

  it('hidden fields are not drawn and their values are dropped', () => {
    const { host, draw, edit } = form({ name: 'Maria', email: 'maria@example.com', hasNickname: true, nickname: 'Mari' });
    expect(inputOf(draw(), 'conf_nickname')).toMatch(/value="Mari"/);
    edit('hasNickname', false);
    // the renderers prune through the same step a field change takes
    const html = draw();
    expect(inputOf(html, 'conf_nickname')).toBeUndefined();
    const submitted = engine.validate('conformance', host.getState().values, ctx);
    expect(submitted.data).not.toHaveProperty('nickname');
  });

  it('a failed submit shows every error, asks to focus the first invalid field and shows the page-level message', async () => {
    const { host, draw } = form({ email: 'x' });
    const calls: string[] = [];
    const runner = createEffectRunner({
      set,
      api: createApiClient({ getToken: () => '', getLocale: () => 'en', releaseVersion: '1', baseUrl: 'http://127.0.0.1:9', onError: () => calls.push('api') }),
      engine,
      getCtx: () => ctx,
      forms: () => [formHandle(host, section, ownsPageMessage)],
      navigate: () => undefined,
      openModal: () => undefined,
      closeModal: () => undefined,
      signOut: () => undefined,
      reload: () => undefined,
      updateSession: () => undefined,
      setPageError: (key) => calls.push(`screen:${key}`),
      pickFile: async () => null,
      setUpload: () => undefined,
      setUploadError: () => undefined,
      assignLocation: () => undefined,
      origin: 'https://portal.example',
    });
    const effect: Effect = { type: 'submit', op: 'Customer.contactUs', form: 'conformance' } as Effect;
    await runner.run(effect);
    const html = draw();
    expect(invalidIds(html)).toEqual(['conf_name', 'conf_email']);
    // the first invalid field in the page's order is the one that gets focus
    expect(host.getState().focusPending).toBe(true);
    const pageMessage = fixedT('en', 'common')('errors:pageLevel');
    if (ownsPageMessage) {
      expect(calls).toEqual(['screen:null']);
      expect(text(html)).toContain(pageMessage);
    } else {
      expect(calls).toEqual(['screen:errors.pageLevel']);
    }
    host.focused();
    expect(host.getState().focusPending).toBe(false);
  });
});
