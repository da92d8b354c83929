import { businessDate, setFixedToday } from '../src/engine/today';
import { formatMdy } from '../src/engine/index';

/** Injectable clock so tests can move time (token idle and absolute expiry). */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

// PORTAL_TODAY=yyyy-mm-dd fixes the business 'today' of this process (server, seed and the tests that
// import them); a bad value stops the start rather than silently following the clock.
setFixedToday(process.env.PORTAL_TODAY || undefined);

/**
 * The clock of business dates (seed data, attendance and history ranges, bulletins and alerts in
 * force, rules' today, records' dates): the fixed day when PORTAL_TODAY is set, at `clock`'s time of
 * day. Session, token, rate-limit and outbox times stay on `clock` itself.
 */
export function businessClock(clock: Clock): Clock {
  return () => businessDate(clock());
}

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

/** Today in mm/dd/yyyy in the server's local time zone: the `today` the form rules see. */
export function todayMdy(clock: Clock): string {
  return formatMdy(clock());
}
