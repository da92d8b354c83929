// Date input (spec 5.1) with a calendar popover. The form's value is always mm/dd/yyyy (the rules and
// the server read it so); the parent types and reads it in her language's order: mm/dd/yyyy in
// English, dd/mm/yyyy in Spanish, Portuguese and Vietnamese (engine typedToMdy / mdyToTyped), with a
// placeholder and a hint that say which. The calendar is a grid of day buttons: arrows move a
// day/week, PageUp/PageDown a month, Home/End the week, Enter picks, Escape closes and gives focus
// back to the calendar button.
import { useEffect, useMemo, useRef, useState, type ChangeEvent, type KeyboardEvent } from 'react';
import { Box, HStack, IconButton, Input, VisuallyHidden, chakra } from '@chakra-ui/react';
import { formatMdy, mdyToTyped, parseMdy, typedToMdy } from '../../engine/formats';
import { businessDate } from '../../engine/today';
import { DATE_MASK, maskInput } from '../masks';
import type { PortalFormContext, PortalWidgetProps } from './FormContext';
import { describedBy } from './describedBy';
import { useCaretKeeper } from './caretKeeper';

const sameDay = (a: Date, b: Date) => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
const addDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n);
function addMonths(d: Date, n: number): Date {
  const target = new Date(d.getFullYear(), d.getMonth() + n, 1);
  const last = new Date(target.getFullYear(), target.getMonth() + 1, 0).getDate();
  return new Date(target.getFullYear(), target.getMonth(), Math.min(d.getDate(), last));
}
function toDate(text: unknown): Date | undefined {
  const p = parseMdy(text);
  return p ? new Date(p.year, p.month - 1, p.day) : undefined;
}

/** The 6x7 days shown for the month of `focus`, starting on Sunday. */
export function monthGrid(focus: Date): Date[] {
  const first = new Date(focus.getFullYear(), focus.getMonth(), 1);
  const start = addDays(first, -first.getDay());
  return Array.from({ length: 42 }, (_, i) => addDays(start, i));
}

function Calendar({ value, onPick, onClose, locale, labelledBy, t }: { value?: Date; onPick: (d: Date) => void; onClose: () => void; locale: string; labelledBy: string; t: PortalFormContext['t'] }) {
  const [focus, setFocus] = useState<Date>(value ?? businessDate());
  const gridRef = useRef<HTMLDivElement>(null);
  const today = businessDate();
  const days = useMemo(() => monthGrid(focus), [focus]);
  const monthTitle = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }).format(focus);
  const weekdays = useMemo(() => {
    const f = new Intl.DateTimeFormat(locale, { weekday: 'short' });
    const long = new Intl.DateTimeFormat(locale, { weekday: 'long' });
    return Array.from({ length: 7 }, (_, i) => ({ short: f.format(new Date(2024, 0, 7 + i)), long: long.format(new Date(2024, 0, 7 + i)) }));
  }, [locale]);
  const dayLabel = new Intl.DateTimeFormat(locale, { dateStyle: 'full' });

  useEffect(() => {
    gridRef.current?.querySelector<HTMLButtonElement>('button[tabindex="0"]')?.focus();
  }, [focus]);

  const onKey = (e: KeyboardEvent) => {
    const moves: Record<string, () => Date> = {
      ArrowLeft: () => addDays(focus, -1),
      ArrowRight: () => addDays(focus, 1),
      ArrowUp: () => addDays(focus, -7),
      ArrowDown: () => addDays(focus, 7),
      PageUp: () => addMonths(focus, -1),
      PageDown: () => addMonths(focus, 1),
      Home: () => addDays(focus, -focus.getDay()),
      End: () => addDays(focus, 6 - focus.getDay()),
    };
    if (moves[e.key]) {
      e.preventDefault();
      setFocus(moves[e.key]());
    } else if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    }
  };

  return (
    <Box
      role="dialog"
      aria-modal="false"
      aria-labelledby={labelledBy}
      position="absolute"
      zIndex="popover"
      mt="1"
      bg="bg.panel"
      borderWidth="1px"
      borderColor="border"
      rounded="md"
      shadow="lg"
      p="3"
      onKeyDown={onKey}
    >
      <HStack justify="space-between" mb="2">
        <IconButton size="sm" variant="ghost" aria-label={t('runtime:calendar.previousMonth')} onClick={() => setFocus(addMonths(focus, -1))}>
          ‹
        </IconButton>
        <chakra.h2 id={labelledBy} fontWeight="semibold" aria-live="polite" fontSize="md">
          {monthTitle}
        </chakra.h2>
        <IconButton size="sm" variant="ghost" aria-label={t('runtime:calendar.nextMonth')} onClick={() => setFocus(addMonths(focus, 1))}>
          ›
        </IconButton>
      </HStack>
      <Box ref={gridRef} role="grid" aria-labelledby={labelledBy}>
        <Box role="row" display="grid" gridTemplateColumns="repeat(7, 2.5rem)">
          {weekdays.map((w) => (
            <Box role="columnheader" key={w.long} textAlign="center" fontSize="xs" color="fg.muted" aria-label={w.long}>
              {w.short}
            </Box>
          ))}
        </Box>
        {Array.from({ length: 6 }, (_, r) => (
          <Box role="row" key={r} display="grid" gridTemplateColumns="repeat(7, 2.5rem)">
            {days.slice(r * 7, r * 7 + 7).map((d) => {
              const inMonth = d.getMonth() === focus.getMonth();
              const selected = value ? sameDay(d, value) : false;
              const isFocus = sameDay(d, focus);
              return (
                <Box role="gridcell" key={d.toISOString()} aria-selected={selected || undefined}>
                  <chakra.button
                    type="button"
                    tabIndex={isFocus ? 0 : -1}
                    aria-label={dayLabel.format(d)}
                    aria-current={sameDay(d, today) ? 'date' : undefined}
                    width="2.5rem"
                    height="2.25rem"
                    rounded="md"
                    color={selected ? 'brand.contrast' : inMonth ? 'fg' : 'fg.muted'}
                    bg={selected ? 'brand.solid' : 'transparent'}
                    fontWeight={sameDay(d, today) ? 'bold' : 'normal'}
                    _hover={{ bg: selected ? 'brand.solid' : 'brand.subtle' }}
                    onClick={() => onPick(d)}
                  >
                    {d.getDate()}
                  </chakra.button>
                </Box>
              );
            })}
          </Box>
        ))}
      </Box>
    </Box>
  );
}

