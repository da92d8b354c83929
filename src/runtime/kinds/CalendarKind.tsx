// calendar: events on a month grid, or as a list (the default on small screens), with the chosen
// event's details (spec 2.13: start, end, time, description; an all-day event's end is shown as end
// minus one day). Options: `fields` naming the item fields { start, end, allDay, title, description,
// id } (defaults: the same names, id `eventID`), `items` (path of the events in the data).
import { useMemo, useRef, useState } from 'react';
import { Box, Button, ButtonGroup, Card, chakra, CloseButton, Heading, HStack, IconButton, Stack, Text, useBreakpointValue } from '@chakra-ui/react';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';
import type { CalendarFields } from '../../engine/types';
import { rowsOf } from './shared';
import { isRecord } from '../guards';
import { businessDate } from '../../engine/today';
import { dayOf, eventsInMonth, isOn, isoOf, lastDay, mdyOf, monthDays, timeOf, type CalendarEvent } from './calendar';

function toEvents(rows: unknown[], names: CalendarFields = {}): CalendarEvent[] {
  const keys = { id: 'eventID', title: 'title', start: 'start', end: 'end', allDay: 'allDay', description: 'description', ...names };
  return rows.map((row, i) => {
    const r = isRecord(row) ? row : {};
    return {
      id: String(r[keys.id] ?? i),
      title: String(r[keys.title] ?? ''),
      start: String(r[keys.start] ?? ''),
      end: String(r[keys.end] ?? r[keys.start] ?? ''),
      allDay: r[keys.allDay] === true,
      description: String(r[keys.description] ?? ''),
    };
  });
}

function EventDetails({ ev, onClose }: { ev: CalendarEvent; onClose: () => void }) {
  const { t, locale } = useRuntimeT();
  const start = dayOf(ev.start);
  const last = lastDay(ev);
  const time = ev.allDay ? t('runtime:calendarView.allDay') : [timeOf(ev.start, locale), timeOf(ev.end, locale)].filter(Boolean).join(' – ');
  return (
    <Card.Root variant="outline" role="region" aria-labelledby={`event-${ev.id}-title`} data-event-details={ev.id}>
      <Card.Body gap="2">
        <HStack justify="space-between" align="flex-start">
          <Heading as="h3" size="md" id={`event-${ev.id}-title`} tabIndex={-1}>
            {ev.title}
          </Heading>
          <CloseButton size="sm" aria-label={t('runtime:close')} onClick={onClose} />
        </HStack>
        <chakra.dl display="grid" gridTemplateColumns="max-content 1fr" columnGap="4" rowGap="1">
          <chakra.dt fontWeight="semibold">{t('runtime:calendarView.start')}</chakra.dt>
          <chakra.dd m="0" data-field="start">{mdyOf(start, locale)}</chakra.dd>
          <chakra.dt fontWeight="semibold">{t('runtime:calendarView.end')}</chakra.dt>
          <chakra.dd m="0" data-field="end">{mdyOf(last, locale)}</chakra.dd>
          <chakra.dt fontWeight="semibold">{t('runtime:calendarView.time')}</chakra.dt>
          <chakra.dd m="0" data-field="time">{time}</chakra.dd>
        </chakra.dl>
        {ev.description ? <Text>{ev.description}</Text> : null}
      </Card.Body>
    </Card.Root>
  );
}

