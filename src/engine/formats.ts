// Custom string formats of the portal (spec 5.1, 9) and the helpers that normalise what a user types
// into the stored form. Each format function is self-contained (no closure over module names) because
// compileStandaloneModule inlines its source into the browser's validator module.

export type Country = 'US' | 'CA';
export type FormatFn = (s: string) => boolean;

/** Stored phone: exactly 10 digits (the masked (999)999-9999 form is normalised before validation). */
export const phone: FormatFn = (s) => /^\d{10}$/.test(s) && !/^0{10}$/.test(s);

/** Extension: a positive number of at most 6 digits. */
export const phoneExt: FormatFn = (s) => /^\d{1,6}$/.test(s) && Number(s) > 0;

/** US zip: 5 digits, 5+4 with a dash, or 5 digits and a trailing dash; spaces are ignored. */
export const zipUS: FormatFn = (s) => /^\d{5}(-|-\d{4})?$/.test(s.replace(/\s+/g, ''));

/**
 * Canadian postal code (Canada Post): A9A 9A9, with or without the space, any case. D F I O Q U never
 * appear; W and Z never as the first letter.
 */
export const zipCA: FormatFn = (s) =>
  /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/.test(s.trim().toUpperCase());

/** mm/dd/yyyy, exactly 10 characters, a real calendar date (leap years included). */
export const dateMdy: FormatFn = (s) => {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const year = Number(m[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= lengths[month - 1];
};

/** Characters < > and ^ are not supported anywhere (spec 5.1). */
export const safeText: FormatFn = (s) => !/[<>^]/.test(s);

/** E-mail: local@domain.tld, no spaces, no leading, trailing or doubled dots in the local part. */
export const email: FormatFn = (s) =>
  s.length <= 254 &&
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9.!#$%&'*+/=?_`{|}~-]{1,64}(?<!\.)@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}$/.test(
    s,
  );

/** Format functions under the names schemas use, for a country (zip depends on it). */
export function formatsFor(country: Country): Record<string, FormatFn> {
  return {
    phone,
    'phone-ext': phoneExt,
    zip: country === 'CA' ? zipCA : zipUS,
    'date-mdy': dateMdy,
    'safe-text': safeText,
    email,
  };
}

/** The formats of the default country (US). */
export const formats: Record<string, FormatFn> = formatsFor('US');

/** Names of every custom format (the same for every country). */
export const FORMAT_NAMES = Object.keys(formats);

// ---------------------------------------------------------------------------------------------
// Helpers: what the user types -> what is stored, and back.

/** Strip the phone mask: dashes, spaces, dots and parentheses (other characters stay, so they fail). */
export function normalizePhone(value: string | null | undefined): string {
  return (value ?? '').replace(/[\s().-]/g, '');
}

/** 0000000000 (and nothing) count as an empty phone (spec 5.1). */
export function isPhoneEmpty(value: string | null | undefined): boolean {
  const d = normalizePhone(value);
  return d === '' || /^0+$/.test(d);
}

/** Mask digits as (999)999-9999 while typing: partial input gives a partial mask. */
export function maskPhone(value: string | null | undefined): string {
  const d = (value ?? '').replace(/\D/g, '').slice(0, 10);
  if (d.length === 0) return '';
  if (d.length <= 3) return `(${d}`;
  if (d.length <= 6) return `(${d.slice(0, 3)})${d.slice(3)}`;
  return `(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6)}`;
}

/** Phone for display: (ddd)ddd-dddd like the inputs' mask (spec 9), empty when the phone is empty or all zeros. */
export function displayPhone(value: string | null | undefined): string {
  if (isPhoneEmpty(value)) return '';
  const d = normalizePhone(value);
  return /^\d{10}$/.test(d) ? `(${d.slice(0, 3)})${d.slice(3, 6)}-${d.slice(6)}` : d;
}

/**
 * Stored zip: spaces removed; US drops a trailing dash ("12345-" -> "12345"); CA is uppercased
 * without the space ("k2w 1a1" -> "K2W1A1").
 */
export function normalizeZip(value: string | null | undefined, country: Country = 'US'): string {
  const s = (value ?? '').replace(/\s+/g, '');
  if (country === 'CA') return s.toUpperCase();
  return s.endsWith('-') ? s.slice(0, -1) : s;
}

/** Zip for display: CA gets its space back (A9A 9A9); a US zip with only a trailing dash shows 5 digits. */
export function displayZip(value: string | null | undefined, country: Country = 'US'): string {
  const s = normalizeZip(value, country);
  if (country === 'CA' && s.length === 6) return `${s.slice(0, 3)} ${s.slice(3)}`;
  return s;
}

export interface Ymd {
  year: number;
  month: number;
  day: number;
}

/** Parse mm/dd/yyyy into its parts; null unless it is a real date in exactly that form. */
export function parseMdy(value: unknown): Ymd | null {
  if (typeof value !== 'string' || !dateMdy(value)) return null;
  return { month: Number(value.slice(0, 2)), day: Number(value.slice(3, 5)), year: Number(value.slice(6)) };
}

/** Format a date (its local calendar day) or date parts as mm/dd/yyyy. */
export function formatMdy(value: Date | Ymd): string {
  const parts = value instanceof Date ? { year: value.getFullYear(), month: value.getMonth() + 1, day: value.getDate() } : value;
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return `${pad(parts.month, 2)}/${pad(parts.day, 2)}/${pad(parts.year, 4)}`;
}

/** Day number (days since 1970-01-01) of an mm/dd/yyyy date, for day-granularity comparisons. */
export function mdyDayNumber(value: unknown): number | null {
  const p = parseMdy(value);
  if (!p) return null;
  const d = new Date(Date.UTC(2000, p.month - 1, p.day));
  d.setUTCFullYear(p.year);
  return Math.round(d.getTime() / 86_400_000);
}

/** ISO yyyy-mm-dd (API dates) <-> mm/dd/yyyy (what the parent sees and types). */
export function isoToMdy(iso: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso ?? '');
  return m ? `${m[2]}/${m[3]}/${m[1]}` : '';
}
export function mdyToIso(mdy: string | null | undefined): string {
  const p = parseMdy(mdy);
  return p ? `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}` : '';
}

