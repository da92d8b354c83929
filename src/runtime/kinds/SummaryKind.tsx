// summary: a label/value list of one record. Options: items [{label (key), value (binding, $item is
// the section's data), format, show}].
import { chakra } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { formatValue, type ValueFormat } from '../format';
import type { KindProps } from '../kindProps';
import { resolveItem, textOf } from './shared';

interface SummaryItem {
  label: string;
  value: unknown;
  format?: ValueFormat;
  visible?: boolean;
}

export default function SummaryKind({ section, data }: KindProps<'summary'>) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  const items = resolveItem<SummaryItem[]>(rt, section.items, data);
  return (
    <chakra.dl className="pp-summary" display="grid" gridTemplateColumns={{ base: 'minmax(0, 1fr)', md: 'minmax(10rem, max-content) minmax(0, 1fr)' }} overflowWrap="anywhere" columnGap="6" rowGap="2">
        {items
          .filter((i) => i.visible !== false)
          .map((i, n) => {
            const shown = i.format ? formatValue(i.value, i.format, { locale, country: rt.country, t }) : textOf(i.value, tk, locale);
            return (
              <chakra.div key={n} display="contents">
                <chakra.dt fontWeight="semibold">{tk(i.label)}</chakra.dt>
                <chakra.dd m="0" mb={{ base: 2, md: 0 }}>
                  {shown || '—'}
                </chakra.dd>
              </chakra.div>
            );
          })}
    </chakra.dl>
  );
}
