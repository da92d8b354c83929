import type { KindName, KindOptions } from './sections.gen';
export type * from './sections.gen';

// The declaration model. Every screen, form, rule and API operation is data of these shapes;
// the engine, the React runtime and the server all read the same declarations.

/** A JSON-logic expression (see json-logic-js). */
export type Logic = unknown;

/**
 * A rule reference: `true`/`false` for constant, or a rule id "area.name" from rules/<area>.rules.json.
 * Used by x-show, x-required, x-enable, section/action `show` and `enable`.
 */
export type RuleRef = boolean | string;

// ---------------------------------------------------------------------------------------------
// schemas/<name>.json — JSON Schema (draft 2020-12 subset ajv supports) with `$id` = <name>.
// Form fields carry rule annotations (never the `required` keyword: required-ness is a rule):
//   "x-show":     RuleRef — hidden fields are not validated and are pruned before submit
//   "x-required": RuleRef — required only while shown
//   "x-validate": FieldValidation[] — cross-field checks; the rule must be true for the value to pass
//   "x-widget":   widget name from the runtime registry (phone, zip, date, textarea, ...)
//   "x-options":  { op, params, value, label } — options come from an API operation
//   "title":      a translation key (fields.*), never literal text
// Custom formats: "phone" (10 digits stored), "phone-ext" (1-6 digits), "zip" (US or CA by the
// provider's country), "date-mdy" (mm/dd/yyyy real date), "safe-text" (no < > ^), "email".
export interface FieldValidation {
  rule: string;
  /** translation key of the message shown on the field when the rule is false */
  message: string;
  /** the message's values: paths into the rule's context ('item.daysPerWeek' for 'more than N day(s)') */
  params?: Record<string, string>;
}

export type JsonSchema = Record<string, unknown> & { $id?: string };

// ---------------------------------------------------------------------------------------------
// rules/<area>.rules.json and rules/<area>.cases.json
export interface RuleDef {
  description?: string;
  logic: Logic;
}
export interface RuleFile {
  $schema?: string;
  area: string;
  /** keys are full rule ids: "<area>.<name>" */
  rules: Record<string, RuleDef>;
}
/** A row of a cases table; a plain string is a section header. */
export type CaseRow = string | { rule: string; data: unknown; expected: unknown; note?: string };
export interface CasesFile {
  $schema?: string;
  area: string;
  cases: CaseRow[];
}

// ---------------------------------------------------------------------------------------------
// Bindings: how a screen names values. Strings starting with "$" are paths into the screen context.
//   "$query.ChildID", "$session.accountID", "$provider.country", "$data.children", "$form.x",
//   "$item.programPeriodID" (inside a card list), "$flow.prAccountID" (in-progress data under key)
// Anything else is a literal.
export type Binding = unknown;

export interface DataLoad {
  /** API operation id "<Service>.<operation>" from schemas/api/<Service>.api.json */
  op: string;
  params?: Record<string, Binding>;
  /** translation key used in the 'Unable to retrieve {section}' retry panel */
  label?: string;
  /** load only when this rule is true */
  when?: RuleRef;
}

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
      product?: 'parentportal' | 'parentapplication';
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
  | { type: 'leave'; url: Binding; loader?: 'payment'; referrer?: string };

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

/** What every section has, whatever its kind. */
export interface SectionBase {
  id: string;
  /** translation key of the section heading */
  title?: string;
  show?: RuleRef;
  /** data key (from screen.data) the section renders */
  source?: string;
  /** translation key shown when the source's data is empty */
  empty?: string;
  actions?: ActionDecl[];
}

/**
 * A section of kind K: the common keys and exactly that kind's options (sections.gen.ts, generated
 * from the runtime's kinds by scripts/gen-kinds.ts; the screen meta-schema refuses any other key).
 */
export type SectionOf<K extends KindName> = SectionBase & { kind: K } & KindOptions[K];
/** A section of any component kind of the runtime registry, discriminated by `kind`. */
export type SectionDecl = { [K in KindName]: SectionOf<K> }[KindName];

export interface ModalDecl {
  /** loads made when the modal opens; parameters also bind to `$item` (the opening action's item) */
  data?: ScreenDecl['data'];
  id: string;
  title: string;
  body?: string;
  sections?: SectionDecl[];
  actions: ActionDecl[];
}

export interface QueryParamDecl {
  type: 'string' | 'integer' | 'boolean';
  required?: boolean;
  default?: string | number | boolean;
}

/**
 * A step of a multi-step flow. `steps` are the progress bar's label keys (1-based `step` is this
 * screen's); `variants` replace a step's label while a rule is true (e.g. 'fee' instead of
 * 'payment' when the payment option is N).
 */
