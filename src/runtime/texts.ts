// The portal's texts in the browser. A built portal fetches them as JSON files under one version
// (vite.config.ts localeTexts): the start namespaces of a language in one file, every other namespace
// in a file of its own, fetched when a screen first needs it. In development they are the locale
// files themselves. `useTranslation` gives a component the translator of its namespaces and
// suspends it until they are in.
//
// i18next translates from the first paint (the server translates with it too). Its React binding
// is not used: this hook is the few lines the portal needs of it (one fetch per namespace group, the
// suspense the screens already rely on, a translator per language and namespace that keeps its
// identity), 2.6 kB gzip less on every first load.
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react';
import i18next from 'i18next';
import type { TextOptions, TextTree } from '../engine/textTree';
import { LANGUAGES } from '../engine/languages';
import { NAMESPACES } from 'virtual:locale-namespaces';
import { SERVER_NAMESPACES, START_NAMESPACES } from './textNamespaces';

export type TFunction = (key: string, options?: TextOptions) => string;

declare const __TEXTS_VERSION__: string;

// development (and unit tests): the locale files as modules; a build has no table of them
const devTexts = import.meta.env.DEV ? import.meta.glob<TextTree>('../../locales/*/*.json', { import: 'default' }) : undefined;
const TEXTS_BASE = `${import.meta.env.BASE_URL}assets/texts-${typeof __TEXTS_VERSION__ === 'string' ? __TEXTS_VERSION__ : 'dev'}/`;

async function fetchJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.json();
}

/** The start namespaces of a language come in one file: one request for all of them. */
const startFiles = new Map<string, Promise<Record<string, TextTree>>>();
function startFile(lng: string): Promise<Record<string, TextTree>> {
  let file = startFiles.get(lng);
  if (!file) {
    file = fetchJson(`${TEXTS_BASE}${lng}.json`).then((v) => v as Record<string, TextTree>);
    // a failed fetch is asked again on the next try
    file.catch(() => startFiles.delete(lng));
    startFiles.set(lng, file);
  }
  return file;
}

/** Whether the portal has texts of this namespace in this language. */
function known(lng: string, ns: string): boolean {
  if (devTexts) return Boolean(devTexts[`../../locales/${lng}/${ns}.json`]);
  return (LANGUAGES as readonly string[]).includes(lng) && NAMESPACES.includes(ns) && !SERVER_NAMESPACES.includes(ns);
}

async function textsOf(lng: string, ns: string): Promise<TextTree> {
  if (devTexts) return devTexts[`../../locales/${lng}/${ns}.json`]();
  if (START_NAMESPACES.includes(ns)) return (await startFile(lng))[ns] ?? {};
  return (await fetchJson(`${TEXTS_BASE}${lng}/${ns}.json`)) as TextTree;
}

const bundles = new Map<string, TextTree>();
const loading = new Map<string, Promise<void>>();
/** namespaces that could not be fetched: their keys show, and they are fetched again once back online */
const failed = new Set<string>();
const listeners = new Set<() => void>();
let language = 'en';

// every language is complete: no fallback; texts are plain strings put into the DOM by React, which
// escapes them (no HTML escaping of values here)
const i18n = i18next.createInstance({
  lng: 'en',
  fallbackLng: false,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  resources: {},
  initAsync: false,
});
void i18n.init();

const idOf = (lng: string, ns: string) => `${lng}/${ns}`;

function changed() {
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function currentLanguage(): string {
  return language;
}

/** Adds a namespace's texts (tests and fixtures give their own; the portal's come from the loaders). */
export function addTexts(lng: string, ns: string, texts: TextTree): void {
  bundles.set(idOf(lng, ns), texts);
  i18n.addResourceBundle(lng, ns, texts, true, true);
  changed();
}

/** Whether a namespace is in (one with no file for the language is in, empty). */
export function hasLoadedNamespace(ns: string, lng = language): boolean {
  const id = idOf(lng, ns);
  return bundles.has(id) || failed.has(id) || !known(lng, ns);
}

const RETRIES = 5;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function fetchTexts(lng: string, ns: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      addTexts(lng, ns, await textsOf(lng, ns));
      return;
    } catch (err) {
      // like i18next's backend: a few tries, then the keys show rather than a page that waits for
      // ever; they are fetched again once the browser is back online
      if (attempt >= RETRIES) {
        console.warn(`texts ${lng}/${ns} could not load`, err);
        failed.add(idOf(lng, ns));
        changed();
        return;
      }
      await wait(350 * attempt);
    }
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    const again = [...failed];
    failed.clear();
    for (const id of again) void loadNamespaces(id.slice(id.indexOf('/') + 1), id.slice(0, id.indexOf('/')));
    if (again.length) changed();
  });
}

/** Fetches the namespaces of a language that are not in yet; resolves once all are. */
export function loadNamespaces(ns: string | readonly string[], lng = language): Promise<void> {
  const wanted = (typeof ns === 'string' ? [ns] : ns).filter((n) => !hasLoadedNamespace(n, lng));
  return Promise.all(
    wanted.map((n) => {
      const id = idOf(lng, n);
      let pending = loading.get(id);
      if (!pending) loading.set(id, (pending = fetchTexts(lng, n).finally(() => loading.delete(id))));
      return pending;
    }),
  ).then(() => undefined);
}

/** Switches the language once every namespace in use is in for it, so no text waits on screen. */
export async function setLanguage(lng: string): Promise<void> {
  if (lng === language) return;
  const inUse = [...bundles.keys()].filter((id) => id.startsWith(`${language}/`)).map((id) => id.slice(language.length + 1));
  await loadNamespaces(inUse, lng);
  language = lng;
  changed();
}

/** The start language, before anything renders. */
export function startLanguage(lng: string): void {
  language = lng;
}

const fixed = new Map<string, TFunction>();

/** One translator per language and namespace: stable, so memoised parts that translate stay put. */
export function fixedT(lng: string, ns: string): TFunction {
  const id = idOf(lng, ns);
  let t = fixed.get(id);
  if (!t) {
    t = (key, options) => String(i18n.t(key, { ...options, lng, ns } as never));
    fixed.set(id, t);
  }
  return t;
}

/**
 * The translator of `ns` (the first namespace answers keys without one; "<ns>:<key>" reaches any),
 * the language, and whether the namespaces are in. With `useSuspense` (the default) the component
 * suspends until they are; without, it re-renders when they arrive.
 */
export function useTranslation(ns: string | readonly string[] = 'common', options: { useSuspense?: boolean } = {}) {
  const joined = typeof ns === 'string' ? ns : ns.join('|');
  const namespaces = useMemo(() => joined.split('|'), [joined]);
  // drawn again only when the language changes or these namespaces come in, not on every other fetch
  const snapshot = useCallback(() => `${language}|${namespaces.every((n) => hasLoadedNamespace(n, language))}`, [namespaces]);
  useSyncExternalStore(subscribe, snapshot, snapshot);
  const lng = language;
  const ready = namespaces.every((n) => hasLoadedNamespace(n, lng));
  const suspend = options.useSuspense ?? true;
  useEffect(() => {
    if (!ready && !suspend) void loadNamespaces(namespaces, lng);
  }, [ready, suspend, namespaces, lng]);
  if (!ready && suspend) throw loadNamespaces(namespaces, lng);
  return { t: fixedT(lng, namespaces[0]), i18n: { language: lng }, ready };
}
