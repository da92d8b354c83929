// The form kind: a declared form schema rendered by RJSF with our widgets and templates, validated
// by our engine (eager: a field's errors show once it was changed or left; all of them after a
// failed submit). The section's `source` data fills the initial values.
import { memo, useCallback, useMemo, useRef, type ComponentProps } from 'react';
import { Box } from '@chakra-ui/react';
import Form from '@rjsf/core';
import { Templates as ChakraTemplates } from '@rjsf/chakra-ui';
import type { IChangeEvent } from '@rjsf/core';
import { englishStringTranslator, TranslatableString, type RegistryWidgetsType, type RJSFSchema } from '@rjsf/utils';
import { useAtomValue } from 'jotai';
import { apiAtom } from '../../state';
import { useScreenRuntime } from '../context';
import { SectionSkeleton } from '../Skeletons';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';
import { createEngineValidator, pointerSegments, toRjsfErrorSchema } from './validator';
import { textOf } from '../kinds/shared';
import { fieldOf, isRecord } from '../guards';
import { displayForm, fieldIdOf } from './display';
import { clearHidden, useFormErrors, useFormHost, type FormHost } from './light/host';
import { templates } from './templates';
import { baseWidgets } from './widgets';
import DateWidget from './DateWidget';
import type { PortalFormContext } from './FormContext';
import type { FieldState, RuleContext } from '../../engine/form';
import { resolveBinding } from '../../engine/screen';
import type { Binding } from '../../engine/types';
import { formatValue, type ValueFormat } from '../format';

/** The values of a field title's {{placeholders}} (x-titleParams): bindings, or values in a display format. */
function titleParams(schema: RJSFSchema | undefined, ctx: RuleContext, locale: string, country: 'US' | 'CA', t: (key: string, params?: Record<string, unknown>) => string): Record<string, unknown> | undefined {
  const spec = schema?.['x-titleParams'];
  if (!isRecord(spec)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, p] of Object.entries(spec)) {
    if (isRecord(p)) out[name] = formatValue(resolveBinding(p.value as Binding, ctx), p.format as ValueFormat | undefined, { locale, country, t });
    else out[name] = resolveBinding(p as Binding, ctx);
  }
  return out;
}

// RJSF core's defaults cover the widgets no declaration uses; ours replace the rest
const widgets: RegistryWidgetsType = { ...baseWidgets, date: DateWidget, DateWidget };
const allTemplates = { ...ChakraTemplates, ...templates, ButtonTemplates: { ...ChakraTemplates.ButtonTemplates, SubmitButton: () => null } };

const STRING_KEYS = new Map(Object.entries(TranslatableString).map(([name, value]) => [value as string, name]));
/** RJSF's own strings (array buttons, item titles) through i18next; rare ones stay English. */
const TRANSLATED = new Set(['ArrayItemTitle', 'EmptyArray', 'YesLabel', 'NoLabel', 'CloseLabel', 'AddButton', 'AddItemButton', 'CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton']);

/**
 * Enter in a text field runs the action that submits this form (spec 5.2 for the password forms):
 * the button named for this form, else one submitting the screen's only form.
 */
function submitOnEnter(e: React.KeyboardEvent, box: HTMLElement | null, names: string[]) {
  const el = e.target as HTMLInputElement;
  if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing || el.tagName !== 'INPUT' || ['checkbox', 'radio', 'button', 'submit', 'file'].includes(el.type)) return;
  const scope = box?.closest('[role=dialog]') ?? box?.ownerDocument ?? document;
  const buttons = [...scope.querySelectorAll<HTMLButtonElement>('button[data-submits]')].filter((b) => !b.disabled);
  const target = buttons.find((b) => names.includes(b.dataset.submits ?? '')) ?? buttons.find((b) => b.dataset.submits === '*');
  if (!target) return;
  e.preventDefault();
  target.click();
}

type RjsfProps = ComponentProps<typeof Form<Record<string, unknown>, RJSFSchema, PortalFormContext>>;

/**
 * RJSF's form, skipping a render whose only news is the data it reported itself: its own state holds
 * that data already, and a controlled echo would make it derive its whole state again on every key.
 */
const EchoForm = memo(
  function EchoForm({ reported: _reported, ...props }: RjsfProps & { reported: unknown }) {
    return <Form {...props} />;
  },
  (prev, next) => {
    for (const key of new Set([...Object.keys(prev), ...Object.keys(next)])) {
      if (key !== 'formData' && key !== 'reported' && !Object.is(fieldOf(prev, key), fieldOf(next, key))) return false;
    }
    return prev.formData === next.formData || next.formData === next.reported;
  },
);

export type FormKindProps = KindProps<'form'> & { host?: FormHost };

const noSubmitButton = { norender: true };

function translateString(t: (key: string, params?: Record<string, unknown>) => string) {
  return (s: TranslatableString, params?: string[]) => {
    const name = STRING_KEYS.get(s);
    return name && TRANSLATED.has(name) ? t(`runtime:rjsf.${name}`, { n: params?.[0] ?? '' }) : englishStringTranslator(s, params);
  };
}

