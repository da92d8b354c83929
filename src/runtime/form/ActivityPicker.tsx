// The parent application's activity choice for one child (spec 2.11 activity list, 4 enrolment and
// seats, 5.5): the activities of the child's site (per week for weekly programs) with their timing,
// fees, days per week and seats; days of week for type 2 activities (choosing one resets its days,
// ticking a day chooses the activity), a single date for type 4. The value is the child's selections
// [{activityID, weekStart, daysOfWeek, date}]; the declared rules check it (at least one activity,
// at most daysPerWeek days), in the browser and again on the server. A change of schedule (the field's
// x-options op Registration.changeActivities) draws the same list from the request's eligible
// activities, with its tools: the schedule in force and copying the schedule to the other children.
import { Badge, Box, Button, CloseButton, Dialog, HStack, Input, Portal, SkeletonText, Stack, Text, Wrap, chakra } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import { useState, type ChangeEvent } from 'react';
import { localeAtom } from '../../state';
import { dateInLanguage } from '../../engine/formats';
import { moneyText } from '../../engine/money';
import type { PortalWidgetProps } from './FormContext';
import { describedBy } from './describedBy';
import type { Response } from '../../api/client';
import { ACTIVITY_TYPE } from '../../engine/programCodes';
import { ScheduleTools, SiteLine } from './ScheduleChange';

export interface Selection {
  activityID: number;
  weekStart: string | null;
  daysOfWeek: string[];
  date: string | null;
}

/** The activities, weeks and seats of the child's program (the contract's answer). */
type Answer = Response<'ParentApplication.activities'>;
type Activity = Answer['activities'][number];
type ChangeAnswer = Response<'Registration.changeActivities'>;
/** the operation a change of schedule's picker reads (the field's x-options op) */
export const CHANGE_ACTIVITIES = 'Registration.changeActivities';

/** A change of schedule's eligible activities in the application's shape (no registration fee: the child is registered). */
export function asApplicationAnswer(c: ChangeAnswer): Answer {
  return {
    sites: c.sites,
    weeks: [],
    activities: c.activities.map((a) => ({ ...a, firstChildRegFee: 0, secondChildRegFee: 0, thirdChildRegFee: 0, isSameRegistrationFee: true })),
    seats: c.seats.map((x) => ({ ...x, weekStart: null })),
  };
}

const NativeCheckbox = chakra('input', { base: { width: '1.15rem', height: '1.15rem', accentColor: 'brand.solid', flexShrink: 0, marginTop: '0.15rem' } });
const sameSelection = (s: Selection, activityID: number, weekStart: string | null) => s.activityID === activityID && (s.weekStart ?? null) === weekStart;

/** Selecting or clearing an activity (a type 2 activity starts without days: the parent picks them). */
export function toggleActivity(value: Selection[], a: Activity, weekStart: string | null, on: boolean): Selection[] {
  const rest = value.filter((s) => !sameSelection(s, a.activityID, weekStart));
  if (!on) return rest;
  return [...rest, { activityID: a.activityID, weekStart, daysOfWeek: a.activityTypeID === ACTIVITY_TYPE.selectableDays ? [] : [...a.daysOfWeek], date: null }];
}

/** Ticking a day of a type 2 activity selects the activity; the days keep the week's order. */
export function toggleDay(value: Selection[], a: Activity, weekStart: string | null, day: string, on: boolean): Selection[] {
  const current = value.find((s) => sameSelection(s, a.activityID, weekStart));
  const days = new Set(current?.daysOfWeek ?? []);
  if (on) days.add(day);
  else days.delete(day);
  const ordered = a.daysOfWeek.filter((d) => days.has(d));
  const rest = value.filter((s) => !sameSelection(s, a.activityID, weekStart));
  return [...rest, { activityID: a.activityID, weekStart, daysOfWeek: ordered, date: current?.date ?? null }];
}

type Tk = (key: string, params?: Record<string, unknown>) => string;

/** The activity's fee line: tuition, registration fee(s), sibling rate and days per week. */
function feeLine(a: Activity, tk: Tk, locale: string): string {
  const fee = tk(a.feeType === 'PER_DAY' ? 'application.enrollment.perDay' : 'application.enrollment.perPeriod', { fee: moneyText(a.fee, locale) });
  return [a.timing, fee, registrationText(a, tk, locale), a.siblingFee > 0 ? tk('application.enrollment.siblingFee', { fee: moneyText(a.siblingFee, locale) }) : '', a.activityTypeID === ACTIVITY_TYPE.selectableDays ? tk('application.enrollment.daysPerWeek', { count: a.daysPerWeek }) : '']
    .filter(Boolean)
    .join(' · ');
}

