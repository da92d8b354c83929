// Chakra's input, native select and field parts use Ark's field parts through its `Field` namespace
// object, which the bundler cannot take apart: every part (the textarea and its autoresize too) was
// in the first load. Each use of `Field.<Part>` becomes the part itself (`FieldSelect`, which Ark
// exports by name), so only the parts used are bundled. Same components, same code. A file of these
// that imports Ark's field in a form the patch does not know stops the build.
import path from 'node:path';
import { guarded, PatchError, type LibraryPatch } from './guard';

const USERS = /@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]components[\\/](input|native-select|field|textarea)[\\/][\w-]+\.js$/;

export const arkFieldParts: LibraryPatch = {
  name: 'arkFieldParts',
  library: '@chakra-ui/react',
  version: '3.37.0',
  plugin: () =>
    guarded(arkFieldParts, 4, (hit) => ({
      name: 'patch-ark-field-parts',
      apply: 'build',
      transform(code, id) {
        if (!USERS.test(id) || !/^import [^;]* from '@ark-ui\/react\/field';/m.test(code)) return null;
        const line = /import \{([^}]*)\} from '@ark-ui\/react\/field';/.exec(code);
        if (!line) throw new PatchError('arkFieldParts', `${path.basename(id)} imports Ark's field in a form the patch does not know`);
        if (!/(^|[\s,])Field([\s,]|$)/.test(line[1])) return null;
        const parts = [...new Set([...code.matchAll(/\bField\.([A-Z]\w*)/g)].map((m) => m[1]))];
        const names = line[1].split(',').map((n) => n.trim()).filter((n) => n && n !== 'Field');
        const rest = code.slice(line.index + line[0].length);
        if (/\bField\b(?!\.[A-Z])/.test(rest)) return null; // Field used otherwise: leave the file as it is
        hit();
        const body = rest.replace(/\bField\.([A-Z]\w*)/g, 'ArkField$$$1');
        const head = `import { ${[...names, ...parts.map((p) => `Field${p} as ArkField$${p}`)].join(', ')} } from '@ark-ui/react/field';`;
        return { code: code.slice(0, line.index) + head + body, map: null };
      },
    })),
};
