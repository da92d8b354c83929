// iCalendar (RFC 5545) text: escaped values (3.3.11), content lines folded at 75 octets (3.1) without
// splitting a UTF-8 character, CRLF line ends, all-day events as DATE values.

/** A TEXT value escaped: backslash, semicolon, comma and line breaks. */
export function icalText(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r\n|\r|\n/g, '\\n');
}

/** One content line folded: at most 75 octets a line, the next ones starting with a space. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let cur = '';
  let octets = 0;
  // a continuation line's leading space counts in its 75
  let limit = 75;
  for (const ch of line) {
    const n = Buffer.byteLength(ch, 'utf8');
    if (octets + n > limit) {
      out.push(cur);
      cur = '';
      octets = 0;
      limit = 74;
    }
    cur += ch;
    octets += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

export interface IcalEvent {
  uid: string;
  /** yyyy-mm-dd: an all-day event */
  date: string;
  summary: string;
  description?: string;
  location?: string;
}

const compact = (iso: string) => iso.replace(/-/g, '');
const nextDay = (iso: string) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};
const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** A calendar of all-day events, as the text a calendar subscription reads. */
export function icalCalendar(name: string, events: IcalEvent[], now: Date): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Parent Portal//Flex calendar//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', `X-WR-CALNAME:${icalText(name)}`];
  for (const e of events) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:${e.uid}`,
      `DTSTAMP:${stamp(now)}`,
      `DTSTART;VALUE=DATE:${compact(e.date)}`,
      `DTEND;VALUE=DATE:${compact(nextDay(e.date))}`,
      `SUMMARY:${icalText(e.summary)}`,
      ...(e.description ? [`DESCRIPTION:${icalText(e.description)}`] : []),
      ...(e.location ? [`LOCATION:${icalText(e.location)}`] : []),
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
