// What our RJSF templates and widgets read from the form (RJSF's formContext).
import type { ArrayFieldTemplateProps, FieldTemplateProps, ObjectFieldTemplateProps, RJSFSchema, WidgetProps } from '@rjsf/utils';
import type { ApiClient } from '../../api/client';
import type { FieldState, RuleContext } from '../../engine/form';

export interface PortalFormContext {
  country: 'US' | 'CA';
  locale: string;
  /** translate a declaration key */
  tk: (key: string | undefined, params?: Record<string, unknown>) => string;
  /** translate a runtime key (runtime:...) */
  t: (key: string, params?: Record<string, unknown>) => string;
  api: ApiClient;
  /** the screen context, for x-options params bound to $session, $query, ... */
  getContext: () => RuleContext;
  /** a field was changed or left: its errors may show from now on (eager validation) */
  touch: (id: string) => void;
  /** the engine's state of the field at a JSON pointer (rows of arrays included) */
  fieldState: (pointer: string) => FieldState | undefined;
  /** the engine's state of the field with an RJSF id */
  stateOf: (id: string) => FieldState | undefined;
  /** the row (object) a field id belongs to, for widgets whose look depends on their row */
  rowOf: (id: string) => Record<string, unknown> | undefined;
  /** a label: translated when it is a key (with the field's x-titleParams, given its schema), else shown as given (captions from data) */
  text: (value: unknown, schema?: RJSFSchema) => string;
  /** set several top-level fields at once (x-fill: a chosen payer's name and address) */
  setFields: (values: Record<string, unknown>) => void;
  /** the field states (shown, required, enabled) in one string: a change re-renders the fields */
  stateSignature?: string;
}

/** RJSF's props with our form context typed (the form passes a PortalFormContext). */
export type PortalWidgetProps = WidgetProps<unknown, RJSFSchema, PortalFormContext>;
export type PortalFieldTemplateProps = FieldTemplateProps<unknown, RJSFSchema, PortalFormContext>;
export type PortalObjectFieldTemplateProps = ObjectFieldTemplateProps<unknown, RJSFSchema, PortalFormContext>;
export type PortalArrayFieldTemplateProps = ArrayFieldTemplateProps<unknown, RJSFSchema, PortalFormContext>;
