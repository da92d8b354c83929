import { describe, expect, it } from 'vitest';
import { evaluateLogic, evaluateRule, isTrue, RuleError } from '../../../src/engine/index';

const ev = (logic: unknown, data: unknown = {}) => evaluateLogic(logic, data, 't.inline');

describe('json-logic traps are pinned down', () => {
  it('a missing var compares like 0 unless it has a default', () => {
    expect(ev({ '<': [{ var: 'x' }, 1] })).toBe(true); // null < 1
    expect(ev({ '<': [{ var: ['x', 99] }, 1] })).toBe(false);
  });
  it('a var default also replaces a null value', () => {
    expect(ev({ var: ['x', 5] }, { x: null })).toBe(5);
    expect(ev({ var: ['x', 5] }, { x: 0 })).toBe(0);
    expect(ev({ var: ['a.b', 'd'] }, { a: null })).toBe('d');
    expect(ev({ var: ['a.b', 'd'] }, { a: { b: false } })).toBe(false);
  });
  it('[] == "" is true in json-logic (loose equality), strict equality is not', () => {
    expect(ev({ '==': [[], ''] })).toBe(true);
    expect(ev({ '===': [[], ''] })).toBe(false);
  });
  it('"in" on a missing list is false (json-logic-js 2.0.5), so the list needs a default to read clearly', () => {
    expect(ev({ in: ['x', { var: 'list' }] })).toBe(false);
    expect(ev({ in: ['x', { var: ['list', ['x']] }] })).toBe(true);
  });
  it('"all", "some" and "none" on a missing list are false rather than errors', () => {
    expect(ev({ all: [{ var: 'list' }, { var: '' }] })).toBe(false);
    expect(ev({ some: [{ var: 'list' }, { var: '' }] })).toBe(false);
    expect(ev({ none: [{ var: 'list' }, { var: '' }] })).toBe(true);
  });
  it('empty arrays are falsy for rules (isTrue)', () => {
    const rules = { 'a.list': { logic: { var: ['items', []] } } };
    expect(isTrue(rules, 'a.list', { items: [] })).toBe(false);
    expect(isTrue(rules, 'a.list', { items: [1] })).toBe(true);
  });
});

describe('rule errors are thrown, never swallowed', () => {
  it('unknown rule id', () => {
    expect(() => evaluateRule({}, 'nope.rule', {})).toThrow(/rule nope\.rule: unknown rule/);
    expect(() => isTrue({}, 'nope.rule', {})).toThrow(RuleError);
  });
  it('unknown operator', () => {
    expect(() => evaluateRule({ 'a.b': { logic: { frobnicate: [1] } } }, 'a.b', {})).toThrow(/rule a\.b: Unrecognized operation frobnicate/);
  });
  it('runtime errors inside an operator', () => {
    expect(() => evaluateRule({ 'a.re': { logic: { regex: ['x', '('] } } }, 'a.re', {})).toThrow(/rule a\.re/);
  });
  it('a rule calling an unknown rule names the missing one', () => {
    expect(() => evaluateRule({ 'a.outer': { logic: { rule: 'a.missing' } } }, 'a.outer', {})).toThrow(/rule a\.missing: unknown rule/);
  });
  it('cycles are reported', () => {
    const rules = { 'a.x': { logic: { rule: 'a.y' } }, 'a.y': { logic: { rule: 'a.x' } } };
    expect(() => evaluateRule(rules, 'a.x', {})).toThrow(/too deeply/);
  });
  it('constants need no rule', () => {
    expect(isTrue({}, true, {})).toBe(true);
    expect(isTrue({}, false, {})).toBe(false);
    expect(isTrue({}, undefined, {})).toBe(true);
  });
});

