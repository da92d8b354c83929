// Options of the calendar kind: which item fields hold an event's parts.
import { itemsPath } from './parts.options';

const name = { type: 'string' } as const;

export const calendarOptions = {
  title: 'CalendarOptions',
  type: 'object',
  properties: {
    items: itemsPath,
    fields: {
      title: 'CalendarFields',
      type: 'object',
      additionalProperties: false,
      properties: { start: name, end: name, allDay: name, title: name, description: name, id: name },
    },
  },
} as const;
