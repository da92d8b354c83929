// The light form renderer (`"renderer": "light"` on a form section): flat schemas of string, boolean
// and enum fields drawn with plain Chakra fields instead of RJSF, so a public page such as sign-in
// does not load the form chunk. Field states (x-show, x-required) and errors (x-validate, formats)
// come from the same engine as the full form; the engine (the provider's validators) is asked for
// once the parent turns to the form (focus, pointer or submit), so the first paint does not wait.
import { useMemo, useRef, useState, type FormEvent } from 'react';
import { Box, Button, Field, Input, NativeSelect, Stack, Text, Wrap, chakra } from '@chakra-ui/react';
import { lightFields, type LightField } from '../../../engine/fields/widgetTable';
import { stringsOf } from '../../guards';
import type { FieldState } from '../../../engine/form';
import { clearHidden, useFormErrors, useFormHost, type FormHost } from './host';
import type { DeclarationSet, JsonSchema } from '../../../engine/types';
import { useScreenRuntime } from '../../context';
import { useRuntimeT } from '../../i18n';
import { ActionButton } from '../../Actions';
import type { KindProps, RenderAction } from '../../kindProps';

/** The fields the light renderer draws; `npm run check` refuses a light form with any other field. */
export function lightFormFields(set: Pick<DeclarationSet, 'schemas'>, schemaId: string): LightField[] {
  const { fields, problems } = lightFields(set, schemaId);
  if (problems.length) throw new Error(`form schema "${schemaId}": ${problems.map((p) => p.message).join('; ')}`);
  return fields;
}

/** Before the engine arrives: literal x-show / x-required only (rules need the engine). */
function staticState(schema: JsonSchema): FieldState {
  return { shown: schema['x-show'] !== false, required: schema['x-required'] === true, enabled: schema['x-enable'] !== false };
}

export type LightFormProps = KindProps<'form'> & { host?: FormHost };

