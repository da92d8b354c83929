// Spec 8.1: a failed dynamic import (a stale chunk after a release) reloads the page, but at most once
// per 60 seconds so a chunk that is really gone cannot cause a reload loop, and never while offline.

export const CHUNK_RELOAD_KEY = 'pp.chunkReloadAt';
export const CHUNK_RELOAD_INTERVAL_MS = 60_000;

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /ChunkLoadError/i,
  /Loading chunk [\w-]+ failed/i,
  /Unable to preload CSS/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!error) return false;
  const text =
    typeof error === 'string'
      ? error
      : `${(error as { name?: string }).name ?? ''} ${(error as { message?: string }).message ?? ''}`;
  return CHUNK_ERROR_PATTERNS.some((p) => p.test(text));
}

type KeyValueStore = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * Decides whether to reload now and, if so, records the time. Returns false when the last reload was
 * less than 60 s ago (or the stored value is from the future, e.g. a clock change).
 */
export function claimChunkReload(storage: KeyValueStore, now: number = Date.now()): boolean {
  const last = Number(storage.getItem(CHUNK_RELOAD_KEY));
  if (Number.isFinite(last) && last > 0 && now - last < CHUNK_RELOAD_INTERVAL_MS && now >= last) return false;
  storage.setItem(CHUNK_RELOAD_KEY, String(now));
  return true;
}

/** Installs the listeners; returns a function that removes them. */
export function installChunkReload(win: Window = window): () => void {
  const tryReload = (error: unknown): boolean => {
    if (!isChunkLoadError(error)) return false;
    // offline the chunk is fetched again when the browser is back (runtime/whenOnline)
    if (!win.navigator.onLine) return false;
    let storage: KeyValueStore;
    try {
      storage = win.sessionStorage;
    } catch {
      return false;
    }
    if (claimChunkReload(storage)) {
      win.location.reload();
      return true;
    }
    return false;
  };
  // Vite raises this event when a preload of a lazy chunk fails
  const onPreload = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (tryReload(payload ?? new Error('Failed to fetch dynamically imported module'))) event.preventDefault();
  };
  const onRejection = (event: PromiseRejectionEvent) => {
    tryReload(event.reason);
  };
  win.addEventListener('vite:preloadError', onPreload);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('vite:preloadError', onPreload);
    win.removeEventListener('unhandledrejection', onRejection);
  };
}
