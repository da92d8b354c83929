// Helpers the display kinds share: item templates (engine itemModel), text values that may be
// translation keys or per-language objects, and action models of list items.
import { itemModel } from '../../engine/screen';
import type { RuleContext } from '../../engine/form';
import type { ActionDecl } from '../../engine/types';
import type { ScreenRuntime } from '../context';
import type { RenderAction } from '../kindProps';
import { NAMESPACES } from '../namespaces';
import { isRecord, pathOf } from '../guards';

const KEY = new RegExp(`^(${[...NAMESPACES, 'runtime'].join('|')})\\.[A-Za-z0-9_.-]+$`);

/**
 * What a text value shows: a translation key is translated, a per-language object
 * ({en, es, pt, vi}, e.g. program titles) gives the current language, an enum label object
 * ({value, labels: {VALUE: key}}) the value's label, anything else as is.
 */
export function textOf(value: unknown, tk: (k: string, p?: Record<string, unknown>) => string, locale: string, params?: Record<string, unknown>): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return KEY.test(value) ? tk(value, params) : value;
  if (isRecord(value)) {
    const byLang = value;
    // a translation key with its resolved parameters: { key, params } (e.g. a full name)
    if (typeof byLang.key === 'string' && KEY.test(byLang.key)) return tk(byLang.key, { ...params, ...(isRecord(byLang.params) ? byLang.params : {}) });
    // an enum value shown by its label key: { value, labels: { VALUE: key } }
    if (isRecord(byLang.labels)) {
      const key = byLang.labels[String(byLang.value)];
      return typeof key === 'string' ? tk(key, params) : byLang.value === undefined || byLang.value === null ? '' : String(byLang.value);
    }
    const v = byLang[locale] ?? byLang.en;
    return v === undefined ? '' : String(v);
  }
  return String(value);
}

/** A template resolved for one item: bindings with $item, and visible/enabled of each part. */
export function resolveItem<T = Record<string, unknown>>(rt: ScreenRuntime, template: unknown, item: unknown, extra: Partial<RuleContext> = {}): T {
  return itemModel(rt.set, template, item, { ...rt.ctx, ...extra }) as T;
}

/** The item's actions (from the raw template, so effects keep their bindings), with rules evaluated. */
export function itemActions(rt: ScreenRuntime, actions: ActionDecl[] | undefined, extra: Partial<RuleContext>): RenderAction[] {
  return (actions ?? []).map((a) => {
    const visible = rt.isTrue(a.show, extra);
    return { ...a, visible, enabled: visible && rt.isTrue(a.enable, extra) };
  });
}

/** Rows of a list section: the data itself, or the array under the section's `items` path. */
export function rowsOf(data: unknown, path?: unknown): unknown[] {
  const cur = typeof path === 'string' && path ? pathOf(data, path) : data;
  return Array.isArray(cur) ? cur : [];
}