export interface FlowDecl {
  name: string;
  step: number;
  steps: string[];
  variants?: { step: number; when: RuleRef; label: string }[];
}

/** A side-menu entry: the shell lists the declared entries of all screens by `order`, then Sign out. */
export interface MenuEntryDecl {
  /** the entry's id (test id `menu-<id>`) */
  id: string;
  order: number;
  /** an icon name of the shell's Icon table (src/shell/icons.ts) */
  icon: string;
  /** translation key */
  label: string;
  show?: RuleRef;
  /** query the entry opens the screen with (e.g. the PIN screen in view mode) */
  query?: Record<string, string>;
  /**
   * a provider page ("$provider.userGuideUrl") the entry opens in a new tab instead of the screen;
   * the entry hides while the binding has no https address
   */
  href?: string;
}

export interface FooterDecl {
  /** the 'Need Help? Contact Us' link (default true; false on sign-in, payment and edit pages) */
  contactUs?: boolean;
  /** the security seal (the index page) */
  securitySeal?: boolean;
  /** the app store badges and QR code where the native apps are offered (the index page) */
  storeBadges?: boolean;
}

export type ShellPartName = 'providerEntry' | 'applicationEntry' | 'postLogin' | 'postLoginError' | 'invalidUrl' | 'notFound' | 'configurationError' | 'sessionEnded' | 'genericError' | 'paymentResponse';

export interface ScreenDecl {
  $schema?: string;
  id: string;
  /** the product the screen belongs to (its base path); the parent portal when absent */
  product?: 'parentportal' | 'parentapplication';
  path: string;
  query?: Record<string, QueryParamDecl>;
  layout: 'default' | 'application-flow' | 'bare';
  /** public: signed-out only pages; private: needs a session; any: both */
  access: 'public' | 'private' | 'any';
  title: string;
  /**
   * a payment-only login (access P) may open it; every other private screen shows it 'not available
   * for your login'. `npm run check` refuses the flag when a load without `when` or a screen action's
   * call is not `paymentOnly` in the contract.
   */
  paymentOnly?: boolean;
  /** the title by a query parameter's value (a status page titled by its status); `title` otherwise */
  titleByQuery?: { param: string; titles: Record<string, string> };
  /** the title by a binding into the screen's data (a program period's name); `title` until it answers */
  titleFrom?: Binding;
  /** multi-step flows: in-progress data kept under the `key` query parameter */
  flow?: FlowDecl;
  /** side-menu entries that open this screen (spec 2.4) */
  menu?: MenuEntryDecl[];
  /** footer flags (spec 2.5): each defaults to the footer's usual behaviour */
  footer?: FooterDecl;
  /** a page the shell draws itself (it needs behaviour, or must work without a declaration set) */
  shellPart?: ShellPartName;
  data?: Record<string, DataLoad>;
  sections: SectionDecl[];
  modals?: ModalDecl[];
  actions?: ActionDecl[];
}

// ---------------------------------------------------------------------------------------------
// schemas/api/<Service>.api.json — the one API contract (server routes, OpenAPI, typed client).
export interface OperationDecl {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** path under /api/<Service>, Fastify style params: /adults/:adultId */
  path: string;
  /** public (no token), session (signed in), temporary (temporary-password token) */
  auth: 'public' | 'session' | 'temporary';
  summary?: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** JSON response schema, or { "file": true } for downloads */
  response: JsonSchema;
  /** a write validated with a form schema and its rules (same as in the browser) */
  form?: string;
  /** a payment-only login (access type P) may call it (spec 6) */
  paymentOnly?: boolean;
  /** a session signed in with a temporary password may call it (sign-out) */
  temporaryAllowed?: boolean;
  /** the body may hold < > ^ (diagnostic records, uploads); every other write is refused with 422 */
  specialCharactersAllowed?: boolean;
  /** answers even to a client of another release (version check, error log, server date) */
  releaseExempt?: boolean;
  /** per-IP limit: at most `max` requests in `timeWindow` milliseconds */
  rateLimit?: { max: number; timeWindow: number };
}
export interface ServiceDecl {
  $schema?: string;
  service: string;
  description?: string;
  /** calls with a `key` query carry the stored application's prAccountID and programPeriodID headers (spec 7) */
  applicationHeaders?: boolean;
  operations: Record<string, OperationDecl>;
}

// ---------------------------------------------------------------------------------------------
// The effective declaration set of one provider (base + providers/<appName>/overlays/*).
export interface DeclarationSet {
  version: string;
  schemas: Record<string, JsonSchema>;
  rules: Record<string, RuleDef>;
  screens: Record<string, ScreenDecl>;
  /** the API contract (schemas/api), when the set was built from files that include it */
  api?: Record<string, ServiceDecl>;
}
