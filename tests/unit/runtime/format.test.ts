import { describe, expect, it } from 'vitest';
import { formatMoney, formatDate, formatDateTime, formatTime, formatValue, matchesSearch, isEmptyData } from '../../../src/runtime/format';

describe('display formats', () => {
  it('money: 2 decimals, $ and brackets for negatives', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(-12)).toBe('($12.00)');
    expect(formatMoney('0')).toBe('$0.00');
    expect(formatMoney('')).toBe('');
    expect(formatMoney('abc')).toBe('');
  });
  it('money in English is written as Intl.NumberFormat writes it, rounding included', () => {
    const intl = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    const values = [0, 0.001, 0.005, 0.015, 0.125, 0.995, 1, 1.005, 1.5, 2.675, 9.999, 12.3, 99.995, 999.5, 1000, 1234.5, 100000, 999999.995, 1234567.891, 999999999.99, 90071992547409.91];
    for (let i = 0; i < 500; i++) values.push(Math.round(((i * 7919) % 100000) * 1.37) / 1000);
    for (const v of values) {
      expect(formatMoney(v)).toBe(`$${intl.format(v)}`);
      expect(formatMoney(-v)).toBe(intl.format(v) === '0.00' ? '$0.00' : `($${intl.format(v)})`);
    }
    // beyond whole cents a Number holds, or not a decimal: not an amount
    expect(formatMoney('90071992547409.93')).toBe('');
    expect(formatMoney(1e21)).toBe('');
  });
  it('money in Spanish, Portuguese and Vietnamese follows the language (Intl), as e-mails and the gateway write it', async () => {
    const { moneyText } = await import('../../../src/engine/money');
    const { formatAmount } = await import('../../../sandbox-gateway/texts');
    expect(formatMoney(1305, 'es')).toBe('$1,305.00');
    expect(formatMoney(1305, 'pt')).toBe('$\u00a01.305,00');
    expect(formatMoney(1305, 'vi')).toBe('1.305,00\u00a0$');
    expect(formatMoney(-12, 'es')).toBe('($12.00)');
    for (const lang of ['en', 'es', 'pt', 'vi']) {
      expect(moneyText(130500, lang, 'US')).toBe(formatMoney(1305, lang));
      expect(moneyText(130500, lang, 'CA')).toBe(formatMoney(1305, lang));
      expect(formatAmount(130500, 'USD', lang)).toBe(formatMoney(1305, lang));
      expect(formatAmount(130500, 'CAD', lang)).toBe(formatMoney(1305, lang));
    }
  });
  it('dates: ISO and mm/dd/yyyy both show as mm/dd/yyyy; times only when not midnight', () => {
    expect(formatDate('2026-03-07')).toBe('03/07/2026');
    expect(formatDate('2026-03-07T10:00:00Z')).toBe('03/07/2026');
    expect(formatDate('03/07/2026')).toBe('03/07/2026');
    expect(formatDateTime('2026-03-07T00:00:00')).toBe('03/07/2026');
    expect(formatDateTime('2026-03-07T13:05:00')).toBe('03/07/2026 01:05 PM');
    expect(formatDateTime('2026-03-07T12:30:00')).toBe('03/07/2026 12:30 PM');
  });
  it('dates and times follow the reader\'s language: dd/mm/yyyy and 24-hour times in es, pt, vi', () => {
    for (const lang of ['es', 'pt', 'vi']) {
      expect(formatDate('2026-03-07', lang)).toBe('07/03/2026');
      expect(formatDate('03/07/2026', lang)).toBe('07/03/2026');
      expect(formatDateTime('2026-03-07T00:00:00', lang)).toBe('07/03/2026');
      expect(formatDateTime('2026-03-07T13:05:00', lang)).toBe('07/03/2026 13:05');
      expect(formatDateTime(new Date(2026, 2, 7, 9, 5).toISOString(), lang)).toBe('07/03/2026 09:05');
      expect(formatTime('1:05 PM', lang)).toBe('13:05');
      expect(formatValue('2026-11-23', 'date', { locale: lang })).toBe('23/11/2026');
      expect(formatValue('2026-11-23T14:05', 'datetime', { locale: lang })).toBe('23/11/2026 14:05');
      expect(formatValue('02:05 PM', 'time', { locale: lang })).toBe('14:05');
    }
    // English stays as spec 9 writes it, and is the default
    expect(formatValue('2026-11-23T14:05', 'datetime', { locale: 'en' })).toBe('11/23/2026 02:05 PM');
    expect(formatValue('2026-11-23', 'date')).toBe('11/23/2026');
    expect(formatValue('2:05 PM', 'time')).toBe('02:05 PM');
    // what is not a date or time shows as it came
    expect(formatDate('soon', 'es')).toBe('soon');
    expect(formatTime('late', 'vi')).toBe('late');
    expect(formatValue(null, 'time', { locale: 'es' })).toBe('');
  });
  it('integer cents (the parent application fees) show as money: two decimals, negatives in brackets', () => {
    expect(formatValue(123456, 'cents')).toBe('$1,234.56');
    expect(formatValue(-5, 'cents')).toBe('($0.05)');
    expect(formatValue(null, 'cents')).toBe('');
  });
  it('phones and zips use the engine display forms', () => {
    expect(formatValue('5551234567', 'phone')).toBe('(555)123-4567');
    expect(formatValue('0000000000', 'phone')).toBe('');
    expect(formatValue('K1A0B1', 'zip', { country: 'CA' })).toBe('K1A 0B1');
    expect(formatValue('12345-', 'zip')).toBe('12345');
  });
  it('yes/no through the translator', () => {
    expect(formatValue(true, 'yesno', { t: (k) => k })).toBe('runtime:yes');
    expect(formatValue(0, 'yesno', { t: (k) => k })).toBe('runtime:no');
    expect(formatValue(null, 'yesno', { t: (k) => k })).toBe('');
  });
});

describe('programs search', () => {
  it('is case-insensitive, trimmed, whitespace-collapsed substring match; empty shows all', () => {
    expect(matchesSearch('Summer  Camp 2026', '  summer camp ')).toBe(true);
    expect(matchesSearch('Summer Camp', 'camp 2026')).toBe(false);
    expect(matchesSearch('Anything', '   ')).toBe(true);
    expect(matchesSearch(undefined, 'x')).toBe(false);
  });
  it('empty data', () => {
    expect(isEmptyData([])).toBe(true);
    expect(isEmptyData(null)).toBe(true);
    expect(isEmptyData({})).toBe(false);
    expect(isEmptyData([1])).toBe(false);
  });
});
