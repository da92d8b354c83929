// Input masks for the phone, zip and date widgets (spec 5.1): the widget shows the masked text while
// typing; the stored value of a phone is the digits only.
//   '9' or '#' = a digit, 'A' = a letter (uppercased), anything else = a literal inserted by the mask.

export const PHONE_MASK = '(999)999-9999';
export const US_ZIP_MASK = '#####-####';
export const CA_ZIP_MASK = 'A#A #A#';
export const DATE_MASK = '99/99/9999';

const isSlot = (c: string) => c === '9' || c === '#' || c === 'A';
const fits = (slot: string, c: string) => (slot === 'A' ? /[A-Za-z]/.test(c) : /[0-9]/.test(c));

/** The characters of raw the mask would keep (digits/letters in slot order), ignoring literals. */
function significant(pattern: string, raw: string): string[] {
  const slots = pattern.split('').filter(isSlot);
  const out: string[] = [];
  for (const c of raw) {
    if (out.length >= slots.length) break;
    if (fits(slots[out.length], c)) out.push(slots[out.length] === 'A' ? c.toUpperCase() : c);
  }
  return out;
}

/**
 * Formats raw input with the mask. Literals are written only up to the last character typed, so
 * deleting backwards over a literal works and a partial value stays partial ("(555)12").
 */
export function applyMask(pattern: string, raw: string): string {
  const chars = significant(pattern, raw ?? '');
  let out = '';
  let i = 0;
  for (const p of pattern) {
    if (i >= chars.length) break;
    out += isSlot(p) ? chars[i++] : p;
  }
  return out;
}

/** Masks raw input and maps the caret: it stays after the same number of significant characters. */
export function maskInput(pattern: string, raw: string, caret: number): { value: string; caret: number } {
  const value = applyMask(pattern, raw);
  const before = significant(pattern, raw.slice(0, caret)).length;
  if (before === 0) return { value, caret: value.length && !isSlot(pattern[0]) && caret > 0 ? 1 : 0 };
  let seen = 0;
  let pos = 0;
  for (; pos < value.length && seen < before; pos++) if (isSlot(pattern[pos])) seen++;
  return { value, caret: pos };
}

/** The digits of a masked phone, as stored (spec 5.1: dashes, spaces and parentheses stripped). */
export function phoneDigits(masked: string): string {
  return (masked ?? '').replace(/\D/g, '').slice(0, 10);
}

/** The masked phone text of stored digits; '' for the empty phone 0000000000. */
export function phoneText(stored: unknown): string {
  const digits = String(stored ?? '').replace(/\D/g, '');
  if (!digits || /^0+$/.test(digits)) return '';
  return applyMask(PHONE_MASK, digits);
}

/** The zip mask of the provider's country (spec 5.1: A#A #A# for CA, otherwise #####-####). */
export function zipMask(country: string | undefined | null): string {
  return (country ?? 'US').toUpperCase() === 'CA' ? CA_ZIP_MASK : US_ZIP_MASK;
}

/** The stored zip: the masked text without a dangling separator ("12345-" is "12345"). */
export function zipValue(country: string | undefined | null, raw: string): string {
  return applyMask(zipMask(country), raw).replace(/[-\s]$/, '');
}

/** Extension: digits only, at most 6 (spec 5.1). */
export function extensionValue(raw: string): string {
  return (raw ?? '').replace(/\D/g, '').slice(0, 6);
}

/** mm/dd/yyyy text of a Date (the calendar popover writes this). */
export function formatMdy(d: Date): string {
  const mm = String(d.getMonth() + 1).padStart(2, '0');
  const dd = String(d.getDate()).padStart(2, '0');
  return `${mm}/${dd}/${d.getFullYear()}`;
}

/** The Date of a complete, real mm/dd/yyyy text, else undefined (no rollover: 02/30 is invalid). */
export function parseMdy(text: string): Date | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text ?? '');
  if (!m) return undefined;
  const [mm, dd, yyyy] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(yyyy, mm - 1, dd);
  return d.getFullYear() === yyyy && d.getMonth() === mm - 1 && d.getDate() === dd ? d : undefined;
}