export default function CalendarKind({ section, data }: KindProps<'calendar'>) {
  const { t, locale } = useRuntimeT();
  const events = useMemo(() => toEvents(rowsOf(data, section.items), section.fields), [data, section.items, section.fields]);
  const [focus, setFocus] = useState(() => businessDate());
  const [chosenView, setView] = useState<'month' | 'list' | null>(null);
  const defaultView = useBreakpointValue<'month' | 'list'>({ base: 'list', md: 'month' }) ?? 'month';
  const view = chosenView ?? defaultView;
  const [selected, setSelected] = useState<string | null>(null);
  const detailsRef = useRef<HTMLDivElement>(null);
  const inMonth = eventsInMonth(events, focus);
  const chosen = events.find((e) => e.id === selected);
  const monthTitle = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(focus);
  const weekdays = monthDays(focus).slice(0, 7);
  const today = isoOf(businessDate());

  const choose = (id: string) => {
    setSelected(id);
    // move focus to the details so keyboard and screen-reader users land on them
    setTimeout(() => detailsRef.current?.querySelector<HTMLElement>('h3')?.focus(), 0);
  };
  const shift = (n: number) => setFocus(new Date(focus.getFullYear(), focus.getMonth() + n, 1));

  return (
    <Stack gap="4" data-view={view}>
      <HStack justify="space-between" wrap="wrap" gap="2">
        <HStack gap="2">
          <IconButton size="sm" variant="outline" aria-label={t('runtime:calendar.previousMonth')} onClick={() => shift(-1)}>
            ‹
          </IconButton>
          <Heading as="h3" size="md" aria-live="polite" minW="10rem" textAlign="center" data-month={isoOf(focus).slice(0, 7)}>
            {monthTitle}
          </Heading>
          <IconButton size="sm" variant="outline" aria-label={t('runtime:calendar.nextMonth')} onClick={() => shift(1)}>
            ›
          </IconButton>
        </HStack>
        <ButtonGroup size="sm" variant="outline" attached role="group" aria-label={t('runtime:calendarView.view')}>
          <Button aria-pressed={view === 'month'} variant={view === 'month' ? 'solid' : 'outline'} onClick={() => setView('month')}>
            {t('runtime:calendarView.month')}
          </Button>
          <Button aria-pressed={view === 'list'} variant={view === 'list' ? 'solid' : 'outline'} onClick={() => setView('list')}>
            {t('runtime:calendarView.list')}
          </Button>
        </ButtonGroup>
      </HStack>

      {view === 'month' ? (
        <Box overflowX="auto" tabIndex={0} role="region" aria-label={monthTitle}>
          <chakra.table width="100%" css={{ tableLayout: 'fixed', borderCollapse: 'collapse' }}>
            <thead>
              <tr>
                {weekdays.map((d) => (
                  <chakra.th key={d.getDay()} scope="col" py="1" fontSize="sm" fontWeight="semibold" textAlign="center">
                    <abbr title={new Intl.DateTimeFormat(locale, { weekday: 'long' }).format(d)} style={{ textDecoration: 'none' }}>
                      {new Intl.DateTimeFormat(locale, { weekday: 'short' }).format(d)}
                    </abbr>
                  </chakra.th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Array.from({ length: 6 }, (_, w) => (
                <tr key={w}>
                  {monthDays(focus)
                    .slice(w * 7, w * 7 + 7)
                    .map((d) => {
                      const dayEvents = events.filter((ev) => isOn(ev, d));
                      const other = d.getMonth() !== focus.getMonth();
                      return (
                        <chakra.td key={isoOf(d)} verticalAlign="top" borderWidth="1px" borderColor="border" p="1" height="6rem" bg={other ? 'bg.muted' : undefined} data-day={isoOf(d)} data-other={other ? '' : undefined}>
                          <Text fontSize="sm" fontWeight={isoOf(d) === today ? 'bold' : 'normal'} color={other ? 'fg.muted' : 'fg'} aria-current={isoOf(d) === today ? 'date' : undefined}>
                            {d.getDate()}
                          </Text>
                          <Stack gap="1">
                            {dayEvents.map((ev) => (
                              <Button
                                key={ev.id}
                                size="2xs"
                                variant={selected === ev.id ? 'solid' : 'subtle'}
                                colorPalette="blue"
                                justifyContent="flex-start"
                                whiteSpace="normal"
                                textAlign="start"
                                height="auto"
                                py="0.5"
                                onClick={() => choose(ev.id)}
                                aria-label={`${ev.title}, ${mdyOf(d, locale)}`}
                              >
                                {ev.allDay ? '' : `${timeOf(ev.start, locale)} `}
                                {ev.title}
                              </Button>
                            ))}
                          </Stack>
                        </chakra.td>
                      );
                    })}
                </tr>
              ))}
            </tbody>
          </chakra.table>
        </Box>
      ) : inMonth.length ? (
        <chakra.ul listStyleType="none" p="0" m="0" display="grid" gap="2">
          {inMonth.map((ev) => (
            <li key={ev.id}>
              <Button variant="outline" width="100%" height="auto" py="2" justifyContent="flex-start" textAlign="start" whiteSpace="normal" onClick={() => choose(ev.id)} data-event={ev.id}>
                <Stack gap="0" align="flex-start">
                  <Text fontWeight="semibold">{ev.title}</Text>
                  <Text fontSize="sm" color="fg.muted">
                    {mdyOf(dayOf(ev.start), locale)}
                    {mdyOf(lastDay(ev), locale) !== mdyOf(dayOf(ev.start), locale) ? ` – ${mdyOf(lastDay(ev), locale)}` : ''}
                    {ev.allDay ? ` · ${t('runtime:calendarView.allDay')}` : ` · ${[timeOf(ev.start, locale), timeOf(ev.end, locale)].filter(Boolean).join(' – ')}`}
                  </Text>
                </Stack>
              </Button>
            </li>
          ))}
        </chakra.ul>
      ) : (
        <Text color="fg.muted" data-state="empty-month">
          {t('runtime:calendarView.noEvents')}
        </Text>
      )}

      <Box ref={detailsRef}>{chosen ? <EventDetails ev={chosen} onClose={() => setSelected(null)} /> : null}</Box>
    </Stack>
  );
}
