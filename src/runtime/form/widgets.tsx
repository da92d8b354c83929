// Our RJSF widgets. Every widget renders an input whose id is RJSF's field id, so the FieldTemplate's
// <label htmlFor> names it (axe: every form control has a label). Defined at module level so React
// keeps the same component between renders (inline widgets remount and lose focus).
import { fieldOf, isRecord, operationId, pathOf, stringsOf } from '../guards';
import { Suspense, useCallback, useRef, type ChangeEvent, type FocusEvent } from 'react';
import { lazyWhenOnline } from '../whenOnline';
import { Box, HStack, Input, NativeSelect, SkeletonText, Stack, Textarea, Wrap, chakra } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import { localeAtom } from '../../state';
import { type RegistryWidgetsType, type Widget } from '@rjsf/utils';
import { describedBy } from './describedBy';
import type { FieldWidget } from '../../engine/fields/widgetTable';
import { resolveParams } from '../../engine/screen';
import { splitParams } from '../../api/client';
import { applyMask, fitsMask, maskInput, PHONE_MASK, zipMask, extensionValue } from '../masks';
import { useCaretKeeper } from './caretKeeper';
import type { PortalFormContext, PortalWidgetProps } from './FormContext';
import { regionsOf } from '../../engine/regions';
import DateWidgetLazy from './DateWidget';

const ctxOf = (props: PortalWidgetProps): PortalFormContext => props.registry.formContext;

function a11y(props: PortalWidgetProps) {
  const invalid = Boolean(props.rawErrors && props.rawErrors.length);
  return {
    'aria-invalid': invalid || undefined,
    'aria-required': props.required || undefined,
    'aria-describedby': describedBy(props),
  };
}

function blurHandlers(props: PortalWidgetProps) {
  const { id, onBlur, onFocus, registry } = props;
  const fc = registry.formContext;
  return {
    onBlur: (e: FocusEvent<HTMLElement & { value?: string }>) => {
      fc.touch(id);
      onBlur(id, e.target.value);
    },
    onFocus: (e: FocusEvent<HTMLElement & { value?: string }>) => onFocus(id, e.target.value),
  };
}

/** Plain text, e-mail and password inputs. */
export function TextWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, schema, options, placeholder, autofocus } = props;
  const fc = ctxOf(props);
  const type = options.inputType ?? (schema.format === 'email' ? 'email' : 'text');
  return (
    <Input
      id={id}
      name={id}
      type={typeof type === 'string' ? type : 'text'}
      value={value ?? ''}
      disabled={disabled || readonly}
      maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : undefined}
      placeholder={placeholder ? fc.tk(placeholder) : undefined}
      autoFocus={autofocus}
      autoComplete={typeof options.autocomplete === 'string' ? options.autocomplete : type === 'email' ? 'email' : undefined}
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        fc.touch(id);
        onChange(e.target.value === '' ? options.emptyValue : e.target.value);
      }}
      {...blurHandlers(props)}
      {...a11y(props)}
    />
  );
}

export function PasswordWidget(props: PortalWidgetProps) {
  return <TextWidget {...props} options={{ ...props.options, inputType: 'password', autocomplete: props.options.autocomplete ?? 'current-password' }} />;
}

export function EmailWidget(props: PortalWidgetProps) {
  return <TextWidget {...props} options={{ ...props.options, inputType: 'email' }} />;
}

/**
 * A masked input: the text is re-masked on every change and the caret kept after the same
 * significant character. The stored value is the masked text; the engine normalises on submit.
 */
