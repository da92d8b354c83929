// Texts of the ways in (locales/<lang>/auth.json): e-mails and error messages in the recipient's or
// the request's language, falling back to English.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, pickLang } from './i18n';

type Tree = { [k: string]: string | Tree };
const cache = new Map<string, Map<string, Tree>>();

function trees(root: string): Map<string, Tree> {
  let m = cache.get(root);
  if (!m) {
    m = new Map(LANGUAGES.map((l) => [l, JSON.parse(readFileSync(join(root, 'locales', l, 'auth.json'), 'utf8')) as Tree]));
    cache.set(root, m);
  }
  return m;
}

function lookup(tree: Tree | undefined, path: string[]): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const p of path) {
    if (!node || typeof node === 'string') return undefined;
    node = node[p];
  }
  return typeof node === 'string' ? node : undefined;
}

/** "auth.<path>" in the language, with {{name}} parameters. */
export function authText(root: string, lang: string | undefined, key: string, params: Record<string, unknown> = {}): string {
  const path = key.replace(/^auth\./, '').split('.');
  const t = trees(root);
  const text = lookup(t.get(pickLang(lang)), path) ?? lookup(t.get('en'), path);
  if (text === undefined) throw new Error(`missing translation ${key}`);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
