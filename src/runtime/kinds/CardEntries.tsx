// A card's entries: sub-items with their own heading under the card's (a child's enrolled activities,
// the weeks of a weekly program), each with labelled fields, weekday chips and text lines. Bindings
// and rules see $item (the entry) and $parent (the card's item).
import { useId } from 'react';
import { Badge, Box, Heading, Stack, VisuallyHidden, chakra } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { formatValue, type ValueFormat } from '../format';
import type { CardEntries as EntriesDecl, CardLines, CardWeekdays } from '../../engine/types';
import { resolveItem, textOf } from './shared';

/** Spec 9 weekday codes, Sunday first. */
export const WEEKDAYS = ['S', 'M', 'T', 'W', 'TH', 'F', 'SA'] as const;
const WEEKEND = new Set(['S', 'SA']);

/** The chips to draw: the seven days in order (the weekend ones only when offered), each selected or not. */
export function weekdayChips(value: unknown, weekendOffered: boolean): { day: (typeof WEEKDAYS)[number]; selected: boolean }[] {
  const selected = new Set(Array.isArray(value) ? value.map(String) : []);
  return WEEKDAYS.filter((d) => weekendOffered || !WEEKEND.has(d)).map((day) => ({ day, selected: selected.has(day) }));
}

function Weekdays({ decl, entry, parent }: { decl: CardWeekdays; entry: unknown; parent: unknown }) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const model = resolveItem<{ value?: unknown }>(rt, { value: decl.value }, entry, { parent });
  const weekend = decl.weekend === undefined ? true : rt.isTrue(decl.weekend, { item: entry, parent });
  const chips = weekdayChips(model.value, weekend);
  const labelId = useId();
  return (
    <Box>
      <chakra.span fontWeight="semibold" display="block" mb="1" id={labelId}>
        {tk(decl.label)}
      </chakra.span>
      <chakra.ul display="flex" flexWrap="wrap" gap="1.5" listStyleType="none" m="0" p="0" aria-labelledby={labelId} data-weekdays>
        {chips.map(({ day: d, selected: on }) => {
          return (
            <li key={d} data-day={d} data-selected={on ? 'true' : 'false'}>
              <Badge
                size="lg"
                minW="9"
                justifyContent="center"
                variant={on ? 'solid' : 'outline'}
                colorPalette={on ? 'blue' : 'gray'}
                color={on ? undefined : 'fg.muted'}
                textDecoration={on ? undefined : 'line-through'}
              >
                <span aria-hidden="true">{tk(`runtime.weekdays.short.${d}`)}</span>
                <VisuallyHidden>{tk(on ? 'runtime.weekdays.on' : 'runtime.weekdays.off', { day: tk(`runtime.weekdays.long.${d}`) })}</VisuallyHidden>
              </Badge>
            </li>
          );
        })}
      </chakra.ul>
    </Box>
  );
}

function EntryLines({ template, items, parent }: { template: CardLines; items: unknown[]; parent: unknown }) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  const lines = items
    .map((line) => resolveItem<{ text: string; params?: Record<string, unknown>; visible?: boolean }>(rt, { text: template.text, params: template.params, show: template.show }, line, { parent }))
    .filter((l) => l.visible !== false);
  if (!lines.length) return null;
  return (
    <chakra.ul ps="5" listStyleType="disc">
      {lines.map((l, i) => (
        <li key={i}>{tk(l.text, l.params)}</li>
      ))}
    </chakra.ul>
  );
}

interface EntryModel {
  title?: unknown;
  visible?: boolean;
  fields?: { label: string; value: unknown; format?: ValueFormat; visible?: boolean }[];
  lines?: { items?: unknown };
}

export function CardEntries({ decl, item, headingLevel }: { decl: EntriesDecl; item: unknown; headingLevel: 'h4' | 'h5' }) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const list = resolveItem<{ items?: unknown }>(rt, { items: decl.items }, item).items;
  const entries = Array.isArray(list) ? list : [];
  const { weekdays, lines, items: _items, ...rest } = decl;
  const models = entries
    .map((entry) => ({ entry, model: resolveItem<EntryModel>(rt, { ...rest, lines: lines ? { items: lines.items } : undefined }, entry, { parent: item }) }))
    .filter((e) => e.model.visible !== false);
  if (!models.length) return null;
  return (
    <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" data-entries>
      {models.map(({ entry, model }, i) => (
        <Box as="li" key={i} borderWidth="1px" borderRadius="md" p="3" data-entry={i}>
          <Heading as={headingLevel} size="sm" mb="2">
            {textOf(model.title, tk, locale)}
          </Heading>
          <Stack gap="2">
            {model.fields?.some((f) => f.visible !== false) ? (
              <chakra.dl display="grid" gridTemplateColumns="fit-content(50%) minmax(0, 1fr)" columnGap="4" rowGap="1" overflowWrap="anywhere">
                {model.fields
                  .filter((f) => f.visible !== false)
                  .map((f, j) => (
                    <Box key={j} display="contents">
                      <chakra.dt fontWeight="semibold">{tk(f.label)}</chakra.dt>
                      <chakra.dd m="0">{f.format ? formatValue(f.value, f.format, { locale, country: rt.country, t }) : textOf(f.value, tk, locale)}</chakra.dd>
                    </Box>
                  ))}
              </chakra.dl>
            ) : null}
            {weekdays ? <Weekdays decl={weekdays} entry={entry} parent={item} /> : null}
            {lines ? <EntryLines template={lines} items={Array.isArray(model.lines?.items) ? model.lines.items : []} parent={entry} /> : null}
          </Stack>
        </Box>
      ))}
    </Stack>
  );
}
