// Display formats of values in summaries, tables and cards (spec 2.13 and 9: amounts with 2 decimals,
// negative balances in brackets, currency $; phones (ddd)ddd-dddd as typed; dates mm/dd/yyyy and times
// hh:mm AM in English, each other language its own way: engine dateInLanguage, timeInLanguage).
import { dateInLanguage, displayPhone, displayZip, timeInLanguage } from '../engine/formats';
import { centsOfAmount, moneyText } from '../engine/money';

/** `cents`: an amount in integer cents (the parent application's fees), shown like `money` */
export type ValueFormat = 'text' | 'date' | 'datetime' | 'time' | 'money' | 'cents' | 'phone' | 'zip' | 'yesno' | 'number' | 'percent';

/**
 * An amount of the API (dollars with two decimals, spec 9) in the reader's language: it becomes cents
 * by the engine's one conversion (centsOfAmount) and text by its one formatter (moneyText).
 */
export function formatMoney(value: unknown, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  return moneyText(centsOfAmount(typeof value === 'string' ? value.replace(/[$,\s]/g, '') : value), locale);
}

/**
 * ISO dates (API) and mm/dd/yyyy (already shown form) in the reader's language (engine
 * dateInLanguage): mm/dd/yyyy in English (spec 9), dd/mm/yyyy in Spanish, Portuguese and Vietnamese.
 */
export function formatDate(value: unknown, locale = 'en'): string {
  if (typeof value !== 'string' || !value) return '';
  return dateInLanguage(value, locale) || value;
}

/**
 * A date and time in the reader's language (engine dateTimeInLanguage): mm/dd/yyyy hh:mm AM in
 * English (spec 9), dd/mm/yyyy HH:mm in Spanish, Portuguese and Vietnamese; the time is left out at
 * midnight (12:00 AM, 00:00).
 */
export function formatDateTime(value: unknown, locale = 'en'): string {
  if (typeof value !== 'string' || !value) return '';
  // an instant with a zone (the API's createdOn, 2026-03-07T18:05:00.000Z) shows in the reader's local time
  if (/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(value)) {
    const d = new Date(value);
    if (!Number.isNaN(d.getTime())) {
      const p = (n: number) => String(n).padStart(2, '0');
      return formatDateTime(`${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`, locale);
    }
  }
  const date = formatDate(value, locale);
  const m = /T(\d{2}):(\d{2})/.exec(value);
  if (!m || (m[1] === '00' && m[2] === '00')) return date;
  return `${date} ${timeInLanguage({ hour: Number(m[1]), minute: Number(m[2]) }, locale)}`;
}

/** A time of day ("2:05 PM" as attendance keeps it, or 24-hour "14:05") in the reader's language: 02:05 PM in English, 14:05 otherwise. */
export function formatTime(value: unknown, locale = 'en'): string {
  if (typeof value !== 'string' || !value) return '';
  return timeInLanguage(value, locale) || value;
}

export interface FormatOptions {
  locale?: string;
  country?: 'US' | 'CA';
  /** translate a key (yes/no) */
  t?: (key: string) => string;
}

export function formatValue(value: unknown, format: ValueFormat | undefined, opts: FormatOptions = {}): string {
  switch (format) {
    case 'money':
      return formatMoney(value, opts.locale);
    case 'cents':
      return typeof value === 'number' ? moneyText(value, opts.locale ?? 'en') : '';
    case 'date':
      return formatDate(value, opts.locale);
    case 'datetime':
      return formatDateTime(value, opts.locale);
    case 'time':
      return formatTime(value, opts.locale);
    case 'phone':
      return displayPhone(value === null || value === undefined ? '' : String(value));
    case 'zip':
      return displayZip(value === null || value === undefined ? '' : String(value), opts.country ?? 'US');
    case 'yesno':
      if (value === null || value === undefined || value === '') return '';
      return opts.t ? opts.t(value === true || value === 1 || value === 'Y' || value === 'true' ? 'runtime:yes' : 'runtime:no') : String(value);
    case 'number':
      return value === null || value === undefined || value === '' ? '' : new Intl.NumberFormat(opts.locale ?? 'en').format(Number(value));
    case 'percent':
      return value === null || value === undefined || value === '' ? '' : `${Number(value)}%`;
    default:
      return value === null || value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value);
  }
}

/** Programs search (spec 2.8): case-insensitive, trimmed, whitespace collapsed, substring; empty shows all. */
export function normalizeSearch(s: unknown): string {
  return String(s ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
}
export function matchesSearch(text: unknown, search: string): boolean {
  const q = normalizeSearch(search);
  return q === '' || normalizeSearch(text).includes(q);
}

/** Empty section data (spec 4: an empty list, or no data at all). */
export function isEmptyData(data: unknown): boolean {
  if (data === null || data === undefined || data === '') return true;
  if (Array.isArray(data)) return data.length === 0;
  return false;
}
