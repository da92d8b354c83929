// The portal's 'today' for business dates (attendance ranges, bulletins and alerts in force, an
// absence's 'not in the past', the calendar, seed data). A deployment or a test run may fix the day
// (PORTAL_TODAY=yyyy-mm-dd: the server reads it, the browser gets it from the page the server
// serves) so every answer is the same on any weekday and in any time zone. The time of day stays the
// real one; session, token and rate-limit times never use this (they use the real clock).

let fixedDay: { y: number; m: number; d: number } | undefined;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses yyyy-mm-dd (a real calendar day) or returns undefined. */
export function parseIsoDay(value: string): { y: number; m: number; d: number } | undefined {
  const match = ISO_DAY.exec(value);
  if (!match) return undefined;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(y, m - 1, d);
  return probe.getFullYear() === y && probe.getMonth() === m - 1 && probe.getDate() === d ? { y, m, d } : undefined;
}

/** Fixes 'today' to a day (yyyy-mm-dd); empty or undefined follows the clock again. A bad value throws. */
export function setFixedToday(value: string | undefined): void {
  if (!value) {
    fixedDay = undefined;
    return;
  }
  const day = parseIsoDay(value);
  if (!day) throw new Error(`today must be a calendar day yyyy-mm-dd, not "${value}"`);
  fixedDay = day;
}

/** The fixed day as yyyy-mm-dd, when one is set. */
export function fixedToday(): string | undefined {
  if (!fixedDay) return undefined;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${fixedDay.y}-${p(fixedDay.m)}-${p(fixedDay.d)}`;
}

/** `now` moved onto the fixed day (same local time of day); `now` itself when no day is fixed. */
export function businessDate(now: Date = new Date()): Date {
  if (!fixedDay) return new Date(now);
  return new Date(fixedDay.y, fixedDay.m - 1, fixedDay.d, now.getHours(), now.getMinutes(), now.getSeconds(), now.getMilliseconds());
}
