// Every rules/<area>.cases.json row is a test: the rule evaluated on the row's data gives `expected`.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { evaluateRule, ruleTable, runCases, type CaseRow } from '../../../src/engine/index';
import { readBaseDeclarations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const base = readBaseDeclarations(root);
const rules = ruleTable(base.rules);

describe.each(Object.entries(base.cases))('rules/%s.cases.json', (_area, file) => {
  const rows = file.json.cases.filter((r): r is Exclude<CaseRow, string> => typeof r !== 'string');
  it('has passing and failing rows for every rule it covers, and rows with missing data', () => {
    const byRule = new Map<string, unknown[]>();
    for (const r of rows) byRule.set(r.rule, [...(byRule.get(r.rule) ?? []), r.expected]);
    for (const [rule, expected] of byRule) {
      expect(new Set(expected.map((e) => JSON.stringify(e))).size, `${rule} needs more than one outcome`).toBeGreaterThan(1);
    }
    expect(rows.some((r) => JSON.stringify(r.data) === '{}' || JSON.stringify(r.data).includes('null'))).toBe(true);
  });
  it.each(rows.map((r, i) => [i, r.rule, r.note ?? '', r] as const))('row %i: %s %s', (_i, _rule, _note, row) => {
    expect(evaluateRule(rules, row.rule, row.data)).toEqual(row.expected);
  });
});

describe('every rule of the repository has cases', () => {
  it.each(Object.keys(rules))('%s', (id) => {
    const area = id.split('.')[0];
    const rows = (base.cases[area]?.json.cases ?? []).filter((r) => typeof r !== 'string' && r.rule === id);
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('runCases', () => {
  const table = {
    't.positive': { logic: { '>': [{ var: ['x', 0] }, 0] } },
    't.badPattern': { logic: { regex: [{ var: ['x', ''] }, '('] } },
  };
  it('reports a wrong expectation as a failed row', () => {
    const results = runCases(table, { area: 't', cases: ['header', { rule: 't.positive', data: { x: 1 }, expected: false }] });
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ pass: false, actual: true, section: 'header' });
  });
  it('a row can require that the rule throws', () => {
    const results = runCases(table, {
      area: 't',
      cases: [
        { rule: 't.badPattern', data: {}, expected: { throws: true } },
        { rule: 't.positive', data: {}, expected: { throws: true } },
        { rule: 't.unknown', data: {}, expected: { throws: true } },
      ],
    });
    expect(results.map((r) => r.pass)).toEqual([true, false, false]);
  });
});
