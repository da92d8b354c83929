// groupedCards: the rows of a list grouped (e.g. attendance records by day and child, spec 2.13 and
// 4), each group under its own heading. A layout rule decides per group whether the records show as
// cards in rows of `columns`, or collapse into one card of a named variant. Options:
//   items: path of the rows in the data; groupBy: [field, ...]
//   group: { title, subtitle, date } bindings with $item = { records, first, key } (date: shown in
//           the reader's language after the title, mm/dd/yyyy in English)
//   layout: { rule, variants: { <value>: card template } }: the rule sees $item = the group; a value
//           without a variant (e.g. "rows") shows every record with `card`
//   card: the card template of one record ($item = the record, see cardList)
//   columns: cards per row from the large breakpoint (default 2)
//   groupColumns: groups per row from the extra-large breakpoint (default 1)
import { useId } from 'react';
import { Box, Heading, SimpleGrid, Text, chakra } from '@chakra-ui/react';
import { formatDate } from '../format';
import { evaluateRule } from '../../engine/logic';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';
import { ItemCard } from './CardListKind';
import { groupRows, type RowGroup } from './groups';
import { resolveItem, rowsOf, textOf } from './shared';
import { partialProps, useProgressiveCount } from '../progressive';

function Group({ group, section }: { group: RowGroup; section: KindProps<'groupedCards'>['section'] }) {
  const rt = useScreenRuntime();
  const { tk, locale } = useRuntimeT();
  const headingId = useId();
  const head = resolveItem<{ title?: unknown; subtitle?: unknown; date?: unknown }>(rt, section.group ?? {}, group);
  const date = formatDate(head.date, locale);
  const layout = section.layout;
  const value = layout ? String(evaluateRule(rt.rules, layout.rule, { ...rt.ctx, item: group }) ?? '') : '';
  const variant = layout?.variants?.[value];
  // groups side by side are narrow: a group of one card gives it the group's whole width
  const columns = section.columns ?? 2;
  const perRow = (section.groupColumns ?? 1) > 1 ? Math.max(1, Math.min(columns, variant ? 1 : group.records.length)) : columns;
  return (
    <Box as="section" aria-labelledby={headingId} data-group={group.key} data-layout={value || 'rows'}>
      <Heading as="h3" size="md" id={headingId} mb="1">
        {textOf(head.title, tk, locale)}
        {date ? <chakra.span fontWeight="normal"> · {date}</chakra.span> : null}
      </Heading>
      {head.subtitle ? (
        <Text color="fg.muted" mb="2">
          {textOf(head.subtitle, tk, locale)}
        </Text>
      ) : null}
      {variant ? (
        <SimpleGrid columns={{ base: 1, lg: perRow }} gap="4">
          <ItemCard template={variant} item={group} index={0} headingLevel="h4" />
        </SimpleGrid>
      ) : (
        <SimpleGrid columns={{ base: 1, lg: perRow }} gap="4">
          {group.records.map((r, i) => (
            <ItemCard key={i} template={section.card} item={r} index={i} headingLevel="h4" />
          ))}
        </SimpleGrid>
      )}
    </Box>
  );
}

export default function GroupedCardsKind({ section, data }: KindProps<'groupedCards'>) {
  const rows = rowsOf(data, section.items);
  const groups = groupRows(rows, section.groupBy ?? []);
  const count = useProgressiveCount(groups.length);
  return (
    <SimpleGrid columns={{ base: 1, xl: section.groupColumns ?? 1 }} gap="6" alignItems="start" {...partialProps(count, groups.length)}>
      {groups.slice(0, count).map((g) => (
        <Group key={g.key} group={g} section={section} />
      ))}
    </SimpleGrid>
  );
}
