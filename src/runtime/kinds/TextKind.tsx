// text: a paragraph or heading from a translation key. Options: text (key), params (bindings; a
// `{value, format}` parameter shows its value in that display format, e.g. a date in the reader's
// language), as.
import { Heading, Text } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import { formatValue, type ValueFormat } from '../format';
import { isRecord } from '../guards';
import type { KindProps } from '../kindProps';

export default function TextKind({ section, data }: KindProps<'text'>) {
  const rt = useScreenRuntime();
  const { t, tk, locale } = useRuntimeT();
  // a text without a source keeps the context's item (e.g. the contact a modal was opened for)
  const resolved = rt.resolve(section.params, data === undefined ? undefined : { item: data });
  const params: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(resolved)) {
    params[k] = isRecord(v) && typeof v.format === 'string' && 'value' in v ? formatValue(v.value, v.format as ValueFormat, { locale, country: rt.country, t }) : v;
  }
  const text = tk(section.text, params);
  const as = section.as ?? 'p';
  if (as !== 'p') return <Heading as={as} size={as === 'h2' ? 'lg' : 'md'}>{text}</Heading>;
  return <Text color={section.tone === 'muted' ? 'fg.muted' : undefined}>{text}</Text>;
}