function MaskedInput(props: PortalWidgetProps & { mask: string; inputMode?: 'numeric' | 'text' | 'tel'; autoComplete?: string; uppercase?: boolean; keepUnfit?: boolean }) {
  const { id, value, disabled, readonly, onChange, mask, inputMode, autoComplete, placeholder, keepUnfit } = props;
  const fc = ctxOf(props);
  const ref = useRef<HTMLInputElement>(null);
  const caret = useCaretKeeper(ref);
  const handle = useCallback(
    (e: ChangeEvent<HTMLInputElement>) => {
      const el = e.target;
      fc.touch(id);
      if (keepUnfit && !fitsMask(mask, el.value)) {
        // what was typed does not have the mask's shape: keep it, the format check names the problem
        caret.clear();
        onChange(el.value.toUpperCase().slice(0, mask.length) || undefined);
        return;
      }
      const next = maskInput(mask, el.value, el.selectionStart ?? el.value.length);
      caret.mark(next.value, next.caret);
      onChange(next.value === '' ? undefined : next.value);
    },
    [mask, onChange, fc, id, keepUnfit, caret],
  );
  const shown = value === undefined || value === null ? '' : String(value);
  return (
    <Input
      ref={ref}
      id={id}
      name={id}
      type="text"
      inputMode={inputMode}
      autoComplete={autoComplete}
      // stored values (10 phone digits, 'K1A0B1') show in their masked form
      value={keepUnfit && !fitsMask(mask, shown) ? shown : applyMask(mask, shown)}
      maxLength={mask.length}
      disabled={disabled || readonly}
      placeholder={placeholder ? fc.tk(placeholder) : mask.replace(/[9#]/g, '_').replace(/A/g, '_')}
      onChange={handle}
      {...blurHandlers(props)}
      {...a11y(props)}
    />
  );
}

/** US phone (999)999-9999 (spec 5.1). */
export function PhoneWidget(props: PortalWidgetProps) {
  return <MaskedInput {...props} mask={PHONE_MASK} inputMode="tel" autoComplete="tel-national" />;
}

/** Phone extension: positive number, at most 6 digits. */
export function PhoneExtWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange } = props;
  const fc = ctxOf(props);
  return (
    <Input
      id={id}
      name={id}
      inputMode="numeric"
      maxLength={6}
      width="8em"
      value={value ?? ''}
      disabled={disabled || readonly}
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        fc.touch(id);
        const v = extensionValue(e.target.value);
        onChange(v === '' ? undefined : v);
      }}
      {...blurHandlers(props)}
      {...a11y(props)}
    />
  );
}

/** Zip masked by the provider's country: A#A #A# (CA) or #####-#### (US). */
export function ZipWidget(props: PortalWidgetProps) {
  const fc = ctxOf(props);
  const mask = zipMask(fc.country);
  return <MaskedInput {...props} mask={mask} inputMode={fc.country === 'CA' ? 'text' : 'numeric'} autoComplete="postal-code" keepUnfit />;
}

export function TextareaWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, schema, options, placeholder } = props;
  const fc = ctxOf(props);
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  const length = typeof value === 'string' ? value.length : 0;
  return (
    <Box>
      <Textarea
        id={id}
        name={id}
        value={value ?? ''}
        rows={typeof options.rows === 'number' ? options.rows : 4}
        maxLength={max}
        disabled={disabled || readonly}
        placeholder={placeholder ? fc.tk(placeholder) : undefined}
        onChange={(e: ChangeEvent<HTMLTextAreaElement>) => {
          fc.touch(id);
          onChange(e.target.value === '' ? options.emptyValue : e.target.value);
        }}
        {...blurHandlers(props)}
        {...a11y(props)}
      />
      {max ? (
        <chakra.p fontSize="sm" color="fg.muted" textAlign="end" aria-live="polite">
          {fc.t('runtime:charactersLeft', { count: max - length })}
        </chakra.p>
      ) : null}
    </Box>
  );
}

interface OptionsSource {
  op: string;
  params?: Record<string, unknown>;
  /** where the rows are in the answer (e.g. "sites"), when it is not the answer itself or its `items` */
  items?: string;
  value: string;
  label: string;
  empty?: string;
  /** path of a row field: true offers the row disabled */
  disabled?: string;
  /** translation key said beside a disabled option */
  disabledNote?: string;
  /** per row, the first note whose row field `when` is true (or a non-empty text, or `equals`) is said beside it instead, with row fields as parameters */
  disabledNotes?: DisabledNote[];
}

