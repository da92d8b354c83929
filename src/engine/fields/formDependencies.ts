// Which fields of a form read which (for re-checking only what a change can affect). A module of its
// own: the light form (sign-in) needs it as it draws, the rest of the form engine (form.ts) only once
// the parent turns to the form.
import { walkLogic } from '../logic';
import { derefSchema } from './deref';
import type { DeclarationSet, JsonSchema } from '../types';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Which top-level fields of a form each top-level field's rules read (x-show, x-required, x-enable,
 * x-validate, its own and its nested fields', following {"rule": ...} calls): typing in one field
 * re-checks it and the fields that read it. '*' stands for "reads the whole form or something
 * other than the form" (such a field is re-checked on every change).
 */
export function formDependencies(set: Pick<DeclarationSet, 'schemas' | 'rules'>, schemaId: string): Map<string, Set<string>> {
  const root = set.schemas[schemaId];
  if (!root) throw new Error(`unknown schema "${schemaId}"`);
  const ruleVars = new Map<string, Set<string>>();
  const varsOfRule = (id: string, seen: Set<string>): Set<string> => {
    const known = ruleVars.get(id);
    if (known) return known;
    const out = new Set<string>();
    const def = Object.prototype.hasOwnProperty.call(set.rules, id) ? set.rules[id] : undefined;
    if (!def || seen.has(id)) return out.add('*');
    seen.add(id);
    walkLogic(def.logic, (op, args) => {
      const first = args[0];
      if (op === 'rule') {
        if (typeof first === 'string') for (const v of varsOfRule(first, seen)) out.add(v);
        else out.add('*');
      } else if (op === 'var') {
        if (typeof first !== 'string' && !Array.isArray(first)) out.add('*');
        else if (typeof first === 'string') {
          const m = /^form\.([^.]+)/.exec(first);
          // value, item, index: the field itself or its row; anything else of the context is fixed while typing
          if (m) out.add(m[1]);
          else if (first === 'form' || first === '') out.add('*');
        }
      } else if (op === 'missing' || op === 'missing_some') out.add('*');
    });
    ruleVars.set(id, out);
    return out;
  };
  const refVars = (ref: unknown, into: Set<string>) => {
    if (typeof ref === 'string') for (const v of varsOfRule(ref, new Set())) into.add(v);
  };
  const collect = (raw: JsonSchema, docId: string, into: Set<string>, depth: number) => {
    const { schema: s, docId: doc } = derefSchema(set, raw, docId);
    for (const k of ['x-show', 'x-required', 'x-enable']) refVars(s[k], into);
    const checks = s['x-validate'];
    if (Array.isArray(checks)) for (const c of checks) if (isObject(c)) refVars(c.rule, into);
    if (depth > 20) return;
    if (isObject(s.properties)) for (const sub of Object.values(s.properties)) if (isObject(sub)) collect(sub, doc, into, depth + 1);
    if (isObject(s.items)) collect(s.items, doc, into, depth + 1);
  };
  const { schema: top, docId } = derefSchema(set, root, schemaId);
  const out = new Map<string, Set<string>>();
  if (isObject(top.properties)) {
    for (const [name, sub] of Object.entries(top.properties)) {
      const deps = new Set<string>();
      if (isObject(sub)) collect(sub, docId, deps, 0);
      out.set(name, deps);
    }
  }
  return out;
}
