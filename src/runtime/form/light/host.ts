// The form host: what the full form (RJSF) and the light form share. It holds a form's values, the
// fields touched (changed or left: their errors show from then on), whether a submit was tried (all
// errors show), the page-level message of a light form and a pending focus; it registers the form
// with the screen runtime and hands the values to the screen's rules. The state lives in a small
// store outside React, so a test (or anything else) can drive a form without a browser.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { FieldError, FieldState, FormEngine, RuleContext } from '../../../engine/form';
import { formDependencies } from '../../../engine/fields/formDependencies';
import type { DeclarationSet } from '../../../engine/types';
import type { RenderSectionOf } from '../../kindProps';
import { useScreenRuntime, type FormHandle, type ScreenRuntime } from '../../context';
import { fieldOf, isRecord } from '../../guards';
import { fieldIdOf } from './fieldId';

export interface FormHostState {
  values: Record<string, unknown>;
  /** field ids (`<section>_<name>`, rows `<section>_<list>_<i>_<name>`) changed or left */
  touched: ReadonlySet<string>;
  /** a submit was tried: every error shows */
  submitted: boolean;
  /** the page-level message a light form shows at its top */
  pageError: string | null;
  /** a failed submit asks for the first invalid field to get focus once its errors are drawn */
  focusPending: boolean;
}

export interface FormHost {
  getState(): FormHostState;
  subscribe(listener: () => void): () => void;
  setValues(next: Record<string, unknown> | ((prev: Record<string, unknown>) => Record<string, unknown>)): void;
  /** a field was changed or left */
  touch(id: string): void;
  /** after a failed submit: all errors, and focus on the first invalid field */
  showAllErrors(): void;
  showPageError(key: string | null): void;
  /** the pending focus was handled */
  focused(): void;
}

// A press on a submit button takes the focus from the field first: the field's message would appear
// on that blur and push the button down before the press is released, and the tap would be lost.
// While such a press lasts, leaving a field touches nothing; the submit shows every message anyway.
let submitPressed = false;
if (typeof window !== 'undefined') {
  window.addEventListener('pointerdown', (e) => void (submitPressed = e.target instanceof Element && e.target.closest('button[type=submit], [data-submits]') !== null), true);
  const released = () => setTimeout(() => void (submitPressed = false), 0);
  window.addEventListener('pointerup', released, true);
  window.addEventListener('pointercancel', released, true);
}

export function createFormHost(initial: Record<string, unknown>): FormHost {
  let state: FormHostState = { values: initial, touched: new Set(), submitted: false, pageError: null, focusPending: false };
  const listeners = new Set<() => void>();
  const update = (next: FormHostState) => {
    if (next === state) return;
    state = next;
    for (const l of [...listeners]) l();
  };
  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setValues(next) {
      const values = typeof next === 'function' ? next(state.values) : next;
      if (values !== state.values) update({ ...state, values });
    },
    touch(id) {
      if (!submitPressed && !state.touched.has(id)) update({ ...state, touched: new Set(state.touched).add(id) });
    },
    showAllErrors: () => update({ ...state, submitted: true, focusPending: true }),
    showPageError: (key) => {
      if (key !== state.pageError) update({ ...state, pageError: key });
    },
    focused: () => {
      if (state.focusPending) update({ ...state, focusPending: false });
    },
  };
}

/** A form's first values: the `initial` binding ("$data.adults.0"), else the section's source data. */
export function initialValues(rt: Pick<ScreenRuntime, 'resolveOne'>, section: Pick<RenderSectionOf<'form'>, 'initial'>, data: unknown): Record<string, unknown> {
  const start = section.initial !== undefined ? rt.resolveOne(section.initial) : data;
  return isRecord(start) ? { ...start } : {};
}

/**
 * Focuses the first field marked invalid; a group (checkboxes, radios, a picker) focuses its first
 * control, or the group itself when it has none, so focus never stays on the page's body.
 */
export function focusFirstInvalid(root: ParentNode | null | undefined): boolean {
  const first = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!first) return false;
  const native = ['INPUT', 'SELECT', 'TEXTAREA', 'BUTTON'].includes(first.tagName);
  let target: HTMLElement | null = native ? first : first.querySelector<HTMLElement>('input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])');
  if (!target) {
    first.tabIndex = -1;
    target = first;
  }
  target.focus();
  return true;
}

/** Values of top-level fields marked `x-clearOnHide` are dropped while the field is hidden. */
export function clearHidden(
  set: Pick<DeclarationSet, 'schemas'>,
  schemaId: string,
  /** the field states of `values`, asked for only when a clearing field holds a value */
  statesOf: () => Record<string, FieldState>,
  values: Record<string, unknown>,
): Record<string, unknown> {
  const props = fieldOf(set.schemas[schemaId], 'properties');
  if (!isRecord(props)) return values;
  const clearing = Object.keys(props).filter((k) => fieldOf(props[k], 'x-clearOnHide') === true && values[k] !== undefined);
  if (!clearing.length) return values;
  const states = statesOf();
  const hidden = clearing.filter((k) => states[`/${k}`]?.shown === false);
  if (!hidden.length) return values;
  const out = { ...values };
  for (const k of hidden) delete out[k];
  return out;
}

