// The form kind: a declared form schema rendered by RJSF with our widgets and templates, validated
// by our engine (eager: a field's errors show once it was changed or left; all of them after a
// failed submit). The section's `source` data fills the initial values.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box } from '@chakra-ui/react';
import Form from '@rjsf/core';
import { Templates as ChakraTemplates } from '@rjsf/chakra-ui';
import type { IChangeEvent } from '@rjsf/core';
import { englishStringTranslator, TranslatableString, type ErrorSchema, type RegistryWidgetsType } from '@rjsf/utils';
import { useAtomValue } from 'jotai';
import { apiAtom } from '../../state';
import { useScreenRuntime } from '../context';
import { SectionSkeleton } from '../Section';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';
import { createEngineValidator, pointerSegments } from './validator';
import { textOf } from '../kinds/shared';
import { fieldOf } from '../guards';
import { displayForm, fieldIdOf, visibleErrors } from './display';
import { templates } from './templates';
import { baseWidgets } from './widgets';
import DateWidget from './DateWidget';
import type { PortalFormContext } from './FormContext';
import type { FieldState, FormEngine, RuleContext } from '../../engine/form';
import type { JsonSchema } from '../../engine/types';

// RJSF core's defaults cover the widgets no declaration uses; ours replace the rest
const widgets: RegistryWidgetsType = { ...baseWidgets, date: DateWidget, DateWidget };
const allTemplates = { ...ChakraTemplates, ...templates, ButtonTemplates: { ...ChakraTemplates.ButtonTemplates, SubmitButton: () => null } };

