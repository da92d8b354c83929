import { describe, expect, it } from 'vitest';
import { whenOnline } from '../../../src/runtime/whenOnline';

function fakeWindow(onLine: boolean) {
  const listeners: Array<() => void> = [];
  return {
    navigator: { onLine },
    addEventListener: ((type: string, fn: () => void) => {
      if (type === 'online') listeners.push(fn);
    }) as Window['addEventListener'],
    goOnline() {
      this.navigator.onLine = true;
      listeners.splice(0).forEach((fn) => fn());
    },
  };
}

describe('lazy chunks and the connection', () => {
  it('a load that fails offline is tried again when the browser is back online', async () => {
    const win = fakeWindow(false);
    let calls = 0;
    const load = whenOnline(async () => {
      calls++;
      if (!win.navigator.onLine) throw new TypeError('Failed to fetch dynamically imported module');
      return 'chunk';
    }, win);
    const result = load();
    await Promise.resolve();
    await Promise.resolve();
    expect(calls).toBe(1);
    win.goOnline();
    await expect(result).resolves.toBe('chunk');
    expect(calls).toBe(2);
  });

  it('a load that fails online fails at once (the page reload or error page takes over)', async () => {
    const win = fakeWindow(true);
    const load = whenOnline(async () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    }, win);
    await expect(load()).rejects.toThrow(/dynamically imported/);
  });
});
