// The CSS Chakra's provider inserts when the portal starts: the order of its cascade layers, its
// preflight (reset), the global styles and every token as a CSS variable, turned into text the way
// emotion's <Global> turns them (the same serializer and stylis plugins). Built ahead by `npm run gen`
// into src/shell/theme/chakraGlobal.gen.css, because building it took about half of the Chakra system's
// start-up on every page load (see chakraGlobalAhead() in vite.config.ts).
import { fileURLToPath } from 'node:url';
import createCache from '@emotion/cache';
import { serializeStyles } from '@emotion/serialize';
import type { SystemContext } from '@chakra-ui/react';

export const CSS_FILE = fileURLToPath(new URL('../../src/shell/theme/chakraGlobal.gen.css', import.meta.url));

export const HEADER = '/* Written by `npm run gen` (scripts/gen-chakra-css.ts) from src/shell/theme/theme.ts: do not edit. */\n';

/** The text of the styles Chakra's provider would insert for `system` (its `_global` and layer order). */
export function chakraGlobalCss(system: SystemContext): string {
  // outside a browser emotion's cache answers the rules it would insert as text
  const cache = createCache({ key: 'css' });
  const rules = (styles: unknown) => cache.insert('', serializeStyles([styles as never], cache.registered, {}), cache.sheet, false) as unknown as string;
  const { atRule } = system.layers;
  const global = (system as unknown as { _global: unknown[] })._global;
  return `${HEADER}${rules(atRule)}\n${rules(global)}\n`;
}
