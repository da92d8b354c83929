import { describe, expect, it } from 'vitest';
import { detectLocale, languageCookie, readCookie, toSupportedLocale } from '../../../src/shell/language/locale';

describe('locale detection', () => {
  it('normalises and rejects unknown languages', () => {
    expect(toSupportedLocale('es-MX')).toBe('es');
    expect(toSupportedLocale('PT_br')).toBe('pt');
    expect(toSupportedLocale('fr')).toBeUndefined();
    expect(toSupportedLocale(null)).toBeUndefined();
    expect(toSupportedLocale('')).toBeUndefined();
  });

  it('prefers the stored choice, then the cookie, then the path prefix, then the browser', () => {
    expect(detectLocale({ stored: 'vi', cookie: 'Language=es', path: '/pt/home', browser: ['es'] })).toBe('vi');
    expect(detectLocale({ stored: null, cookie: 'a=b; Language=es', path: '/pt/home', browser: ['vi'] })).toBe('es');
    expect(detectLocale({ cookie: 'Language=xx', path: '/pt/home', browser: ['vi'] })).toBe('pt');
    expect(detectLocale({ path: '/home', browser: ['fr-FR', 'vi-VN'] })).toBe('vi');
    expect(detectLocale({})).toBe('en');
  });

  it('reads cookies by exact name', () => {
    expect(readCookie('XLanguage=es; Language=pt', 'Language')).toBe('pt');
    expect(readCookie('', 'Language')).toBeUndefined();
  });

  it('writes a 365-day Language cookie', () => {
    const c = languageCookie('es', '/parentportal/', new Date('2026-01-01T00:00:00Z'));
    expect(c).toContain('Language=es');
    expect(c).toContain('expires=Fri, 01 Jan 2027 00:00:00 GMT');
    expect(c).toContain('path=/parentportal/');
  });
});
