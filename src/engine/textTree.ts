// The product's texts as data: a namespace file (locales/<lang>/<ns>.json) is a tree of strings, found
// by "<ns>:<path.to.key>" and filled in by i18next, in the browser (src/runtime/texts.ts) and on the
// server (server/i18n.ts) alike: a key path, `{{name}}` values, plural forms (`key_one`, `key_other`)
// and `$t(<ns>:<key>)` nesting.

export type TextTree = { [key: string]: unknown };

export interface TextOptions {
  count?: number;
  defaultValue?: string;
  [name: string]: unknown;
}
