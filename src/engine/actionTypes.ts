// The parts of the declaration model that actions are made of: rule references, bindings, effects
// and the action itself. types.ts (the whole model) and sections.gen.ts (the kinds' options, some of
// which hold actions) both build on them; types.ts re-exports them.

/**
 * A rule reference: `true`/`false` for constant, or a rule id "area.name" from rules/<area>.rules.json.
 * Used by x-show, x-required, x-enable, section/action `show` and `enable`.
 */
export type RuleRef = boolean | string;

// ---------------------------------------------------------------------------------------------
// Bindings: how a screen names values. Strings starting with "$" are paths into the screen context.
//   "$query.ChildID", "$session.accountID", "$provider.country", "$data.children", "$form.x",
//   "$item.programPeriodID" (inside a card list), "$flow.prAccountID" (in-progress data under key)
// Anything else is a literal.
export type Binding = unknown;

export type Effect =
  /**
   * `body`: values bound into the request body besides the form's (e.g. {"appName": "$session.appName"}
   * on the public forms); they win over form values of the same name. Without a form, the body is them.
   */
  | { type: 'submit'; op: string; params?: Record<string, Binding>; body?: Record<string, Binding>; form?: string; then?: Effect }
  /** an operation called without any form (e.g. discarding an application): `body` is its body */
  | { type: 'call'; op: string; params?: Record<string, Binding>; body?: Record<string, Binding>; then?: Effect }
  /**
   * `queryRules`: query values that are rules' values (e.g. a pending flag 1/0), beside the bound `query`;
   * `product`: a route of another product this deployment serves (a full navigation to its base path)
   */
  | {
      type: 'navigate';
      to: string;
      query?: Record<string, Binding>;
      queryRules?: Record<string, string>;
      /** what the next page tells the parent (a name dropped, ...): kept in the history entry, never in the
       * address, so a crafted link cannot make the portal say it; the next screen reads it as $notice */
      notice?: Record<string, Binding>;
      replace?: boolean;
      product?: 'parentportal' | 'parentapplication' | 'onetimeenrollment' | 'calendar' | 'punchpass';
    }
  | { type: 'modal'; modal: string }
  | { type: 'closeModal'; then?: Effect }
  /** `form`: validate that form first (a report's dates); params then bind to `$form.*`; `paramRules`: parameters that are rules' values */
  | { type: 'download'; op: string; params?: Record<string, Binding>; paramRules?: Record<string, string>; fileName?: Binding; form?: string }
  | { type: 'upload'; op: string; params?: Record<string, Binding>; accept?: string[]; maxMB?: number; then?: Effect }
  | { type: 'redirectOut'; op?: string; params?: Record<string, Binding>; url?: Binding; returnTo: string }
  | { type: 'signOut' }
  /** the browser's print dialog (a confirmation the parent keeps on paper) */
  | { type: 'print' }
  /**
   * Hand the parent over to another product of the provider (spec 4 redirect flows): where the
   * product is served (no host: the configuration error page), the parent application's address, a
   * one-time keyelement, then the product's address with the keyelement and a cache-busting value.
   * `query`: more values for a product's address (e.g. calendarProgramPeriodID).
   */
  | {
      type: 'handOff';
      product: 'parentapplication' | 'calendar' | 'onetimeenrollment' | 'punchpass';
      programPeriodID: Binding;
      source?: 'PROGRAMLIST' | 'VIEWENROLLMENT' | 'HOME';
      destination?: 'ENROLL' | 'INSTRUCTION';
      query?: Record<string, Binding>;
      returnTo: string;
    }
  /** `data`: this screen's loads (all when neither is given); `ops`: every cached load of those operations, refetched before `then` */
  | { type: 'reload'; data?: string[]; ops?: string[]; then?: Effect }
  | { type: 'setFlow'; values: Record<string, Binding>; then?: Effect }
  /**
   * Store values in the session state (sign-in keeps the token and account fields of its answer):
   * `from` is an object merged in (e.g. "$result.session") without its `omit` fields, `values`
   * single fields (e.g. token).
   */
  | { type: 'setSession'; from?: Binding; omit?: string[]; values?: Record<string, Binding>; then?: Effect }
  /** drop the in-progress data under the `key` query (exit 'return' of an application flow) */
  | { type: 'clearFlow'; then?: Effect }
  /**
   * Leave the portal for an address the server answered (the gateway's hosted payment page):
   * `loader: 'payment'` shows the payment loader (spec 2.12) until the page is gone, with a way back
   * to `referrer` after 30 seconds.
   */
  | { type: 'leave'; url: Binding; loader?: 'payment'; referrer?: string }
  /** `then` when the rule holds in the effect's context (a call's `$result` too), else `else` (a saved-method payment approved or declined) */
  | { type: 'branch'; when: RuleRef; then: Effect; else?: Effect }
  /** puts a text on the clipboard (a link to copy), then goes on */
  | { type: 'copy'; text: Binding; then?: Effect };

export interface ActionDecl {
  id: string;
  label: string; // translation key
  variant?: 'primary' | 'secondary' | 'link' | 'danger';
  show?: RuleRef;
  enable?: RuleRef;
  effect: Effect;
  /** ask first: a modal id whose confirm runs the effect */
  confirm?: string;
  /** ask only when this rule holds (e.g. the year-end grade roll-up is open); otherwise run the effect */
  confirmWhen?: RuleRef;
}
