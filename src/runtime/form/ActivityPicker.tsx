// The parent application's activity choice for one child (spec 2.11 activity list, 4 enrolment and
// seats, 5.5): the activities of the child's site (per week for weekly programs) with their timing,
// fees, days per week and seats; days of week for type 2 activities (choosing one resets its days,
// ticking a day chooses the activity), a single date for type 4. The value is the child's selections
// [{activityID, weekStart, daysOfWeek, date}]; the declared rules check it (at least one activity,
// at most daysPerWeek days), in the browser and again on the server.
import { Badge, Box, HStack, Input, SkeletonText, Stack, Text, Wrap, chakra } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import type { ChangeEvent } from 'react';
import { ariaDescribedByIds } from '@rjsf/utils';
import { localeAtom } from '../../state';
import { isoToMdy } from '../../engine/formats';
import { formatMoney } from '../format';
import type { PortalWidgetProps } from './FormContext';

export interface Selection {
  activityID: number;
  weekStart: string | null;
  daysOfWeek: string[];
  date: string | null;
}

interface Activity {
  activityID: number;
  activity: string;
  activityTypeID: number;
  siteID: number;
  timing: string;
  daysPerWeek: number;
  daysOfWeek: string[];
  startDate: string;
  endDate: string;
  feeType: string;
  fee: number;
  firstChildRegFee: number;
  secondChildRegFee: number;
  thirdChildRegFee: number;
  siblingFee: number;
  isSameRegistrationFee: boolean;
}
interface Seat {
  activityID: number;
  weekStart: string | null;
  available: number;
  isFull: boolean;
}
interface Answer {
  weeks: { weekStart: string; weekEnd: string }[];
  activities: Activity[];
  seats: Seat[];
}

const NativeCheckbox = chakra('input', { base: { width: '1.15rem', height: '1.15rem', accentColor: 'brand.solid', flexShrink: 0, marginTop: '0.15rem' } });
const cents = (n: number, locale: string) => formatMoney(n / 100, locale);
const sameSelection = (s: Selection, activityID: number, weekStart: string | null) => s.activityID === activityID && (s.weekStart ?? null) === weekStart;

/** Selecting or clearing an activity (a type 2 activity starts without days: the parent picks them). */
export function toggleActivity(value: Selection[], a: Activity, weekStart: string | null, on: boolean): Selection[] {
  const rest = value.filter((s) => !sameSelection(s, a.activityID, weekStart));
  if (!on) return rest;
  return [...rest, { activityID: a.activityID, weekStart, daysOfWeek: a.activityTypeID === 2 ? [] : [...a.daysOfWeek], date: null }];
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

export default function ActivityPickerWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, registry, rawErrors } = props;
  const fc = registry.formContext;
  const client = useAtomValue(queryClientAtom);
  const locale = useAtomValue(localeAtom);
  const row = fc.rowOf(id) ?? {};
  const prChildID = Number(row.prChildID ?? 0);
  const siteID = Number(row.siteID ?? 0);
  const key = String((fc.getContext().query as Record<string, unknown>).key ?? '');
  const q = useQuery(
    {
      queryKey: ['ParentApplication.activities', key, prChildID, locale],
      enabled: prChildID > 0 && key !== '',
      staleTime: 30_000,
      queryFn: async () => (await fc.api.call('ParentApplication.activities', { params: { prChildID }, query: { key } })) as unknown as Answer,
    },
    client,
  );
  const selections: Selection[] = Array.isArray(value) ? (value as Selection[]) : [];
  const set = (next: Selection[]) => {
    fc.touch(id);
    onChange(next);
  };
  const invalid = Boolean(rawErrors?.length);
  const describedBy = ariaDescribedByIds(id, false);

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
  if (!atSite.length) return <Text id={id}>{fc.tk('application.enrollment.noActivities')}</Text>;
  const groups: { weekStart: string | null; label?: string }[] = weeks.length
    ? weeks.map((w) => ({ weekStart: w.weekStart, label: fc.tk('application.enrollment.week', { date: isoToMdy(w.weekStart) }) }))
    : [{ weekStart: null }];

  return (
    <Stack id={id} gap="4" aria-describedby={describedBy} aria-invalid={invalid || undefined} data-testid={`activity-picker-${prChildID}`}>
      {groups.map((g) => (
        <chakra.fieldset key={g.weekStart ?? 'all'} borderWidth={g.label ? '1px' : '0'} borderColor="border" rounded="md" p={g.label ? '3' : '0'} data-week={g.weekStart ?? undefined}>
          {g.label ? (
            <chakra.legend px="1" fontWeight="semibold">
              {g.label}
            </chakra.legend>
          ) : null}
          <Stack gap="3">
            {atSite.map((a) => {
              const seat = seats.find((s) => s.activityID === a.activityID && (s.weekStart ?? null) === g.weekStart);
              const chosen = selections.find((s) => sameSelection(s, a.activityID, g.weekStart));
              const boxId = `${id}-${a.activityID}-${g.weekStart ?? 'all'}`;
              const fee = fc.tk(a.feeType === 'PER_DAY' ? 'application.enrollment.perDay' : 'application.enrollment.perPeriod', { fee: cents(a.fee, locale) });
              const reg = a.isSameRegistrationFee
                ? a.firstChildRegFee > 0
                  ? fc.tk('application.enrollment.registrationFee', { fee: cents(a.firstChildRegFee, locale) })
                  : ''
                : fc.tk('application.enrollment.registrationFees', { first: cents(a.firstChildRegFee, locale), second: cents(a.secondChildRegFee, locale), third: cents(a.thirdChildRegFee, locale) });
              return (
                <Box key={a.activityID} borderTopWidth="1px" borderColor="border.muted" pt="3" data-activity={a.activityID}>
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
                      <Text fontSize="sm" color="fg.muted">
                        {[a.timing, fee, reg, a.siblingFee > 0 ? fc.tk('application.enrollment.siblingFee', { fee: cents(a.siblingFee, locale) }) : '', a.activityTypeID === 2 ? fc.tk('application.enrollment.daysPerWeek', { count: a.daysPerWeek }) : '']
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Stack>
                    {seat ? (
                      <Badge colorPalette={seat.isFull ? 'orange' : 'green'} variant="subtle" flexShrink={0} data-seat={seat.isFull ? 'full' : 'open'}>
                        {seat.isFull ? fc.tk('application.enrollment.full') : fc.tk('application.enrollment.seatsLeft', { count: seat.available })}
                      </Badge>
                    ) : null}
                  </HStack>
                  {a.activityTypeID === 2 ? (
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
                  {a.activityTypeID === 4 && chosen ? (
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
