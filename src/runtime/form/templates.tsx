// Our RJSF templates: labels linked to their input (htmlFor = the input id), the required marker
// (hidden from screen readers, which hear aria-required) or the 'optional' suffix (spec 5.1), the
// field's error and help texts referenced by aria-describedby (ids from RJSF's errorId/helpId).
import { Box, Stack, chakra } from '@chakra-ui/react';
import {
  errorId,
  helpId,
  type FieldErrorProps,
  type FieldHelpProps,
  type RJSFSchema,
  type TemplatesType,
} from '@rjsf/utils';
import type { PortalArrayFieldTemplateProps, PortalFieldTemplateProps, PortalFormContext, PortalObjectFieldTemplateProps } from './FormContext';
import { udfCaption } from './widgets';
import { byCountry } from '../../engine/form';

/** Widgets that label themselves (checkbox label, radio legend). */
const SELF_LABELLED = new Set(['checkbox', 'checkboxes', 'yesno', 'radio', 'hidden', 'note', 'CheckboxWidget', 'CheckboxesWidget', 'RadioWidget']);

export function FieldTemplate(props: PortalFieldTemplateProps) {
  const { id, label, displayLabel, hidden, children, errors, help, schema, uiSchema, registry, fieldPathId } = props;
  const fc = registry.formContext;
  if (hidden) return <div hidden>{children}</div>;
  // rows of arrays share one items schema: their per-row x-show / x-required come from the engine
  const state = fieldPathId.path.length ? fc.fieldState(`/${fieldPathId.path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`) : undefined;
  if (state && !state.shown) return null;
  const required = state ? state.required : props.required;
  // x-titleFrom: the label is a sibling's text (a user-defined field's caption)
  const titleFrom = typeof schema['x-titleFrom'] === 'string' ? (fc.rowOf(id)?.[schema['x-titleFrom'] as string] as string | undefined) : undefined;
  // the country's word for the field (x-titleByCountry: Province and Postal code in Canada)
  const local = byCountry(schema, 'x-titleByCountry', fc.country);
  const widget = (uiSchema?.['ui:widget'] as string | undefined) ?? '';
  const container = schema.type === 'object' || (schema.type === 'array' && widget !== 'checkboxes');
  // user-defined fields label themselves when they render as a checkbox or a yes/no pair
  const udfSelfLabelled = widget === 'udf' && /^UD(Bit|Rad)/.test(String(fc.rowOf(id)?.fieldName ?? ''));
  const showLabel = displayLabel && !container && !SELF_LABELLED.has(widget) && schema.type !== 'boolean' && !udfSelfLabelled;
  return (
    <Box className="pp-field" data-field={id}>
      {showLabel ? (
        <chakra.label htmlFor={id} display="block" fontWeight="medium" mb="1">
          {local ? fc.text(local) : titleFrom !== undefined ? udfCaption(titleFrom) : fc.text(label)}
          {widget === 'readonly' ? null : required ? (
            <chakra.span aria-hidden="true" color="fg.error">
              {' '}
              *
            </chakra.span>
          ) : (
            <chakra.span color="fg.muted" fontWeight="normal">
              {' '}
              {fc.t('runtime:optional')}
            </chakra.span>
          )}
        </chakra.label>
      ) : null}
      {children}
      {errors}
      {help}
    </Box>
  );
}

export function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps<unknown, RJSFSchema, PortalFormContext>) {
  if (!errors || errors.length === 0) return null;
  return (
    <chakra.div id={errorId(fieldPathId)} color="fg.error" fontSize="sm" mt="1">
      {errors.map((e, i) => (
        <chakra.p key={i}>{e}</chakra.p>
      ))}
    </chakra.div>
  );
}

export function FieldHelpTemplate({ help, fieldPathId, registry }: FieldHelpProps<unknown, RJSFSchema, PortalFormContext>) {
  if (!help) return null;
  const fc = registry.formContext;
  return (
    <chakra.p id={helpId(fieldPathId)} fontSize="sm" color="fg.muted" mt="1">
      {typeof help === 'string' ? fc.tk(help) : help}
    </chakra.p>
  );
}

export function ObjectFieldTemplate(props: PortalObjectFieldTemplateProps) {
  const { properties, title, fieldPathId, registry } = props;
  const fc = registry.formContext;
  const isRoot = fieldPathId.path.length === 0;
  // a row of a list: its fields only (RJSF would title it '<list>-<n>')
  const isRow = typeof fieldPathId.path[fieldPathId.path.length - 1] === 'number';
  const body = (
    <Stack gap="4">
      {properties.filter((p) => !p.hidden).map((p) => (
        <Box key={p.name}>{p.content}</Box>
      ))}
    </Stack>
  );
  if (isRoot || isRow || !title) return body;
  return (
    <chakra.fieldset borderWidth="1px" borderColor="border" rounded="md" p="4">
      <chakra.legend px="1" fontWeight="semibold">
        {fc.text(title)}
      </chakra.legend>
      {body}
    </chakra.fieldset>
  );
}

/** Arrays: a fieldset of rows; fixed row lists (relationships, user-defined fields) have no buttons. */
export function ArrayFieldTemplate(props: PortalArrayFieldTemplateProps) {
  const { items, canAdd, onAddClick, title, registry, fieldPathId, uiSchema, disabled, readonly } = props;
  const fc = registry.formContext;
  const { AddButton } = registry.templates.ButtonTemplates;
  const rowList = Boolean((uiSchema?.['ui:options'] as Record<string, unknown> | undefined)?.rowList);
  return (
    <chakra.fieldset id={fieldPathId.$id} borderWidth={rowList ? '0' : '1px'} borderColor="border" rounded="md" p={rowList ? '0' : '4'}>
      {title ? (
        <chakra.legend px={rowList ? '0' : '1'} fontWeight="semibold" mb="2">
          {fc.text(title)}
        </chakra.legend>
      ) : null}
      <Stack gap="4">
        {items.map((item, i) => (
          <Box key={item.key ?? i} borderTopWidth={rowList && i > 0 ? '1px' : '0'} borderColor="border" pt={rowList && i > 0 ? '4' : '0'}>
            {item}
          </Box>
        ))}
      </Stack>
      {canAdd && !rowList ? (
        <Box mt="3">
          <AddButton onClick={onAddClick} disabled={disabled || readonly} registry={registry} />
        </Box>
      ) : null}
    </chakra.fieldset>
  );
}

/** The form's own error list is off: the page-level message and per-field errors replace it. */
function NoErrorList() {
  return null;
}
function NoDescription() {
  return null;
}
function NoTitle() {
  return null;
}

export const templates: Partial<TemplatesType> = {
  FieldTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  ObjectFieldTemplate,
  ArrayFieldTemplate,
  ErrorListTemplate: NoErrorList,
  DescriptionFieldTemplate: NoDescription,
  TitleFieldTemplate: NoTitle,
};