/** What the screen runtime knows of a form: a submit validates its values and shows its errors. */
export function formHandle(host: FormHost, section: Pick<RenderSectionOf<'form'>, 'id' | 'kind' | 'schema'>, ownsPageMessage: boolean): FormHandle {
  return {
    schemaId: section.schema,
    section: { id: section.id, kind: section.kind },
    getValues: () => host.getState().values,
    showAllErrors: host.showAllErrors,
    showPageError: ownsPageMessage ? host.showPageError : undefined,
  };
}

export interface FormHostOptions {
  section: Pick<RenderSectionOf<'form'>, 'id' | 'kind' | 'schema' | 'initial'>;
  data: unknown;
  /** the form shows the page-level message itself (the light form); else the screen shows it */
  ownsPageMessage?: boolean;
  /** a host made outside (tests drive a form through it) */
  host?: FormHost;
  /** the element holding the form's fields, for the focus after a failed submit */
  root: React.RefObject<HTMLElement | null>;
}

/** The form host of a form section: its state, registered with the screen runtime. */
export function useFormHost({ section, data, ownsPageMessage = false, host: given, root }: FormHostOptions): { host: FormHost; state: FormHostState } {
  const rt = useScreenRuntime();
  const [host] = useState(() => given ?? createFormHost(initialValues(rt, section, data)));
  const state = useSyncExternalStore(host.subscribe, host.getState, host.getState);
  const { setFormValues, registerForm } = rt;
  const { id, kind, schema: schemaId } = section;
  const ready = rt.engine !== null;

  // the screen's rules see the form's values ($form.x), and a submit reads them
  useEffect(() => setFormValues(id, state.values), [setFormValues, id, state.values]);

  useEffect(() => registerForm(id, formHandle(host, { id, kind, schema: schemaId }, ownsPageMessage)), [registerForm, id, kind, schemaId, host, ownsPageMessage]);

  // after a failed submit, once the errors are drawn (the engine's, so it must be there)
  useEffect(() => {
    if (!state.focusPending || !ready) return;
    // the errors are drawn with this commit; a renderer that draws them a step later gets a frame
    if (focusFirstInvalid(root.current)) return host.focused();
    const frame = requestAnimationFrame(() => {
      focusFirstInvalid(root.current);
      host.focused();
    });
    return () => cancelAnimationFrame(frame);
  }, [state.focusPending, ready, host, root]);

  return { host, state };
}

interface Checked {
  values: Record<string, unknown>;
  ctx: RuleContext;
  errors: FieldError[];
}

/**
 * The engine's errors of a form, kept between renders: a change re-checks the changed top-level
 * fields and the fields whose rules read them; a new screen context (or a first run) checks all.
 * Only the errors of touched fields show, all of them after a submit.
 */
export function useFormErrors(
  engine: FormEngine | null,
  set: Pick<DeclarationSet, 'schemas' | 'rules'>,
  schemaId: string,
  sectionId: string,
  ctx: RuleContext,
  state: FormHostState,
  /** the field states of these values (their order is the form's) */
  states: Record<string, FieldState> | null,
): FieldError[] {
  const deps = useMemo(() => formDependencies(set, schemaId), [set, schemaId]);
  const last = useRef<Checked | null>(null);
  const { values, submitted, touched } = state;
  const errors = useMemo(() => {
    if (!engine) return [];
    const prev = last.current;
    if (prev && prev.ctx === ctx) {
      if (prev.values === values) return prev.errors;
      const changed = new Set([...Object.keys(values), ...Object.keys(prev.values)].filter((k) => values[k] !== prev.values[k] && JSON.stringify(values[k]) !== JSON.stringify(prev.values[k])));
      const recheck = new Set(changed);
      for (const [name, reads] of deps) if (reads.has('*') || [...reads].some((r) => changed.has(r))) recheck.add(name);
      const top = (pointer: string) => pointer.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~') ?? '';
      const only = (pointer: string) => recheck.has(top(pointer));
      const fresh = engine.validate(schemaId, values, { ...ctx, form: values }, { only }).errors;
      const kept = prev.errors.filter((e) => !only(e.path));
      const order = new Map(Object.keys(states ?? {}).map((p, i) => [p, i]));
      const merged = [...kept, ...fresh].sort((a, b) => (order.get(a.path) ?? 1e9) - (order.get(b.path) ?? 1e9));
      last.current = { values, ctx, errors: merged };
      return merged;
    }
    const all = engine.validate(schemaId, values, { ...ctx, form: values }).errors;
    last.current = { values, ctx, errors: all };
    return all;
  }, [engine, deps, schemaId, ctx, values, states]);
  return useMemo(() => errors.filter((e) => submitted || touched.has(fieldIdOf(sectionId, e.path))), [errors, submitted, touched, sectionId]);
}
