import { describe, expect, it } from 'vitest';
import { CHUNK_RELOAD_KEY, claimChunkReload, isChunkLoadError } from '../../../src/shell/errors/chunkReload';

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('chunk-load reload throttle', () => {
  it('reloads the first time and records the time', () => {
    const s = memoryStorage();
    expect(claimChunkReload(s, 1_000_000)).toBe(true);
    expect(s.map.get(CHUNK_RELOAD_KEY)).toBe('1000000');
  });

  it('refuses a second reload within 60 s', () => {
    const s = memoryStorage();
    claimChunkReload(s, 1_000_000);
    expect(claimChunkReload(s, 1_000_000 + 59_999)).toBe(false);
    expect(s.map.get(CHUNK_RELOAD_KEY)).toBe('1000000');
  });

  it('allows a reload again at 60 s', () => {
    const s = memoryStorage();
    claimChunkReload(s, 1_000_000);
    expect(claimChunkReload(s, 1_060_000)).toBe(true);
    expect(s.map.get(CHUNK_RELOAD_KEY)).toBe('1060000');
  });

  it('treats garbage or future timestamps as no previous reload', () => {
    const s = memoryStorage();
    s.setItem(CHUNK_RELOAD_KEY, 'not a number');
    expect(claimChunkReload(s, 5_000)).toBe(true);
    s.setItem(CHUNK_RELOAD_KEY, String(10_000_000));
    expect(claimChunkReload(s, 5_000)).toBe(true);
  });

  it('recognises dynamic import failures only', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: https://x/assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('error loading dynamically imported module'))).toBe(true);
    expect(isChunkLoadError(new Error('Network Error'))).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });
});

describe('chunk-load reload and the connection', () => {
  it('does not reload while the browser is offline', async () => {
    const { installChunkReload } = await import('../../../src/shell/errors/chunkReload');
    const listeners = new Map<string, (e: unknown) => void>();
    let reloads = 0;
    const s = memoryStorage();
    const win = {
      navigator: { onLine: false },
      sessionStorage: s,
      location: { reload: () => void reloads++ },
      addEventListener: (type: string, fn: (e: unknown) => void) => void listeners.set(type, fn),
      removeEventListener: () => undefined,
    } as unknown as Window;
    installChunkReload(win);
    const failure = { reason: new TypeError('Failed to fetch dynamically imported module: /a.js') };
    listeners.get('unhandledrejection')!(failure);
    expect(reloads).toBe(0);
    (win.navigator as { onLine: boolean }).onLine = true;
    listeners.get('unhandledrejection')!(failure);
    expect(reloads).toBe(1);
  });
});
