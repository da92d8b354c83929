import { describe, expect, it } from 'vitest';
import { foldLine, icalCalendar, icalText } from '../../../server/ical';

describe('iCalendar text (RFC 5545)', () => {
  it('escapes backslash, semicolon, comma and line breaks in TEXT values', () => {
    expect(icalText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds content lines at 75 octets, continuation lines starting with one space', () => {
    const line = `SUMMARY:${'x'.repeat(200)}`;
    const folded = foldLine(line).split('\r\n');
    expect(folded.length).toBe(3);
    for (const l of folded) expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
    expect(folded.slice(1).every((l) => l.startsWith(' '))).toBe(true);
    expect(folded.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(line);
  });

  it('never splits a multi-byte character when folding', () => {
    const line = `SUMMARY:${'Tiếng Việt '.repeat(20)}`;
    const folded = foldLine(line).split('\r\n');
    for (const l of folded) {
      expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
      expect(l).not.toContain('\uFFFD');
    }
    expect(folded.map((l, i) => (i ? l.slice(1) : l)).join('')).toBe(line);
  });

  it('writes all-day events with CRLF line ends, DATE values and the next day as the end', () => {
    const text = icalCalendar('Bright Path, Sofia', [{ uid: 'ed-1@brightpath', date: '2026-12-31', summary: 'Sofia: Maker Lab', description: 'Lincoln; 3:15 PM' }], new Date('2026-11-23T10:00:00Z'));
    expect(text.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('X-WR-CALNAME:Bright Path\\, Sofia\r\n');
    expect(text).toContain('DTSTART;VALUE=DATE:20261231\r\nDTEND;VALUE=DATE:20270101\r\n');
    expect(text).toContain('DTSTAMP:20261123T100000Z\r\n');
    expect(text).toContain('DESCRIPTION:Lincoln\\; 3:15 PM\r\n');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
  });
});
