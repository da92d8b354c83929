// A signed-in page opened cold: its screen's data loads are asked as the portal starts, beside its
// code and texts, instead of after the shell's first render (one more round trip on a slow network,
// and the time of that render on a cheap phone). Only when the server carried the provider's
// declarations and record (seedBootData): the loads are the provider's own, resolved against the
// screen renderer's own opening context (screenRuleContext), so the screen finds them asked.
import type { QueryClient } from '@tanstack/query-core';
import type { Store } from 'jotai/vanilla/store';
import { matchRoute, parseQuery } from '../../engine/screen';
import type { DeclarationSet } from '../../engine/types';
import { askLoad, declaredFormValues, loadSpecsOf, mergeForms, notePrefetched, screenRuleContext, type LoadSpec } from '../../runtime/dataLoads';
import { loadKey } from '../../engine/loads';
import { isRecord } from '../../runtime/guards';
import { apiAtom, apiErrorHandlerRefAtom, dataLoadQueryKey, programQueryKey, sessionAtom } from '../../state';
import type { ApiClient } from '../../api/client';
import { effectiveScreens, PRODUCT_BASE } from '../routing/screens';

export function prefetchFirstScreen(queryClient: QueryClient, store: Store): void {
  const session = store.get(sessionAtom);
  if (!session.token || !session.appName) return;
  const set = queryClient.getQueryData<DeclarationSet>(['Customer.declarations', { appName: session.appName }, session.releaseVersion]);
  const provider = queryClient.getQueryData<Record<string, unknown>>(programQueryKey(session.appName, session.locale));
  if (!set || !provider) return;
  const path = window.location.pathname.slice(PRODUCT_BASE.length) || '/';
  const match = matchRoute({ screens: effectiveScreens(set.screens) }, path.startsWith('/') ? path : `/${path}`);
  if (!match?.screen.data) return;
  const parsed = parseQuery(match.screen, window.location.search);
  if (parsed.errors.length) return; // a broken link: the screen loads nothing for it
  const query = { ...match.params, ...parsed.query };
  const state = window.history.state as { notice?: Record<string, unknown> } | null;
  // the screen renderer's opening context (its forms' declared first values included)
  const ctx = screenRuleContext({
    query,
    notice: state && typeof state.notice === 'object' && state.notice ? state.notice : {},
    session: { ...session },
    provider: { ...provider },
    form: mergeForms(declaredFormValues(match.screen)),
  });
  try {
    const asked = firstLoadsAnswer(session.locale);
    prefetchLoads(queryClient, store.get(apiAtom), store.get(apiErrorHandlerRefAtom), loadSpecsOf(set, match.screen.data, ctx), session.accountID, session.locale, session.releaseVersion, asked);
  } catch {
    // a rule the early context cannot evaluate: the screen asks for its loads itself
  }
}

function prefetchLoads(
  queryClient: QueryClient,
  api: ApiClient,
  // the shell's error handler, read when a load fails: the screen's query takes this request over
  // while it is on its way, so a session ended or an old release is handled as the screen would
  handler: Parameters<typeof askLoad>[1],
  loads: LoadSpec[],
  accountID: unknown,
  locale: string,
  releaseVersion: string,
  asked: Promise<ReadonlyMap<string, unknown> | null> | null,
): void {
  for (const l of loads) {
    if (!l.active) continue;
    const queryKey = dataLoadQueryKey(l.op, l.params, accountID, locale, releaseVersion);
    // the screen was drawn before this chunk came: it has asked already
    if (queryClient.getQueryState(queryKey)) continue;
    notePrefetched(queryKey);
    const ask = askLoad(api, handler, l);
    // the answer the page asked for as its first bytes came, when it holds this load; else its own request
    const queryFn = asked ? () => asked.then((answers) => (answers?.has(loadKey(l.op, l.params)) ? answers.get(loadKey(l.op, l.params)) : ask())) : ask;
    void queryClient.prefetchQuery({ queryKey, queryFn, retry: false });
  }
}

/**
 * The first data loads the early script asked for (src/shell/boot/firstPaintEarly.ts,
 * server/firstLoads.ts), by load, once; null when it asked none. An answer in another language than
 * the session's (the page's language changed as it started) is not used.
 */
function firstLoadsAnswer(locale: string): Promise<ReadonlyMap<string, unknown> | null> | null {
  const w = window as { ppFirstLoads?: Promise<unknown> };
  const pending = w.ppFirstLoads;
  delete w.ppFirstLoads;
  if (!pending) return null;
  return pending.then((body) => {
    if (!isRecord(body) || body.lang !== locale || !Array.isArray(body.loads)) return null;
    const answers = new Map<string, unknown>();
    for (const l of body.loads as unknown[]) if (isRecord(l) && typeof l.op === 'string' && isRecord(l.params)) answers.set(loadKey(l.op, l.params), l.answer);
    return answers;
  });
}