export default function DateWidget(props: PortalWidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, required, rawErrors } = props;
  const fc = props.registry.formContext;
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const caretKeeper = useCaretKeeper(inputRef);

  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (wrapRef.current && !wrapRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const locale = fc.locale;
  const hintId = `${id}-format`;
  const described = [describedBy(props), hintId].filter(Boolean).join(' ');

  return (
    <Box ref={wrapRef} position="relative">
      <HStack gap="1">
        <Input
          ref={inputRef}
          id={id}
          name={id}
          inputMode="numeric"
          autoComplete="off"
          placeholder={fc.t('runtime:datePlaceholder')}
          maxLength={10}
          value={mdyToTyped(typeof value === 'string' ? value : '', locale)}
          disabled={disabled || readonly}
          aria-invalid={(rawErrors && rawErrors.length > 0) || undefined}
          aria-required={required || undefined}
          aria-describedby={described}
          onChange={(e: ChangeEvent<HTMLInputElement>) => {
            const el = e.target;
            const { value: masked, caret } = maskInput(DATE_MASK, el.value, el.selectionStart ?? el.value.length);
            fc.touch(id);
            caretKeeper.mark(masked, caret);
            onChange(masked === '' ? undefined : typedToMdy(masked, locale));
          }}
          onBlur={(e) => {
            fc.touch(id);
            onBlur(id, typedToMdy(e.target.value, locale));
          }}
          onFocus={(e) => onFocus(id, typedToMdy(e.target.value, locale))}
        />
        <VisuallyHidden id={hintId}>
          {fc.t('runtime:dateHint', { example: mdyToTyped(formatMdy(businessDate()), locale) })}
        </VisuallyHidden>
        <IconButton
          ref={buttonRef}
          variant="outline"
          aria-label={fc.t('runtime:calendar.open')}
          aria-haspopup="dialog"
          aria-expanded={open}
          disabled={disabled || readonly}
          onClick={() => setOpen((o) => !o)}
        >
          <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
            <rect x="3" y="5" width="18" height="16" rx="2" />
            <path d="M16 3v4M8 3v4M3 10h18" />
          </svg>
        </IconButton>
      </HStack>
      {open ? (
        <Calendar
          value={toDate(value)}
          locale={fc.locale}
          labelledBy={`${id}-calendar-title`}
          t={fc.t}
          onClose={close}
          onPick={(d) => {
            fc.touch(id);
            onChange(formatMdy(d));
            close();
          }}
        />
      ) : null}
    </Box>
  );
}