export default function LightForm({ section, data, host: given }: LightFormProps) {
  const rt = useScreenRuntime();
  const { t, tk } = useRuntimeT();
  const schemaId = section.schema;
  const { engine, set: decls, formCtx: ctx } = rt;
  const fields = useMemo(() => lightFormFields(decls, schemaId), [decls, schemaId]);
  const idOf = (name: string) => `${section.id}_${name}`;
  const formRef = useRef<HTMLFormElement>(null);
  const { host, state } = useFormHost({ section, data, host: given, root: formRef, ownsPageMessage: true });
  const { values, pageError } = state;
  const [running, setRunning] = useState(false);

  const states = useMemo(() => (engine ? engine.fieldStates(schemaId, { ...ctx, form: values }) : null), [engine, schemaId, ctx, values]);
  const stateOf = (f: LightField) => states?.[`/${f.name}`] ?? staticState(f.schema);
  const errors = useFormErrors(engine, decls, schemaId, section.id, ctx, state, states);
  const errorOf = (name: string) => errors.find((e) => e.path === `/${name}`);

  const set = (name: string, value: unknown) => {
    host.setValues((prev) => {
      const next = { ...prev };
      if (value === undefined || value === '') delete next[name];
      else next[name] = value;
      return engine ? clearHidden(decls, schemaId, () => engine.fieldStates(schemaId, { ...ctx, form: next }), next) : next;
    });
  };
  const touch = (name: string) => host.touch(idOf(name));

  const actions = section.actions.filter((a) => a.visible);
  const submitAction = actions.find((a) => a.effect.type === 'submit');
  const clearOnFailure = section.clearOnFailure ?? [];
  const testId = section.testId;

  async function submit(e: FormEvent) {
    e.preventDefault();
    rt.wantEngine();
    if (!submitAction || !submitAction.enabled || running) return;
    setRunning(true);
    try {
      await rt.runAction(submitAction);
    } catch {
      // the client's error handler reported the answer (the page's banner); secrets are typed again
      if (clearOnFailure.length) {
        host.setValues((prev) => {
          const next = { ...prev };
          for (const k of clearOnFailure) delete next[k];
          return next;
        });
        formRef.current?.querySelector<HTMLElement>(`[name="${clearOnFailure[0]}"]`)?.focus();
      }
    } finally {
      setRunning(false);
    }
  }

  return (
    <chakra.form
      ref={formRef}
      onSubmit={submit}
      onFocus={() => rt.wantEngine()}
      onPointerDown={() => rt.wantEngine()}
      noValidate
      maxW="md"
      className="pp-form"
      data-testid={testId ? `${testId}-form` : undefined}
      aria-label={section.label ? tk(section.label) : undefined}
    >
      <Stack gap="4">
        {pageError ? (
          <Text color="fg.error" role="alert">
            {tk(pageError)}
          </Text>
        ) : null}
        {fields.map((f) => {
          const state = stateOf(f);
          if (!state.shown) return null;
          const err = errorOf(f.name);
          const id = idOf(f.name);
          const value = values[f.name];
          const onBlur = () => touch(f.name);
          const label = tk(typeof f.schema.title === 'string' ? f.schema.title : f.name);
          const message = err ? <Field.ErrorText>{tk(err.key, err.params)}</Field.ErrorText> : null;
          if (f.widget === 'checkbox') {
            return (
              <Field.Root key={f.name} invalid={Boolean(err)} required={state.required} disabled={!state.enabled}>
                <chakra.label display="flex" gap="2" alignItems="flex-start" htmlFor={id}>
                  <chakra.input
                    type="checkbox"
                    id={id}
                    name={f.name}
                    width="1.15rem"
                    height="1.15rem"
                    mt="0.15rem"
                    accentColor="brand.solid"
                    checked={value === true}
                    aria-invalid={err ? true : undefined}
                    onChange={(ev) => {
                      touch(f.name);
                      set(f.name, ev.currentTarget.checked ? true : undefined);
                    }}
                  />
                  <span>{label}</span>
                </chakra.label>
                {message}
              </Field.Root>
            );
          }
          const labelEl = (
            <Field.Label>
              {label}
              {state.required ? (
                <Field.RequiredIndicator />
              ) : (
                <chakra.span color="fg.muted" fontWeight="normal">
                  {' '}
                  {t('runtime:optional')}
                </chakra.span>
              )}
            </Field.Label>
          );
          if (f.widget === 'select') {
            const labels = stringsOf(f.schema['x-enumLabels']);
            return (
              <Field.Root key={f.name} invalid={Boolean(err)} required={state.required} disabled={!state.enabled}>
                {labelEl}
                <NativeSelect.Root>
                  <NativeSelect.Field
                    name={f.name}
                    value={value === undefined ? '' : String(value)}
                    onChange={(ev) => {
                      touch(f.name);
                      set(f.name, ev.currentTarget.value);
                    }}
                    onBlur={onBlur}
                    autoComplete={f.autoComplete}
                  >
                    <option value="">{t('runtime:select')}</option>
                    {(Array.isArray(f.schema.enum) ? f.schema.enum : [])
                      .filter((v) => v !== '' && v !== null)
                      .map((v) => (
                        <option key={String(v)} value={String(v)}>
                          {labels[String(v)] ? tk(labels[String(v)]) : String(v)}
                        </option>
                      ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                {message}
              </Field.Root>
            );
          }
          return (
            <Field.Root key={f.name} invalid={Boolean(err)} required={state.required} disabled={!state.enabled}>
              {labelEl}
              <Input
                name={f.name}
                type={f.widget}
                autoComplete={f.autoComplete}
                inputMode={f.widget === 'email' ? 'email' : undefined}
                value={typeof value === 'string' ? value : ''}
                onChange={(ev) => set(f.name, ev.currentTarget.value)}
                onBlur={onBlur}
              />
              {message}
            </Field.Root>
          );
        })}
        {actions.length ? (
          <Wrap gap="3" className="pp-actions">
            {actions.map((a: RenderAction) =>
              a === submitAction ? (
                <Button
                  key={a.id}
                  type="submit"
                  colorPalette="brand"
                  data-action={a.id}
                  data-testid={testId ? `${testId}-submit` : undefined}
                  loading={running}
                  aria-label={tk(a.label)}
                  disabled={!a.enabled || rt.engineFailed}
                >
                  {tk(a.label)}
                </Button>
              ) : (
                <Box key={a.id}>
                  <ActionButton action={a} />
                </Box>
              ),
            )}
          </Wrap>
        ) : null}
      </Stack>
    </chakra.form>
  );
}