describe('portal operators', () => {
  it('phones', () => {
    expect(ev({ phoneEmpty: '0000000000' })).toBe(true);
    expect(ev({ phoneEmpty: '(000)000-0000' })).toBe(true);
    expect(ev({ phoneEmpty: null })).toBe(true);
    expect(ev({ phoneEmpty: '5551234567' })).toBe(false);
    expect(ev({ digits: '(555)123-4567' })).toBe('5551234567');
    expect(ev({ isPhone: '(555)123-4567' })).toBe(true);
    expect(ev({ isPhone: '0000000000' })).toBe(false);
  });
  it('text', () => {
    expect(ev({ collapse: '  a   b  ' })).toBe('a b');
    expect(ev({ lower: 'AbC' })).toBe('abc');
    expect(ev({ trim: null })).toBe('');
    expect(ev({ includesText: ['Summer  Camp', ' summer camp '] })).toBe(true);
    expect(ev({ includesText: ['Summer Camp', 'winter'] })).toBe(false);
    expect(ev({ includesText: ['Summer Camp', ''] })).toBe(true);
    expect(ev({ safeText: 'a<b' })).toBe(false);
    expect(ev({ isEmail: 'a@b.co' })).toBe(true);
    expect(ev({ isZip: ['K2W 1A1', 'CA'] })).toBe(true);
    expect(ev({ isZip: ['K2W 1A1', 'US'] })).toBe(false);
    expect(ev({ length: null })).toBe(0);
    expect(ev({ length: [[1, 2]] })).toBe(2);
    expect(ev({ unique: [['1', '2', '']] })).toBe(true);
    expect(ev({ unique: [['1', '2', '1']] })).toBe(false);
  });
  it('today comes from the context, so tables are deterministic', () => {
    expect(ev({ today: [] }, { today: '02/29/2024' })).toBe('02/29/2024');
    expect(ev({ today: [] }, { data: { today: '03/01/2024' } })).toBe('03/01/2024');
    expect(ev({ today: [] })).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  });
  it('date comparisons by calendar day, false when a side is not a real date', () => {
    expect(ev({ dateLt: ['12/31/2025', '01/01/2026'] })).toBe(true);
    expect(ev({ dateGt: ['12/31/2025', '01/01/2026'] })).toBe(false);
    expect(ev({ dateGte: ['01/01/2026', '01/01/2026'] })).toBe(true);
    expect(ev({ dateLte: ['01/02/2026', '01/01/2026'] })).toBe(false);
    expect(ev({ dateEq: ['01/01/2026', '01/01/2026'] })).toBe(true);
    expect(ev({ dateLt: ['02/30/2026', '12/01/2026'] })).toBe(false);
    expect(ev({ dateGte: [null, '01/01/2026'] })).toBe(false);
    expect(ev({ daysBetween: ['02/28/2024', '03/01/2024'] })).toBe(2);
    expect(ev({ daysBetween: ['03/01/2024', '02/28/2024'] })).toBe(-2);
    expect(ev({ daysBetween: ['bad', '03/01/2024'] })).toBeNull();
  });
  it('dateValid with inclusive min and max', () => {
    expect(ev({ dateValid: ['03/10/2026', '03/10/2026', '03/20/2026'] })).toBe(true);
    expect(ev({ dateValid: ['03/20/2026', '03/10/2026', '03/20/2026'] })).toBe(true);
    expect(ev({ dateValid: ['03/09/2026', '03/10/2026', '03/20/2026'] })).toBe(false);
    expect(ev({ dateValid: ['03/21/2026', '03/10/2026', '03/20/2026'] })).toBe(false);
    expect(ev({ dateValid: ['03/21/2026'] })).toBe(true);
    expect(ev({ dateValid: ['02/29/2026'] })).toBe(false);
    expect(ev({ dateValid: [null] })).toBe(false);
  });
  it('rules can call rules of the same set', () => {
    const rules = { 'a.base': { logic: { '==': [{ var: ['x', 0] }, 1] } }, 'a.not': { logic: { '!': { rule: 'a.base' } } } };
    expect(evaluateRule(rules, 'a.not', { x: 1 })).toBe(false);
    expect(evaluateRule(rules, 'a.not', {})).toBe(true);
  });
});
