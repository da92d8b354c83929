// Every rules/<area>.cases.json row is a test: the rule evaluated on the row's data gives `expected`.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { evaluateRule, nullMissingGaps, pathsRead, resolvePath, ruleTable, runCases, type CaseRow } from '../../../src/engine/index';
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

describe('null and missing rows', () => {
  const table = {
    't.adult': { logic: { '>=': [{ var: ['form.age', 0] }, 18] } },
    't.country': { logic: { '==': [{ var: ['provider.countryCode', { var: ['session.countryCode', 'US'] }] }, 'CA'] } },
    't.canadianAdult': { logic: { and: [{ rule: 't.adult' }, { rule: 't.country' }] } },
    't.anyPending': { logic: { some: [{ var: ['item.children', []] }, { '===': [{ var: ['isPending', false] }, true] }] } },
    't.always': { logic: true },
  };

  it('reads the paths of the rule, of its defaults and of the rules it calls, not those of per-element logic', () => {
    expect(pathsRead(table, 't.adult')).toEqual(['form.age']);
    expect(pathsRead(table, 't.canadianAdult')).toEqual(['form.age', 'provider.countryCode', 'session.countryCode']);
    expect(pathsRead(table, 't.anyPending')).toEqual(['item.children']);
    expect(pathsRead(table, 't.always')).toEqual([]);
  });

  it('a path is null when it meets a null, missing when it meets nothing', () => {
    expect(resolvePath({ form: { age: null } }, 'form.age')).toBe('null');
    expect(resolvePath({ form: null }, 'form.age')).toBe('null');
    expect(resolvePath({ form: {} }, 'form.age')).toBe('missing');
    expect(resolvePath({}, 'form.age')).toBe('missing');
    expect(resolvePath({ form: 'x' }, 'form.age')).toBe('missing');
    expect(resolvePath({ form: { age: 0 } }, 'form.age')).toBe('value');
  });

  it('refuses a table where a path the rule reads is never null or never missing, and accepts one where each is both', () => {
    const valueRows: CaseRow[] = [
      { rule: 't.adult', data: { form: { age: 20 } }, expected: true },
      { rule: 't.adult', data: { form: { age: 3 } }, expected: false },
    ];
    expect(nullMissingGaps(table, ['t.adult'], valueRows)).toEqual([{ rule: 't.adult', lacksNull: ['form.age'], lacksMissing: ['form.age'] }]);
    const withNull = [...valueRows, { rule: 't.adult', data: { form: { age: null } }, expected: false }];
    expect(nullMissingGaps(table, ['t.adult'], withNull)).toEqual([{ rule: 't.adult', lacksNull: [], lacksMissing: ['form.age'] }]);
    // another rule's rows do not count
    const otherRule = [...valueRows, { rule: 't.country', data: { form: { age: null } }, expected: false }, { rule: 't.adult', data: {}, expected: false }];
    expect(nullMissingGaps(table, ['t.adult'], otherRule)).toEqual([{ rule: 't.adult', lacksNull: ['form.age'], lacksMissing: [] }]);
    expect(nullMissingGaps(table, ['t.adult'], [...withNull, { rule: 't.adult', data: { form: {} }, expected: false }])).toEqual([]);
    // every path: a null country does not stand for a null age
    const country: CaseRow[] = [
      { rule: 't.canadianAdult', data: {}, expected: false },
      { rule: 't.canadianAdult', data: { form: { age: 20 }, provider: { countryCode: null }, session: null }, expected: false },
    ];
    expect(nullMissingGaps(table, ['t.canadianAdult'], country)).toEqual([{ rule: 't.canadianAdult', lacksNull: ['form.age'], lacksMissing: [] }]);
    // one row may cover several paths (a null object on the way)
    expect(nullMissingGaps(table, ['t.canadianAdult'], [...country, { rule: 't.canadianAdult', data: { form: null }, expected: false }])).toEqual([]);
    // a rule that reads nothing needs neither
    expect(nullMissingGaps(table, ['t.always'], [{ rule: 't.always', data: {}, expected: true }])).toEqual([]);
  });

  it('every rule of the repository has both for every path it reads', () => {
    for (const [area, f] of Object.entries(base.rules)) {
      const ids = Object.keys((f.json as { rules: object }).rules);
      expect(nullMissingGaps(rules, ids, base.cases[area]?.json.cases ?? []), `rules/${area}.cases.json`).toEqual([]);
    }
  });

  it('npm run rules -- test and npm run check fail naming the rule and its cases file', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'cases-'));
    try {
      for (const dir of ['schemas', 'rules', 'locales', 'providers', 'screens']) cpSync(join(root, dir), join(tmp, dir), { recursive: true });
      const file = join(tmp, 'rules/pin.cases.json');
      const pin = JSON.parse(readFileSync(file, 'utf8')) as { cases: CaseRow[] };
      // the rows where form.mode is null go
      pin.cases = pin.cases.filter((r) => typeof r === 'string' || !JSON.stringify(r.data).includes('"mode":null'));
      writeFileSync(file, JSON.stringify(pin));
      const run = (script: string, args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', script), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, DECLARATIONS_ROOT: tmp } });
      const rulesTest = run('rules.ts', ['test']);
      expect(rulesTest.status).toBe(1);
      expect(JSON.parse(rulesTest.stdout).gaps).toContainEqual({ file: 'rules/pin.cases.json', path: '/cases', message: 'pin.isChange: no row where form.mode is null' });
      const check = run('check.ts', []);
      expect(check.status).toBe(1);
      expect(check.stderr).toContain('rules/pin.cases.json: /cases: pin.isChange: no row where form.mode is null');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
