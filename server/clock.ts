/** Injectable clock so tests can move time (token idle and absolute expiry). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

/** Today's date (yyyy-mm-dd) in the server's local time zone. */
export function isoDay(d: Date): string {
  const y = d.getFullYear();
  const m = String(d.getMonth() + 1).padStart(2, '0');
  const day = String(d.getDate()).padStart(2, '0');
  return `${y}-${m}-${day}`;
}

export function addDays(d: Date, days: number): Date {
  const out = new Date(d);
  out.setDate(out.getDate() + days);
  return out;
}
