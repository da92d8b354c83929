// Work that waits for the parent's first input (src/runtime/firstInput.ts): a pointer, a key, or focus
// the parent moves; focus the page moves itself (a new page's main region) does not count.
import { describe, expect, it } from 'vitest';
import { onFirstInput } from '../../../src/runtime/firstInput';

function fakeWindow() {
  const listeners = new Map<string, Set<(e: Event) => void>>();
  return {
    addEventListener: (t: string, f: (e: Event) => void) => void (listeners.get(t) ?? listeners.set(t, new Set()).get(t)!).add(f),
    removeEventListener: (t: string, f: (e: Event) => void) => void listeners.get(t)?.delete(f),
    fire: (type: string, tabIndex?: number) => {
      for (const f of [...(listeners.get(type) ?? [])]) f({ type, target: tabIndex === undefined ? null : { tabIndex } } as unknown as Event);
    },
  };
}

describe('onFirstInput', () => {
  it('runs once, on the first pointer or key', () => {
    const w = fakeWindow();
    let runs = 0;
    onFirstInput(w as unknown as Window, () => runs++);
    w.fire('keydown');
    w.fire('pointerdown');
    expect(runs).toBe(1);
  });
  it('with focus: a field the parent tabs to counts, the main region focused by a new page does not', () => {
    const w = fakeWindow();
    let runs = 0;
    onFirstInput(w as unknown as Window, () => runs++, ['pointerdown', 'keydown', 'focusin']);
    w.fire('focusin', -1);
    expect(runs).toBe(0);
    w.fire('focusin', 0);
    expect(runs).toBe(1);
  });
});
