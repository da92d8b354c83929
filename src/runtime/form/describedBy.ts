import { errorId, helpId } from '@rjsf/utils';
import type { PortalWidgetProps } from './FormContext';

/**
 * The ids a field's control is described by: only those of elements on the page (its error while it
 * shows one, its help when it has one: templates.tsx), never an id nothing carries.
 */
export function describedBy(props: Pick<PortalWidgetProps, 'id' | 'rawErrors' | 'uiSchema'>): string | undefined {
  const ids = [props.rawErrors && props.rawErrors.length ? errorId(props.id) : '', props.uiSchema?.['ui:help'] ? helpId(props.id) : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
