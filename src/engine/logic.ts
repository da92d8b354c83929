// Named JSON-logic rules. The custom operators are registered once, on first use; every rule error
// (unknown rule, unknown operator, runtime failure) is thrown as a RuleError naming the rule.
import jsonLogic from 'json-logic-js';
import type { RuleDef, RuleRef } from './types';
import { dateMdy, email, formatMdy, isoToMdy, isPhoneEmpty, mdyDayNumber, normalizePhone, phone, safeText, zipCA, zipUS } from './formats';
import { businessDate } from './today';

export class RuleError extends Error {
  constructor(
    public readonly ruleId: string,
    message: string,
  ) {
    super(`rule ${ruleId}: ${message}`);
    this.name = 'RuleError';
  }
}

export type RuleSet = Record<string, RuleDef>;

// The rules being evaluated, so that {"rule": "area.name"} can call another rule of the same set.
// Each entry keeps the data the rule was given: a 'today' that data carries holds inside per-element
// logic too (some, all, map...), where the operator's own data is the element.
const stack: { rules: RuleSet; id: string; data: unknown }[] = [];
const MAX_DEPTH = 20;

const str = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** Today as mm/dd/yyyy: ctx.today, else ctx.data.today (deterministic tables), else the portal's today. */
function givenToday(data: unknown): string | undefined {
  const d = data as { today?: unknown; data?: { today?: unknown } } | null;
  if (d && typeof d.today === 'string') return d.today;
  if (d && d.data && typeof d.data.today === 'string') return d.data.today;
  return undefined;
}

function todayOf(data: unknown): string {
  const own = givenToday(data);
  if (own !== undefined) return own;
  for (let i = stack.length - 1; i >= 0; i--) {
    const given = givenToday(stack[i].data);
    if (given !== undefined) return given;
  }
  return formatMdy(businessDate());
}

/** API answers carry ISO days (yyyy-mm-dd); forms and today carry mm/dd/yyyy: both compare. */
function dayNumber(v: unknown): number | null {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? mdyDayNumber(isoToMdy(v)) : mdyDayNumber(v);
}

function cmpDates(a: unknown, b: unknown): number | null {
  const x = dayNumber(a);
  const y = dayNumber(b);
  return x === null || y === null ? null : x - y;
}

let registered = false;

