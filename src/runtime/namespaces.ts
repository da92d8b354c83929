// The translation namespaces are the files of locales/en: a feature adds its own file
// (locales/<lang>/<feature>.json) and its keys "<feature>.<key>" resolve with no code change.
const files = import.meta.glob('../../locales/en/*.json');

export const NAMESPACES: readonly string[] = Object.keys(files)
  .map((p) => p.slice(p.lastIndexOf('/') + 1, -'.json'.length))
  .sort();
