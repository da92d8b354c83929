// Long lists (a month of attendance, every bulletin) draw their first items with the page and the
// rest just after, as a transition: React renders a transition in slices it can interrupt, so a
// list of hundreds of cards no longer holds the main thread in one long task before the page answers
// a tap. Nothing is dropped: every item is drawn, only later.
import { startTransition, useEffect, useState } from 'react';

/** How many items a list draws with the page; the rest follow in a transition. */
export const FIRST_ITEMS = 12;

/**
 * The number of a list's `total` items to draw now: all of them once the first paint is through.
 * While the rest are to come, the list carries `aria-busy` and `data-partial` (`partialProps`).
 */
export function useProgressiveCount(total: number, first = FIRST_ITEMS): number {
  const [all, setAll] = useState(total <= first);
  const pending = !all && total > first;
  useEffect(() => {
    if (pending) startTransition(() => setAll(true));
  }, [pending]);
  return all ? total : Math.min(total, first);
}

/** The list element's attributes while some of its items are still to be drawn. */
export const partialProps = (count: number, total: number): Record<string, string> | undefined =>
  count < total ? { 'aria-busy': 'true', 'data-partial': 'true' } : undefined;