/** Why a row is offered disabled: a translation key, said when the row field `when` is set, its parameters row fields by path. */
interface DisabledNote {
  when: string;
  /** said only when the row field has this value (e.g. notEligible: "age") */
  equals?: string;
  text: string;
  params?: Record<string, string>;
}

/** One entry of a list: its value and its label (disabled: shown, not to be chosen). */
interface Choice {
  value: unknown;
  label: string;
  disabled?: boolean;
  /** the answer's row it came from (x-options) */
  row?: unknown;
}

/** x-rowOptions: the choices come from a list the row carries, by the paths of their value and label. */
interface RowOptions {
  field: string;
  value: string;
  label: string;
  other?: { when: string; value: unknown; label: string };
}

type FillMap = Record<string, string | string[]>;

/**
 * What our widgets read from `ui:options`: display.ts puts a field's x-options, x-extraOptions,
 * x-rowOptions and x-fill there; StateWidget and UdfWidget pass staticOptions.
 */
interface WidgetOptions {
  optionsSource?: OptionsSource;
  staticOptions?: Choice[];
  extraOptions?: Choice[];
  rowOptions?: RowOptions;
  fill?: FillMap;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isOptionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

function isOptionsSource(v: unknown): v is OptionsSource {
  return (
    isRecord(v) &&
    isString(v.op) &&
    isString(v.value) &&
    isString(v.label) &&
    (v.params === undefined || isRecord(v.params)) &&
    isOptionalString(v.items) &&
    isOptionalString(v.empty) &&
    isOptionalString(v.disabled) &&
    isOptionalString(v.disabledNote) &&
    (v.disabledNotes === undefined || (Array.isArray(v.disabledNotes) && v.disabledNotes.every(isDisabledNote)))
  );
}

const isDisabledNote = (v: unknown): v is DisabledNote => isRecord(v) && isString(v.when) && isOptionalString(v.equals) && isString(v.text) && (v.params === undefined || (isRecord(v.params) && Object.values(v.params).every(isString)));

/** What is said beside a disabled option: the first of the row's notes that holds, else the list's one note. */
function disabledNoteOf(source: OptionsSource | undefined, row: unknown, tk: (key: string, params?: Record<string, unknown>) => string): string | null {
  if (!source) return null;
  const held = (source.disabledNotes ?? []).find((n) => {
    const v = pick(row, n.when);
    return n.equals !== undefined ? v === n.equals : v === true || (typeof v === 'string' && v !== '');
  });
  if (held) return tk(held.text, Object.fromEntries(Object.entries(held.params ?? {}).map(([k, path]) => [k, pick(row, path)])));
  return source.disabledNote ? tk(source.disabledNote) : null;
}

const isChoice = (v: unknown): v is Choice => isRecord(v) && isString(v.label);
const isChoices = (v: unknown): v is Choice[] => Array.isArray(v) && v.every(isChoice);

function isRowOptions(v: unknown): v is RowOptions {
  if (!isRecord(v) || !isString(v.field) || !isString(v.value) || !isString(v.label)) return false;
  return v.other === undefined || (isRecord(v.other) && isString(v.other.when) && isString(v.other.label));
}

const isFillMap = (v: unknown): v is FillMap => isRecord(v) && Object.values(v).every((p) => isString(p) || (Array.isArray(p) && p.every(isString)));

/**
 * A widget's options, each taken when it has its declared shape (`npm run check` holds the
 * keywords to it, src/engine/ajv.ts); anything else is left out.
 */
function widgetOptions(options: PortalWidgetProps['options']): WidgetOptions {
  const { optionsSource, staticOptions, extraOptions, rowOptions, fill } = options;
  return {
    optionsSource: isOptionsSource(optionsSource) ? optionsSource : undefined,
    staticOptions: isChoices(staticOptions) ? staticOptions : undefined,
    extraOptions: isChoices(extraOptions) ? extraOptions : undefined,
    rowOptions: isRowOptions(rowOptions) ? rowOptions : undefined,
    fill: isFillMap(fill) ? fill : undefined,
  };
}

const pick = (row: unknown, path: string): unknown =>
  pathOf(row, path);

/** Options of an x-options field, loaded from its API operation (cached per [op, params]). */
function useRemoteOptions(source: OptionsSource | undefined, fc: PortalFormContext) {
  const client = useAtomValue(queryClientAtom);
  const locale = useAtomValue(localeAtom);
  const params = source ? resolveParams(source.params, fc.getContext()) : {};
  const q = useQuery(
    {
      // options are provider texts the server answers in the interface language
      queryKey: [source?.op, params, locale, source?.items],
      enabled: Boolean(source),
      staleTime: 5 * 60_000,
      queryFn: async () => {
        const answer = await fc.api.call(operationId(source!.op), { ...splitParams(source!.op, params) });
        const items = source!.items ? pathOf(answer, source!.items) : fieldOf(answer, 'items');
        const rows: unknown[] = Array.isArray(answer) ? answer : Array.isArray(items) ? items : [];
        return rows.map((row) => ({ value: pick(row, source!.value), label: String(pick(row, source!.label) ?? ''), disabled: source!.disabled ? pick(row, source!.disabled) === true : false, row }));
      },
    },
    client,
  );
  return q;
}

/** The fields an x-fill fills from a chosen record: the first non-empty of each path; none: cleared. */
export function fillPatch(fill: FillMap, row: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, paths] of Object.entries(fill)) {
    const found = row === undefined ? undefined : (Array.isArray(paths) ? paths : [paths]).map((p) => pick(row, p)).find((v) => v !== undefined && v !== null && v !== '');
    out[field] = found === undefined ? undefined : found;
  }
  return out;
}

