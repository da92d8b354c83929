// Chakra's styled system caches its style computations with its own `memo`; the portal's
// (src/shell/chakraMemo.ts) keys them more cheaply. Chakra's imports of its memo module resolve to
// the portal's, in the build and the development server alike (the same rules in both).
import { fileURLToPath } from 'node:url';
import { guarded, type LibraryPatch } from './guard';

const replacement = fileURLToPath(new URL('../../src/shell/chakraMemo.ts', import.meta.url));

export const chakraMemo: LibraryPatch = {
  name: 'chakraMemo',
  library: '@chakra-ui/react',
  version: '3.37.0',
  plugin: () =>
    guarded(chakraMemo, 1, (hit) => ({
      name: 'patch-chakra-memo',
      enforce: 'pre',
      resolveId(source, importer) {
        if (!importer || !/@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]/.test(importer)) return null;
        if (!(/(^|\/)(utils\/)?memo\.js$/.test(source) && /[\\/](styled-system|utils)[\\/][^\\/]+$/.test(importer))) return null;
        hit();
        return replacement;
      },
    })),
};
