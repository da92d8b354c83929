import { describe, expect, it } from 'vitest';
import { applyMask, fitsMask, maskInput, zipMask, extensionValue, PHONE_MASK, CA_ZIP_MASK, US_ZIP_MASK, DATE_MASK } from '../../../src/runtime/masks';
import { maskPhone, normalizePhone, normalizeZip, dateMdy } from '../../../src/engine/formats';

describe('phone mask (999)999-9999', () => {
  it('formats full and partial input, dropping non-digits', () => {
    expect(applyMask(PHONE_MASK, '5551234567')).toBe('(555)123-4567');
    expect(applyMask(PHONE_MASK, '555-12')).toBe('(555)12');
    expect(applyMask(PHONE_MASK, 'abc')).toBe('');
    expect(applyMask(PHONE_MASK, '55512345678999')).toBe('(555)123-4567');
    expect(applyMask(PHONE_MASK, '5551234567')).toHaveLength(13);
  });
  it("agrees with the engine's maskPhone at every length and strips back to the stored digits", () => {
    const digits = '5551234567';
    for (let n = 1; n <= 10; n++) {
      const masked = applyMask(PHONE_MASK, digits.slice(0, n));
      expect(masked).toBe(maskPhone(digits.slice(0, n)));
      expect(normalizePhone(masked)).toBe(digits.slice(0, n));
    }
  });
  it('keeps the caret after the same digit when the mask inserts literals', () => {
    // typing the 4th digit at the end of "(555" gives "(555)4" with the caret at the end
    expect(maskInput(PHONE_MASK, '(5554', 5)).toEqual({ value: '(555)4', caret: 6 });
    // a letter typed in the middle is dropped and the caret stays after the 2nd digit
    expect(maskInput(PHONE_MASK, '(55x5)123', 4)).toEqual({ value: '(555)123', caret: 3 });
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
    expect(normalizeZip(applyMask(CA_ZIP_MASK, 'k1a0b1'), 'CA')).toBe('K1A0B1');
  });
  it('a zip of the wrong shape does not fit the mask (the widget keeps it for the format message)', () => {
    expect(fitsMask(CA_ZIP_MASK, '12345')).toBe(false);
    expect(fitsMask(CA_ZIP_MASK, 'k1a 0b1')).toBe(true);
    expect(fitsMask(CA_ZIP_MASK, 'K1A0B1')).toBe(true);
    expect(fitsMask(CA_ZIP_MASK, 'k1')).toBe(true);
    expect(fitsMask(US_ZIP_MASK, '62701')).toBe(true);
    expect(fitsMask(US_ZIP_MASK, '6270A')).toBe(false);
    expect(fitsMask(US_ZIP_MASK, '')).toBe(true);
  });
  it('formats US zips', () => {
    expect(applyMask(US_ZIP_MASK, '123456789')).toBe('12345-6789');
    expect(applyMask(US_ZIP_MASK, '12345')).toBe('12345');
    expect(applyMask(US_ZIP_MASK, '12345-')).toBe('12345');
  });
});

describe('date mm/dd/yyyy', () => {
  it('masks typed digits into a value the engine accepts', () => {
    expect(applyMask(DATE_MASK, '01022026')).toBe('01/02/2026');
    expect(dateMdy(applyMask(DATE_MASK, '01022026'))).toBe(true);
    expect(applyMask(DATE_MASK, '0102')).toBe('01/02');
  });
});
