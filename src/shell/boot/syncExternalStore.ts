// wouter imports useSyncExternalStore from 'use-sync-external-store/shim', a copy for React versions
// before 18; React 19 has it, so the shim resolves here (vite.config.ts) and the first load skips it.
export { useSyncExternalStore } from 'react';
