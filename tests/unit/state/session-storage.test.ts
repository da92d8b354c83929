// The stored session keeps its identity as the atom mounts: jotai reads the storage again then, and a
// new object of the same session redrew every reader of it (the whole page) at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from 'jotai';

const backing = new Map<string, string>();
const fakeLocalStorage = {
  getItem: (k: string) => backing.get(k) ?? null,
  setItem: (k: string, v: string) => void backing.set(k, v),
  removeItem: (k: string) => void backing.delete(k),
};

describe('the stored session', () => {
  beforeAll(() => {
    (globalThis as { localStorage?: unknown }).localStorage = fakeLocalStorage;
  });
  afterAll(() => {
    delete (globalThis as { localStorage?: unknown }).localStorage;
  });

  it('is the same object before and after the atom mounts, and a new one once the stored text changes', async () => {
    const { defaultSession } = await import('../../../src/state/session');
    backing.set('pp.session', JSON.stringify({ ...defaultSession, token: 't1', userName: 'maria' }));
    // the atom reads the storage as its module loads (getOnInit)
    const { sessionAtom } = await import('../../../src/state');
    const store = createStore();
    const before = store.get(sessionAtom);
    expect(before.token).toBe('t1');
    const unsubscribe = store.sub(sessionAtom, () => undefined); // mounts: jotai reads the storage again
    expect(store.get(sessionAtom)).toBe(before);
    unsubscribe();

    backing.set('pp.session', JSON.stringify({ ...defaultSession, token: 't2' }));
    const other = createStore();
    other.sub(sessionAtom, () => undefined);
    expect(other.get(sessionAtom).token).toBe('t2');
  });
});
