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
import { clockOfValue, dateInLanguage, dateTimeInLanguage, dayOfValue, mdyToTyped, timeInLanguage, typedDateOrder, typedToMdy } from '../../../src/engine/formats';

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

describe('dates and times in the reader\'s language', () => {
  it('English keeps mm/dd/yyyy; Spanish, Portuguese and Vietnamese write dd/mm/yyyy (Intl)', () => {
    for (const value of ['2026-11-03', '11/03/2026', '2026-11-03T14:05:00', '2026-11-03T14:05:00.000Z', { year: 2026, month: 11, day: 3 }]) {
      expect(dateInLanguage(value, 'en')).toBe('11/03/2026');
      for (const lang of ['es', 'pt', 'vi']) {
        expect(dateInLanguage(value, lang)).toBe('03/11/2026');
        expect(dateInLanguage(value, lang)).toBe(new Intl.DateTimeFormat(lang, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(2026, 10, 3)));
      }
    }
    // the calendar day as written, never shifted by a time zone
    expect(dateInLanguage('2026-01-01T23:30:00-08:00', 'es')).toBe('01/01/2026');
    expect(dateInLanguage('2024-02-29', 'pt')).toBe('29/02/2024');
    expect(dateInLanguage('', 'en')).toBe('');
    expect(dateInLanguage('02/30/2026', 'es')).toBe('');
    expect(dateInLanguage('2026-02-30', 'en')).toBe('');
    expect(dateInLanguage('20260101', 'es')).toBe('');
    expect(dateInLanguage(null, 'vi')).toBe('');
    expect(dayOfValue('2026-11-03')).toEqual({ year: 2026, month: 11, day: 3 });
    expect(dayOfValue('11/03/2026 02:05 PM')).toEqual({ year: 2026, month: 11, day: 3 });
    expect(dayOfValue(20261103)).toBeNull();
  });

  it('times: hh:mm AM in English, 24-hour HH:mm in Spanish, Portuguese and Vietnamese', () => {
    const cases: [string, string, string][] = [
      ['14:05', '02:05 PM', '14:05'],
      ['2:05 PM', '02:05 PM', '14:05'],
      ['02:05 pm', '02:05 PM', '14:05'],
      ['12:00 AM', '12:00 AM', '00:00'],
      ['12:30 PM', '12:30 PM', '12:30'],
      ['00:30:15', '12:30 AM', '00:30'],
      ['7:45 AM', '07:45 AM', '07:45'],
      ['23:59', '11:59 PM', '23:59'],
    ];
    for (const [value, en, other] of cases) {
      expect(timeInLanguage(value, 'en')).toBe(en);
      for (const lang of ['es', 'pt', 'vi']) expect(timeInLanguage(value, lang)).toBe(other);
    }
    expect(timeInLanguage({ hour: 14, minute: 5 }, 'es')).toBe(new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }).format(Date.UTC(2000, 0, 1, 14, 5)));
    for (const bad of ['', '24:00', '13:00 PM', '0:00 AM', '12:60', 'noon', '1405']) expect(timeInLanguage(bad, 'es')).toBe('');
    expect(clockOfValue('12:15 AM')).toEqual({ hour: 0, minute: 15 });
  });

  it('a date and time: both parts the language\'s way; the date alone without a time', () => {
    expect(dateTimeInLanguage('2026-11-23T14:05', 'en')).toBe('11/23/2026 02:05 PM');
    expect(dateTimeInLanguage('2026-11-23T14:05:00', 'es')).toBe('23/11/2026 14:05');
    expect(dateTimeInLanguage('2026-11-23 09:00', 'pt')).toBe('23/11/2026 09:00');
    expect(dateTimeInLanguage('2026-11-23T00:00', 'vi')).toBe('23/11/2026 00:00');
    expect(dateTimeInLanguage('2026-11-23', 'vi')).toBe('23/11/2026');
    expect(dateTimeInLanguage('garbage', 'es')).toBe('');
  });

  it('the date input: typed in the language\'s order, kept as mm/dd/yyyy', () => {
    expect(typedDateOrder('en')).toBe('mdy');
    for (const lang of ['es', 'pt', 'vi']) {
      expect(typedDateOrder(lang)).toBe('dmy');
      expect(typedToMdy('23/11/2026', lang)).toBe('11/23/2026');
      expect(mdyToTyped('11/23/2026', lang)).toBe('23/11/2026');
      // what is typed so far goes back and forth unchanged, so the input shows what was typed
      for (const partial of ['', '2', '23', '23/', '23/1', '23/11', '23/11/', '23/11/20', '31/02/2026']) expect(mdyToTyped(typedToMdy(partial, lang), lang)).toBe(partial);
    }
    expect(typedToMdy('11/23/2026', 'en')).toBe('11/23/2026');
    expect(mdyToTyped('11/23/2026', 'en')).toBe('11/23/2026');
    // a day that is not a real date stays invalid for the form's format
    expect(dateMdy(typedToMdy('31/11/2026', 'es'))).toBe(false);
    expect(dateMdy(typedToMdy('30/11/2026', 'es'))).toBe(true);
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
