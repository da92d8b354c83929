// A screen's or a modal's declared data loads: resolved against its context, one query atom each, with
// the states its sections show (ARCHITECTURE.md "Data flow", step 2). The screen renderer and the
// modal chunk (ScreenModal.tsx) both load their data with these.
import { useEffect, useMemo, useRef } from 'react';
import { atom, useAtomValue } from 'jotai';
import { atomWithQuery } from 'jotai-tanstack-query';
import { ApiError, splitParams, type ApiClient } from '../api/client';
import { apiAtom, apiErrorHandlerRefAtom, dataLoadQueryKey, localeAtom, releaseVersionAtom } from '../state';
import type { DataState } from './context';
import { operationId } from './guards';

/** Errors a section's retry panel does not handle: the session ended, the provider is unknown. */
function needsShell(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 401 || /no configuration data for/i.test(err.message));
}

// how a screen's first loads resolve: one module for the browser and the server (src/engine/loads.ts)
export { declaredFormValues, loadSpecsOf, mergeForms, screenRuleContext, type LoadSpec } from '../engine/loads';
import type { LoadSpec } from '../engine/loads';

/** The value of an earlier render while it is the same JSON (loads, a parsed query): a stable identity. */
export function useStableValue<T>(value: T): T {
  const ref = useRef<{ sig: string; value: T } | null>(null);
  const sig = JSON.stringify(value) ?? '';
  if (!ref.current || ref.current.sig !== sig) ref.current = { sig, value };
  return ref.current.value;
}

/**
 * How a data load is asked of the API (the query function of useDataLoads). The page's first screen
 * takes the answer the early script asked for as the page started (firstPaintEarly.ts), when it holds
 * this load for this account; every other time it asks the API.
 */
export function askLoad(api: ApiClient, handler: { current: { handle?: (err: ApiError) => unknown } }, l: LoadSpec, accountID?: unknown) {
  return async ({ queryKey }: { queryKey: readonly unknown[] }) => {
    // the page's first screen: the answer the early script asked for as the page came, once, for
    // this account and language (queryKey: dataLoadQueryKey); asked again, it is the API's
    const early = await (window as EarlyWindow).ppEarlyAnswer?.(l.op, l.params, accountID, queryKey[3]);
    if (early) {
      keepFresh(queryKey, EARLY_FRESH_MS);
      return early.answer ?? null;
    }
    try {
      return (await api.call(operationId(l.op), { ...splitParams(l.op, l.params), silent: true })) ?? null;
    } catch (err) {
      if (needsShell(err)) handler.current.handle?.(err);
      throw err;
    }
  };
}

/** What the early script offers (src/shell/boot/firstPaintEarly.ts earlyAnswer), for half a minute from the scripts' first question. */
type EarlyWindow = { ppEarlyAnswer?: (op: string, params: Record<string, unknown>, accountID: unknown, lang: unknown) => Promise<{ answer: unknown } | undefined> };

/**
 * Loads answered before their screen asked (the early script's answers, the entry's public loads the
 * server carried), by query key, with how long: the screen's queries made in that time keep the
 * answer instead of asking again (the screen makes its queries again as the shell settles); later
 * visits of the screen ask as usual.
 */
const answeredAhead = new Map<string, { at: number; ms: number }>();
const EARLY_FRESH_MS = 30_000;
export const keepFresh = (queryKey: readonly unknown[], ms: number): void => void answeredAhead.set(JSON.stringify(queryKey), { at: Date.now(), ms });
const freshFor = (queryKey: readonly unknown[]): number => {
  const ahead = answeredAhead.get(JSON.stringify(queryKey));
  return ahead && Date.now() - ahead.at < ahead.ms ? ahead.ms : 0;
};

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
      const q = atomWithQuery(() => ({
        queryKey,
        enabled: l.active,
        retry: false,
        // answered early as the page started: fresh, not asked again for half a minute
        staleTime: (query: { queryKey: readonly unknown[] }) => freshFor(query.queryKey),
        placeholderData: () => {
          const last = l.active ? shown.current.get(l.key) : undefined;
          return last && last.identity === l.identity ? last.data : undefined;
        },
        queryFn: askLoad(api, handler, l, accountID),
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
