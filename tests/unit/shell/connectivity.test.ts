import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnectivity } from '../../../src/shell/boot/connectivity';

describe('connectivity (No Connection screen)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('goes offline at once and comes back only 1 s after "online"', () => {
    const changes: boolean[] = [];
    const c = createConnectivity(true, (v) => changes.push(v));
    c.wentOffline();
    expect(changes).toEqual([false]);
    c.cameOnline();
    vi.advanceTimersByTime(999);
    expect(c.online).toBe(false);
    vi.advanceTimersByTime(1);
    expect(c.online).toBe(true);
    expect(changes).toEqual([false, true]);
  });

  it('a drop during the delay cancels the restore', () => {
    const changes: boolean[] = [];
    const c = createConnectivity(false, (v) => changes.push(v));
    c.cameOnline();
    vi.advanceTimersByTime(500);
    c.wentOffline();
    vi.advanceTimersByTime(2000);
    expect(c.online).toBe(false);
    expect(changes).toEqual([]);
  });

  it('repeated events do not stack timers or repeat changes', () => {
    const changes: boolean[] = [];
    const c = createConnectivity(false, (v) => changes.push(v));
    c.cameOnline();
    c.cameOnline();
    vi.advanceTimersByTime(1000);
    c.cameOnline();
    vi.advanceTimersByTime(1000);
    expect(changes).toEqual([true]);
    c.dispose();
  });
});
