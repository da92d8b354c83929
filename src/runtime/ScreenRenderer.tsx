// Renders a declared screen: its data loads (jotai-tanstack-query atoms keyed [op, params]), its
// sections by kind, modals and actions. No layout chrome: the shell's layout wraps it.
import { startTransition, Suspense, useCallback, useContext, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { atom, useAtom, useAtomValue, useSetAtom, useStore } from 'jotai';
import { loadable } from 'jotai/utils';
import { queryClientAtom } from 'jotai-tanstack-query';
import { useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { Alert, Stack } from '@chakra-ui/react';
import { isTrue } from '../engine/logic';
import { resolveBinding, resolveParams, screenModel, screenReadsForm } from '../engine/screen';
import type { RuleContext } from '../engine/form';
import type { DeclarationSet, Effect, ScreenDecl } from '../engine/types';
import { apiAtom, declarationsAtom, formEngineAtom, pageTitleAtom, providerAtom, sessionAtom } from '../state';
import { RuntimeHostContext, ScreenRuntimeContext, type FormHandle, type ScreenRuntime } from './context';
import type { EffectDeps } from './effects';
import { toSearch } from './search';
import { useRuntimeT } from './i18n';
import { ActionBar } from './Actions';
import { RetryPanel, SectionView } from './Section';
import { ScreenSkeleton, SectionSkeleton } from './Skeletons';
import { declaredFormValues, loadSpecsOf, mergeForms, screenRuleContext, useDataLoads, useStableValue } from './dataLoads';
import { loadSections, sectionsLoaded } from './registry';
import { onFirstInput } from './firstInput';
import { lazyWhenOnline, whenOnline } from './whenOnline';
import { lazyNamespacesOf } from './namespaces';
import { loadNamespaces, useTranslation } from './texts';

export interface ScreenViewProps {
  screen: ScreenDecl;
  /** the typed query of the screen (engine parseQuery) */
  query?: Record<string, unknown>;
}

/** How long the first loads of a screen may hold its first paint back. */
/**
 * The effect runner (submit, navigate, calls, flows, uploads) is a chunk of its own: no effect runs
 * before the parent acts, so the first paint does not load it. It is fetched on the parent's first
 * input on the page (before the click's effect asks for it) or by the first effect.
 */
// (with the engine's messages: a page-level message or an upload's can show without the engine)
const loadEffects = whenOnline(() => Promise.all([import('./effects'), loadNamespaces('errors')]).then(([m]) => m));

function lazyEffectRunner(deps: EffectDeps) {
  let made: Promise<ReturnType<Awaited<ReturnType<typeof loadEffects>>['createEffectRunner']>> | undefined;
  const runner = () => (made ??= loadEffects().then((m) => m.createEffectRunner(deps)));
  return {
    run: async (effect: Effect, extra?: Partial<RuleContext>) => (await runner()).run(effect, extra),
    runAction: async (action: Parameters<ScreenRuntime['runAction']>[0], extra?: Partial<RuleContext>) => (await runner()).runAction(action, extra),
  };
}

/** Starts the effect runner's chunk on the parent's first pointer or key input. */
function useEffectsOnFirstInput() {
  useEffect(() => onFirstInput(window, () => void loadEffects().catch(() => undefined), ['pointerdown', 'keydown', 'focusin']), []);
}

const OPENING_MS = 3000;

/**
 * The form engine with its messages: the engine's error keys (errors namespace) are not a start
 * namespace, so they load with the engine, before any message can show.
 */
const engineWithTextsAtom = atom(async (get) => (await Promise.all([get(formEngineAtom), loadNamespaces('errors')]))[0]);
const engineLoadable = loadable(engineWithTextsAtom);

/**
 * Has a store's form engine in before its screen is drawn in one pass (the server's drawing ahead,
 * src/shell/boot/screenPaint.tsx): the screen then draws its forms rather than their skeleton.
 */
export async function engineIn(store: ReturnType<typeof useStore>): Promise<void> {
  store.get(engineLoadable);
  await store.get(engineWithTextsAtom);
  // the loadable's own answer to the settled promise
  await Promise.resolve();
}
const noEngineLoadable = atom({ state: 'hasData' as const, data: null });

const isFullForm = (s: { kind: string; renderer?: unknown }) => s.kind === 'form' && s.renderer !== 'light';

/**
 * Whether a screen needs the form engine as it opens (a full form section on the page). A modal's
 * form asks for it when the modal opens, a light form on first focus or submit.
 */
export function screenHasForm(screen: ScreenDecl): boolean {
  return screen.sections.some(isFullForm);
}

export function ScreenRenderer({ screen, query = {} }: ScreenViewProps) {
  const declarations = useAtomValue(declarationsAtom);
  const { t } = useRuntimeT();
  // the sections' code (the forms' too, now that the set says which renderer draws them) loads while
  // the screen's texts are fetched, not after
  useEffect(() => void loadSections(screen.sections), [screen.sections]);
  if (declarations.isError) {
    return <RetryPanel label={t('runtime:screenDefinition')} error={declarations.error} onRetry={() => void declarations.refetch()} />;
  }
  if (!declarations.data) return <SectionSkeleton />;
  const lazy = lazyNamespacesOf(screen, declarations.data.schemas, declarations.data.rules);
  const body = <ScreenBody key={screen.id} set={declarations.data} screen={screen} query={query} />;
  if (!lazy.length) return body;
  return (
    <Suspense fallback={<SectionSkeleton />}>
      <WithTexts namespaces={lazy}>{body}</WithTexts>
    </Suspense>
  );
}

/** Suspends until the screen's lazily fetched texts (payments) are in. */
function WithTexts({ namespaces, children }: { namespaces: string[]; children: React.ReactNode }) {
  useTranslation(namespaces);
  return children;
}

function ScreenBody({ set, screen, query }: { set: DeclarationSet; screen: ScreenDecl; query: Record<string, unknown> }) {
  const [session, setSession] = useAtom(sessionAtom);
  const provider = useAtomValue(providerAtom);
  const [engineWanted, setEngineWanted] = useState(() => screenHasForm(screen));
  useEffectsOnFirstInput();
  const engineState = useAtomValue(engineWanted ? engineLoadable : noEngineLoadable);
  const store = useStore();
  const api = useAtomValue(apiAtom);
  const host = useContext(RuntimeHostContext);
  const [, navigate] = useLocation();
  const { t, tk } = useRuntimeT();

  const [formValues, setFormValuesState] = useState<Record<string, Record<string, unknown>>>(() => declaredFormValues(screen));
  // every form's latest values; the state above follows them only when the screen's rules read them
  const latestForms = useRef<Record<string, Record<string, unknown>>>(formValues);
  const formsRef = useRef(new Map<string, FormHandle>());
  // effects waiting for a form that is still loading (a modal's lazy form), woken when any form registers
  const formWaiters = useRef<(() => void)[]>([]);
  const [modal, setModal] = useState<{ id: string; pending?: { effect: Effect; extra: Partial<RuleContext> } } | null>(null);
  const [pageError, setPageError] = useState<string | null>(null);
  const [upload, setUpload] = useState<{ pct: number } | null>(null);
  const [uploadError, setUploadError] = useState<{ key: string; params: Record<string, unknown> } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const topRef = useRef<HTMLDivElement>(null);

  const stableQuery = useStableValue(query);
  const historyState = useHistoryState<{ notice?: Record<string, unknown> } | null>();
  const notice = useStableValue(historyState && typeof historyState.notice === 'object' && historyState.notice ? historyState.notice : {});
  const providerData = useMemo<Record<string, unknown>>(() => ({ ...provider.data }), [provider.data]);
  const sessionData = useMemo<Record<string, unknown>>(() => ({ ...session }), [session]);
  // the context apart from the forms' values: the same as the server's first loads' (server/domains/provider/firstLoads.ts)
  const withoutForm = useMemo(() => screenRuleContext({ query: stableQuery, notice, session: sessionData, provider: providerData, form: {} }), [stableQuery, notice, sessionData, providerData]);
  // typing re-renders the form at once; the rest of the screen follows at low priority
  const deferredForms = useDeferredValue(formValues);
  // the same object while the values stay the same: a form reporting the values it opened with (an
  // empty filter) would otherwise rebuild the screen's model and redraw every section once more
  const form = useStableValue(useMemo(() => mergeForms(deferredForms), [deferredForms]));
  const baseCtx = useMemo<RuleContext>(() => ({ ...withoutForm, form }), [withoutForm, form]);

  // data loads resolve against query, session, provider and flow (not against other loads)
  const loads = loadSpecsOf(set, screen.data, baseCtx);
  const data = useDataLoads(loads, session.accountID);
  const dataValues = useMemo(() => Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.data])), [data]);
  // a form's own rules see its values as $form: their context leaves the screen's forms out, so it
  // keeps its identity while the parent types
  const formCtx = useMemo<RuleContext>(() => ({ ...withoutForm, data: dataValues }), [withoutForm, dataValues]);
  const ctx = useMemo<RuleContext>(() => ({ ...formCtx, form }), [formCtx, form]);
  const ctxRef = useRef(ctx);
  ctxRef.current = ctx;
  // a page titled by its data (titleFrom): the shell shows it once the load answered
  const setPageTitle = useSetAtom(pageTitleAtom);
  const dataTitle = screen.titleFrom ? resolveBinding(screen.titleFrom, formCtx) : undefined;
  // or by rules on that data (titleWhen), once no load is pending: the first that holds
  const titleLoadsPending = Boolean(screen.titleWhen) && Object.values(data).some((d) => d.status === 'pending');
  const ruleTitle = screen.titleWhen && !titleLoadsPending ? screen.titleWhen.find((w) => isTrue(set.rules, w.when, formCtx))?.title : undefined;
  const titleText = typeof dataTitle === 'string' && dataTitle.trim() ? dataTitle : ruleTitle ? tk(ruleTitle) : null;
  const titled = Boolean(screen.titleFrom || screen.titleWhen);
  useEffect(() => {
    if (!titled) return;
    setPageTitle(titleText ? { screenId: screen.id, title: titleText } : null);
    return () => setPageTitle(null);
  }, [screen.id, titled, titleText, setPageTitle]);

  const queryClient = useAtomValue(queryClientAtom);
  const reload = useCallback(
    async (keys?: string[], ops?: string[]) => {
      // awaited: a screen a save leaves and the parent opens again must not draw the old answer first
      // (its form keeps the values it was drawn with)
      if (keys || !ops) await Promise.all(Object.entries(data).filter(([k]) => !keys || keys.includes(k)).map(([, d]) => d.refetch()));
      // the screen a save returns to must not show its cached, now old, data first
      if (ops?.length) await Promise.all(ops.map((op) => queryClient.invalidateQueries({ queryKey: [op], refetchType: 'all' })));
    },
    [data, queryClient],
  );

  const engine = engineState.state === 'hasData' ? engineState.data : null;
  const engineFailed = engineState.state === 'hasError';
  const { signOut, portalUrl } = host;
  const runner = useMemo(
    () =>
      lazyEffectRunner({
        set,
        api,
        engine,
        loadEngine: () => {
          setEngineWanted(true);
          return store.get(engineWithTextsAtom);
        },
        // effects see what was typed last, whether or not the screen re-rendered for it
        getCtx: () => ({ ...ctxRef.current, form: mergeForms(latestForms.current) }),
        forms: () => [...formsRef.current.values()],
        formRegistered: () => new Promise<void>((r) => void formWaiters.current.push(r)),
        navigate: (to, q, replace, notice) => navigate(`${to}${toSearch(q)}`, { replace, state: notice ? { notice } : undefined }),
        openModal: (id, pending) => {
          // the form runtime and validators load with the first modal that holds a form
          if ((screen.modals ?? []).find((m) => m.id === id)?.sections?.some(isFullForm)) setEngineWanted(true);
          setModal({ id, pending });
        },
        closeModal: () => setModal(null),
        signOut,
        reload,
        updateSession: (fn) => setSession((s) => fn(s)),
        setPageError: (key) => {
          setPageError(key);
          if (key) topRef.current?.scrollIntoView?.({ block: 'start' });
        },
        pickFile: (accept) =>
          new Promise<File | null>((resolve) => {
            const input = fileRef.current;
            if (!input) return resolve(null);
            input.accept = (accept ?? []).map((a) => (a.startsWith('.') ? a : `.${a}`)).join(',');
            input.value = '';
            const done = () => {
              input.removeEventListener('change', done);
              input.removeEventListener('cancel', done);
              resolve(input.files?.[0] ?? null);
            };
            input.addEventListener('change', done);
            input.addEventListener('cancel', done);
            input.click();
          }),
        setUpload,
        setUploadError,
        assignLocation: (url) => window.location.assign(url),
        currentPath: () => window.location.pathname,
        print: () => window.print(),
        origin: portalUrl ?? (typeof window === 'undefined' ? '' : window.location.origin),
      }),
    [set, api, engine, store, navigate, screen.modals, signOut, portalUrl, reload, setSession],
  );

  const rules = set.rules;
  const wantEngine = useCallback(() => setEngineWanted(true), []);
  const isTrueRule = useCallback<ScreenRuntime['isTrue']>((ref, extra) => isTrue(rules, ref, { ...ctxRef.current, ...extra }), [rules]);
  const resolve = useCallback<ScreenRuntime['resolve']>((b, extra) => resolveParams(b, { ...ctxRef.current, ...extra }), []);
  const resolveOne = useCallback<ScreenRuntime['resolveOne']>((b, extra) => resolveBinding(b, { ...ctxRef.current, ...extra }), []);
  const registerForm = useCallback<ScreenRuntime['registerForm']>((id, handle) => {
    formsRef.current.set(id, handle);
    const waiting = formWaiters.current.splice(0);
    for (const w of waiting) w();
    return () => void formsRef.current.delete(id);
  }, []);
  const readsForm = useMemo(() => screenReadsForm(set, screen), [set, screen]);
  // the page's 'please correct' message goes once every form on the page is valid again (not only at
  // the next submit: a message left above fields already corrected says they are not)
  const pageErrorRef = useRef(pageError);
  pageErrorRef.current = pageError;
  const engineRef = useRef(engine);
  engineRef.current = engine;
  const setFormValues = useCallback<ScreenRuntime['setFormValues']>(
    (id, values) => {
      if (latestForms.current[id] === values) return;
      latestForms.current = { ...latestForms.current, [id]: values };
      if (readsForm) setFormValuesState(latestForms.current);
      const checker = engineRef.current;
      if (pageErrorRef.current && checker) {
        const c = { ...ctxRef.current, form: mergeForms(latestForms.current) };
        if ([...formsRef.current.values()].every((f) => checker.validate(f.schemaId, f.getValues(), c).valid)) setPageError(null);
      }
    },
    [readsForm],
  );
  const country = session.countryCode === 'CA' ? 'CA' : 'US';
  const rt = useMemo<ScreenRuntime>(
    () => ({
      set,
      screen,
      rules,
      ctx,
      formCtx,
      engine,
      engineFailed,
      wantEngine,
      country,
      data,
      isTrue: isTrueRule,
      resolve,
      resolveOne,
      runAction: runner.runAction,
      runEffect: runner.run,
      reload,
      registerForm,
      setFormValues,
      busy: null,
    }),
    [set, screen, rules, ctx, formCtx, engine, engineFailed, wantEngine, country, data, isTrueRule, resolve, resolveOne, runner, reload, registerForm, setFormValues],
  );

  // The screen opens in one paint: while its first loads are on their way it shows one skeleton, so
  // sections that appear with their data do not push the ones below down (layout shift) and the
  // screen is not drawn once per answer. A slow load holds the others back at most OPENING_MS.
  // The code of the sections' kinds is waited for too: a section first drawn as a fallback and then
  // as cards would move everything below it.
  const [codeLoaded, setCodeLoaded] = useState(() => sectionsLoaded(screen.sections));
  useEffect(() => {
    let live = true;
    void loadSections(screen.sections).then(() => live && setCodeLoaded(true));
    return () => void (live = false);
  }, [screen.sections]);
  // The sections are then drawn in a transition, which React renders in slices between which the
  // browser answers input, not as one long task.
  // So are a form's validators (the form engine): a form drawn as a skeleton first would push down
  // every section below it as it arrives.
  const firstLoadsPending = !codeLoaded || (engineWanted && engineState.state === 'loading') || Object.values(data).some((d) => d.status === 'pending');
  const [opened, setOpened] = useState(!firstLoadsPending);
  useEffect(() => {
    if (!firstLoadsPending) startTransition(() => setOpened(true));
  }, [firstLoadsPending]);
  useEffect(() => {
    const timer = setTimeout(() => startTransition(() => setOpened(true)), OPENING_MS);
    return () => clearTimeout(timer);
  }, []);
  const opening = !opened;

  // a rule that throws is an error everywhere (ARCHITECTURE.md): shown, never swallowed
  const built = useMemo(() => {
    if (opening) return { model: undefined, error: undefined };
    try {
      return { model: screenModel(set, screen.id, ctx), error: undefined };
    } catch (err) {
      return { model: undefined, error: err };
    }
  }, [set, screen.id, ctx, opening]);
  // the same elements while the model stays: typing re-renders the form, not every section
  const sections = useMemo(() => built.model?.sections.map((s) => <SectionView key={s.id} section={s} />), [built.model]);
  const actionBar = useMemo(() => (built.model ? <ActionBar actions={built.model.actions} /> : null), [built.model]);
  if (opening) return <ScreenSkeleton />;
  if (!built.model) {
    return (
      <Suspense fallback={null}>
        <RuleErrorNotice err={built.error} screenId={screen.id} appName={session.appName} />
      </Suspense>
    );
  }
  const model = built.model;

  const openModal = modal ? model.modals.find((m) => m.id === modal.id) : undefined;

  return (
    <ScreenRuntimeContext.Provider value={rt}>
      <Stack gap="6" ref={topRef} data-screen={screen.id}>
        {pageError ? (
          <Alert.Root status="error" role="alert" data-page-error="">
            <Alert.Indicator />
            <Alert.Title>{tk(pageError)}</Alert.Title>
          </Alert.Root>
        ) : null}
        {engineFailed ? <RetryPanel label={t('runtime:formRules')} error={engineState.state === 'hasError' ? engineState.error : undefined} onRetry={() => window.location.reload()} /> : null}
        {uploadError ? (
          <Alert.Root status="error" role="alert">
            <Alert.Indicator />
            <Alert.Title>{tk(uploadError.key, uploadError.params)}</Alert.Title>
          </Alert.Root>
        ) : null}
        {upload ? (
          <Suspense fallback={null}>
            <UploadProgress pct={upload.pct} />
          </Suspense>
        ) : null}
        {sections}
        {actionBar}
        <input ref={fileRef} type="file" hidden aria-hidden="true" tabIndex={-1} />
      </Stack>
      {openModal ? (
        <Suspense fallback={null}>
          <ScreenModal
            key={modal!.id}
            set={set}
            rt={rt}
            modalId={openModal.id}
            extra={modal?.pending?.extra ?? {}}
            accountID={session.accountID}
            onClose={() => setModal(null)}
            onConfirm={
              modal?.pending
                ? async (a, modalCtx) => {
                    const pending = { ...modal.pending!, extra: { ...modal.pending!.extra, ...modalCtx } };
                    // a confirm modal's 'confirm' action runs the effect that asked for it; the modal
                    // stays open until it succeeds, so its form is still there to be submitted
                    if (a.effect.type !== 'closeModal') await runner.run(a.effect, pending.extra);
                    await runner.run(pending.effect, pending.extra);
                    setModal(null);
                  }
                : undefined
            }
          />
        </Suspense>
      ) : null}
    </ScreenRuntimeContext.Provider>
  );
}

// a rule that throws (a declaration error) shows its notice, a chunk of its own
const RuleErrorNotice = lazyWhenOnline(() => import('./RuleErrorNotice'));

/**
 * An open modal: its rules, bindings and sections see the item of the action that opened it
 * (`$item`) and the modal's own data loads (e.g. an adult's autopay status before dropping it).
 */
// a declared modal (its loads, its dialog and focus trap) loads when a modal first opens
const ScreenModal = lazyWhenOnline(() => import('./ScreenModal'));

// the progress bar (and its state machine) loads when a first upload starts
const UploadProgress = lazyWhenOnline(() => import('./UploadProgress'));


export default ScreenRenderer;
