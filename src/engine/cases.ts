// Running a cases table: each row evaluates a rule on its data and compares with the expected value.
import { evaluateRule, RuleError } from './logic';
import type { CaseRow, CasesFile, RuleDef } from './types';

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

// ---------------------------------------------------------------------------------------------
// Null and missing rows. Every rule's table must show what the rule answers when a value it reads is
// not there: a row where a path it reads is null, and one where a path it reads is missing.

// Operators whose second argument runs once per element of the list (its "var"s read the element,
// not the screen context); reduce also takes an initial value, read from the context.
const PER_ELEMENT = new Set(['map', 'filter', 'all', 'none', 'some', 'reduce']);

/**
 * The "var" paths a rule reads from its data: every literal path outside per-element logic, and those
 * of the rules it calls with {"rule": id} at that level (they see the same data). A path built at run
 * time ({"var": {"cat": ...}}) and the whole-data path "" are not counted.
 */
export function pathsRead(rules: Record<string, RuleDef>, id: string, seen: Set<string> = new Set()): string[] {
  const out = new Set<string>();
  if (seen.has(id) || !Object.prototype.hasOwnProperty.call(rules, id)) return [];
  seen.add(id);
  const walk = (logic: unknown): void => {
    if (Array.isArray(logic)) return logic.forEach(walk);
    if (!logic || typeof logic !== 'object') return;
    const keys = Object.keys(logic);
    if (keys.length !== 1) return; // a data object, not an operation
    const op = keys[0];
    const raw = (logic as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    if (op === 'var' || op === 'missing' || op === 'missing_some') {
      const paths = op === 'var' ? [args[0]] : op === 'missing' ? args : Array.isArray(args[1]) ? args[1] : [];
      for (const p of paths) {
        if (typeof p === 'string' && p !== '') out.add(p);
        else if (typeof p === 'number') out.add(String(p));
        else walk(p);
      }
      if (op === 'var') walk(args.slice(1));
      return;
    }
    if (op === 'rule') {
      if (typeof args[0] === 'string') for (const p of pathsRead(rules, args[0], seen)) out.add(p);
      return;
    }
    if (PER_ELEMENT.has(op)) {
      walk(args[0]);
      if (op === 'reduce') walk(args[2]);
      return;
    }
    walk(args);
  };
  walk(rules[id].logic);
  return [...out].sort();
}

/** What a path holds in a row's data: a value, null (the path meets a null), or missing (it meets nothing). */
export function resolvePath(data: unknown, path: string): 'null' | 'missing' | 'value' {
  let cur: unknown = data;
  for (const part of path.split('.')) {
    if (cur === null) return 'null';
    if (cur === undefined || typeof cur !== 'object') return 'missing';
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === null ? 'null' : cur === undefined ? 'missing' : 'value';
}

export interface NullMissingGap {
  rule: string;
  /** paths the rule reads that no row of the rule holds as null */
  lacksNull: string[];
  /** paths the rule reads that no row of the rule leaves missing */
  lacksMissing: string[];
}

/**
 * Rules of `ids` with a path they read that no row of theirs in `rows` holds as null (the path meets a
 * null: the value, or an object on the way), or none leaves missing (the path meets nothing: an absent
 * key, or a step on the way absent or not an object; `{}` leaves every path missing). One row may
 * cover several paths. A rule that reads no path (a constant, or only the date) needs no such row.
 */
export function nullMissingGaps(rules: Record<string, RuleDef>, ids: string[], rows: CaseRow[]): NullMissingGap[] {
  const gaps: NullMissingGap[] = [];
  for (const id of ids) {
    const mine = rows.filter((r): r is Exclude<CaseRow, string> => typeof r !== 'string' && r.rule === id);
    const lacksNull: string[] = [];
    const lacksMissing: string[] = [];
    for (const p of pathsRead(rules, id)) {
      if (!mine.some((r) => resolvePath(r.data, p) === 'null')) lacksNull.push(p);
      if (!mine.some((r) => resolvePath(r.data, p) === 'missing')) lacksMissing.push(p);
    }
    if (lacksNull.length || lacksMissing.length) gaps.push({ rule: id, lacksNull, lacksMissing });
  }
  return gaps;
}
