import { describe, expect, it } from 'vitest';
import {
  dateMdy,
  displayPhone,
  displayZip,
  email,
  formatMdy,
  formatsFor,
  isPhoneEmpty,
  isoToMdy,
  maskPhone,
  mdyDayNumber,
  mdyToIso,
  normalizePhone,
  normalizeZip,
  parseMdy,
  phone,
  phoneExt,
  safeText,
  zipCA,
  zipUS,
} from '../../../src/engine/index';

describe('phone (stored as 10 digits)', () => {
  it.each([
    ['5551234567', true],
    ['0000000000', false],
    ['555123456', false],
    ['55512345678', false],
    ['(555)123-4567', false],
    ['555-123-4567', false],
    ['555123456a', false],
    ['', false],
  ])('%j -> %j', (s, ok) => expect(phone(s)).toBe(ok));

  it.each([
    ['(555)123-4567', '5551234567'],
    ['555-123-4567', '5551234567'],
    [' (555) 123 4567 ', '5551234567'],
    ['555.123.4567', '5551234567'],
    ['555+123+4567', '555+123+4567'],
    [null, ''],
    [undefined, ''],
  ])('normalizePhone(%j) = %j', (s, out) => expect(normalizePhone(s)).toBe(out));

  it('the masked form is accepted once normalised', () => expect(phone(normalizePhone('(999)999-9999'))).toBe(true));

  it.each([
    ['', true],
    ['0000000000', true],
    ['(000)000-0000', true],
    [null, true],
    ['5551234567', false],
  ])('isPhoneEmpty(%j) = %j', (s, out) => expect(isPhoneEmpty(s)).toBe(out));

  it.each([
    ['', ''],
    ['5', '(5'],
    ['555', '(555'],
    ['5551', '(555)1'],
    ['555123', '(555)123'],
    ['5551234', '(555)123-4'],
    ['5551234567', '(555)123-4567'],
    ['555123456789', '(555)123-4567'],
    ['(555)123-4567', '(555)123-4567'],
  ])('maskPhone(%j) = %j', (s, out) => expect(maskPhone(s)).toBe(out));

  it('masked phone is 13 characters (spec 9)', () => expect(maskPhone('9999999999')).toHaveLength(13));

  it.each([
    ['5551234567', '(555)123-4567'],
    ['0000000000', ''],
    ['', ''],
  ])('displayPhone(%j) = %j', (s, out) => expect(displayPhone(s)).toBe(out));
});

describe('phone-ext (positive, max 6 digits)', () => {
  it.each([
    ['1', true],
    ['123456', true],
    ['1234567', false],
    ['0', false],
    ['000', false],
    ['007', true],
    ['-5', false],
    ['1.5', false],
    ['', false],
  ])('%j -> %j', (s, ok) => expect(phoneExt(s)).toBe(ok));
});

describe('zip US', () => {
  it.each([
    ['62701', true],
    ['62701-1234', true],
    ['62701-', true],
    ['6270 1', true],
    [' 62701 - 1234 ', true],
    ['6270', false],
    ['627011', false],
    ['62701-123', false],
    ['62701-12345', false],
    ['abcde', false],
    ['K2W 1A1', false],
  ])('%j -> %j', (s, ok) => expect(zipUS(s)).toBe(ok));

  it.each([
    ['62701-', '62701'],
    ['6270 1', '62701'],
    ['62701-1234', '62701-1234'],
    [null, ''],
  ])('normalizeZip(%j, US) = %j', (s, out) => expect(normalizeZip(s, 'US')).toBe(out));
});

