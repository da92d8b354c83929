// Running a cases table: each row evaluates a rule on its data and compares with the expected value.
import { evaluateRule, RuleError } from './logic';
import type { CasesFile, RuleDef } from './types';

export interface CaseResult {
  index: number;
  section?: string;
  rule: string;
  note?: string;
  pass: boolean;
  expected: unknown;
  actual?: unknown;
  error?: string;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * Run a cases table. A row whose `expected` is {"throws": true} passes only when the rule throws a
 * RuleError (tables can pin down that bad data is an error, not a silent false).
 */
export function runCases(rules: Record<string, RuleDef>, cases: CasesFile): CaseResult[] {
  const out: CaseResult[] = [];
  let section: string | undefined;
  cases.cases.forEach((row, index) => {
    if (typeof row === 'string') {
      section = row;
      return;
    }
    const wantsThrow = deepEqual(row.expected, { throws: true });
    try {
      const actual = evaluateRule(rules, row.rule, row.data);
      out.push({ index, section, rule: row.rule, note: row.note, pass: !wantsThrow && deepEqual(actual, row.expected), expected: row.expected, actual });
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      out.push({ index, section, rule: row.rule, note: row.note, pass: wantsThrow && e instanceof RuleError && !error.includes('unknown rule'), expected: row.expected, error });
    }
  });
  return out;
}
