// Chakra builds its start-up CSS (preflight, global styles, every token as a CSS variable) as it
// creates a system. The portal's is built ahead (src/shell/theme/chakraGlobal.gen.css, `npm run gen`,
// checked by a unit test) and linked by the page, so in the built portal Chakra builds none and its
// preflight code is left out. Every system the built portal makes is the portal's own
// (src/shell/theme/theme.ts). The development server loads Chakra unpatched (both draw the same rules).
import { guarded, replaceOnce, type LibraryPatch } from './guard';

const REPLACEMENTS: Array<[string, string]> = [
  ['const _global = [getPreflightCss(), getGlobalCss(), getTokenCss()];', 'const _global = [];'],
  ['const result = createPreflight({ preflight });', 'const result = {};'],
];

export const chakraGlobalAhead: LibraryPatch = {
  name: 'chakraGlobalAhead',
  library: '@chakra-ui/react',
  version: '3.37.0',
  plugin: () =>
    guarded(chakraGlobalAhead, 1, (hit) => ({
      name: 'patch-chakra-global-ahead',
      apply: 'build',
      enforce: 'pre',
      transform(code, id) {
        if (!/@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]styled-system[\\/]system\.js$/.test(id)) return null;
        hit();
        return { code: REPLACEMENTS.reduce((text, [from, to]) => replaceOnce('chakraGlobalAhead', id, text, from, to), code), map: null };
      },
    })),
};
