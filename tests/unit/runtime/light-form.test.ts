// The light form renderer: a provider overlay on the sign-in schema reaches the page (titles, added
// fields), fields are read through $ref, schemas it cannot draw are refused, and a submit waits for
// the engine loaded on first use and shows its page-level message in the form.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ChakraProvider } from '@chakra-ui/react';
import { addTexts } from '../../../src/runtime/texts';
import { buildDeclarationSet } from '../../../src/engine/declarations';
import { readBaseDeclarations, readProviderOverlays, readTranslations } from '../../../src/engine/node';
import { createFormEngine } from '../../../src/engine';
import type { DeclarationSet, Effect } from '../../../src/engine/types';
import { screenModel } from '../../../src/engine/screen';
import { ScreenRuntimeContext, type FormHandle, type ScreenRuntime } from '../../../src/runtime/context';
import LightForm, { lightFormFields } from '../../../src/runtime/form/light/LightForm';
import { createEffectRunner, type EffectDeps } from '../../../src/runtime/effects';
import { createApiClient } from '../../../src/api/client';
import { defaultSession, type SessionState } from '../../../src/state/session';
import { getPortalSystem } from '../../../src/shell/theme/theme';

const root = resolve(__dirname, '../../..');
const fixtureRoot = resolve(root, 'tests/fixtures/runtime/signin-overlay');
const base = readBaseDeclarations(root);

function setFor(appName?: string): DeclarationSet {
  const r = buildDeclarationSet(base, appName ? readProviderOverlays(fixtureRoot, appName) : [], { appName });
  if (!r.ok) throw new Error(r.errors.map((e) => `${e.file}: ${e.path}: ${e.message}`).join('\n'));
  return r.set;
}

// the portal's English texts plus the fixture provider's own field titles
const translations = readTranslations(root);
const texts: Record<string, unknown> = {
  ...translations.en,
  fields: { ...(translations.en.fields as object), signin: { ...((translations.en.fields as Record<string, object>).signin), memberEmail: 'Member e-mail', rememberDevice: 'Remember this device' } },
};
for (const [ns, tree] of Object.entries(texts)) addTexts('en', ns, tree as Record<string, unknown>);

function renderSignIn(set: DeclarationSet): string {
  const ctx = { query: {}, session: { appName: 'acme' }, provider: {}, data: {}, form: {}, flow: {} };
  const section = screenModel(set, 'signin', ctx).sections.find((s) => s.id === 'signinForm');
  if (section?.kind !== 'form') throw new Error('signin has no form');
  const rt = {
    set,
    screen: set.screens.signin,
    rules: set.rules,
    ctx,
    formCtx: ctx,
    engine: createFormEngine(set, { country: 'US' }),
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
  } as ScreenRuntime;
  return renderToString(
    createElement(ChakraProvider, {
      value: getPortalSystem(),
      children: createElement(ScreenRuntimeContext.Provider, { value: rt }, createElement(LightForm, { section, data: undefined })),
    }),
  );
}

const labelOf = (html: string, name: string): string => {
  const id = new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0].match(/id="([^"]+)"/)?.[1];
  expect(id, `input ${name} has an id`).toBeTruthy();
  const label = new RegExp(`<label[^>]*for="${id}"[^>]*>(.*?)</label>`).exec(html)?.[1] ?? '';
  return label.replace(/<style[^>]*>.*?<\/style>/g, '').replace(/<[^>]+>/g, '').trim();
};

