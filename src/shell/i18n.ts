// The portal's languages: the start language and its start namespaces before the first render, the
// language switch, and i18next, which takes over translating once the parent acts
// (runtime/texts.ts says why the first page is drawn without it).
import { DEFAULT_LOCALE, languageCookie, toSupportedLocale } from './locale';
import { PAGE_NAMESPACES } from '../runtime/namespaces';
import { currentLanguage, handOver, loadNamespaces, setLanguage, startLanguage } from '../runtime/texts';

export { NAMESPACES } from '../runtime/namespaces';

let started: Promise<void> | undefined;

/** The start language and the texts every page draws with (the product's start namespaces). */
export function initI18n(locale: string): Promise<void> {
  if (!started) {
    const lng = toSupportedLocale(locale) ?? DEFAULT_LOCALE;
    startLanguage(lng);
    started = loadNamespaces(PAGE_NAMESPACES, lng);
    if (typeof document !== 'undefined') document.documentElement.lang = lng;
  }
  return started;
}

/** Switches the interface language: the texts, <html lang> and the 'Language' cookie (365 days). */
export async function switchLanguage(locale: string): Promise<string> {
  const lng = toSupportedLocale(locale) ?? DEFAULT_LOCALE;
  await setLanguage(lng);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = lng;
    document.cookie = languageCookie(lng, import.meta.env.BASE_URL || '/');
  }
  return lng;
}

let i18nextLoading: Promise<void> | undefined;

/** Loads i18next and hands it every text: it translates from then on. */
export function loadI18next(): Promise<void> {
  i18nextLoading ??= import('i18next').then(async ({ default: i18next }) => {
    const instance = i18next.createInstance();
    await instance.init({
      lng: currentLanguage(),
      // every language is complete
      fallbackLng: false,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
      resources: {},
    });
    handOver({
      // runtime/texts.ts keeps one translator per language and namespace: no cache of its own here
      translate: (lng, ns, key, options) => String(instance.t(key, { ...options, lng, ns } as never)),
      addBundle: (lng, ns, texts) => void instance.addResourceBundle(lng, ns, texts, true, true),
    });
  });
  return i18nextLoading;
}