/** Register the portal's operators with json-logic-js (idempotent). */
export function registerOperators(): void {
  if (registered) return;
  registered = true;
  const add = (name: PortalOperator, fn: (this: unknown, ...args: never[]) => unknown) => jsonLogic.add_operation(name, fn as never);

  // "var" with a default also answers the default for a null value, not only for a missing one,
  // so that a null never silently compares like 0.
  add('var', function (this: unknown, path?: unknown, notFound?: unknown) {
    const fallback = notFound === undefined ? null : notFound;
    if (path === undefined || path === '' || path === null) return this;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- a walk down from the data json-logic passes as `this`
    let cur: unknown = this;
    for (const part of String(path).split('.')) {
      if (cur === null || cur === undefined) return fallback;
      cur = (cur as Record<string, unknown>)[part];
      if (cur === undefined) return fallback;
    }
    return cur === null ? fallback : cur;
  });
  add('rule', function (this: unknown, id: unknown) {
    const top = stack[stack.length - 1];
    if (!top) throw new Error('"rule" used outside a rule');
    return evaluateRule(top.rules, String(id), this);
  });
  add('digits', (v: unknown) => str(v).replace(/\D/g, ''));
  add('phoneEmpty', (v: unknown) => isPhoneEmpty(str(v)));
  add('phoneDigits', (v: unknown) => normalizePhone(str(v)));
  add('isPhone', (v: unknown) => phone(normalizePhone(str(v))));
  add('isEmail', (v: unknown) => email(str(v)));
  add('isZip', (v: unknown, country: unknown) => (country === 'CA' ? zipCA : zipUS)(str(v)));
  add('safeText', (v: unknown) => safeText(str(v)));
  add('lower', (v: unknown) => str(v).toLowerCase());
  add('upper', (v: unknown) => str(v).toUpperCase());
  add('trim', (v: unknown) => str(v).trim());
  add('collapse', (v: unknown) => str(v).trim().replace(/\s+/g, ' '));
  add('length', (v: unknown) => (Array.isArray(v) ? v.length : str(v).length));
  add('empty', (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0));
  add('includesText', (haystack: unknown, needle: unknown) => {
    // search-box match: case-insensitive, trimmed, whitespace collapsed, substring; empty matches all
    const norm = (x: unknown) => str(x).toLowerCase().trim().replace(/\s+/g, ' ');
    return norm(haystack).includes(norm(needle));
  });
  add('regex', (v: unknown, pattern: unknown, flags: unknown) => new RegExp(str(pattern), str(flags)).test(str(v)));
  add('today', function (this: unknown) {
    return todayOf(this);
  });
  add('dateValid', (v: unknown, min?: unknown, max?: unknown) => {
    if (typeof v !== 'string' || !dateMdy(v)) return false;
    if (min !== undefined && min !== null && min !== '' && (cmpDates(v, min) ?? -1) < 0) return false;
    if (max !== undefined && max !== null && max !== '' && (cmpDates(v, max) ?? 1) > 0) return false;
    return true;
  });
  // Date comparisons (day granularity) are false when either side is not a real date.
  add('dateLt', (a: unknown, b: unknown) => (cmpDates(a, b) ?? 0) < 0 && cmpDates(a, b) !== null);
  add('dateLte', (a: unknown, b: unknown) => cmpDates(a, b) !== null && (cmpDates(a, b) as number) <= 0);
  add('dateGt', (a: unknown, b: unknown) => cmpDates(a, b) !== null && (cmpDates(a, b) as number) > 0);
  add('dateGte', (a: unknown, b: unknown) => cmpDates(a, b) !== null && (cmpDates(a, b) as number) >= 0);
  add('dateEq', (a: unknown, b: unknown) => cmpDates(a, b) === 0);
  /** Days from a to b (b - a); null when either is not a real date. */
  add('daysBetween', (a: unknown, b: unknown) => cmpDates(b, a));
  add('count', (v: unknown) => (Array.isArray(v) ? v.filter(Boolean).length : 0));
  add('sum', (v: unknown) => (Array.isArray(v) ? v.reduce((n: number, x) => n + (Number(x) || 0), 0) : 0));
  /** true when every value of the first list is in the second (chosen ids among the offered ones) */
  add('subsetOf', (v: unknown, of: unknown) => !Array.isArray(v) || (Array.isArray(of) && v.every((x) => of.includes(x))));
  add('unique', (v: unknown) => {
    // true when the non-empty values of the list are all different (phones must differ)
    if (!Array.isArray(v)) return true;
    const vals = v.map((x) => str(x)).filter((x) => x !== '');
    return new Set(vals).size === vals.length;
  });
}