/**
 * A native select with the leading 'Select' entry (spec 5.1: value 0 / empty counts as empty).
 * Options come from the schema's enum (labels from x-enumLabels keys) or from x-options.
 */
export function SelectWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, options, schema } = props;
  const fc = ctxOf(props);
  const { optionsSource: source, staticOptions, extraOptions = [], fill } = widgetOptions(options);
  const remote = useRemoteOptions(source, fc);
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const emptyValue = numeric ? 0 : '';
  const enumLabels = stringsOf(schema['x-enumLabels']);
  const extra = extraOptions.map((o) => ({ value: o.value, label: fc.tk(o.label) }));
  const list: Choice[] = [
    ...(staticOptions
      ? staticOptions
      : source
      ? (remote.data ?? [])
      : (Array.isArray(schema.enum) ? schema.enum : [])
          .filter((v) => v !== '' && v !== 0 && v !== null)
          .map((v) => ({ value: v, label: enumLabels[String(v)] ? fc.tk(enumLabels[String(v)]) : String(v) }))),
    ...extra,
  ];
  return (
    <NativeSelect.Root disabled={disabled || readonly} aria-busy={remote.isFetching || undefined}>
      <NativeSelect.Field
        id={id}
        name={id}
        value={value === undefined || value === null ? String(emptyValue) : String(value)}
        onChange={(e: ChangeEvent<HTMLSelectElement>) => {
          fc.touch(id);
          const raw = e.target.value;
          const next = raw === String(emptyValue) ? (numeric ? 0 : undefined) : numeric ? Number(raw) : raw;
          // x-fill: the field and the fields the chosen record fills, in one change
          if (fill && source) return fc.setFields({ [props.name]: next, ...fillPatch(fill, remote.data?.find((o) => String(o.value) === raw)?.row) });
          onChange(next);
        }}
        {...blurHandlers(props)}
        {...a11y(props)}
      >
        <option value={String(emptyValue)}>{source?.empty ? fc.tk(source.empty) : fc.t('runtime:select')}</option>
        {list.map((o) => (
          <option key={String(o.value)} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}

const NativeCheckbox = chakra('input', { base: { width: '1.15rem', height: '1.15rem', accentColor: 'brand.solid', flexShrink: 0, marginTop: '0.15rem' } });

/** A checkbox with its own label (the FieldTemplate leaves booleans unlabelled). */
export function CheckboxWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, label } = props;
  const fc = ctxOf(props);
  return (
    <HStack align="flex-start" gap="2">
      <NativeCheckbox
        type="checkbox"
        id={id}
        name={id}
        checked={value === true}
        disabled={disabled || readonly}
        onChange={(e: ChangeEvent<HTMLInputElement>) => {
          fc.touch(id);
          onChange(e.target.checked);
        }}
        {...blurHandlers(props)}
        {...a11y(props)}
      />
      {/* a single tick box is a choice, never a value left out: no 'optional' suffix (spec 5.1's
          suffix is for fields that can stay empty) */}
      <chakra.label htmlFor={id} cursor="pointer">
        {fc.text(label, props.schema)}
      </chakra.label>
    </HStack>
  );
}

/**
 * Radio buttons in a fieldset whose legend is the field's label: the schema's enum (labels from
 * x-enumLabels keys) or, without an enum, the Yes/No pair (spec: radio yes/no).
 */
export function RadioWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, label, schema } = props;
  const fc = ctxOf(props);
  const required = fc.stateOf(id)?.required ?? props.required;
  const enumLabels = stringsOf(schema['x-enumLabels']);
  const choices: { v: unknown; text: string }[] = Array.isArray(schema.enum)
    ? schema.enum.filter((v) => v !== '' && v !== null).map((v) => ({ v, text: enumLabels[String(v)] ? fc.tk(enumLabels[String(v)]) : String(v) }))
    : [
        { v: schema.type === 'string' ? 'Y' : true, text: fc.t('runtime:yes') },
        { v: schema.type === 'string' ? 'N' : false, text: fc.t('runtime:no') },
      ];
  const err = a11y(props);
  return (
    <chakra.fieldset id={id} aria-describedby={err['aria-describedby']} aria-invalid={err['aria-invalid']}>
      <chakra.legend fontWeight="medium" mb="1">
        {fc.text(label)}
        {required ? <chakra.span aria-hidden="true" color="fg.error"> *</chakra.span> : <chakra.span color="fg.muted"> {fc.t('runtime:optional')}</chakra.span>}
      </chakra.legend>
      <Wrap gap="6" role="radiogroup" aria-required={required || undefined}>
        {choices.map((c, i) => (
          <HStack key={String(c.v)} gap="2">
            <NativeCheckbox
              type="radio"
              id={`${id}-${i}`}
              name={id}
              checked={value === c.v}
              disabled={disabled || readonly}
              onChange={() => {
                fc.touch(id);
                onChange(c.v);
              }}
              onBlur={() => fc.touch(id)}
            />
            <chakra.label htmlFor={`${id}-${i}`}>{c.text}</chakra.label>
          </HStack>
        ))}
      </Wrap>
    </chakra.fieldset>
  );
}

