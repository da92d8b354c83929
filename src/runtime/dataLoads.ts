// A screen's or a modal's declared data loads: resolved against its context, one query atom each, with
// the states its sections show (ARCHITECTURE.md "Data flow", step 2). The screen renderer and the
// modal chunk (ScreenModal.tsx) both load their data with these.
import { useEffect, useMemo, useRef } from 'react';
import { atom, useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { isTrue } from '../engine/logic';
import { flowData, resolveParams } from '../engine/screen';
import type { RuleContext } from '../engine/form';
import type { DeclarationSet, ScreenDecl } from '../engine/types';
import { ApiError, splitParams, type ApiClient } from '../api/client';
import { apiAtom, apiErrorHandlerRefAtom, dataLoadQueryKey, localeAtom, releaseVersionAtom } from '../state';
import type { DataState } from './context';
import { isRecord, operationId } from './guards';

/** Errors a section's retry panel does not handle: the session ended, the provider is unknown. */
function needsShell(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 401 || /no configuration data for/i.test(err.message));
}

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
export function loadSpecsOf(set: DeclarationSet, decls: ScreenDecl['data'], ctx: RuleContext): LoadSpec[] {
  return Object.entries(decls ?? {}).map(([key, load]) => ({
    key,
    op: load.op,
    params: resolveParams(load.params, ctx),
    active: isTrue(set.rules, load.when, ctx),
    identity: JSON.stringify([load.op, resolveParams(load.params, { ...ctx, form: {} })]),
  }));
}

/** The value of an earlier render while it is the same JSON (loads, a parsed query): a stable identity. */
export function useStableValue<T>(value: T): T {
  const ref = useRef<{ sig: string; value: T } | null>(null);
  const sig = JSON.stringify(value) ?? '';
  if (!ref.current || ref.current.sig !== sig) ref.current = { sig, value };
  return ref.current.value;
}

/** How a data load is asked of the API: the one query function of useDataLoads and of the prefetch. */
export function askLoad(api: ApiClient, handler: { current: { handle?: (err: ApiError) => unknown } }, l: LoadSpec) {
  return async () => {
    try {
      return (await api.call(operationId(l.op), { ...splitParams(l.op, l.params), silent: true })) ?? null;
    } catch (err) {
      if (needsShell(err)) handler.current.handle?.(err);
      throw err;
    }
  };
}

/**
 * Loads asked before the screen is drawn (src/shell/boot/prefetch.ts: the first screen of a page,
 * once the server carried its declarations), by query key: the screen's queries made in the next
 * half minute use their answer instead of asking again (the screen makes its queries again as the
 * shell settles); later visits of the screen ask as usual.
 */
const prefetched = new Map<string, number>();
const PREFETCH_FRESH_MS = 30_000;
export const notePrefetched = (queryKey: readonly unknown[]): void => void prefetched.set(JSON.stringify(queryKey), Date.now());

/** One query atom per data load; the combined atom gives every load's state at once. */
export function useDataLoads(loads: LoadSpec[], accountID: unknown): Record<string, DataState> {
  const api = useAtomValue(apiAtom);
  const handler = useAtomValue(apiErrorHandlerRefAtom);
  const locale = useAtomValue(localeAtom);
  const releaseVersion = useAtomValue(releaseVersionAtom);
  const stableLoads = useStableValue(loads);
  // A load asked again because the parent changed a form value (a fee ticked, a period chosen) keeps
  // showing its last answer until the new one is in: no skeleton flashes and nothing below moves
  // under the parent's finger. Only the same load of the same screen, with the same other params.
  const shown = useRef(new Map<string, { identity: string; data: unknown }>());
  const combined = useMemo(() => {
    const atoms = stableLoads.map((l) => {
      const queryKey = dataLoadQueryKey(l.op, l.params, accountID, locale, releaseVersion);
      // asked ahead as the page started (prefetchLoads): its answer is fresh, not asked again
      const asked = prefetched.get(JSON.stringify(queryKey));
      const ahead = asked !== undefined && Date.now() - asked < PREFETCH_FRESH_MS;
      const q = atomWithQuery(() => ({
        queryKey,
        enabled: l.active,
        retry: false,
        ...(ahead ? { staleTime: PREFETCH_FRESH_MS } : {}),
        placeholderData: () => {
          const last = l.active ? shown.current.get(l.key) : undefined;
          return last && last.identity === l.identity ? last.data : undefined;
        },
        queryFn: askLoad(api, handler, l),
      }));
      return [l.key, q] as const;
    });
    return atom((get) => {
      const out: Record<string, DataState> = {};
      for (const [key, q] of atoms) {
        const r = get(q);
        const status: DataState['status'] = r.isError ? 'error' : r.isSuccess ? 'success' : r.fetchStatus === 'idle' ? 'idle' : 'pending';
        out[key] = { status, data: r.data, error: r.error, refetch: () => r.refetch().then(() => undefined), refreshing: r.isPlaceholderData };
      }
      return out;
    });
  }, [stableLoads, accountID, locale, releaseVersion, api, handler]);
  const states = useAtomValue(combined);
  useEffect(() => {
    for (const l of stableLoads) {
      const st = states[l.key];
      if (st?.status === 'success' && !st.refreshing) shown.current.set(l.key, { identity: l.identity, data: st.data });
    }
  }, [stableLoads, states]);
  return states;
}
