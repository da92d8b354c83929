// The parts of Chakra's default theme one by one (src/shell/theme/chakraTheme.ts imports
// `@chakra-theme/<part>`): Chakra exports its theme only as one object holding every recipe, so a
// page that uses a few would load them all. `@chakra-theme/<part>` resolves into Chakra's
// dist/esm/theme/; tsconfig "paths" gives the same names their types. A part that moved stops the
// build (the import cannot resolve).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { guarded, PatchError, type LibraryPatch } from './guard';

const THEME = fileURLToPath(new URL('../../node_modules/@chakra-ui/react/dist/esm/theme/', import.meta.url));

export const chakraThemeParts: LibraryPatch = {
  name: 'chakraThemeParts',
  library: '@chakra-ui/react',
  version: '3.37.0',
  required: "src/shell/theme/chakraTheme.ts imports the theme's parts by these names",
  plugin: () =>
    guarded(chakraThemeParts, 1, (hit) => ({
      name: 'patch-chakra-theme-parts',
      enforce: 'pre',
      resolveId(source, importer, options) {
        const m = /^@chakra-theme\/(.*)$/.exec(source);
        if (!m) return null;
        const file = `${THEME}${m[1]}.js`;
        if (!fs.existsSync(file)) throw new PatchError('chakraThemeParts', `${source}: no ${m[1]}.js in Chakra's theme`);
        hit();
        // resolved on as any import of the library: its package.json's sideEffects still applies
        return this.resolve(file, importer, { ...options, skipSelf: true });
      },
    })),
};
