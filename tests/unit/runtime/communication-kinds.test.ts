// Pure helpers of the calendar and groupedCards kinds and the file-type icons (spec 2.13, 4).
import { describe, expect, it } from 'vitest';
import { eventsInMonth, isOn, lastDay, mdyOf, monthDays, timeOf, dayOf, type CalendarEvent } from '../../../src/runtime/kinds/calendar';
import { groupRows } from '../../../src/runtime/kinds/groups';
import { fileKind } from '../../../src/runtime/kinds/FileTypeIcon';
import { formatDateTime } from '../../../src/runtime/format';

const ev = (p: Partial<CalendarEvent>): CalendarEvent => ({ id: '1', title: 't', start: '2026-11-23', end: '2026-11-28', allDay: true, description: '', ...p });

describe('calendar helpers', () => {
  it('shows an all-day end as end minus one day, never before the start', () => {
    expect(mdyOf(lastDay(ev({})))).toBe('11/27/2026');
    expect(mdyOf(lastDay(ev({ start: '2026-11-30', end: '2026-12-01' })))).toBe('11/30/2026');
    expect(mdyOf(lastDay(ev({ start: '2026-11-30', end: '2026-11-30' })))).toBe('11/30/2026');
    // a timed event keeps its end day
    expect(mdyOf(lastDay(ev({ allDay: false, start: '2026-11-19T18:00:00', end: '2026-11-19T19:30:00' })))).toBe('11/19/2026');
  });
  it('places events on their days and months', () => {
    const spirit = ev({});
    expect(isOn(spirit, dayOf('2026-11-27')!)).toBe(true);
    expect(isOn(spirit, dayOf('2026-11-28')!)).toBe(false);
    expect(eventsInMonth([spirit, ev({ id: '2', start: '2026-12-20', end: '2027-01-03' })], new Date(2027, 0, 1)).map((e) => e.id)).toEqual(['2']);
    expect(eventsInMonth([ev({ start: 'garbage', end: '' })], new Date(2026, 10, 1))).toEqual([]);
  });
  it('gives times as hh:mm AM/PM and 42 grid days from Sunday', () => {
    expect(timeOf('2026-11-19T18:05:00')).toBe('06:05 PM');
    expect(timeOf('2026-11-19T00:30')).toBe('12:30 AM');
    expect(timeOf('2026-11-19')).toBe('');
    // in the reader's language
    expect(timeOf('2026-11-19T18:05:00', 'es')).toBe('18:05');
    expect(mdyOf(lastDay(ev({})), 'vi')).toBe('27/11/2026');
    expect(mdyOf(undefined, 'pt')).toBe('');
    const days = monthDays(new Date(2026, 10, 15));
    expect(days.length).toBe(42);
    expect(days[0].getDay()).toBe(0);
    expect(mdyOf(days[0])).toBe('11/01/2026');
  });
});

describe('groupRows', () => {
  it('groups by the fields in order of first appearance', () => {
    const rows = [
      { d: '2026-11-20', c: 1, o: 'A' },
      { d: '2026-11-20', c: 2, o: 'B' },
      { d: '2026-11-20', c: 1, o: 'C' },
      { d: '2026-11-19', c: 1, o: 'D' },
    ];
    const g = groupRows(rows, ['d', 'c']);
    expect(g.map((x) => x.records.map((r) => (r as { o: string }).o))).toEqual([['A', 'C'], ['B'], ['D']]);
    expect(g[0].first).toBe(rows[0]);
  });
  it('treats missing and null values alike and makes one group per row without fields', () => {
    expect(groupRows([{ d: null }, {}, null], ['d']).length).toBe(1);
    expect(groupRows([{ a: 1 }, { a: 1 }], []).length).toBe(2);
    expect(groupRows([], ['d'])).toEqual([]);
  });
});

describe('file-type icons (spec 2.13)', () => {
  it.each([
    ['xls', 'spreadsheet'], ['XLSX', 'spreadsheet'], ['csv', 'spreadsheet'], ['pdf', 'pdf'], ['.PDF', 'pdf'], ['doc', 'word'], ['docx', 'word'],
    ['png', 'image'], ['jpg', 'image'], ['jpeg', 'image'], ['gif', 'image'], ['txt', 'text'], ['Supply-List.csv', 'spreadsheet'], ['zip', 'file'], ['', 'file'],
  ])('%s is %s', (type, kind) => {
    expect(fileKind(type)).toBe(kind);
  });
});

describe('date and time of an instant', () => {
  it('shows an ISO instant with a zone in local time, and local values as they are', () => {
    expect(formatDateTime(new Date(2026, 2, 7, 13, 5).toISOString())).toBe('03/07/2026 01:05 PM');
    expect(formatDateTime(new Date(2026, 10, 20, 0, 0).toISOString())).toBe('11/20/2026');
    expect(formatDateTime('2026-03-07T13:05:00')).toBe('03/07/2026 01:05 PM');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
