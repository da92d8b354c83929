// wouter imports use-sync-external-store's shim, written for React before 18; React 18 and later have
// useSyncExternalStore themselves. The shim resolves to src/shell/boot/syncExternalStore.ts, which hands
// out React's own: the shim's code leaves the first load.
import { fileURLToPath } from 'node:url';
import { guarded, type LibraryPatch } from './guard';

const replacement = fileURLToPath(new URL('../../src/shell/boot/syncExternalStore.ts', import.meta.url));

export const syncExternalStoreShim: LibraryPatch = {
  name: 'syncExternalStoreShim',
  library: 'wouter',
  version: '3.13.0',
  plugin: () =>
    guarded(syncExternalStoreShim, 1, (hit) => ({
      name: 'patch-sync-external-store-shim',
      enforce: 'pre',
      resolveId(source) {
        if (!/^use-sync-external-store\/shim(\/index\.js)?$/.test(source)) return null;
        hit();
        return replacement;
      },
    })),
};
