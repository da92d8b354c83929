import { describe, expect, it } from 'vitest';
import {
  applyMask, maskInput, phoneDigits, phoneText, zipMask, zipValue, extensionValue, parseMdy, formatMdy,
  PHONE_MASK, CA_ZIP_MASK, US_ZIP_MASK, DATE_MASK,
} from '../../../src/runtime/masks';

describe('phone mask (999)999-9999', () => {
  it('formats full and partial input, dropping non-digits', () => {
    expect(applyMask(PHONE_MASK, '5551234567')).toBe('(555)123-4567');
    expect(applyMask(PHONE_MASK, '555-12')).toBe('(555)12');
    expect(applyMask(PHONE_MASK, 'abc')).toBe('');
    expect(applyMask(PHONE_MASK, '55512345678999')).toBe('(555)123-4567');
    expect(applyMask(PHONE_MASK, '5551234567')).toHaveLength(13);
  });
  it('stores digits only and shows 0000000000 as empty', () => {
    expect(phoneDigits('(555)123-4567')).toBe('5551234567');
    expect(phoneText('5551234567')).toBe('(555)123-4567');
    expect(phoneText('0000000000')).toBe('');
    expect(phoneText(null)).toBe('');
  });
  it('keeps the caret after the same digit when the mask inserts literals', () => {
    // typing the 4th digit at the end of "(555" -> "(555)4", caret at the end
    expect(maskInput(PHONE_MASK, '(5554', 5)).toEqual({ value: '(555)4', caret: 6 });
    // editing in the middle: caret after the 2nd digit
    expect(maskInput(PHONE_MASK, '(55x5)123', 3).caret).toBe(3);
  });
  it('extension is at most 6 digits', () => {
    expect(extensionValue('12a34567')).toBe('123456');
  });
});

describe('zip masks by country', () => {
  it('chooses the mask from the country', () => {
    expect(zipMask('CA')).toBe(CA_ZIP_MASK);
    expect(zipMask('ca')).toBe(CA_ZIP_MASK);
    expect(zipMask('US')).toBe(US_ZIP_MASK);
    expect(zipMask(undefined)).toBe(US_ZIP_MASK);
  });
  it('formats Canadian postal codes uppercased with the space', () => {
    expect(applyMask(CA_ZIP_MASK, 'k1a0b1')).toBe('K1A 0B1');
    expect(applyMask(CA_ZIP_MASK, 'k1a')).toBe('K1A');
    expect(applyMask(CA_ZIP_MASK, '11a0b1')).toBe('A0B 1'); // digits cannot fill the first (letter) slot
  });
  it('formats US zips and drops a dangling dash', () => {
    expect(applyMask(US_ZIP_MASK, '123456789')).toBe('12345-6789');
    expect(zipValue('US', '12345')).toBe('12345');
    expect(zipValue('US', '12345-')).toBe('12345');
    expect(zipValue('CA', 'k1a 0b1')).toBe('K1A 0B1');
  });
});

describe('date mm/dd/yyyy', () => {
  it('masks typed digits', () => {
    expect(applyMask(DATE_MASK, '01022026')).toBe('01/02/2026');
  });
  it('parses only real dates', () => {
    expect(parseMdy('02/29/2024')?.getDate()).toBe(29);
    expect(parseMdy('02/30/2024')).toBeUndefined();
    expect(parseMdy('2/3/2024')).toBeUndefined();
    expect(formatMdy(new Date(2026, 0, 5))).toBe('01/05/2026');
  });
});
