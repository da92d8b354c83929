// The caret of a masked input goes back after the masked text is drawn, and never after the parent has
// typed on: a frame that comes late must not move the caret before keys already typed.
import { describe, expect, it } from 'vitest';
import { createCaretKeeper, type CaretField } from '../../../src/runtime/form/caretKeeper';

function setup() {
  const field: CaretField & { caret: number | null } = {
    value: '',
    caret: null,
    setSelectionRange(start: number) {
      this.caret = start;
    },
  };
  const frames: (() => void)[] = [];
  const keeper = createCaretKeeper(() => field, () => true, (f) => void frames.push(f));
  return { field, frames, keeper };
}

describe('caret keeper', () => {
  it('places the caret once the field shows the masked text (at the commit)', () => {
    const { field, keeper } = setup();
    keeper.mark('(555)1', 5);
    keeper.settle(); // drawn not yet: nothing moves
    expect(field.caret).toBeNull();
    field.value = '(555)1';
    keeper.settle();
    expect(field.caret).toBe(5);
  });

  it('a late frame does not move the caret when more keys were typed meanwhile', () => {
    const { field, frames, keeper } = setup();
    // the field was emptied: the caret should go to 0 once '' is drawn, but the frame comes late
    keeper.mark('', 0);
    field.value = '12'; // two keys typed before the frame (kept as typed, nothing marked)
    keeper.clear();
    frames.shift()!();
    expect(field.caret).toBeNull();
  });

  it('a late frame of an earlier key does nothing once a later key is marked', () => {
    const { field, frames, keeper } = setup();
    keeper.mark('1', 1);
    keeper.mark('12', 2);
    field.value = '12';
    frames.shift()!(); // the first key's frame
    expect(field.caret).toBeNull();
    frames.shift()!();
    expect(field.caret).toBe(2);
    field.caret = null;
    keeper.settle(); // placed once only
    expect(field.caret).toBeNull();
  });

  it('does not move the caret of a field that lost focus', () => {
    const field = { value: 'K1A', setSelectionRange: () => { throw new Error('moved'); } };
    const keeper = createCaretKeeper(() => field, () => false, (f) => f());
    expect(() => keeper.mark('K1A', 3)).not.toThrow();
  });
});
