// Translation keys in declarations are written "<namespace>.<key>" (fields.firstName,
// errors.required, screens.home.title); i18next addresses them as "<namespace>:<key>".
import { useCallback } from 'react';
import { useTranslation, type TFunction } from './texts';
import { NAMESPACES, PAGE_NAMESPACES } from './namespaces';

export const KEY_NAMESPACES = NAMESPACES;

/** "fields.firstName" -> "fields:firstName"; keys without a known namespace stay as they are. */
export function i18nKey(key: string): string {
  const dot = key.indexOf('.');
  if (dot > 0 && !key.includes(':')) {
    const ns = key.slice(0, dot);
    if (KEY_NAMESPACES.includes(ns)) return `${ns}:${key.slice(dot + 1)}`;
  }
  return key;
}

/** The namespace of a declaration key ("auth.reset.title" -> "auth"), if it names a known one. */
export function namespaceOfKey(key: string): string | undefined {
  const k = i18nKey(key);
  const colon = k.indexOf(':');
  return colon > 0 ? k.slice(0, colon) : undefined;
}

/**
 * Whether the namespaces of these declaration keys are in; fetches those that are not (a menu label
 * of a namespace that is not a start namespace) and re-renders once they are.
 */
export function useKeysLoaded(keys: readonly string[]): boolean {
  const namespaces = [...new Set(keys.map(namespaceOfKey).filter((ns): ns is string => Boolean(ns)))];
  return useTranslation(namespaces.length ? namespaces : 'common', { useSuspense: false }).ready;
}

function isDeclarationKey(v: string): boolean {
  const dot = v.indexOf('.');
  return dot > 0 && KEY_NAMESPACES.includes(v.slice(0, dot)) && /^[A-Za-z0-9_.-]+$/.test(v);
}

/**
 * Translates a declaration key with params; a param that is itself a key (the engine gives
 * `field: 'fields.firstName'`) is translated first, so messages read '{{field}} is required'.
 */
export function translate(t: TFunction, key: string, params: Record<string, unknown> = {}): string {
  const values: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    values[k] = typeof v === 'string' && isDeclarationKey(v) ? t(i18nKey(v)) : v;
  }
  return String(t(i18nKey(key), values));
}

/** The runtime's own texts (locales/<lang>/runtime.json) plus declaration keys. */
export function useRuntimeT() {
  const { t: i18nT, i18n } = useTranslation(['runtime', ...PAGE_NAMESPACES]);
  // one identity per language, so memoised parts that translate stay put while typing
  const t = useCallback((key: string, params?: Record<string, unknown>): string => String(i18nT(key, params)), [i18nT]);
  const tk = useCallback((key: string | undefined, params?: Record<string, unknown>) => (key ? translate(i18nT, key, params) : ''), [i18nT]);
  return {
    t,
    locale: i18n.language,
    /** translate a declaration key ("fields.firstName") */
    tk,
  };
}
