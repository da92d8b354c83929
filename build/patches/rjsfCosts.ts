// Two costs of @rjsf on a form page's first paint, each a long task on a cheap phone:
//  - @rjsf/chakra-ui reads `isValidProperty` from Chakra's `defaultSystem`, whose module builds
//    Chakra's whole default system (every token and recipe) as the form chunk is evaluated. The
//    portal's own system answers the same question (the same utilities and conditions): the patched
//    module imports src/shell/theme/theme.ts, an import the library's source does not show.
//  - @rjsf/utils' getDecimalSeparator builds an Intl.NumberFormat on every call (every number field's
//    render, every keystroke in one); the separator of a list of languages is kept once found.
import { fileURLToPath } from 'node:url';
import { guarded, replaceOnce, type LibraryPatch } from './guard';

const theme = fileURLToPath(new URL('../../src/shell/theme/theme.ts', import.meta.url));

export const rjsfChakraSystem: LibraryPatch = {
  name: 'rjsfCosts',
  library: '@rjsf/chakra-ui',
  version: '6.10.1',
  plugin: () =>
    guarded(rjsfChakraSystem, 1, (hit) => ({
      name: 'patch-rjsf-chakra-system',
      enforce: 'pre',
      transform(code, id) {
        if (!/@rjsf[\\/]chakra-ui[\\/]lib[\\/]utils\.js$/.test(id)) return null;
        hit();
        let out = replaceOnce('rjsfCosts', id, code, "import { defaultSystem } from '@chakra-ui/react';", `import { getPortalSystem } from ${JSON.stringify(theme)};`);
        out = replaceOnce('rjsfCosts', id, out, 'const { isValidProperty } = defaultSystem;', 'const isValidProperty = (key) => getPortalSystem().isValidProperty(key);');
        return { code: out, map: null };
      },
    })),
};

export const rjsfDecimalSeparator: LibraryPatch = {
  name: 'rjsfCosts',
  library: '@rjsf/utils',
  version: '6.11.1',
  plugin: () =>
    guarded(rjsfDecimalSeparator, 1, (hit) => ({
      name: 'patch-rjsf-decimal-separator',
      enforce: 'pre',
      transform(code, id) {
        if (!/@rjsf[\\/]utils[\\/]lib[\\/]getDecimalSeparator\.js$/.test(id)) return null;
        hit();
        const out = replaceOnce(
          'rjsfCosts',
          id,
          code,
          'export default function getDecimalSeparator(languages) {',
          'const separators = new Map();\nexport default function getDecimalSeparator(languages) {\n    const key = JSON.stringify(languages || (typeof navigator !== "undefined" ? navigator.languages : null));\n    if (!separators.has(key)) separators.set(key, findDecimalSeparator(languages));\n    return separators.get(key);\n}\nfunction findDecimalSeparator(languages) {',
        );
        return { code: out, map: null };
      },
    })),
};
