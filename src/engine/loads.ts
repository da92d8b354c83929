// A screen's first data loads, resolved as the screen renderer resolves them before any has answered:
// the browser's screen renderer and prefetch, and the server's first-loads answer
// (server/firstLoads.ts), resolve them with these, so the same loads mean the same requests.
import { isTrue } from './logic';
import { flowData, resolveParams } from './screen';
import type { RuleContext } from './form';
import type { DeclarationSet, ScreenDecl } from './types';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface LoadSpec {
  key: string;
  op: string;
  params: Record<string, unknown>;
  active: boolean;
  /** the load's identity apart from the screen's form values (its params resolved with no form) */
  identity: string;
}

/**
 * The literal first values the screen's forms declare (`initial`): a load that reads `$form` (a
 * filter's period) asks once, with them, instead of once empty and again when the form has drawn.
 */
export function declaredFormValues(screen: ScreenDecl): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const s of screen.sections) {
    if (s.kind !== 'form' || !isRecord(s.initial)) continue;
    out[s.id] = Object.fromEntries(Object.entries(s.initial).filter(([, v]) => !(typeof v === 'string' && v.startsWith('$'))));
  }
  return out;
}

/** The values of every form of a screen as one object: `$form.x`. */
export const mergeForms = (forms: Record<string, Record<string, unknown>>) => Object.values(forms).reduce<Record<string, unknown>>((all, values) => ({ ...all, ...values }), {});

/**
 * The context a screen's rules and loads resolve against, before any load has answered: the screen
 * renderer's, and the prefetch's that asks the first screen's loads ahead (the same context, so the
 * same requests). `form` is the screen's forms' values (mergeForms).
 */
export function screenRuleContext(parts: { query: Record<string, unknown>; notice: Record<string, unknown>; session: Record<string, unknown>; provider: Record<string, unknown>; form: Record<string, unknown> }): RuleContext {
  const applications = isRecord(parts.session.applications) ? parts.session.applications : {};
  return { query: parts.query, notice: parts.notice, session: parts.session, provider: parts.provider, flow: flowData({ ...applications }, parts.query), form: parts.form, data: {} };
}

/** The loads a screen or modal declares, resolved against its context. */
export function loadSpecsOf(set: Pick<DeclarationSet, 'rules'>, decls: ScreenDecl['data'], ctx: RuleContext): LoadSpec[] {
  return Object.entries(decls ?? {}).map(([key, load]) => ({
    key,
    op: load.op,
    params: resolveParams(load.params, ctx),
    active: isTrue(set.rules, load.when, ctx),
    identity: JSON.stringify([load.op, resolveParams(load.params, { ...ctx, form: {} })]),
  }));
}