describe('light form renderer', () => {
  it('the sign-in page draws the base schema: labelled e-mail and password fields with autocomplete and the submit button', () => {
    const html = renderSignIn(setFor());
    expect(html).toContain('data-testid="signin-form"');
    expect(html).toContain('data-testid="signin-submit"');
    expect(html).toMatch(/<input[^>]*type="email"[^>]*autoComplete="username"|<input[^>]*autoComplete="username"[^>]*type="email"/i);
    expect(html).toMatch(/<input[^>]*name="password"[^>]*/);
    expect(/<input[^>]*name="password"[^>]*>/.exec(html)?.[0]).toMatch(/type="password"/);
    expect(/<input[^>]*name="password"[^>]*>/i.exec(html)?.[0]).toMatch(/autocomplete="current-password"/i);
    expect(labelOf(html, 'email')).toMatch(/^E-mail/);
    expect(html).not.toContain('name="rememberDevice"');
  });

  it("a provider overlay on schemas/signin.json shows on the sign-in page: the changed title and the added field", () => {
    const html = renderSignIn(setFor('acme'));
    expect(labelOf(html, 'email')).toMatch(/^Member e-mail/);
    expect(/<input[^>]*name="rememberDevice"[^>]*>/.exec(html)?.[0]).toMatch(/type="checkbox"/);
    expect(labelOf(html, 'rememberDevice')).toBe('Remember this device');
  });

  it('reads fields through $ref and refuses a schema it cannot draw', () => {
    const set = setFor();
    expect(lightFormFields(set, 'signin').map((f) => [f.name, f.widget, f.autoComplete])).toEqual([
      ['email', 'email', 'username'],
      ['password', 'password', 'current-password'],
    ]);
    expect(() => lightFormFields(set, 'contact')).toThrow(/the light form renderer cannot draw field "cellPhone" \(phone\)/);
  });
});

describe('a submit from a light form', () => {
  function harness(values: Record<string, unknown>) {
    const set = setFor();
    const log: { calls: string[]; session: SessionState } = { calls: [], session: { ...defaultSession, appName: 'brightpath', locale: 'es' } };
    const form: FormHandle = {
      schemaId: 'signin',
      section: { id: 'signinForm', kind: 'form' },
      getValues: () => values,
      showAllErrors: () => log.calls.push('showAllErrors'),
      showPageError: (key) => log.calls.push(`formPageError:${key}`),
    };
    const deps: EffectDeps = {
      set,
      api: createApiClient({ getToken: () => '', getLocale: () => 'en', releaseVersion: '1', baseUrl: 'http://127.0.0.1:9', onError: (e) => log.calls.push(`onError:${e.status}`) }),
      engine: null,
      loadEngine: async () => {
        log.calls.push('loadEngine');
        return createFormEngine(set, { country: 'US' });
      },
      getCtx: () => ({ query: {}, session: log.session as unknown as Record<string, unknown>, provider: {}, data: {}, form: values, flow: {} }),
      forms: () => [form],
      navigate: (to, _q, replace) => log.calls.push(`navigate:${to}:${replace}`),
      openModal: () => undefined,
      closeModal: () => undefined,
      signOut: () => undefined,
      reload: () => undefined,
      updateSession: (fn) => {
        log.session = fn(log.session);
      },
      setPageError: (key) => log.calls.push(`pageError:${key}`),
      pickFile: async () => null,
      setUpload: () => undefined,
      setUploadError: () => undefined,
      assignLocation: () => undefined,
      origin: 'https://portal.example',
    };
    return { log, runner: createEffectRunner(deps) };
  }

  it('waits for the engine, then shows the page-level message in the form and every field error', async () => {
    const { log, runner } = harness({});
    const effect = setFor().screens.signin.sections.find((s) => s.id === 'signinForm')!.actions![0].effect;
    await runner.run(effect);
    expect(log.calls).toEqual(['loadEngine', 'formPageError:errors.pageLevel', 'pageError:null', 'showAllErrors']);
  });

  it('setSession merges the answer without its omitted fields', async () => {
    const { log, runner } = harness({});
    const effect: Effect = { type: 'setSession', from: '$result.session', omit: ['locale'], values: { token: '$result.token' }, then: { type: 'navigate', to: '/postlogin', replace: true } };
    await runner.run(effect, { result: { token: 'tok-1', session: { firstName: 'Maria', locale: 'vi', accountID: 7 } } });
    expect(log.session).toMatchObject({ firstName: 'Maria', accountID: 7, token: 'tok-1', locale: 'es' });
    expect(log.calls).toEqual(['navigate:/postlogin:true']);
  });
});
