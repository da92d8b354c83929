// Calendar event helpers for the calendar kind (pure, tested without a browser). Event times are
// local "yyyy-mm-dd" or "yyyy-mm-ddThh:mm[:ss]"; an all-day event's end is exclusive, so it is shown
// as end minus one day (spec 2.13).
import { dateInLanguage, timeInLanguage } from '../../engine/formats';

export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  allDay: boolean;
  description: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Local date of "yyyy-mm-dd..." (no time zone shift). */
export function dayOf(value: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function isoOf(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function addDays(d: Date, n: number): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
}

/** The last day the event is on: an all-day event's exclusive end minus one day (never before its start). */
export function lastDay(ev: Pick<CalendarEvent, 'start' | 'end' | 'allDay'>): Date | undefined {
  const start = dayOf(ev.start);
  const end = dayOf(ev.end) ?? start;
  if (!start || !end) return start;
  const last = ev.allDay ? addDays(end, -1) : end;
  return last < start ? start : last;
}

/** The time part of a timed value in the reader's language ("02:05 PM" in English, "14:05" in Spanish), '' for a date only. */
export function timeOf(value: string, lang = 'en'): string {
  const m = /T(\d{2}):(\d{2})/.exec(value ?? '');
  if (!m) return '';
  return timeInLanguage({ hour: Number(m[1]), minute: Number(m[2]) }, lang);
}

/** A day in the reader's language: mm/dd/yyyy in English, dd/mm/yyyy in Spanish, Portuguese and Vietnamese. */
export function mdyOf(d: Date | undefined, lang = 'en'): string {
  return d ? dateInLanguage({ year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() }, lang) : '';
}

/** Whether the event is on that day (start to last day, inclusive). */
export function isOn(ev: CalendarEvent, day: Date): boolean {
  const start = dayOf(ev.start);
  const last = lastDay(ev);
  if (!start || !last) return false;
  return start <= day && day <= last;
}

/** Events that touch the month of `focus`, by start. */
export function eventsInMonth(events: CalendarEvent[], focus: Date): CalendarEvent[] {
  const first = new Date(focus.getFullYear(), focus.getMonth(), 1);
  const last = new Date(focus.getFullYear(), focus.getMonth() + 1, 0);
  return events
    .filter((ev) => {
      const s = dayOf(ev.start);
      const e = lastDay(ev);
      return s && e && s <= last && e >= first;
    })
    .sort((a, b) => a.start.localeCompare(b.start));
}

/** The 6x7 days of the month grid of `focus`, from Sunday. */
export function monthDays(focus: Date): Date[] {
  const first = new Date(focus.getFullYear(), focus.getMonth(), 1);
  const start = addDays(first, -first.getDay());
  return Array.from({ length: 42 }, (_, i) => addDays(start, i));
}