export default function FormKind({ section, data, host: given }: FormKindProps) {
  const rt = useScreenRuntime();
  const api = useAtomValue(apiAtom);
  const { t, tk, locale } = useRuntimeT();
  const schemaId = section.schema;
  const idPrefix = section.id;
  const { engine, set, formCtx: ctx, country } = rt;
  const boxRef = useRef<HTMLDivElement>(null);
  const { host, state } = useFormHost({ section, data, host: given, root: boxRef });
  const { values } = state;

  const states = useMemo(() => (engine ? engine.fieldStates(schemaId, { ...ctx, form: values }) : null), [engine, schemaId, ctx, values]);
  const errors = useFormErrors(engine, set, schemaId, idPrefix, ctx, state, states);
  // the widgets and templates read the states and values of this render through these (the form
  // context keeps its identity, so unchanged fields skip rendering)
  const statesRef = useRef<Record<string, FieldState>>({});
  const valuesRef = useRef(values);
  const ctxRef = useRef(ctx);
  statesRef.current = states ?? {};
  valuesRef.current = values;
  ctxRef.current = ctx;

  const formContext = useMemo<PortalFormContext>(
    () => ({
      country,
      locale,
      tk,
      t,
      api,
      getContext: () => ({ ...ctxRef.current, form: valuesRef.current }),
      touch: host.touch,
      fieldState: (pointer) => statesRef.current[pointer],
      stateOf: (id) => {
        const pointer = Object.keys(statesRef.current).find((p) => fieldIdOf(idPrefix, p) === id);
        return pointer ? statesRef.current[pointer] : undefined;
      },
      rowOf: (id) => {
        const pointer = Object.keys(statesRef.current).find((p) => fieldIdOf(idPrefix, p) === id);
        if (!pointer) return undefined;
        const row = pointerSegments(pointer).slice(0, -1).reduce<unknown>((cur, k) => fieldOf(cur, k), valuesRef.current);
        return isRecord(row) ? row : undefined;
      },
      text: (value, schema) => textOf(value, tk, locale, titleParams(schema, { ...ctxRef.current, form: valuesRef.current }, locale, country, t)),
      setFields: (patch) => host.setValues((prev) => ({ ...prev, ...patch })),
    }),
    // t and tk keep their identity until the language changes
    [country, locale, api, host, t, tk, idPrefix],
  );

  // RJSF skips re-rendering a field whose own props did not change; the field states (x-show,
  // x-required of rows) travel in the form context, so a changed state re-renders the fields.
  // Schema, UI schema and context keep their identity while the states stay the same (typing).
  const sig = states
    ? Object.entries(states)
        .map(([k, v]) => `${k}:${Number(v.shown)}${Number(v.required)}${Number(v.enabled)}`)
        .join('|')
    : '';
  const shown = useRef<{ sig: string; states: Record<string, FieldState> }>({ sig: '', states: {} });
  if (states && shown.current.sig !== sig) shown.current = { sig, states };
  const shownStates = shown.current.states;
  const display = useMemo(() => (engine ? displayForm(set, schemaId, shownStates) : null), [engine, set, schemaId, shownStates]);
  const uiSchema = useMemo(() => (display ? { ...display.uiSchema, 'ui:submitButtonOptions': noSubmitButton } : {}), [display]);
  const signedContext = useMemo<PortalFormContext>(() => ({ ...formContext, stateSignature: sig }), [formContext, sig]);
  const validator = useMemo(
    () => (engine ? createEngineValidator({ engine, schemaId, getContext: () => ctxRef.current, translate: (key, params) => tk(key, params) }) : null),
    [engine, schemaId, tk],
  );
  // the same error schema while the messages stay the same (most keys do not change them)
  const errorsSig = JSON.stringify(errors.map((e) => [e.path, e.key, e.params]));
  const sameErrors = useRef({ sig: '', errors });
  if (sameErrors.current.sig !== errorsSig) sameErrors.current = { sig: errorsSig, errors };
  const shownErrors = sameErrors.current.errors;
  const extraErrors = useMemo(() => toRjsfErrorSchema(shownErrors, tk), [shownErrors, tk]);
  const reported = useRef<unknown>(undefined);
  const translate = useMemo(() => translateString(t), [t]);
  const onChange = useCallback(
    (e: IChangeEvent<Record<string, unknown>>) => {
      const next = e.formData ?? {};
      reported.current = next;
      host.setValues(engine ? clearHidden(set, schemaId, () => engine.fieldStates(schemaId, { ...ctxRef.current, form: next }), next) : next);
    },
    [host, engine, set, schemaId],
  );
  const onKeyDown = useCallback((e: React.KeyboardEvent) => submitOnEnter(e, boxRef.current, [schemaId, idPrefix]), [schemaId, idPrefix]);

  // the provider's validators are still loading
  if (!engine || !validator || !display) return <SectionSkeleton />;
  return (
    <Box ref={boxRef} className="pp-form" onKeyDown={onKeyDown}>
      <EchoForm
        reported={reported.current}
        schema={display.schema}
        uiSchema={uiSchema}
        formData={values}
        validator={validator}
        templates={allTemplates}
        widgets={widgets}
        formContext={signedContext}
        idPrefix={idPrefix}
        idSeparator="_"
        extraErrors={extraErrors}
        noHtml5Validate
        showErrorList={false}
        translateString={translate}
        onChange={onChange}
        onSubmit={noop}
      >
        {noButtons}
      </EchoForm>
    </Box>
  );
}

const noop = () => undefined;
// the section's actions submit the form: RJSF draws no buttons
const noButtons = <></>;
