// The portal's languages: the start language and its start namespaces before the first render, and
// the language switch (runtime/texts.ts translates, with i18next).
import { DEFAULT_LOCALE, languageCookie, toSupportedLocale } from './locale';
import { PAGE_NAMESPACES } from '../../runtime/namespaces';
import { loadNamespaces, setLanguage, startLanguage } from '../../runtime/texts';

export { NAMESPACES } from '../../runtime/namespaces';

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