function registrationText(a: Activity, tk: Tk, locale: string): string {
  if (a.isSameRegistrationFee) return a.firstChildRegFee > 0 ? tk('application.enrollment.registrationFee', { fee: moneyText(a.firstChildRegFee, locale) }) : '';
  return tk('application.enrollment.registrationFees', { first: moneyText(a.firstChildRegFee, locale), second: moneyText(a.secondChildRegFee, locale), third: moneyText(a.thirdChildRegFee, locale) });
}

/** Spec 2.11's activity details: name, sites, registration fee, tuition, sibling fee; Close. */
function ActivityDetails({ a, sites, tk, locale, onClose }: { a: Activity; sites: string[]; tk: Tk; locale: string; onClose: () => void }) {
  const rows: [string, string][] = [
    [tk('application.enrollment.sites'), sites.join(', ')],
    [tk('application.enrollment.timing'), a.timing],
    [tk('application.enrollment.dates'), tk('application.enrollment.dateRange', { start: dateInLanguage(a.startDate, locale), end: dateInLanguage(a.endDate, locale) })],
    [tk('application.enrollment.tuition'), tk(a.feeType === 'PER_DAY' ? 'application.enrollment.perDay' : 'application.enrollment.perPeriod', { fee: moneyText(a.fee, locale) })],
    [tk('application.enrollment.registration'), registrationText(a, tk, locale) || moneyText(0, locale)],
    [tk('application.enrollment.sibling'), a.siblingFee > 0 ? moneyText(a.siblingFee, locale) : moneyText(a.fee, locale)],
  ];
  if (a.activityTypeID === ACTIVITY_TYPE.selectableDays) rows.push([tk('application.enrollment.days'), tk('application.enrollment.daysPerWeek', { count: a.daysPerWeek })]);
  return (
    <Dialog.Root open onOpenChange={(e) => (!e.open ? onClose() : undefined)} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content mx="4" data-testid="activity-details">
            <Dialog.Header>
              <Dialog.Title>{a.activity}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <chakra.dl display="grid" gridTemplateColumns="auto 1fr" columnGap="4" rowGap="2">
                {rows.filter(([, v]) => v).map(([k, v]) => (
                  <Box key={k} display="contents">
                    <chakra.dt fontWeight="semibold">{k}</chakra.dt>
                    <chakra.dd m="0">{v}</chakra.dd>
                  </Box>
                ))}
              </chakra.dl>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="solid" onClick={onClose}>
                {tk('application.enrollment.close')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={tk('application.enrollment.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

export default function ActivityPickerWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, registry, rawErrors } = props;
  const fc = registry.formContext;
  const client = useAtomValue(queryClientAtom);
  const locale = useAtomValue(localeAtom);
  const [details, setDetails] = useState<number | null>(null);
  // a change of site re-draws the picker (its value may stay the same empty list)
  const [, redraw] = useState(0);
  const row = fc.rowOf(id) ?? {};
  const prChildID = Number(row.prChildID ?? 0);
  const siteID = Number(row.siteID ?? 0);
  const key = String((fc.getContext().query as Record<string, unknown>).key ?? '');
  const xo = props.schema['x-options'] as { op?: string } | undefined;
  const change = xo?.op === CHANGE_ACTIVITIES;
  const cq = useQuery(
    {
      queryKey: [CHANGE_ACTIVITIES, key, prChildID, locale],
      enabled: change && prChildID > 0 && key !== '',
      staleTime: 30_000,
      queryFn: () => fc.api.call(CHANGE_ACTIVITIES, { query: { key, prChildID } }),
    },
    client,
  );
  const aq = useQuery(
    {
      queryKey: ['ParentApplication.activities', key, prChildID, locale],
      enabled: !change && prChildID > 0 && key !== '',
      staleTime: 30_000,
      queryFn: () => fc.api.call('ParentApplication.activities', { params: { prChildID }, query: { key } }),
    },
    client,
  );
  const q = change ? { isPending: cq.isPending, isError: cq.isError, data: cq.data ? asApplicationAnswer(cq.data) : undefined } : aq;
  const selections: Selection[] = Array.isArray(value) ? (value as Selection[]) : [];
  const set = (next: Selection[]) => {
    fc.touch(id);
    onChange(next);
  };
  const invalid = Boolean(rawErrors?.length);
  const describedByIds = describedBy(props);

  if (q.isPending) return <SkeletonText id={id} noOfLines={4} aria-busy="true" />;
  if (q.isError || !q.data) {
    return (
      <Text id={id} color="fg.error" role="alert">
        {fc.tk('application.enrollment.loadFailed')}
      </Text>
    );
  }
  const { weeks, activities, seats } = q.data;
  const atSite = activities.filter((a) => !siteID || a.siteID === siteID);
  const tools =
    change && cq.data ? (
      <>
        <SiteLine fc={fc} id={id} prChildID={prChildID} answer={cq.data} siteID={siteID || null} disabled={Boolean(disabled || readonly)} onChanged={() => redraw((n) => n + 1)} />
        <ScheduleTools fc={fc} id={id} prChildID={prChildID} answer={cq.data} selections={selections} disabled={Boolean(disabled || readonly)} />
      </>
    ) : null;
  if (!atSite.length)
    return (
      <Stack gap="3">
        {tools}
        <Text id={id}>{fc.tk('application.enrollment.noActivities')}</Text>
      </Stack>
    );
  const groups: { weekStart: string | null; label?: string }[] = weeks.length
    ? weeks.map((w) => ({ weekStart: w.weekStart, label: fc.tk('application.enrollment.week', { date: dateInLanguage(w.weekStart, locale) }) }))
    : [{ weekStart: null }];

  const tk: Tk = fc.tk;
  const weekly = weeks.length > 0;
  const shown = details === null ? undefined : atSite.find((a) => a.activityID === details);
  const sitesOf = q.data.sites;
  const siteNames = (a: Activity) => {
    const names = activities.filter((x) => x.activity === a.activity).map((x) => sitesOf.find((st) => st.siteID === x.siteID)?.siteName ?? '');
    return [...new Set(names.filter(Boolean))];
  };
  const detailsButton = (a: Activity) => (
    <Button variant="plain" colorPalette="brand" size="sm" px="0" h="auto" minH="6" textDecoration="underline" onClick={() => setDetails(a.activityID)} aria-label={tk('application.enrollment.detailsOf', { activity: a.activity })}>
      {tk('application.enrollment.details')}
    </Button>
  );

  // spec 4's display state of the chosen seats: A all available, W all full (waitlist), AW some of each
  const chosenFull = selections.map((sel) => seats.find((x) => x.activityID === sel.activityID && (x.weekStart ?? null) === (sel.weekStart ?? null))?.isFull ?? false);
  // a change has no waiting list (a full activity is refused when sent): its picker says only each activity's seats
  const seatState = change || !chosenFull.length ? null : chosenFull.every(Boolean) ? 'W' : chosenFull.some(Boolean) ? 'AW' : 'A';

  return (
    <Stack id={id} gap="4" aria-describedby={describedByIds} aria-invalid={invalid || undefined} data-testid={`activity-picker-${prChildID}`}>
      {tools}
      <Box role="status" aria-live="polite" data-seat-state={seatState ?? undefined}>
        {seatState ? (
          <Badge colorPalette={seatState === 'A' ? 'green' : 'orange'} variant="subtle" whiteSpace="normal">
            {tk(`application.seat.${seatState}`)}
          </Badge>
        ) : null}
      </Box>
      {shown ? <ActivityDetails a={shown} sites={siteNames(shown)} tk={tk} locale={locale} onClose={() => setDetails(null)} /> : null}
      {weekly ? (
        // a weekly program describes its activities once; each week then lists them by name with its seats
        <Stack as="ul" listStyleType="none" m="0" p="0" gap="2" data-testid="activity-summary">
          {atSite.map((a) => (
            <Box as="li" key={a.activityID}>
              <HStack gap="2" align="baseline" wrap="wrap">
                <Text fontWeight="medium">{a.activity}</Text>
                {detailsButton(a)}
              </HStack>
              <Text fontSize="sm" color="fg.muted">
                {feeLine(a, tk, locale)}
              </Text>
            </Box>
          ))}
        </Stack>
      ) : null}
      {groups.map((g) => (
        <chakra.fieldset key={g.weekStart ?? 'all'} borderWidth={g.label ? '1px' : '0'} borderColor="border" rounded="md" p={g.label ? '3' : '0'} data-week={g.weekStart ?? undefined}>
          {g.label ? (
            <chakra.legend px="1" fontWeight="semibold">
              {g.label}
            </chakra.legend>
          ) : null}
          <Stack gap={weekly ? '2' : '3'}>
            {atSite.map((a) => {
              const seat = seats.find((s) => s.activityID === a.activityID && (s.weekStart ?? null) === g.weekStart);
              const chosen = selections.find((s) => sameSelection(s, a.activityID, g.weekStart));
              const boxId = `${id}-${a.activityID}-${g.weekStart ?? 'all'}`;
              return (
                <Box key={a.activityID} borderTopWidth={weekly ? '0' : '1px'} borderColor="border.muted" pt={weekly ? '0' : '3'} data-activity={a.activityID}>
                  <HStack align="flex-start" gap="2">
                    <NativeCheckbox
                      type="checkbox"
                      id={boxId}
                      checked={Boolean(chosen)}
                      disabled={disabled || readonly}
                      onChange={(e: ChangeEvent<HTMLInputElement>) => set(toggleActivity(selections, a, g.weekStart, e.target.checked))}
                    />
                    <Stack gap="1" flex="1" minW="0">
                      <chakra.label htmlFor={boxId} fontWeight="medium">
                        {a.activity}
                      </chakra.label>
                      {weekly ? null : (
                        <>
                          <Text fontSize="sm" color="fg.muted">
                            {feeLine(a, tk, locale)}
                          </Text>
                          <Box>{detailsButton(a)}</Box>
                        </>
                      )}
                    </Stack>
                    {seat ? (
                      <Badge colorPalette={seat.isFull ? 'orange' : 'green'} variant="subtle" flexShrink={0} data-seat={seat.isFull ? 'full' : 'open'}>
                        {seat.isFull ? fc.tk('application.enrollment.full') : fc.tk('application.enrollment.seatsLeft', { count: seat.available })}
                      </Badge>
                    ) : null}
                  </HStack>
                  {a.activityTypeID === ACTIVITY_TYPE.selectableDays ? (
                    <chakra.fieldset mt="2" ms="7">
                      <chakra.legend srOnly>{`${a.activity}: ${fc.tk('application.enrollment.days')}`}</chakra.legend>
                      <Wrap gap="2">
                        {a.daysOfWeek.map((d) => {
                          const dayId = `${boxId}-${d}`;
                          const on = Boolean(chosen?.daysOfWeek.includes(d));
                          return (
                            <chakra.label
                              key={d}
                              htmlFor={dayId}
                              display="inline-flex"
                              alignItems="center"
                              gap="1"
                              px="2"
                              py="1"
                              borderWidth="1px"
                              rounded="full"
                              borderColor={on ? 'brand.solid' : 'border'}
                              bg={on ? 'brand.subtle' : undefined}
                              cursor="pointer"
                              fontSize="sm"
                            >
                              <NativeCheckbox type="checkbox" id={dayId} checked={on} disabled={disabled || readonly} onChange={(e: ChangeEvent<HTMLInputElement>) => set(toggleDay(selections, a, g.weekStart, d, e.target.checked))} />
                              {fc.t(`runtime:weekdays.long.${d}`)}
                            </chakra.label>
                          );
                        })}
                      </Wrap>
                    </chakra.fieldset>
                  ) : null}
                  {a.activityTypeID === ACTIVITY_TYPE.singleDate && chosen ? (
                    <HStack mt="2" ms="7" gap="2">
                      <chakra.label htmlFor={`${boxId}-date`} fontSize="sm">
                        {fc.tk('application.enrollment.date')}
                      </chakra.label>
                      <Input
                        id={`${boxId}-date`}
                        type="date"
                        size="sm"
                        maxW="12rem"
                        min={a.startDate}
                        max={a.endDate}
                        value={chosen.date ?? ''}
                        disabled={disabled || readonly}
                        onChange={(e: ChangeEvent<HTMLInputElement>) =>
                          set(selections.map((s) => (sameSelection(s, a.activityID, g.weekStart) ? { ...s, date: e.target.value || null } : s)))
                        }
                      />
                    </HStack>
                  ) : null}
                </Box>
              );
            })}
          </Stack>
        </chakra.fieldset>
      ))}
    </Stack>
  );
}