const STRING_KEYS = new Map(Object.entries(TranslatableString).map(([name, value]) => [value as string, name]));
/** RJSF's own strings (array buttons, item titles) through i18next; rare ones stay English. */
const TRANSLATED = new Set(['ArrayItemTitle', 'EmptyArray', 'YesLabel', 'NoLabel', 'CloseLabel', 'AddButton', 'AddItemButton', 'CopyButton', 'MoveDownButton', 'MoveUpButton', 'RemoveButton']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Values of top-level fields marked `x-clearOnHide` are dropped while the field is hidden. */
function clearHidden(engine: FormEngine, schema: JsonSchema | undefined, schemaId: string, ctx: RuleContext, values: Record<string, unknown>): Record<string, unknown> {
  const props = isObject(schema?.properties) ? schema.properties : {};
  const clearing = Object.keys(props).filter((k) => fieldOf(props[k], 'x-clearOnHide') === true && values[k] !== undefined);
  if (!clearing.length) return values;
  const states = engine.fieldStates(schemaId, { ...ctx, form: values });
  const hidden = clearing.filter((k) => states[`/${k}`]?.shown === false);
  if (!hidden.length) return values;
  const out = { ...values };
  for (const k of hidden) delete out[k];
  return out;
}

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

export default function FormKind({ section, data }: KindProps<'form'>) {
  const rt = useScreenRuntime();
  const api = useAtomValue(apiAtom);
  const { t, tk, locale } = useRuntimeT();
  const schemaId = section.schema;
  const engine = rt.engine;

  // initial values: the `initial` binding ("$data.adults.0"), else the section's source data
  const [values, setValues] = useState<Record<string, unknown>>(() => {
    const start = section.initial !== undefined ? rt.resolveOne(section.initial) : data;
    return isObject(start) ? { ...start } : {};
  });
  const valuesRef = useRef(values);
  valuesRef.current = values;
  const [touched, setTouched] = useState<Set<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);
  const boxRef = useRef<HTMLDivElement>(null);
  const ctxRef = useRef(rt.ctx);
  ctxRef.current = rt.ctx;
  const statesRef = useRef<Record<string, FieldState>>({});
  const contextCache = useRef<{ sig: string; base: unknown; value: PortalFormContext } | null>(null);
  const idPrefix = section.id;

  const touch = useCallback((id: string) => {
    setTouched((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
  }, []);

  const formContext = useMemo<PortalFormContext>(
    () => ({
      country: rt.country,
      locale,
      tk,
      t,
      api,
      getContext: () => ({ ...ctxRef.current, form: valuesRef.current }),
      touch,
      fieldState: (pointer) => statesRef.current[pointer],
      stateOf: (id) => {
        const pointer = Object.keys(statesRef.current).find((p) => fieldIdOf(idPrefix, p) === id);
        return pointer ? statesRef.current[pointer] : undefined;
      },
      rowOf: (id) => {
        const pointer = Object.keys(statesRef.current).find((p) => fieldIdOf(idPrefix, p) === id);
        if (!pointer) return undefined;
        const segs = pointerSegments(pointer).slice(0, -1);
        const row = segs.reduce<unknown>((cur, k) => fieldOf(cur, k), valuesRef.current);
        return isObject(row) ? row : undefined;
      },
      text: (value) => textOf(value, tk, locale),
    }),
    // t and tk keep their identity until the language changes
    [rt.country, locale, api, touch, t, tk, idPrefix],
  );

  const validator = useMemo(
    () =>
      engine
        ? createEngineValidator({
            engine,
            schemaId,
            getContext: () => ctxRef.current,
            translate: (key, params) => tk(key, params),
          })
        : null,
    [engine, schemaId, tk],
  );

  // the screen's rules see the form's values ($form.x), and a submit reads them
  useEffect(() => {
    rt.setFormValues(section.id, values);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [values, section.id]);

  useEffect(
    () =>
      rt.registerForm(section.id, {
        schemaId,
        section,
        getValues: () => valuesRef.current,
        showAllErrors: () => {
          setSubmitted(true);
          // after the errors render: focus the first invalid field
          requestAnimationFrame(() => {
            const first = boxRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
            // a group (checkboxes, radios) is not focusable itself: focus its first choice
            const target = first && first.tagName === 'FIELDSET' ? first.querySelector<HTMLElement>('input, select, textarea') : first;
            target?.focus();
          });
        },
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [section.id, schemaId],
  );

  // the provider's validators are still loading
  if (!engine || !validator) return <SectionSkeleton />;
  const states = engine.fieldStates(schemaId, { ...rt.ctx, form: values });
  statesRef.current = states;
  // RJSF skips re-rendering a field whose own props did not change; the field states (x-show,
  // x-required of rows) travel in the form context, so a changed state re-renders the fields
  const sig = Object.entries(states)
    .map(([k, v]) => `${k}:${Number(v.shown)}${Number(v.required)}${Number(v.enabled)}`)
    .join('|');
  if (!contextCache.current || contextCache.current.sig !== sig || contextCache.current.base !== formContext) {
    contextCache.current = { sig, base: formContext, value: { ...formContext, stateSignature: sig } as PortalFormContext };
  }
  const display = displayForm(rt.set, schemaId, states);
  const all = validator.validateFormData(values, display.schema);
  const shownErrors = visibleErrors(all.errorSchema as Record<string, unknown>, (pointer) => submitted || touched.has(fieldIdOf(idPrefix, pointer))) as ErrorSchema;

  return (
    <Box ref={boxRef} className="pp-form" onKeyDown={(e) => submitOnEnter(e, boxRef.current, [schemaId, section.id])}>
      <Form
        schema={display.schema}
        uiSchema={{ ...display.uiSchema, 'ui:submitButtonOptions': { norender: true } }}
        formData={values}
        validator={validator}
        templates={allTemplates}
        widgets={widgets}
        formContext={contextCache.current.value}
        idPrefix={idPrefix}
        idSeparator="_"
        extraErrors={shownErrors}
        noHtml5Validate
        showErrorList={false}
        translateString={(s, params) => {
          const name = STRING_KEYS.get(s);
          return name && TRANSLATED.has(name) ? (t(`runtime:rjsf.${name}`, { n: params?.[0] ?? '' }) as string) : englishStringTranslator(s, params);
        }}
        onChange={(e: IChangeEvent<Record<string, unknown>>) => setValues(clearHidden(engine, rt.set.schemas[schemaId], schemaId, { ...rt.ctx }, e.formData ?? {}))}
        onSubmit={() => undefined}
      >
        <></>
      </Form>
    </Box>
  );
}