// ---------------------------------------------------------------------------------------------
// Dates and times in the reader's language, the same in the portal, the gateway's page, e-mails and
// PDFs. English keeps spec 9's mm/dd/yyyy and hh:mm AM, written out by hand (building the first
// Intl.DateTimeFormat loads the browser's calendar data, a long pause on a cheap phone at first
// paint); every other language follows its own conventions through Intl (dd/mm/yyyy and 24-hour
// 14:05 in Spanish, Portuguese and Vietnamese). The values stay as the API and the forms carry them
// (ISO yyyy-mm-dd, the form's mm/dd/yyyy): only what is shown changes.

const isEnglish = (lang: string | null | undefined) => !lang || lang === 'en' || lang.startsWith('en-');
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an ISO yyyy-mm-dd (a date-time's date part too) or an mm/dd/yyyy value; null for anything else. */
export function dayOfValue(value: unknown): Ymd | null {
  if (typeof value !== 'string') return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?![\d])/.exec(value);
  if (iso) {
    const parts = { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) };
    return dateMdy(formatMdy(parts)) ? parts : null;
  }
  return /^\d{2}\/\d{2}\/\d{4}(?!\d)/.test(value) ? parseMdy(value.slice(0, 10)) : null;
}

/**
 * A day as the reader writes it: 11/23/2026 in English, 23/11/2026 in Spanish, Portuguese and
 * Vietnamese. Takes an ISO yyyy-mm-dd (or a date-time, its date part), an mm/dd/yyyy or date parts;
 * '' when the value is not a real date.
 */
export function dateInLanguage(value: string | Ymd | null | undefined, lang: string): string {
  const day = typeof value === 'string' ? dayOfValue(value) : (value ?? null);
  if (!day) return '';
  if (isEnglish(lang)) return formatMdy(day);
  let f = dateFormats.get(lang);
  if (!f) dateFormats.set(lang, (f = new Intl.DateTimeFormat(lang, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })));
  const d = new Date(Date.UTC(2000, day.month - 1, day.day));
  d.setUTCFullYear(day.year);
  return f.format(d);
}

