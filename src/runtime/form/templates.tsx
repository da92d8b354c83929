// Our RJSF templates: labels linked to their input (htmlFor = the input id), the required marker
// (hidden from screen readers, which hear aria-required) or the 'optional' suffix (spec 5.1), the
// field's error and help texts referenced by aria-describedby (ids from RJSF's errorId/helpId).
import { Box, Stack, chakra } from '@chakra-ui/react';
import {
  errorId,
  helpId,
  type FieldErrorProps,
  type FieldHelpProps,
  type FieldTemplateProps,
  type ObjectFieldTemplateProps,
  type TemplatesType,
} from '@rjsf/utils';
import type { PortalFormContext } from './FormContext';

/** Widgets that label themselves (checkbox label, radio legend). */
const SELF_LABELLED = new Set(['checkbox', 'checkboxes', 'yesno', 'radio', 'CheckboxWidget', 'CheckboxesWidget', 'RadioWidget']);

export function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, required, displayLabel, hidden, children, errors, help, schema, uiSchema, registry } = props;
  const fc = registry.formContext as PortalFormContext;
  if (hidden) return <div hidden>{children}</div>;
  const widget = (uiSchema?.['ui:widget'] as string | undefined) ?? '';
  const container = schema.type === 'object' || (schema.type === 'array' && widget !== 'checkboxes');
  const showLabel = displayLabel && !container && !SELF_LABELLED.has(widget) && schema.type !== 'boolean';
  return (
    <Box className="pp-field" data-field={id}>
      {showLabel ? (
        <chakra.label htmlFor={id} display="block" fontWeight="medium" mb="1">
          {fc.tk(label)}
          {required ? (
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

export function FieldErrorTemplate({ errors, fieldPathId }: FieldErrorProps) {
  if (!errors || errors.length === 0) return null;
  return (
    <chakra.div id={errorId(fieldPathId)} color="fg.error" fontSize="sm" mt="1">
      {errors.map((e, i) => (
        <chakra.p key={i}>{e}</chakra.p>
      ))}
    </chakra.div>
  );
}

export function FieldHelpTemplate({ help, fieldPathId, registry }: FieldHelpProps) {
  if (!help) return null;
  const fc = registry.formContext as PortalFormContext;
  return (
    <chakra.p id={helpId(fieldPathId)} fontSize="sm" color="fg.muted" mt="1">
      {typeof help === 'string' ? fc.tk(help) : help}
    </chakra.p>
  );
}

export function ObjectFieldTemplate(props: ObjectFieldTemplateProps) {
  const { properties, title, fieldPathId, registry } = props;
  const fc = registry.formContext as PortalFormContext;
  const isRoot = fieldPathId.path.length === 0;
  const body = (
    <Stack gap="4">
      {properties.filter((p) => !p.hidden).map((p) => (
        <Box key={p.name}>{p.content}</Box>
      ))}
    </Stack>
  );
  if (isRoot || !title) return body;
  return (
    <chakra.fieldset borderWidth="1px" borderColor="border" rounded="md" p="4">
      <chakra.legend px="1" fontWeight="semibold">
        {fc.tk(title)}
      </chakra.legend>
      {body}
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
  ErrorListTemplate: NoErrorList,
  DescriptionFieldTemplate: NoDescription,
  TitleFieldTemplate: NoTitle,
};
