/**
 * The history entry's state flag: this page was opened through an old (hash) link and the bookmark
 * notice is pending. History state survives a reload and costs nothing to read, where the first read
 * of sessionStorage waits for the browser to hand the tab's storage over (a long pause at start).
 */
export const OLD_LINK_FLAG = 'pp.oldLink';

/** The current history entry's state with the flag set or cleared. */
export function withOldLinkFlag(state: unknown, on: boolean): Record<string, unknown> {
  const base = state && typeof state === 'object' ? { ...(state as Record<string, unknown>) } : {};
  if (on) base[OLD_LINK_FLAG] = true;
  else delete base[OLD_LINK_FLAG];
  return base;
}

export function hasOldLinkFlag(state: unknown): boolean {
  return Boolean(state && typeof state === 'object' && (state as Record<string, unknown>)[OLD_LINK_FLAG] === true);
}
