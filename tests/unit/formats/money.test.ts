import { describe, expect, it } from 'vitest';
import { amountOfCents, centsOfAmount, moneyText } from '../../../src/engine/money';

describe('money: cents, the API boundary and the one formatter', () => {
  it('an API amount and its cents cross both ways without losing a cent', () => {
    // every amount up to $1,000.00, and some near the largest an integer column holds
    const cents = Array.from({ length: 100_001 }, (_, i) => i).concat([2147483647, 99999999, 123456789]);
    const wrong = cents.filter((c) => centsOfAmount(amountOfCents(c)) !== c || centsOfAmount(String(amountOfCents(c))) !== c || centsOfAmount(-amountOfCents(c)) !== (c === 0 ? 0 : -c));
    expect(wrong).toEqual([]);
  });
  it('reads the decimal digits, not a float times 100', () => {
    expect(0.29 * 100).not.toBe(29);
    expect(centsOfAmount(0.29)).toBe(29);
    expect(centsOfAmount(4.35)).toBe(435);
    expect(centsOfAmount('125.5')).toBe(12550);
    expect(centsOfAmount(' 10 ')).toBe(1000);
    // a third decimal rounds half up, as the portal showed it
    expect(centsOfAmount(1.005)).toBe(101);
    expect(centsOfAmount('2.675')).toBe(268);
    expect(centsOfAmount('2.674')).toBe(267);
  });
  it('refuses what is not an amount', () => {
    for (const v of ['', 'abc', '1,000', '$5', '1e3', '.5', '5.', null, undefined, NaN, Infinity, {}, '90071992547409.92']) expect(centsOfAmount(v)).toBeNaN();
  });
  it('writes cents in the reader language, negative in brackets', () => {
    expect(moneyText(130500, 'en')).toBe('$1,305.00');
    expect(moneyText(1, 'en')).toBe('$0.01');
    expect(moneyText(0, 'en')).toBe('$0.00');
    expect(moneyText(-1200, 'en')).toBe('($12.00)');
    expect(moneyText(214748364700, 'en-US')).toBe('$2,147,483,647.00');
    expect(moneyText(130500, 'pt')).toBe('$\u00a01.305,00');
    expect(moneyText(130500, 'vi')).toBe('1.305,00\u00a0$');
    expect(moneyText(-1, 'es')).toBe('($0.01)');
    expect(moneyText(NaN, 'en')).toBe('');
  });
});
