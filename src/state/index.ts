// jotai atoms of the portal: the persisted session (spec 3), the API client bound to it, the
// provider record, the provider's declaration set and its compiled form validators.
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { atomWithQuery } from 'jotai-tanstack-query';
import { createApiClient, type ApiClient, type ApiError, type Response } from '../api/client';
import type { DeclarationSet } from '../engine/types';
import { PRODUCT_SESSION_KEYS, productOfPath } from '../engine/screen';
import type { FormEngine, FormEngineOptions } from '../engine/form';
import { defaultSession, reviveSession, type SessionState } from './session';
import { getFlow } from './flow';

export * from './session';
export * from './flow';
export * from './pageTitle';

const jsonStorage = createJSONStorage<SessionState>(() => localStorage);
const lastRead = new Map<string, { raw: string; value: SessionState }>();
/** localStorage, with stored sessions merged over the defaults (older shapes keep working). */
const sessionStorage = {
  ...jsonStorage,
  // no storage where a page is drawn on the server: the session stays in its store
  setItem(key: string, value: SessionState): void {
    if (typeof localStorage !== 'undefined') jsonStorage.setItem(key, value);
  },
  getItem(key: string, initial: SessionState): SessionState {
    if (typeof localStorage === 'undefined') return initial;
    const raw = localStorage.getItem(key);
    if (raw === null) return initial;
    // the same stored text gives the same object: jotai reads the storage again as the atom mounts,
    // and a new object of the same session redrew every reader of it (the whole page) at start
    const last = lastRead.get(key);
    if (last && last.raw === raw) return last.value;
    try {
      const value = reviveSession(JSON.parse(raw));
      lastRead.set(key, { raw, value });
      return value;
    } catch {
      return initial;
    }
  },
};

/**
 * The whole session state of spec section 3, persisted under 'pp.session'; the parent application
 * and the one-time enrolment keep their own (the session a hand-off keyelement was redeemed into)
 * under 'pa.session' and 'ot.session'.
 */
export const SESSION_STORAGE_KEY = typeof window !== 'undefined' ? PRODUCT_SESSION_KEYS[productOfPath(window.location.pathname)] : 'pp.session';

/**
 * The token of the portal session this browser is signed in with (under 'pp.session'), or null. The
 * parent application sends it when it redeems a hand-off keyelement: the server redeems a keyelement
 * only for the portal session that asked for it, so a link asked for in another browser signs this
 * one into nothing.
 */
export function storedPortalToken(): string | null {
  if (typeof localStorage === 'undefined') return null;
  try {
    const token = reviveSession(JSON.parse(localStorage.getItem('pp.session') ?? 'null')).token;
    return typeof token === 'string' && token ? token : null;
  } catch {
    return null;
  }
}
export const sessionAtom = atomWithStorage<SessionState>(SESSION_STORAGE_KEY, defaultSession, sessionStorage, { getOnInit: true });

/** Signed in means a token is present (spec 2.2). */
export const signedInAtom = atom((get) => Boolean(get(sessionAtom).token));

const tokenAtom = atom((get) => get(sessionAtom).token);
/** the interface language; it is part of the key of cached answers that hold provider texts */
export const localeAtom = atom((get) => get(sessionAtom).locale);
export const releaseVersionAtom = atom((get) => get(sessionAtom).releaseVersion);
export const appNameAtom = atom((get) => get(sessionAtom).appName);
const countryAtom = atom((get) => get(sessionAtom).countryCode);
/**
 * The in-progress applications the client reads for keyed calls, kept in a stable holder: a flow
 * update must not rebuild the client (every data load would start again). Synced by the runtime.
 */
export const applicationsRefAtom = atom(() => ({ current: {} as SessionState['applications'] }));

export interface ApiErrorHandler {
  handle?: (err: ApiError) => void;
}

/** A stable holder of the shell's handler: the client reads it when an error happens. */
export const apiErrorHandlerRefAtom = atom(() => ({ current: {} as ApiErrorHandler }));

/** Request hooks (the loading counter); a stable holder for the same reason as the error handler. */
export const apiRequestHooksRefAtom = atom(() => ({ current: {} as { onRequest?: (op: string) => void; onSettled?: (op: string) => void } }));

/**
 * The shell's error handler of spec 8.1 (handleApiError). Writing it does not rebuild the API client
 * (the handler itself uses the client, so a dependency would go round in circles).
 */
export const apiErrorHandlerAtom = atom(
  (get) => get(apiErrorHandlerRefAtom).current,
  (get, _set, handler: ApiErrorHandler) => {
    get(apiErrorHandlerRefAtom).current = handler;
  },
);

/** The API client bound to the session's token, language, release version and flows. */
export const apiAtom = atom<ApiClient>((get) => {
  const token = get(tokenAtom);
  const locale = get(localeAtom);
  const releaseVersion = get(releaseVersionAtom);
  const applications = get(applicationsRefAtom);
  const handler = get(apiErrorHandlerRefAtom);
  const hooks = get(apiRequestHooksRefAtom);
  return createApiClient({
    onRequest: (op) => hooks.current.onRequest?.(op),
    onSettled: (op) => hooks.current.onSettled?.(op),
    getToken: () => token,
    getLocale: () => locale,
    releaseVersion,
    onError: (err) => handler.current.handle?.(err),
    getApplication: (key) => getFlow({ ...defaultSession, applications: applications.current }, key),
  });
});

