// @rjsf/core imports markdown-to-jsx (84 kB of minified code) for texts it draws as Markdown only where
// a uiSchema asks for it (ui:enableMarkdownInDescription, ui:enableMarkdownInHelp), in its notes on a
// schema it cannot draw, and in the file widget's list of files: none is on the way to a form's first
// paint. Its import resolves to src/runtime/form/lazyMarkdown.tsx, which loads the library when such a
// text is drawn, showing the text as it is meanwhile.
import { fileURLToPath } from 'node:url';
import { guarded, type LibraryPatch } from './guard';

const replacement = fileURLToPath(new URL('../../src/runtime/form/lazyMarkdown.tsx', import.meta.url));
/** the modules of @rjsf/core that import it (RichDescription, RichHelp, ObjectField, UnsupportedField, FileWidget) */
const IMPORTERS = 5;

export const rjsfLazyMarkdown: LibraryPatch = {
  name: 'rjsfLazyMarkdown',
  library: '@rjsf/core',
  version: '6.11.1',
  plugin: () => {
    const seen = new Set<string>();
    return guarded(rjsfLazyMarkdown, IMPORTERS, (hit) => ({
      name: 'patch-rjsf-lazy-markdown',
      enforce: 'pre',
      buildStart() {
        seen.clear();
      },
      resolveId(source, importer) {
        if (source !== 'markdown-to-jsx/react' || !importer || !/node_modules[\\/]@rjsf[\\/]core[\\/]/.test(importer)) return null;
        // each importing module counts once (the resolver may be asked again for the same one)
        if (!seen.has(importer)) {
          seen.add(importer);
          hit();
        }
        return replacement;
      },
    }));
  },
};