/** Hours and minutes of a time of day: 24-hour "14:05" ("14:05:09" too) or "2:05 PM" / "02:05 pm"; null otherwise. */
export function clockOfValue(value: unknown): { hour: number; minute: number } | null {
  if (typeof value !== 'string') return null;
  const twelve = /^\s*(\d{1,2}):(\d{2})\s*([AP])\.?\s*M\.?\s*$/i.exec(value);
  if (twelve) {
    const h = Number(twelve[1]);
    const minute = Number(twelve[2]);
    if (h < 1 || h > 12 || minute > 59) return null;
    return { hour: (h % 12) + (twelve[3].toUpperCase() === 'P' ? 12 : 0), minute };
  }
  const day = /^\s*(\d{1,2}):(\d{2})(:\d{2}(\.\d+)?)?\s*$/.exec(value);
  if (!day || Number(day[1]) > 23 || Number(day[2]) > 59) return null;
  return { hour: Number(day[1]), minute: Number(day[2]) };
}

/**
 * A time of day as the reader writes it: 02:05 PM in English, 14:05 in Spanish, Portuguese and
 * Vietnamese. Takes a 24-hour "14:05" or a "2:05 PM" (attendance records keep times that way), or
 * hours and minutes; '' when it is not a time.
 */
export function timeInLanguage(value: string | { hour: number; minute: number } | null | undefined, lang: string): string {
  const c = typeof value === 'string' ? clockOfValue(value) : (value ?? null);
  if (!c) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  if (isEnglish(lang)) return `${pad(c.hour % 12 === 0 ? 12 : c.hour % 12)}:${pad(c.minute)} ${c.hour < 12 ? 'AM' : 'PM'}`;
  let f = timeFormats.get(lang);
  if (!f) timeFormats.set(lang, (f = new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })));
  return f.format(Date.UTC(2000, 0, 1, c.hour, c.minute));
}

/**
 * A wall-clock date and time ("2026-11-23T14:05[:ss]", no zone: already the reader's local time) as
 * the reader writes it: 11/23/2026 02:05 PM in English, 23/11/2026 14:05 in Spanish, Portuguese and
 * Vietnamese; the date alone when the value has no time. '' when the date is not a real one.
 */
export function dateTimeInLanguage(value: string | null | undefined, lang: string): string {
  const date = dateInLanguage(value, lang);
  if (!date) return '';
  const m = /[T ](\d{2}:\d{2}(:\d{2}(\.\d+)?)?(\s*[AP]M)?)/i.exec(value ?? '');
  const time = m ? timeInLanguage(m[1], lang) : '';
  return time ? `${date} ${time}` : date;
}

/**
 * The order a parent types a date in (the date input's dd/mm/yyyy or mm/dd/yyyy): English types the
 * month first, as the form stores it; Spanish, Portuguese and Vietnamese the day first, as they read it.
 */
export function typedDateOrder(lang: string | null | undefined): 'mdy' | 'dmy' {
  return isEnglish(lang) ? 'mdy' : 'dmy';
}

/** Day and month swapped in a (partly) typed "aa/bb[/yyyy]"; shorter text is left as it is. */
function swapDayMonth(text: string): string {
  const m = /^(\d{2})\/(\d{2})(\/.*)?$/.exec(text);
  return m ? `${m[2]}/${m[1]}${m[3] ?? ''}` : text;
}

/** The form's mm/dd/yyyy (or the part typed so far) as the date input shows it in the language. */
export function mdyToTyped(mdy: string, lang: string | null | undefined): string {
  return typedDateOrder(lang) === 'dmy' ? swapDayMonth(mdy) : mdy;
}

/** What the parent typed in the date input (dd/mm/yyyy in es, pt, vi) as the form's mm/dd/yyyy. */
export function typedToMdy(typed: string, lang: string | null | undefined): string {
  return typedDateOrder(lang) === 'dmy' ? swapDayMonth(typed) : typed;
}
