// The portal's replacement of Chakra's `memo` (src/shell/chakraMemo.ts): one computation per distinct
// arguments, the same result as the function itself, and a bounded cache.
import { describe, expect, it } from 'vitest';
import { memo } from '../../src/shell/chakraMemo';

describe('chakraMemo', () => {
  it('computes once per distinct arguments and answers the same as the function', () => {
    let calls = 0;
    const f = memo((style: Record<string, unknown>, extra?: string) => {
      calls++;
      return { ...style, extra };
    });
    const a = f({ color: 'red', px: { base: '2', md: '4' } });
    expect(f({ color: 'red', px: { base: '2', md: '4' } })).toBe(a);
    expect(calls).toBe(1);
    expect(f({ color: 'blue', px: { base: '2', md: '4' } })).toEqual({ color: 'blue', px: { base: '2', md: '4' }, extra: undefined });
    expect(f({ color: 'red', px: { base: '2', md: '4' } }, 'x')).toEqual({ color: 'red', px: { base: '2', md: '4' }, extra: 'x' });
    expect(calls).toBe(3);
  });
  it('keeps strings, numbers and booleans apart', () => {
    const f = memo((v: unknown) => typeof v);
    expect([f('1'), f(1), f(true), f('true'), f(null), f(undefined)]).toEqual(['string', 'number', 'boolean', 'string', 'object', 'undefined']);
  });
  it('holds at most 1000 entries, the oldest leaving first', () => {
    let calls = 0;
    const f = memo((n: number) => (calls++, n * 2));
    for (let i = 0; i < 1001; i++) f(i);
    expect(calls).toBe(1001);
    f(1000);
    expect(calls).toBe(1001);
    f(0);
    expect(calls).toBe(1002);
  });
});
