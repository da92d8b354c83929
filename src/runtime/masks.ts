// Input masks for the phone, zip and date widgets (spec 5.1): the widget shows the masked text while
// typing; what is stored comes from the engine's normalizePhone / normalizeZip.
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

/** The zip mask of the provider's country (spec 5.1: A#A #A# for CA, otherwise #####-####). */
export function zipMask(country: string | undefined | null): string {
  return (country ?? 'US').toUpperCase() === 'CA' ? CA_ZIP_MASK : US_ZIP_MASK;
}

/** Extension: digits only, at most 6 (spec 5.1). */
export function extensionValue(raw: string): string {
  return (raw ?? '').replace(/\D/g, '').slice(0, 6);
}

/**
 * True when the mask keeps every letter and digit of raw in order (up to its slots). A zip typed in
 * the wrong shape ('12345' for a Canadian postal code) does not fit: the widget then keeps what was
 * typed so the parent reads 'not a valid postal code' rather than an emptied field that is 'required'.
 */
export function fitsMask(pattern: string, raw: string): boolean {
  const typed = (raw ?? '').replace(/[^A-Za-z0-9]/g, '').toUpperCase();
  const kept = significant(pattern, raw ?? '').join('').toUpperCase();
  return typed.slice(0, kept.length) === kept && (kept.length === typed.length || kept.length === pattern.split('').filter(isSlot).length);
}