/** Several choices (an array of values) as a fieldset of checkboxes; options as for SelectWidget. */
export function CheckboxesWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, label, schema, options } = props;
  const fc = ctxOf(props);
  const required = fc.stateOf(id)?.required ?? props.required;
  const { optionsSource: source, rowOptions } = widgetOptions(options);
  const remote = useRemoteOptions(source, fc);
  const itemEnum = fieldOf(schema.items, 'enum');
  const itemLabels = stringsOf(fieldOf(schema.items, 'x-enumLabels'));
  const row = rowOptions ? fc.rowOf(id) : undefined;
  const rowList = rowOptions ? row?.[rowOptions.field] : undefined;
  const rowOther = rowOptions?.other && row?.[rowOptions.other.when] === true ? [{ value: rowOptions.other.value, label: fc.tk(rowOptions.other.label) }] : [];
  const list: Choice[] = rowOptions
    ? [...(Array.isArray(rowList) ? rowList : []).map((o) => ({ value: pick(o, rowOptions.value), label: String(pick(o, rowOptions.label) ?? '') })), ...rowOther]
    : source
    ? (remote.data ?? [])
    : (Array.isArray(itemEnum) ? itemEnum : []).map((v: unknown) => ({ value: v, label: itemLabels[String(v)] ? fc.tk(itemLabels[String(v)]) : String(v) }));
  const selected: unknown[] = Array.isArray(value) ? value : [];
  const err = a11y(props);
  return (
    <chakra.fieldset id={id} aria-describedby={err['aria-describedby']} aria-invalid={err['aria-invalid']} aria-busy={remote.isFetching || undefined}>
      <chakra.legend fontWeight="medium" mb="1">
        {fc.text(label)}
        {required ? <chakra.span aria-hidden="true" color="fg.error"> *</chakra.span> : <chakra.span color="fg.muted"> {fc.t('runtime:optional')}</chakra.span>}
      </chakra.legend>
      <Stack gap="2">
        {list.map((o, i) => {
          const checked = selected.some((v) => v === o.value);
          // an option the server would refuse (x-options disabled) is shown, not offered
          const off = o.disabled === true;
          return (
            <HStack key={String(o.value)} gap="2" align="flex-start">
              <NativeCheckbox
                type="checkbox"
                id={`${id}-${i}`}
                name={`${id}-${i}`}
                checked={checked && !off}
                disabled={disabled || readonly || off}
                onChange={(e: ChangeEvent<HTMLInputElement>) => {
                  fc.touch(id);
                  const next = e.target.checked ? [...selected, o.value] : selected.filter((v) => v !== o.value);
                  // keep the options' order, whatever order they were ticked in
                  onChange(list.filter((x) => !x.disabled).map((x) => x.value).filter((v) => next.includes(v)));
                }}
                onBlur={() => fc.touch(id)}
              />
              <chakra.label htmlFor={`${id}-${i}`} color={off ? 'fg.muted' : undefined}>
                {o.label}
                {off && disabledNoteOf(source, o.row, fc.tk) ? ` (${disabledNoteOf(source, o.row, fc.tk)})` : null}
              </chakra.label>
            </HStack>
          );
        })}
      </Stack>
    </chakra.fieldset>
  );
}

