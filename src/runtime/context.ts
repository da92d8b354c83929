// What every section, card and action of a screen reads: the screen context (rules and bindings see
// it) and the runtime's operations (run an effect, reload a data load, open a modal).
import { createContext, useContext } from 'react';
import type { ActionDecl, DeclarationSet, Effect, RuleRef, ScreenDecl, SectionDecl } from '../engine/types';
import type { RuleSet } from '../engine/logic';
import type { FormEngine, RuleContext } from '../engine/form';

/** The data a rule or a binding sees (ARCHITECTURE.md: form, query, session, provider, data, item, flow). */
export interface ScreenContextData {
  query: Record<string, unknown>;
  session: Record<string, unknown>;
  provider: Record<string, unknown>;
  data: Record<string, unknown>;
  form: Record<string, unknown>;
  flow: Record<string, unknown>;
  item?: unknown;
  /** the answer of the last submit, for its `then` effect */
  result?: unknown;
  [extra: string]: unknown;
}

export interface DataState {
  status: 'idle' | 'pending' | 'error' | 'success';
  data: unknown;
  error: unknown;
  /** asks the load again; settles once its answer is in (a save's reload waits for it) */
  refetch: () => Promise<void>;
  /** the last answer is shown while the load is asked again with the form's new values */
  refreshing?: boolean;
}

export interface ScreenRuntime {
  set: DeclarationSet;
  screen: ScreenDecl;
  rules: RuleSet;
  ctx: RuleContext;
  /** the context a form's own rules see (the form adds its values as `form`): the screen's forms left out */
  formCtx: RuleContext;
  engine: FormEngine | null;
  /** the provider's validators failed to load */
  engineFailed: boolean;
  /** asks for the form engine (a light form loads it on first focus or submit) */
  wantEngine(): void;
  country: 'US' | 'CA';
  data: Record<string, DataState>;
  /** evaluates a show/enable rule against the context (plus an item) */
  isTrue(ref: RuleRef | undefined, extra?: Partial<RuleContext>): boolean;
  /** resolves "$..." bindings against the context */
  resolve(bindings: Record<string, unknown> | undefined, extra?: Partial<RuleContext>): Record<string, unknown>;
  resolveOne(binding: unknown, extra?: Partial<RuleContext>): unknown;
  runAction(action: ActionDecl, extra?: Partial<RuleContext>): Promise<void>;
  runEffect(effect: Effect, extra?: Partial<RuleContext>): Promise<void>;
  reload(keys?: string[], ops?: string[]): void | Promise<void>;
  /** forms register so a submit can validate them and show their errors */
  registerForm(sectionId: string, handle: FormHandle): () => void;
  setFormValues(sectionId: string, values: Record<string, unknown>): void;
  busy: string | null;
}

export interface FormHandle {
  schemaId: string;
  section: Pick<SectionDecl, 'id' | 'kind'>;
  getValues(): Record<string, unknown>;
  /** marks every field as touched (submit) so all errors show, then focuses the first invalid one */
  showAllErrors(): void;
  /** a form that shows the page-level message itself (at its top) rather than the screen's */
  showPageError?(key: string | null): void;
}

export const ScreenRuntimeContext = createContext<ScreenRuntime | null>(null);

export function useScreenRuntime(): ScreenRuntime {
  const rt = useContext(ScreenRuntimeContext);
  if (!rt) throw new Error('useScreenRuntime outside <ScreenView>');
  return rt;
}

/** What the shell gives the runtime: sign out (it owns the session end) and where redirects return. */
export interface RuntimeHost {
  signOut: () => void;
  /** full URL the portal is served from, for redirectOut return addresses; defaults to location.origin + base */
  portalUrl?: string;
}

export const RuntimeHostContext = createContext<RuntimeHost>({
  signOut: () => {
    throw new Error('RuntimeHostContext.signOut is not provided by the shell');
  },
});
