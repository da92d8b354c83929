// The product's texts as data: a namespace file (locales/<lang>/<ns>.json) is a tree of strings, and
// a text is found by its "<ns>:<path.to.key>" and filled in. This is what the server translates with,
// and what the browser draws its first page with before i18next has loaded; it reads the texts exactly
// as i18next reads them (tests/unit/engine/texts.test.ts holds the two equal on every text of every
// language): a key path, `{{name}}` values, plural forms (`key_one`, `key_other`, `key_zero` for 0)
// and `$t(<ns>:<key>)` nesting.

export type TextTree = { [key: string]: unknown };

export interface TextOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}

/** The string at a dotted path of a tree; undefined when there is none (or an object is there). */
export function lookupText(tree: unknown, path: string): string | undefined {
  let node: unknown = tree;
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as TextTree)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function valueAt(values: Record<string, unknown>, path: string): unknown {
  if (path in values) return values[path];
  let node: unknown = values;
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * Fills in `{{name}}` (and `{{a.b}}`) from values. A placeholder with no value stays as written, as
 * i18next leaves it, unless `missing` says what to put there.
 */
export function interpolate(text: string, values: Record<string, unknown> = {}, missing?: (name: string) => string): string {
  if (!text.includes('{{')) return text;
  return text.replace(/\{\{(.+?)\}\}/g, (placeholder, name: string) => {
    const value = valueAt(values, name.trim());
    if (value === undefined) return missing ? missing(name.trim()) : placeholder;
    return value === null ? '' : String(value);
  });
}

const pluralRules = new Map<string, Intl.PluralRules>();

function pluralCategory(language: string, count: number): string {
  let rules = pluralRules.get(language);
  if (!rules) pluralRules.set(language, (rules = new Intl.PluralRules(language)));
  return rules.select(count);
}

/**
 * Translates `key` ("ns:path" or a path in `defaultNs`) from `bundle(ns)`, the language's namespace
 * trees. A key with no text answers its own path (or `defaultValue`), as i18next does.
 */
export function translateText(
  language: string,
  bundle: (ns: string) => unknown,
  defaultNs: string,
  key: string,
  options: TextOptions = {},
): string {
  const colon = key.indexOf(':');
  const ns = colon > 0 ? key.slice(0, colon) : defaultNs;
  const path = colon > 0 ? key.slice(colon + 1) : key;
  const tree = bundle(ns);
  let text: string | undefined;
  if (typeof options.count === 'number') {
    if (options.count === 0) text = lookupText(tree, `${path}_zero`);
    text ??= lookupText(tree, `${path}_${pluralCategory(language, options.count)}`);
  }
  text ??= lookupText(tree, path) ?? options.defaultValue ?? path;
  const filled = interpolate(text, options);
  if (!filled.includes('$t(')) return filled;
  return filled.replace(/\$t\((.+?)\)/g, (_, nested: string) => translateText(language, bundle, ns, nested.trim(), options));
}
