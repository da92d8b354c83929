// i18next for the portal: the namespaces are the files of locales/en (see runtime/namespaces); each language's
// files are separate chunks (import.meta.glob), so only the chosen language is fetched.
import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, languageCookie, SUPPORTED_LOCALES, toSupportedLocale } from './locale';

export { NAMESPACES } from '../runtime/namespaces';
import { PAGE_NAMESPACES } from '../runtime/namespaces';

const bundles = import.meta.glob<Record<string, unknown>>('../../locales/*/*.json', { import: 'default' });

function loaderFor(language: string, namespace: string) {
  return bundles[`../../locales/${language}/${namespace}.json`];
}

const lazyBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language, namespace, callback) {
    const load = loaderFor(language, namespace);
    // a namespace another part of the product has not written yet is simply empty
    if (!load) return callback(null, {});
    load().then(
      (texts) => callback(null, texts),
      (err: Error) => callback(err, false),
    );
  },
};

let started: Promise<unknown> | undefined;

export function initI18n(locale: string): Promise<unknown> {
  if (!started) {
    started = i18next
      .use(lazyBackend)
      .use(initReactI18next)
      .init({
        lng: toSupportedLocale(locale) ?? DEFAULT_LOCALE,
        supportedLngs: [...SUPPORTED_LOCALES],
        // every language is complete; a fallback would fetch English too
        fallbackLng: false,
        // the product's own namespaces: the portal leaves out the parent application's texts
        ns: [...PAGE_NAMESPACES],
        defaultNS: 'common',
        load: 'languageOnly',
        interpolation: { escapeValue: false },
        react: { useSuspense: true },
        returnNull: false,
      });
    if (typeof document !== 'undefined') document.documentElement.lang = toSupportedLocale(locale) ?? DEFAULT_LOCALE;
  }
  return started;
}

/** Switches the interface language: i18n, <html lang> and the 'Language' cookie (365 days). */
export async function switchLanguage(locale: string): Promise<string> {
  const lng = toSupportedLocale(locale) ?? DEFAULT_LOCALE;
  await i18next.changeLanguage(lng);
  if (typeof document !== 'undefined') {
    document.documentElement.lang = lng;
    document.cookie = languageCookie(lng, import.meta.env.BASE_URL || '/');
  }
  return lng;
}

export { i18next };
