// The declaration files as read from disk, before any merge, and the errors that name them: what the
// merge (declarations.ts) and the checks (check.ts) both read.
import type { CasesFile, JsonSchema, RuleDef, RuleFile, ScreenDecl, ServiceDecl } from './types';

/** screens/fragments/<id>.json: a piece several screens include by { "$fragment": "<id>" } (fragments.ts) */
export interface FragmentFile {
  $schema?: string;
  id: string;
  description?: string;
  content: unknown;
}

export type Fragments = Record<string, DeclFile<FragmentFile>>;

export interface DeclFile<T> {
  /** path relative to the repository root, for messages */
  file: string;
  json: T;
}

/** Everything read from disk before any merge (see node.ts readBaseDeclarations). */
export interface BaseDeclarations {
  /** schemas/<id>.json by $id */
  schemas: Record<string, DeclFile<JsonSchema>>;
  /** schemas/api/<Service>.api.json by service name */
  api: Record<string, DeclFile<ServiceDecl>>;
  /** rules/<area>.rules.json by area */
  rules: Record<string, DeclFile<RuleFile>>;
  /** rules/<area>.cases.json by area */
  cases: Record<string, DeclFile<CasesFile>>;
  /** screens/<id>.json by screen id, their fragment references resolved (fragments.ts) */
  screens: Record<string, DeclFile<ScreenDecl>>;
  /** the screens as written, with their fragment references: resolved again under a provider's fragment overlays */
  screenSources?: Record<string, DeclFile<ScreenDecl>>;
  /** screens/fragments/<id>.json by fragment id */
  fragments?: Record<string, DeclFile<FragmentFile>>;
  /** what resolving the fragment references found wrong (an unknown fragment, a circle) */
  fragmentErrors?: DeclError[];
  /** schemas/meta/<name>.schema.json by name (screen, rules, cases, api) */
  meta: Record<string, DeclFile<JsonSchema>>;
  /** screens/planned-routes.json: the spec's routes not built yet, allowed as navigation targets */
  plannedRoutes?: DeclFile<PlannedRoutes>;
  /** component kinds of the runtime registry (x-kinds of schemas/meta/section.schema.json), when that list exists */
  kinds?: string[];
}

/** screens/planned-routes.json: route -> what it is (spec section); each feature removes its routes when it lands. */
export interface PlannedRoutes {
  $comment?: string;
  routes: Record<string, string>;
}

export interface DeclError {
  file: string;
  /** JSON pointer inside the file ('' = the whole file) */
  path: string;
  message: string;
}

/** Flatten rule files into one id -> rule table. */
export function ruleTable(rules: Record<string, DeclFile<RuleFile>>): Record<string, RuleDef> {
  const out: Record<string, RuleDef> = {};
  for (const f of Object.values(rules)) Object.assign(out, f.json.rules ?? {});
  return out;
}