describe('zip CA (Canada Post)', () => {
  it.each([
    ['T2Z 1A1', true, 'Z is fine after the first letter'],
    ['K2W 1A1', true, 'W is fine after the first letter'],
    ['K1A0B1', true, 'without the space'],
    ['k1a 0b1', true, 'any case'],
    ['M5V 3L9', true, ''],
    ['W1A 1A1', false, 'W never first'],
    ['Z1A 1A1', false, 'Z never first'],
    ['D1A 1A1', false, 'D never appears'],
    ['K1D 1A1', false, 'D never appears'],
    ['K1A 1F1', false, 'F never appears'],
    ['I1A 1A1', false, 'I'],
    ['O1A 1A1', false, 'O'],
    ['Q1A 1A1', false, 'Q'],
    ['U1A 1A1', false, 'U'],
    ['K1A 1O1', false, 'O in the last letter'],
    ['K1A  1A1', false, 'two spaces'],
    ['K1A-1A1', false, 'dash'],
    ['11A 1A1', false, 'digit first'],
    ['K1A 1A', false, 'too short'],
    ['62701', false, 'US zip'],
  ])('%j -> %j (%s)', (s, ok) => expect(zipCA(s)).toBe(ok));

  it.each([
    ['k2w 1a1', 'K2W1A1'],
    ['T2Z1A1', 'T2Z1A1'],
  ])('normalizeZip(%j, CA) = %j (uppercase, no space)', (s, out) => expect(normalizeZip(s, 'CA')).toBe(out));

  it('stored CA zip is 6 characters and still valid', () => {
    const stored = normalizeZip('t2z 1a1', 'CA');
    expect(stored).toHaveLength(6);
    expect(zipCA(stored)).toBe(true);
    expect(displayZip(stored, 'CA')).toBe('T2Z 1A1');
  });

  it('formatsFor picks the zip rule by country', () => {
    expect(formatsFor('CA').zip('K2W 1A1')).toBe(true);
    expect(formatsFor('CA').zip('62701')).toBe(false);
    expect(formatsFor('US').zip('62701')).toBe(true);
    expect(formatsFor('US').zip('K2W 1A1')).toBe(false);
  });
});

describe('date-mdy', () => {
  it.each([
    ['02/29/2024', true, 'leap year'],
    ['02/29/2023', false, 'not a leap year'],
    ['02/29/2000', true, 'divisible by 400'],
    ['02/29/1900', false, 'divisible by 100 only'],
    ['04/31/2026', false, 'April has 30 days'],
    ['12/31/2026', true, ''],
    ['13/01/2026', false, 'month 13'],
    ['00/10/2026', false, 'month 0'],
    ['01/00/2026', false, 'day 0'],
    ['1/5/2026', false, 'not 10 characters'],
    ['01/05/26', false, 'two-digit year'],
    ['2026-01-05', false, 'ISO'],
    ['01/05/2026 ', false, '11 characters'],
    ['01-05-2026', false, 'dashes'],
  ])('%j -> %j (%s)', (s, ok) => expect(dateMdy(s)).toBe(ok));

  it('parseMdy / formatMdy round trip', () => {
    expect(parseMdy('03/09/2026')).toEqual({ month: 3, day: 9, year: 2026 });
    expect(parseMdy('02/30/2026')).toBeNull();
    expect(parseMdy(null)).toBeNull();
    expect(formatMdy({ month: 3, day: 9, year: 2026 })).toBe('03/09/2026');
    expect(formatMdy(new Date(2026, 0, 5))).toBe('01/05/2026');
  });

  it('day numbers compare by calendar day across years', () => {
    expect(mdyDayNumber('01/01/2026')! - mdyDayNumber('12/31/2025')!).toBe(1);
    expect(mdyDayNumber('03/01/2024')! - mdyDayNumber('02/28/2024')!).toBe(2);
    expect(mdyDayNumber('01/01/1970')).toBe(0);
    expect(mdyDayNumber('bad')).toBeNull();
  });

  it('ISO <-> mm/dd/yyyy', () => {
    expect(isoToMdy('2026-03-09')).toBe('03/09/2026');
    expect(isoToMdy('2026-03-09T10:00:00Z')).toBe('03/09/2026');
    expect(isoToMdy(null)).toBe('');
    expect(mdyToIso('03/09/2026')).toBe('2026-03-09');
    expect(mdyToIso('02/30/2026')).toBe('');
  });
});

describe('safe-text and email', () => {
  it.each([
    ['Hello, world!', true],
    ['a & b "quoted" (x)', true],
    ['', true],
    ['<script>', false],
    ['a > b', false],
    ['2^3', false],
  ])('safeText(%j) = %j', (s, ok) => expect(safeText(s)).toBe(ok));

  it.each([
    ['parent@example.com', true],
    ['first.last+tag@sub.example.org', true],
    ["o'neil@example.ca", true],
    ['parent@example', false],
    ['parent.example.com', false],
    ['par ent@example.com', false],
    ['.parent@example.com', false],
    ['parent.@example.com', false],
    ['pa..rent@example.com', false],
    ['parent@-example.com', false],
    ['parent@example.c', false],
    ['parent@@example.com', false],
    ['', false],
  ])('email(%j) = %j', (s, ok) => expect(email(s)).toBe(ok));
});
