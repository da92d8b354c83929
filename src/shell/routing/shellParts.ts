// The shell parts a screen may name (`shellPart`), and the route error of a name this build does not
// have. Apart from errors.ts, whose handling table loads with the first failed call.
/** A route error of spec 8.1: the status it stands for (500 unless it says), shown by the generic error page. */
export class RouteError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'RouteError';
  }
}

/**
 * The shell part a screen names (spec 8.1: an unknown middleware gives 500 'Unknown middleware'): a
 * declaration set newer than this build may name a part the build does not have; the page then
 * fails as a route error, logged, instead of drawing nothing.
 */
export function shellPartOf<T>(parts: Partial<Record<string, T>>, name: string | undefined): T | undefined {
  if (name === undefined) return undefined;
  const part = Object.hasOwn(parts, name) ? parts[name] : undefined;
  if (part === undefined) throw new RouteError(500, 'Unknown middleware');
  return part;
}
