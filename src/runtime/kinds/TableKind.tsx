// table: rows of the section's data. Options: columns [{label (key), value (binding with $item),
// format, show, otherwise}], items (path of the rows inside the data), caption (key), rowActions
// (actions per row). A column's show rule is read per row: where it is false the cell shows
// `otherwise` (a key or {value, labels}) instead of the value.
import { Table, VisuallyHidden } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { formatValue, type ValueFormat } from '../format';
import { ActionBar } from '../Actions';
import type { KindProps } from '../kindProps';
import { itemActions, resolveItem, rowsOf, textOf } from './shared';

interface Column {
  label: string;
  value: unknown;
  format?: ValueFormat;
  visible?: boolean;
  otherwise?: unknown;
}

const isAmount = (f: ValueFormat | undefined) => f === 'cents' || f === 'money';

export default function TableKind({ section, data }: KindProps<'table'>) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const rows = rowsOf(data, section.items);
  const { columns, rowActions } = section;
  return (
    // focusable, so keyboard users can scroll a wide table on small screens (axe scrollable-region-focusable);
    // named apart from its section, which carries the title as its own name (axe landmark-unique)
    <Table.ScrollArea borderWidth="1px" rounded="md" tabIndex={0} role="region" aria-label={section.caption ? tk(section.caption) : section.title ? t('runtime:tableOf', { name: tk(section.title) }) : t('runtime:table')}>
      <Table.Root size="sm" striped>
        {section.caption ? <Table.Caption captionSide="top" textAlign="start" fontWeight="semibold" fontSize="md" color="fg" mt="0" mb="1" pt="2" px="3">{tk(section.caption)}</Table.Caption> : null}
        <Table.Header>
          <Table.Row>
            {columns.map((c, i) => (
              <Table.ColumnHeader key={i} scope="col" textAlign={isAmount(c.format) ? 'end' : undefined}>
                {tk(c.label)}
              </Table.ColumnHeader>
            ))}
            {rowActions?.length ? (
              <Table.ColumnHeader scope="col">
                <VisuallyHidden>{t('runtime:actions')}</VisuallyHidden>
              </Table.ColumnHeader>
            ) : null}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row, r) => {
            const cells = resolveItem<Column[]>(rt, columns, row);
            return (
              <Table.Row key={r}>
                {cells.map((c, i) => (
                  // text wraps so a narrow screen shows every column; amounts stay whole, aligned at the end
                  <Table.Cell key={i} whiteSpace={isAmount(c.format) && c.visible !== false ? 'nowrap' : 'normal'} textAlign={isAmount(c.format) ? 'end' : undefined}>{c.visible === false ? textOf(c.otherwise, tk, locale) : c.format ? formatValue(c.value, c.format, { locale, country: rt.country, t }) : textOf(c.value, tk, locale)}</Table.Cell>
                ))}
                {rowActions?.length ? (
                  <Table.Cell>
                    <ActionBar actions={itemActions(rt, rowActions, { item: row })} extra={{ item: row }} />
                  </Table.Cell>
                ) : null}
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