/** A value shown, not edited (a child's name in relationship rows, a medical question). */
export function ReadonlyWidget(props: PortalWidgetProps) {
  const { id, value } = props;
  return <Input id={id} name={id} value={value === undefined || value === null ? '' : String(value)} readOnly variant="flushed" aria-readonly="true" />;
}

/** A text the data carries, shown as a paragraph under the field before it (a medical question's displayMessage); nothing when empty. */
export function NoteWidget(props: PortalWidgetProps) {
  const { id, value } = props;
  if (value === undefined || value === null || value === '') return null;
  return (
    <chakra.p id={id} color="fg.muted" whiteSpace="pre-line">
      {String(value)}
    </chakra.p>
  );
}

/**
 * An amount of money (spec 9: at most 2 decimals). What the parent typed is kept as typed (only
 * surrounding spaces and a leading $ go), so that a minus sign, a comma or a third decimal is refused with the
 * field's message instead of silently becoming another amount ("-5" is not 5).
 */
export function AmountWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, schema } = props;
  const fc = ctxOf(props);
  return (
    <HStack gap="1">
      <chakra.span aria-hidden="true">$</chakra.span>
      <Input
        id={id}
        name={id}
        inputMode="decimal"
        value={value ?? ''}
        maxLength={typeof schema.maxLength === 'number' ? schema.maxLength : 12}
        disabled={disabled || readonly}
        onChange={(e: ChangeEvent<HTMLInputElement>) => {
          fc.touch(id);
          const v = e.target.value.trim().replace(/^\$/, '');
          onChange(v === '' ? undefined : v);
        }}
        {...blurHandlers(props)}
        {...a11y(props)}
      />
    </HStack>
  );
}

/** A check-in PIN: digits only, hidden while typed. */
export function PinWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange } = props;
  const fc = ctxOf(props);
  return (
    <Input
      id={id}
      name={id}
      type="password"
      inputMode="numeric"
      autoComplete="off"
      maxLength={6}
      width="10em"
      value={value ?? ''}
      disabled={disabled || readonly}
      onChange={(e: ChangeEvent<HTMLInputElement>) => {
        fc.touch(id);
        const v = e.target.value.replace(/\D/g, '').slice(0, 6);
        onChange(v === '' ? undefined : v);
      }}
      {...blurHandlers(props)}
      {...a11y(props)}
    />
  );
}

