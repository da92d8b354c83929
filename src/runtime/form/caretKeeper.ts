// Where the caret goes after a masked input re-draws its text. The masked text is drawn by React after
// the key; the caret is put back once it is drawn (at the commit, or at the next frame), and only while
// the field still shows the text that key made: on a slow device the frame can come after the next
// keys, and moving the caret then puts them before the ones already typed ('12345' read '34512').
import { useLayoutEffect, useRef, type RefObject } from 'react';

export interface CaretField {
  value: string;
  setSelectionRange(start: number, end: number): void;
}

export interface CaretKeeper {
  /** A key made `value` with the caret at `caret`: put it there once the field shows it. */
  mark(value: string, caret: number): void;
  /** The field was drawn, or a frame passed: place the caret if the field shows the marked text. */
  settle(): void;
  /** The key's text is kept as typed (nothing to place). */
  clear(): void;
}

export function createCaretKeeper<F extends CaretField>(field: () => F | null | undefined, focused: (f: F) => boolean, nextFrame: (f: () => void) => void): CaretKeeper {
  let pending: { value: string; caret: number } | null = null;
  const place = (mark: { value: string; caret: number }) => {
    if (pending !== mark) return;
    const el = field();
    if (!el || !focused(el) || el.value !== mark.value) return;
    pending = null;
    el.setSelectionRange(mark.caret, mark.caret);
  };
  return {
    mark(value, caret) {
      const m = { value, caret };
      pending = m;
      nextFrame(() => place(m));
    },
    settle() {
      if (pending) place(pending);
    },
    clear() {
      pending = null;
    },
  };
}

/** The keeper of one input: settles after every commit of the widget and at the next frame. */
export function useCaretKeeper(ref: RefObject<HTMLInputElement | null>): CaretKeeper {
  const keeper = useRef<CaretKeeper | null>(null);
  keeper.current ??= createCaretKeeper(
    () => ref.current,
    (el) => document.activeElement === el,
    (f) => requestAnimationFrame(f),
  );
  useLayoutEffect(() => keeper.current!.settle());
  return keeper.current;
}
