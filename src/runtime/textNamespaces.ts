// Which translation namespaces a page loads, as plain data and functions without imports:
// vite.config.ts reads them too (the text files, and each base screen's namespaces).

/**
 * The namespaces every page loads at start: the shell's texts (common), the screens' titles
 * (screens) and the runtime's own texts (runtime). One file per language; every other namespace is
 * a file of its own, fetched with the first screen that uses it. The engine's messages (errors),
 * which no declaration needs to name, load with the form engine and with the effect runner
 * (src/runtime/ScreenRenderer.tsx), before any of them can show.
 */
export const START_NAMESPACES: readonly string[] = ['common', 'runtime', 'screens'];

/** The server's own texts (e-mails, API messages): never fetched by the browser, nor built for it. */
export const SERVER_NAMESPACES: readonly string[] = ['server'];

/**
 * Namespaces a product fetches at start: the parent application's and the one-time enrolment's own
 * texts (the one-time enrolment shares the application's flow, exit and payment texts). Any other
 * product fetches them with the first screen that uses them (the portal's change of schedule draws
 * the application's activity picker and flow).
 */
export const PRODUCT_NAMESPACES: Readonly<Record<string, readonly ('parentapplication' | 'onetimeenrollment' | 'calendar' | 'punchpass')[]>> = {
  application: ['parentapplication', 'onetimeenrollment'],
  onetime: ['onetimeenrollment'],
  flexCalendar: ['calendar'],
  punchpass: ['punchpass'],
};

/**
 * Of the candidate namespaces, those a screen uses: a key "<namespace>.<key>" anywhere in its
 * declaration or in the form schemas it names (a field's label, an extra option label, a row's
 * message); a screen that names a form schema gets the field labels (fields) whatever its keys,
 * since the engine's messages name fields by their labels. A rule's name ("account.blocked", a
 * rule of rules/account.rules.json) is not a key: `isRule` tells them apart.
 */
export function namespacesOfScreen(candidates: readonly string[], screen: unknown, schemas: Record<string, unknown> = {}, isRule: (name: string) => boolean = () => false): string[] {
  const own = JSON.stringify(screen) ?? '';
  const named = [...own.matchAll(/"schema":"([^"]+)"/g)].map((m) => JSON.stringify(schemas[m[1]] ?? ''));
  const used = new Set<string>();
  for (const text of [own, ...named]) {
    for (const m of text.matchAll(/"([A-Za-z]\w*)\.[^"]*"/g)) if (!isRule(m[0].slice(1, -1))) used.add(m[1]);
  }
  return candidates.filter((ns) => used.has(ns) || (ns === 'fields' && named.length > 0));
}