/**
 * The loading counter of spec 4: raised per request, lowered on its answer (never below 0). Installed
 * once by the App (useLoadingCounter in src/runtime/hooks.ts). It is an atom of its own, not a field of
 * the stored session: every request would otherwise write the session to storage twice and redraw
 * every component that reads it.
 */
export const loadingAtom = atom(0);
export function loadingDelta(loading: number, delta: number): number {
  return Math.max(0, loading + delta);
}

export type ProviderRecord = Response<'Customer.program'>;

/**
 * The cache key of a screen's data load: the account is part of it, so one parent never sees
 * another's cached data; the language too, as the server answers provider texts in it; and the
 * release version, so answers refused to an older one are not kept for the current.
 */
export function dataLoadQueryKey(op: string, params: Record<string, unknown>, accountID: unknown, locale: string, releaseVersion: string) {
  return [op, params, accountID ?? null, locale, releaseVersion] as const;
}

/** The cache key of a provider record: its pages (user guide, privacy policy) are in the language asked. */
export function programQueryKey(appName: string, locale: string) {
  return ['Customer.program', { appName, locale }] as const;
}

/** The provider record (Customer.program) of the provider chosen in the session, in the chosen language. */
export const providerAtom = atomWithQuery((get) => {
  const appName = get(appNameAtom);
  const locale = get(localeAtom);
  const api = get(apiAtom);
  return {
    queryKey: programQueryKey(appName, locale),
    queryFn: () => api.call('Customer.program', { query: { appName } }),
    enabled: Boolean(appName),
    staleTime: 5 * 60_000,
    // a language switch keeps the record shown until the new language's answer is in
    placeholderData: (previous: ProviderRecord | undefined) => (previous?.appName === appName ? previous : undefined),
  };
});

/** The provider's effective declaration set: {version, schemas, rules, screens}. */
export const declarationsAtom = atomWithQuery((get) => {
  const appName = get(appNameAtom);
  const api = get(apiAtom);
  // the release version is part of the key: what an older version was refused is asked again
  return {
    queryKey: ['Customer.declarations', { appName }, get(releaseVersionAtom)],
    queryFn: async () => (await api.call('Customer.declarations', { query: { appName } })) as unknown as DeclarationSet,
    enabled: Boolean(appName),
    staleTime: Infinity,
  };
});

const compiledCache = new Map<string, Promise<unknown>>();

/** The URL of a provider's precompiled validator module (served by the API server). */
export function validatorsUrl(appName: string, version: string): string {
  const base = (import.meta.env?.BASE_URL as string | undefined) ?? '/parentportal/';
  return `${base.replace(/\/?$/, '/')}validators/${encodeURIComponent(appName)}/${encodeURIComponent(version)}.js`;
}

/**
 * Imports the provider's standalone validators. Only the Vite dev server (where the API server does
 * not serve the module) falls back to undefined, so the engine compiles in process; production never
 * compiles in the browser (the CSP forbids eval).
 */
export function loadCompiledValidators(appName: string, version: string): Promise<unknown> {
  const url = validatorsUrl(appName, version);
  let p = compiledCache.get(url);
  if (!p) {
    p = import(/* @vite-ignore */ url).catch((err: unknown) => {
      compiledCache.delete(url);
      if (import.meta.env?.DEV) return undefined;
      throw err;
    });
    compiledCache.set(url, p);
  }
  return p;
}

/**
 * The form engine of the provider: declarations + compiled validators + country. The engine module
 * is imported on demand, so screens without forms never load it (nor its ajv fallback).
 */
/** A form engine given from outside: the server's, when it draws a screen ahead (src/shell/boot/screenPaint.tsx). */
export const givenFormEngineAtom = atom<FormEngine | null>(null);

export const formEngineAtom = atom(async (get): Promise<FormEngine | null> => {
  const given = get(givenFormEngineAtom);
  if (given) return given;
  const decl = get(declarationsAtom);
  const appName = get(appNameAtom);
  const country = get(countryAtom);
  if (!decl.data || !appName) return null;
  const c = country === 'CA' ? 'CA' : 'US';
  const mod = (await loadCompiledValidators(appName, decl.data.version)) as { default?: FormEngineOptions['compiled'] } | undefined;
  if (!mod?.default) {
    // only the Vite dev server gets here (production throws above): compile in process
    if (!import.meta.env?.DEV) throw new Error(`validators module of ${appName} has no default export`);
    const { createFormEngine } = await import('../engine/inprocess');
    return createFormEngine(decl.data, { country: c });
  }
  const { createFormEngine } = await import('../engine/form');
  return createFormEngine(decl.data, { country: c, compiled: mod.default });
});
