// A store update that comes from the network or a timer (a query's answer, a namespace of texts)
// re-renders its readers as a transition: React draws it in slices of a few milliseconds, so a cheap
// phone keeps answering taps while Home fills in, instead of one long task per answer. An update
// made while the browser dispatches an event (typing, a click) stays urgent, as a controlled field
// must see its own keystroke at once.
import { startTransition } from 'react';
import type { getDefaultStore } from 'jotai';

type Store = ReturnType<typeof getDefaultStore>;

const marked = new WeakSet<Store>();

export function storeUpdatesAsTransitions(store: Store, win: { event?: Event } = window as { event?: Event }): void {
  if (marked.has(store)) return;
  marked.add(store);
  const sub = store.sub.bind(store);
  store.sub = (atom, listener) => sub(atom, () => (win.event ? listener() : startTransition(listener)));
}
