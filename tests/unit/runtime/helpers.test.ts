import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import { i18nKey, translate } from '../../../src/runtime/i18n';
import { rowsOf, textOf } from '../../../src/runtime/kinds/shared';
import { monthGrid } from '../../../src/runtime/form/DateWidget';
import { KIND_OPTIONS } from '../../../src/runtime/kindOptions';
import { readBaseDeclarations } from '../../../src/engine/node';
import { registry } from '../../../src/runtime/registry';

describe('translation keys of declarations', () => {
  it('maps "<namespace>.<key>" to i18next "<namespace>:<key>"', () => {
    expect(i18nKey('fields.firstName')).toBe('fields:firstName');
    expect(i18nKey('screens.home.title')).toBe('screens:home.title');
    expect(i18nKey('runtime.retry')).toBe('runtime:retry');
    expect(i18nKey('status.loading')).toBe('status.loading');
    expect(i18nKey('common:x.y')).toBe('common:x.y');
  });

  it('translates a field param before the message', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'pt',
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      resources: { pt: { fields: { city: 'Cidade' }, errors: { required: '{{field}} é obrigatório', maxLength: 'No máximo {{limit}} caracteres' } } },
    });
    expect(translate(i18n.t, 'errors.required', { field: 'fields.city' })).toBe('Cidade é obrigatório');
    expect(translate(i18n.t, 'errors.maxLength', { limit: 50 })).toBe('No máximo 50 caracteres');
  });
});

describe('display helpers', () => {
  const tk = (k: string) => `T(${k})`;
  it('textOf: keys translated, per-language objects pick the language, data as is', () => {
    expect(textOf('screens.home.title', tk, 'en')).toBe('T(screens.home.title)');
    expect(textOf('Summer Camp', tk, 'en')).toBe('Summer Camp');
    expect(textOf({ en: 'Camp', es: 'Campamento' }, tk, 'es')).toBe('Campamento');
    expect(textOf({ en: 'Camp' }, tk, 'vi')).toBe('Camp');
    expect(textOf(null, tk, 'en')).toBe('');
    expect(textOf(12, tk, 'en')).toBe('12');
  });
  it('rowsOf: the data list or the list at a path', () => {
    expect(rowsOf([1, 2])).toEqual([1, 2]);
    expect(rowsOf({ a: { items: [3] } }, 'a.items')).toEqual([3]);
    expect(rowsOf({ a: 1 }, 'a.items')).toEqual([]);
  });
});

describe('calendar grid', () => {
  it('shows 6 weeks starting on the Sunday before the 1st', () => {
    const days = monthGrid(new Date(2026, 1, 14)); // February 2026 starts on a Sunday
    expect(days).toHaveLength(42);
    expect(days[0].getDate()).toBe(1);
    expect(days[0].getDay()).toBe(0);
    const nov = monthGrid(new Date(2026, 10, 20)); // November 1st 2026 is a Sunday
    expect(nov[0].getMonth()).toBe(10);
    const mar = monthGrid(new Date(2026, 2, 31)); // March 1st 2026 is a Sunday too; April 1st a Wednesday
    expect(mar[0].getDate()).toBe(1);
    const apr = monthGrid(new Date(2026, 3, 1));
    expect(apr[0].getMonth()).toBe(2);
    expect(apr[0].getDate()).toBe(29);
  });
});

describe('component registry', () => {
  it('has a component for every kind with an option schema, and the checks know the same kinds', () => {
    expect(Object.keys(registry).sort()).toEqual(Object.keys(KIND_OPTIONS).sort());
    expect(readBaseDeclarations(resolve(__dirname, '../../..')).kinds?.sort()).toEqual(Object.keys(KIND_OPTIONS).sort());
  });
});
