// What our RJSF templates and widgets read from the form (RJSF's formContext).
import type { ApiClient } from '../../api/client';
import type { RuleContext } from '../../engine/form';

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
}