/** Operators a rule may use, and who provides each: json-logic-js or the portal (registerOperators). */
export const OPERATOR_TABLE = {
  // json-logic-js's own
  '==': 'jsonLogic', '===': 'jsonLogic', '!=': 'jsonLogic', '!==': 'jsonLogic', '!': 'jsonLogic', '!!': 'jsonLogic',
  or: 'jsonLogic', and: 'jsonLogic', if: 'jsonLogic', '?:': 'jsonLogic', '<': 'jsonLogic', '<=': 'jsonLogic',
  '>': 'jsonLogic', '>=': 'jsonLogic', max: 'jsonLogic', min: 'jsonLogic', '+': 'jsonLogic', '-': 'jsonLogic',
  '*': 'jsonLogic', '/': 'jsonLogic', '%': 'jsonLogic', map: 'jsonLogic', reduce: 'jsonLogic', filter: 'jsonLogic',
  all: 'jsonLogic', none: 'jsonLogic', some: 'jsonLogic', merge: 'jsonLogic', in: 'jsonLogic', cat: 'jsonLogic',
  substr: 'jsonLogic', log: 'jsonLogic', missing: 'jsonLogic', missing_some: 'jsonLogic',
  // the portal's (registerOperators); `var` is replaced so a default also stands for null
  var: 'portal', rule: 'portal', digits: 'portal', phoneEmpty: 'portal', phoneDigits: 'portal',
  isPhone: 'portal', isEmail: 'portal', isZip: 'portal', safeText: 'portal', lower: 'portal',
  upper: 'portal', trim: 'portal', collapse: 'portal', length: 'portal', empty: 'portal',
  includesText: 'portal', regex: 'portal', today: 'portal', dateValid: 'portal', dateLt: 'portal',
  dateLte: 'portal', dateGt: 'portal', dateGte: 'portal', dateEq: 'portal', daysBetween: 'portal',
  count: 'portal', sum: 'portal', unique: 'portal', subsetOf: 'portal',
} as const;
export type OperatorName = keyof typeof OPERATOR_TABLE;
/** The operators registerOperators adds to json-logic-js. */
export type PortalOperator = { [K in OperatorName]: (typeof OPERATOR_TABLE)[K] extends 'portal' ? K : never }[OperatorName];
export const OPERATORS: readonly OperatorName[] = Object.keys(OPERATOR_TABLE).filter(isOperator);
export const PORTAL_OPERATORS: readonly PortalOperator[] = OPERATORS.filter((op): op is PortalOperator => OPERATOR_TABLE[op] === 'portal');

export function isOperator(op: string): op is OperatorName {
  return Object.prototype.hasOwnProperty.call(OPERATOR_TABLE, op);
}

/** Evaluate a rule reference against the data the rule sees ({form, query, session, provider, data, item, flow}). */
export function evaluateRule(rules: RuleSet, ref: RuleRef, data: unknown): unknown {
  if (typeof ref === 'boolean') return ref;
  registerOperators();
  const def = Object.prototype.hasOwnProperty.call(rules, ref) ? rules[ref] : undefined;
  if (!def) throw new RuleError(String(ref), 'unknown rule');
  if (stack.length >= MAX_DEPTH) throw new RuleError(ref, 'rules call each other too deeply (a cycle?)');
  stack.push({ rules, id: ref, data });
  try {
    return jsonLogic.apply(def.logic as never, data as never);
  } catch (e) {
    if (e instanceof RuleError) throw e;
    throw new RuleError(ref, e instanceof Error ? e.message : String(e));
  } finally {
    stack.pop();
  }
}

/** A rule reference as a boolean (json-logic truthiness: [] and "" and 0 are false). */
export function isTrue(rules: RuleSet, ref: RuleRef | undefined, data: unknown): boolean {
  if (ref === undefined) return true;
  if (typeof ref === 'boolean') return ref;
  registerOperators();
  return jsonLogic.truthy(evaluateRule(rules, ref, data));
}

/** Evaluate an unnamed logic expression (used by cases and CLIs); errors name `label`. */
export function evaluateLogic(logic: unknown, data: unknown, label = '(inline)'): unknown {
  return evaluateRule({ [label]: { logic } }, label, data);
}

/** Every "var" path and operator used by a logic expression (for the declaration checks). */
export function walkLogic(
  logic: unknown,
  visit: (op: string, args: unknown[], pointer: string) => void,
  pointer = '',
): void {
  if (Array.isArray(logic)) {
    logic.forEach((x, i) => walkLogic(x, visit, `${pointer}/${i}`));
    return;
  }
  if (logic && typeof logic === 'object') {
    const keys = Object.keys(logic);
    if (keys.length !== 1) return; // a data object, not an operation
    const op = keys[0];
    const raw = (logic as Record<string, unknown>)[op];
    const args = Array.isArray(raw) ? raw : [raw];
    visit(op, args, `${pointer}/${escapePointer(op)}`);
    walkLogic(raw, visit, `${pointer}/${escapePointer(op)}`);
  }
}

export function escapePointer(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}
