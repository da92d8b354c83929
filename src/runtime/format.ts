// Display formats of values in summaries, tables and cards (spec 2.13 and 9: amounts with 2 decimals,
// negative balances in brackets, currency $; phones (ddd)ddd-dddd as typed; dates mm/dd/yyyy and times
// hh:mm AM in English, each other language its own way: engine dateInLanguage, timeInLanguage).
import { dateInLanguage, displayPhone, displayZip, moneyInLanguage, timeInLanguage } from '../engine/formats';

/** `cents`: an amount in integer cents (the parent application's fees), shown like `money` */
export type ValueFormat = 'text' | 'date' | 'datetime' | 'time' | 'money' | 'cents' | 'phone' | 'zip' | 'yesno' | 'number' | 'percent';

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A non-negative number with two decimals, rounded half up from its shortest decimal form as
 * Intl.NumberFormat rounds it (1.005 gives 1.01, where toFixed gives 1.00); null for exponent forms.
 */
export function fixedTwo(n: number): string | null {
  const s = String(n);
  if (!/^\d+(\.\d+)?$/.test(s)) return null;
  const [int, frac = ''] = s.split('.');
  if (frac.length <= 2) return `${int}.${frac.padEnd(2, '0')}`;
  const cents = BigInt(int + frac.slice(0, 2)) + (frac.charCodeAt(2) >= 53 ? 1n : 0n); // 53: '5'
  const t = cents.toString().padStart(3, '0');
  return `${t.slice(0, -2)}.${t.slice(-2)}`;
}

/** A number with two decimals in the reader's language: 1,234.50 (en), 1.234,50 (es, pt). */
function twoDecimals(n: number, locale: string): string {
  // English is written out by hand: building the first Intl.NumberFormat loads the browser's
  // number data, a long pause on a cheap phone while Home draws its balance
  const fixed = locale === 'en' ? fixedTwo(n) : null;
  if (fixed !== null) return fixed.slice(0, -3).replace(/\B(?=(\d{3})+$)/g, ',') + fixed.slice(-3);
  let f = numberFormats.get(locale);
  if (!f) numberFormats.set(locale, (f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })));
  return f.format(n);
}

/** $1,234.50 in the reader's language's conventions (engine moneyInLanguage); negative amounts in brackets: ($12.00). */
export function formatMoney(value: unknown, locale = 'en'): string {
  const n = typeof value === 'number' ? value : Number(String(value ?? '').replace(/[$,\s]/g, ''));
  if (value === null || value === undefined || value === '' || !Number.isFinite(n)) return '';
  // English keeps the exact half-up rounding of its shortest decimal form (1.005 shows 1.01)
  if (locale === 'en') {
    const text = twoDecimals(Math.abs(n), locale);
    return n < 0 ? `($${text})` : `$${text}`;
  }
  return moneyInLanguage(n, locale);
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
      return typeof value === 'number' && Number.isFinite(value) ? formatMoney(value / 100, opts.locale) : '';
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
