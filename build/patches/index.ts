// Every change the build makes to a library (build/patches/README.md has the table: what, why, the
// gain measured, and what upstream change would end it). Each fails the build when its library is
// not the version it was written for, or when it no longer finds what it changes.
import type { Plugin } from 'vite';
import { arkFieldParts } from './arkFieldParts';
import { chakraGlobalAhead } from './chakraGlobalAhead';
import { chakraThemeParts } from './chakraThemeParts';
import { emotionStatics } from './emotionStatics';
import { rjsfChakraSystem, rjsfDecimalSeparator } from './rjsfCosts';
import { rjsfLazyMarkdown } from './rjsfLazyMarkdown';
import { syncExternalStoreShim } from './syncExternalStoreShim';
import type { LibraryPatch } from './guard';

export { treeshake } from './emotionStatics';

export const PATCHES: LibraryPatch[] = [chakraGlobalAhead, chakraThemeParts, arkFieldParts, rjsfChakraSystem, rjsfDecimalSeparator, rjsfLazyMarkdown, syncExternalStoreShim, emotionStatics];

/**
 * The patches' plugins. BUILD_WITHOUT_PATCHES (names, comma-separated) leaves some out: only
 * `npm run bench:patches` sets it, to measure what each patch gains.
 */
export function patchPlugins(without = (process.env.BUILD_WITHOUT_PATCHES ?? '').split(',').filter(Boolean)): Plugin[] {
  for (const name of without) if (!PATCHES.some((p) => p.name === name)) throw new Error(`BUILD_WITHOUT_PATCHES: no patch ${name} in build/patches/`);
  return PATCHES.filter((p) => !without.includes(p.name)).map((p) => p.plugin());
}