/** State or province of the provider's country, with the leading 'Select' entry. */
export function StateWidget(props: PortalWidgetProps) {
  const fc = ctxOf(props);
  const regions = regionsOf(fc.country);
  return <SelectWidget {...props} options={{ ...props.options, staticOptions: regions.map(([value, label]) => ({ value, label })) }} />;
}

/**
 * A user-defined field (spec 3): the widget follows the row's fieldName prefix (UDDat date, UDBit
 * checkbox, UDTex text, UDMul multi-line, UDDro dropdown of the row's values, UDRad yes/no).
 */
export function UdfWidget(props: PortalWidgetProps) {
  const fc = ctxOf(props);
  const row = fc.rowOf(props.id) ?? {};
  const kind = String(row.fieldName ?? '').slice(0, 5);
  const label = udfCaption(String(row.caption ?? props.label ?? ''));
  const p = { ...props, label };
  switch (kind) {
    case 'UDDat':
      return <DateWidgetLazy {...p} />;
    case 'UDBit':
      return <CheckboxWidget {...p} />;
    case 'UDMul':
      return <TextareaWidget {...p} schema={{ ...props.schema, maxLength: 1000 }} />;
    case 'UDDro': {
      // the row's values: { idValue, itemValue, displayOrder } (itemValue and displayOrder may be left out)
      const values = (Array.isArray(row.values) ? row.values : []).filter(isRecord);
      const options = values.sort((a, b) => Number(a.displayOrder ?? 0) - Number(b.displayOrder ?? 0)).map((v) => ({ value: v.idValue, label: String(v.itemValue ?? '') }));
      return <SelectWidget {...p} options={{ ...props.options, staticOptions: options }} />;
    }
    case 'UDRad':
      return <RadioWidget {...p} schema={{ ...props.schema, type: 'boolean', enum: undefined }} />;
    default:
      return <TextWidget {...p} schema={{ ...props.schema, maxLength: 1000 }} />;
  }
}

/** Spec 3: the caption 'Select your annual income bracket' is displayed as 'Your annual income bracket'. */
export function udfCaption(caption: string): string {
  return caption === 'Select your annual income bracket' ? 'Your annual income bracket' : caption;
}

/**
 * Our widget for every field widget of the engine's table (src/engine/fields/widgetTable.ts): 'date' is added by
 * the form (its own chunk), 'hidden' is RJSF's own.
 */
const fieldWidgets: { [K in Exclude<FieldWidget, 'date' | 'hidden'>]: Widget } = {
  text: TextWidget,
  password: PasswordWidget,
  email: EmailWidget,
  phone: PhoneWidget,
  phoneExt: PhoneExtWidget,
  zip: ZipWidget,
  textarea: TextareaWidget,
  select: SelectWidget,
  checkbox: CheckboxWidget,
  checkboxes: CheckboxesWidget,
  activityPicker: ActivityPickerWidget,
  radio: RadioWidget,
  yesno: RadioWidget,
  readonly: ReadonlyWidget,
  note: NoteWidget,
  amount: AmountWidget,
  pin: PinWidget,
  state: StateWidget,
  udf: UdfWidget,
};

// the activity choice of the parent application loads with its first use (its own chunk)
const ActivityPickerLazy = lazyWhenOnline(() => import('./ActivityPicker'));
function ActivityPickerWidget(props: PortalWidgetProps) {
  return (
    <Suspense fallback={<SkeletonText noOfLines={4} aria-busy="true" />}>
      <ActivityPickerLazy {...props} />
    </Suspense>
  );
}

/** Widgets by the names display.ts gives, and RJSF's own names for the defaults it picks. */
export const baseWidgets: RegistryWidgetsType = {
  TextWidget,
  PasswordWidget,
  EmailWidget,
  TextareaWidget,
  SelectWidget,
  CheckboxWidget,
  CheckboxesWidget,
  RadioWidget,
  ...fieldWidgets,
};
