// Work that waits for the parent's first input (a pointer or key, optionally focus): the chunks a
// first paint does not need but the first interaction soon will (the effect runner, the error
// handling, the rest of the theme).

export type InputType = 'pointerdown' | 'keydown' | 'focusin';

/** Runs `run` once, on the first of `types` on `target`; answers a function that stops waiting. */
export function onFirstInput(target: Window, run: () => void, types: readonly InputType[] = ['pointerdown', 'keydown']): () => void {
  const stop = () => {
    for (const type of types) target.removeEventListener(type, once, true);
  };
  const once = (e: Event) => {
    // focus the page moves itself (a new page focuses its main region, tabindex -1) is not the parent's
    const tabIndex = (e.target as HTMLElement | null)?.tabIndex ?? -1;
    if (e.type === 'focusin' && tabIndex < 0) return;
    stop();
    run();
  };
  for (const type of types) target.addEventListener(type, once, true);
  return stop;
}
