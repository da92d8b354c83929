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
import { isRecord } from '../guards';
import { byCountry } from '../../engine/form';
import type { LayoutWidth } from '../../engine/fields/widgetTable';
import type { LayoutGroup } from './display';

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
        <chakra.label className="pp-label" htmlFor={id} display="block" fontWeight="medium" mb="1">
          {state?.title ? fc.text(state.title) : local ? fc.text(local) : titleFrom !== undefined ? udfCaption(titleFrom) : fc.text(label)}
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
    <chakra.div className="pp-error" id={errorId(fieldPathId)} color="fg.error" fontSize="sm" mt="1">
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
    <chakra.p className="pp-help" id={helpId(fieldPathId)} fontSize="sm" color="fg.muted" mt="1">
      {typeof help === 'string' ? fc.tk(help) : help}
    </chakra.p>
  );
}

/** Grid tracks of the layout widths (wide screens): fixed for short values, a share of the row for the rest. */
const TRACK: Record<LayoutWidth, string> = {
  xs: '6rem',
  sm: '8.5rem',
  md: '12rem',
  lg: 'minmax(0, 2fr)',
  fill: 'minmax(0, 1fr)',
};

/**
 * Groups and rows as one static style sheet (plain class names, no per-render style objects: the
 * layout re-renders on every key). A row's fields sit side by side from 768 px and stack below; each
 * field spans four shared row tracks (label, input, error, help) through a subgrid, so a label that
 * wraps in one language keeps the row's inputs level. From 1024 px two half groups share a line.
 */
const LAYOUT_CSS = `
.pp-groups{display:grid;grid-template-columns:minmax(0,1fr);row-gap:1rem}
.pp-group{border:0;border-top:1px solid var(--chakra-colors-border);margin:0;padding:0.75rem 0 0;min-width:0}
.pp-group>legend{float:left;width:100%;padding:0;margin-bottom:0.25rem;font-size:var(--chakra-font-sizes-lg);font-weight:var(--chakra-font-weights-semibold)}
.pp-group-body{clear:both;display:flex;flex-direction:column;gap:0.75rem}
.pp-row{display:flex;flex-direction:column;gap:1rem}
.pp-row:not(:has(>.pp-cell>*)){display:none}
@media (min-width:48rem){
.pp-row{display:grid;column-gap:1rem;row-gap:0;align-items:start}
.pp-row>.pp-cell{display:grid;grid-template-rows:subgrid;grid-row:span 4;min-width:0}
.pp-row>.pp-cell>.pp-field{display:contents}
.pp-row>.pp-cell>.pp-field>.pp-label{grid-row:1;align-self:end}
.pp-row>.pp-cell>.pp-field>:not(.pp-label,.pp-error,.pp-help){grid-row:2}
.pp-row>.pp-cell>.pp-field>.pp-error{grid-row:3}
.pp-row>.pp-cell>.pp-field>.pp-help{grid-row:4}
.pp-row>.pp-cell[data-self-labelled]>.pp-field>:not(.pp-label,.pp-error,.pp-help){align-self:center}
}
@media (min-width:64rem){
.pp-groups{grid-template-columns:repeat(2,minmax(0,1fr));column-gap:2rem}
.pp-groups>[data-full]{grid-column:1/-1}
}
`;

function LayoutGroups({ groups, properties, text, empty }: { groups: LayoutGroup[]; properties: PortalObjectFieldTemplateProps['properties']; text: (v: unknown) => string; empty: (name: string) => boolean }) {
  const byName = new Map(properties.filter((p) => !p.hidden && !empty(p.name)).map((p) => [p.name, p.content]));
  return (
    <div className="pp-groups">
      <style>{LAYOUT_CSS}</style>
      {groups.map((g, gi) => {
        const rows = g.rows.map((row, ri) => {
          const cells = row.filter((c) => byName.has(c.name));
          if (!cells.length) return null;
          return (
            <div key={ri} className="pp-row" style={{ gridTemplateColumns: cells.map((c) => TRACK[c.width]).join(' ') }}>
              {cells.map((c) => (
                <div key={c.name} className="pp-cell" data-self-labelled={c.selfLabelled ? '' : undefined}>
                  {byName.get(c.name)}
                </div>
              ))}
            </div>
          );
        });
        if (!rows.some(Boolean)) return null;
        const body = <div className="pp-group-body">{rows}</div>;
        const full = g.half ? undefined : '';
        if (!g.title) return <div key={gi} data-full={full}>{body}</div>;
        return (
          <fieldset key={gi} className="pp-group" data-full={full}>
            <legend>{text(g.title)}</legend>
            {body}
          </fieldset>
        );
      })}
    </div>
  );
}

/** A fixed list of rows without rows (no user-defined fields): its group has nothing to show. */
function rowListEmpty(ui: unknown, value: unknown): boolean {
  const options = isRecord(ui) ? ui['ui:options'] : undefined;
  return isRecord(options) && options.rowList === true && (!Array.isArray(value) || value.length === 0);
}

export function ObjectFieldTemplate(props: PortalObjectFieldTemplateProps) {
  const { properties, title, fieldPathId, registry, uiSchema, formData } = props;
  const fc = registry.formContext;
  const isRoot = fieldPathId.path.length === 0;
  // a row of a list: its fields only (RJSF would title it '<list>-<n>')
  const isRow = typeof fieldPathId.path[fieldPathId.path.length - 1] === 'number';
  const layout = uiSchema?.['ui:layout'] as LayoutGroup[] | undefined;
  const body = layout ? (
    <LayoutGroups groups={layout} properties={properties} text={fc.text} empty={(name) => rowListEmpty(uiSchema?.[name], isRecord(formData) ? formData[name] : undefined)} />
  ) : (
    <Stack gap="4">
      {properties.filter((p) => !p.hidden).map((p) => (
        <Box key={p.name}>{p.content}</Box>
      ))}
    </Stack>
  );
  if (isRoot || isRow || !title) return body;
  return (
    <chakra.fieldset borderWidth="1px" borderColor="border" rounded="md" p="4" minW="0">
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
  const uiOptions = uiSchema?.['ui:options'] as Record<string, unknown> | undefined;
  const rowList = Boolean(uiOptions?.rowList);
  // inside a group titled for it, the list is named by the group's legend
  const untitled = Boolean(uiOptions?.untitled);
  return (
    <chakra.fieldset id={fieldPathId.$id} borderWidth={rowList ? '0' : '1px'} borderColor="border" rounded="md" p={rowList ? '0' : '4'}>
      {title && !untitled ? (
        <chakra.legend px={rowList ? '0' : '1'} fontWeight="semibold" mb="2">
          {fc.text(title)}
        </chakra.legend>
      ) : null}
      {uiOptions?.rowColumns === 2 ? (
        <chakra.div display="grid" gridTemplateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }} columnGap="4" rowGap="4" alignItems="start">
          {items.map((item, i) => (
            <Box key={item.key ?? i}>{item}</Box>
          ))}
        </chakra.div>
      ) : (
        <Stack gap="3">
          {items.map((item, i) => (
            <Box key={item.key ?? i} borderTopWidth={rowList && i > 0 ? '1px' : '0'} borderColor="border" pt={rowList && i > 0 ? '3' : '0'}>
              {item}
            </Box>
          ))}
        </Stack>
      )}
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
