// Spec 4 "Language" and 9: the locale comes from the stored choice, the 'Language' cookie, a path
// prefix or the browser; switching stores the cookie for 365 days. Pure helpers (no i18next here).
import { LANGUAGES, type Language } from '../../engine/languages';

export const SUPPORTED_LOCALES = LANGUAGES;
export type Locale = Language;
export const DEFAULT_LOCALE: Locale = 'en';
export const LANGUAGE_COOKIE = 'Language';
export const LANGUAGE_COOKIE_DAYS = 365;

/** 'es-MX' → 'es'; unknown languages → undefined. */
export function toSupportedLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  const base = value.trim().toLowerCase().split(/[-_]/)[0];
  return (SUPPORTED_LOCALES as readonly string[]).includes(base) ? (base as Locale) : undefined;
}

export function readCookie(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return undefined;
}

export interface LocaleSources {
  /** the locale kept in the persisted session, when the user chose one */
  stored?: string | null;
  cookie?: string;
  /** location.pathname relative to the portal base, e.g. "/es/home" */
  path?: string;
  browser?: readonly string[];
}

export function detectLocale(sources: LocaleSources): Locale {
  const fromPath = toSupportedLocale(/^\/([a-z]{2})(?:\/|$)/i.exec(sources.path ?? '')?.[1]);
  return (
    toSupportedLocale(sources.stored) ??
    toSupportedLocale(readCookie(sources.cookie ?? '', LANGUAGE_COOKIE)) ??
    fromPath ??
    (sources.browser ?? []).map(toSupportedLocale).find(Boolean) ??
    DEFAULT_LOCALE
  );
}

export function languageCookie(locale: string, basePath = '/', now: Date = new Date()): string {
  const expires = new Date(now.getTime() + LANGUAGE_COOKIE_DAYS * 24 * 60 * 60 * 1000);
  return `${LANGUAGE_COOKIE}=${encodeURIComponent(locale)}; expires=${expires.toUTCString()}; path=${basePath}; SameSite=Lax`;
}
