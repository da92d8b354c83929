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
    prefetchLoads(queryClient, store.get(apiAtom), store.get(apiErrorHandlerRefAtom), loadSpecsOf(set, match.screen.data, ctx), session.accountID, session.locale, session.releaseVersion);
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
): void {
  for (const l of loads) {
    if (!l.active) continue;
    const queryKey = dataLoadQueryKey(l.op, l.params, accountID, locale, releaseVersion);
    // the screen was drawn before this chunk came: it has asked already
    if (queryClient.getQueryState(queryKey)) continue;
    notePrefetched(queryKey);
    void queryClient.prefetchQuery({ queryKey, queryFn: askLoad(api, handler, l), retry: false });
  }
}
