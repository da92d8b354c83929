// Chakra's styled system caches its style computations with `memo`, keyed by a sorted, recursive
// string of the arguments, and moves every hit to the end of its LRU map. Drawing a page calls it for
// every styled element, and on a cheap phone that keying was the largest single cost of a first
// paint. This module takes its place (vite.config.ts, chakraMemo()) with the same contract and a
// cheaper key: a primitive as itself, anything else as JSON text (key order then matters, which only
// costs a miss; Chakra's style values are plain data, so nothing JSON leaves out changes a result).
const MAX_ENTRIES = 1000;

function keyOf(args: unknown[]): string {
  if (args.length === 1) {
    const a = args[0];
    if (typeof a === 'string') return `s${a}`;
    if (typeof a === 'number' || typeof a === 'boolean') return `${typeof a}${a}`;
    if (a === null || a === undefined) return `${a}`;
  }
  return `j${JSON.stringify(args)}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const memo = <T extends (...args: any[]) => any>(fn: T): T => {
  const cache = new Map<string, ReturnType<T>>();
  function get(this: unknown, ...args: unknown[]): ReturnType<T> {
    const key = keyOf(args);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const result = fn.apply(this, args) as ReturnType<T>;
    // the oldest entry leaves first (insertion order): no reordering on every hit
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, result);
    return result;
  }
  return get as T;
};
