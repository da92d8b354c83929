import type { KindName, KindOptions } from './sections.gen';
import type { ActionDecl, Binding, RuleRef } from './actionTypes';
export type * from './sections.gen';
export type * from './actionTypes';

// The declaration model. Every screen, form, rule and API operation is data of these shapes;
// the engine, the React runtime and the server all read the same declarations.

/** A JSON-logic expression (see json-logic-js). */
export type Logic = unknown;

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

export interface DataLoad {
  /** API operation id "<Service>.<operation>" from schemas/api/<Service>.api.json */
  op: string;
  params?: Record<string, Binding>;
  /** translation key used in the 'Unable to retrieve {section}' retry panel */
  label?: string;
  /** load only when this rule is true */
  when?: RuleRef;
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
  /** an icon name of the shell's Icon table (src/shell/chrome/icons.ts) */
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
  product?: 'parentportal' | 'parentapplication' | 'onetimeenrollment' | 'calendar' | 'punchpass';
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
  /** the title (a translation key) by rules on the screen's data: the first that holds; `title` otherwise */
  titleWhen?: Array<{ when: RuleRef; title: string }>;
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
