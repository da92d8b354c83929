// The tests' 'today': the same business day the server and the seed use (PORTAL_TODAY when set, see
// server/clock.ts), so dates the tests type or expect match the demo data on any day.
import { addDays, businessClock, isoDay, systemClock } from '../server/clock';

const pad = (n: number) => String(n).padStart(2, '0');

/** The business day `offset` days from today (local time). */
export function day(offset = 0): Date {
  return addDays(businessClock(systemClock)(), offset);
}

/** yyyy-mm-dd, `offset` days from today */
export const iso = (offset = 0): string => isoDay(day(offset));

/** mm/dd/yyyy, `offset` days from today */
export const mdy = (offset = 0): string => {
  const d = day(offset);
  return `${pad(d.getMonth() + 1)}/${pad(d.getDate())}/${d.getFullYear()}`;
};
