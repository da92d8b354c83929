// The browser's texts (src/runtime/texts.ts): namespaces fetched from the locale files, a language
// switch that waits for every namespace in use, a component that suspends until its texts are in, all
// translated by i18next from the first text.
import { describe, expect, it } from 'vitest';
import { createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { currentLanguage, fixedT, hasLoadedNamespace, loadNamespaces, setLanguage, startLanguage, useTranslation } from '../../../src/runtime/texts';

function Title() {
  const { t, i18n } = useTranslation(['auth', 'common']);
  return createElement('h1', { lang: i18n.language }, t('common.cancel'));
}

describe('the portal texts', () => {
  it('fetches a namespace once, from its language file', async () => {
    startLanguage('en');
    expect(hasLoadedNamespace('auth')).toBe(false);
    const twice = [loadNamespaces('auth'), loadNamespaces(['auth', 'common'])];
    await Promise.all(twice);
    expect(hasLoadedNamespace('auth')).toBe(true);
    expect(fixedT('en', 'auth')('common.cancel')).toBe('Cancel');
    expect(fixedT('en', 'common')('auth:common.cancel')).toBe('Cancel');
    // a namespace with no file is simply empty: its keys read as themselves
    expect(hasLoadedNamespace('nothing-here')).toBe(true);
  });

  it('a component suspends until its namespaces are in, then reads them', async () => {
    startLanguage('en');
    await loadNamespaces(['auth', 'common']);
    expect(renderToString(createElement(Suspense, { fallback: 'loading' }, createElement(Title)))).toBe('<!--$--><h1 lang="en">Cancel</h1><!--/$-->');
    // Vietnamese is not in yet: the first render suspends
    startLanguage('vi');
    expect(renderToString(createElement(Suspense, { fallback: 'loading' }, createElement(Title)))).toContain('loading');
    startLanguage('en');
  });

  it('a language switch fetches every namespace in use before the language changes', async () => {
    startLanguage('en');
    await loadNamespaces(['auth', 'common', 'fields']);
    const switching = setLanguage('pt');
    expect(currentLanguage()).toBe('en');
    await switching;
    expect(currentLanguage()).toBe('pt');
    for (const ns of ['auth', 'common', 'fields']) expect(hasLoadedNamespace(ns, 'pt')).toBe(true);
    expect(fixedT('pt', 'auth')('common.cancel')).toBe('Cancelar');
    await setLanguage('en');
  });

  it('i18next translates from the first text: values, plurals and other namespaces, one translator per language and namespace', async () => {
    await loadNamespaces(['auth', 'common', 'errors', 'runtime'], 'en');
    const t = fixedT('en', 'runtime');
    expect(fixedT('en', 'runtime')).toBe(t);
    expect(t('auth:common.cancel')).toBe('Cancel');
    expect(t('errors:required', { field: 'E-mail' })).toBe('E-mail is required');
    expect(t('charactersLeft', { count: 1 })).not.toBe(t('charactersLeft', { count: 7 }));
    expect(t('charactersLeft', { count: 7 })).toContain('7');
    // texts fetched later reach it too
    await loadNamespaces('fields', 'es');
    expect(fixedT('es', 'fields')('common.select')).toBe('Seleccionar');
    // a key with no text reads as itself
    expect(fixedT('es', 'fields')('no.such.key')).toBe('no.such.key');
  });
});
