// The shell's view of the state: session, provider record, effective screens and rules.
import { useAtom, useAtomValue } from 'jotai';
import { useCallback, useMemo } from 'react';
import { isTrue } from '../engine/logic';
import type { RuleDef, RuleRef, ScreenDecl } from '../engine/types';
import { declarationsAtom, providerAtom, sessionAtom, type ProviderRecord } from '../state';
import menuRules from '../../rules/menu.rules.json';
import shellRules from '../../rules/shell.rules.json';
import { effectiveScreens, hasScreenAt } from './routing/screens';

export function useSession() {
  return useAtom(sessionAtom);
}

/** Signed in: a token is present (spec 2.2) and the session has not been declared expired. */
export function useSignedIn(): boolean {
  const [session] = useSession();
  return Boolean(session.token) && !session.sessionExpired;
}

export function useProvider(): ProviderRecord | undefined {
  const q = useAtomValue(providerAtom);
  return q.data as ProviderRecord | undefined;
}

export function useScreens(): Record<string, ScreenDecl> {
  const decl = useAtomValue(declarationsAtom);
  return useMemo(() => effectiveScreens(decl.data?.screens), [decl.data]);
}

export function useHasScreen(): (path: string) => boolean {
  const screens = useScreens();
  return useCallback((path: string) => hasScreenAt(screens, path), [screens]);
}

/** The provider's rules; the chrome's rules (shell, menu) are bundled so it works before they load. */
export function useRules(): Record<string, RuleDef> {
  const decl = useAtomValue(declarationsAtom);
  return useMemo(() => ({ ...(menuRules.rules as Record<string, RuleDef>), ...(shellRules.rules as Record<string, RuleDef>), ...(decl.data?.rules ?? {}) }), [decl.data]);
}

/** Evaluates rule references against the shell's context (session, provider, query). */
export function useRule(query: Record<string, unknown> = {}): (ref: RuleRef | undefined) => boolean {
  const rules = useRules();
  const [session] = useSession();
  const provider = useProvider();
  return useCallback(
    (ref: RuleRef | undefined) => isTrue(rules, ref, { session, provider: provider ?? {}, query, data: {}, form: {}, flow: {} }),
    // query is compared by content: callers pass fresh objects
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [rules, session, provider, JSON.stringify(query)],
  );
}

/** Posts a message to the native app wrapper when the portal runs inside it. */
export function postToNative(message: Record<string, unknown>): boolean {
  const bridge = (window as unknown as { ReactNativeWebView?: { postMessage(m: string): void } }).ReactNativeWebView;
  if (!bridge) return false;
  bridge.postMessage(JSON.stringify(message));
  return true;
}
