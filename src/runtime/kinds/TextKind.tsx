// text: a paragraph or heading from a translation key. Options: text (key), params (bindings), as.
import { Heading, Text } from '@chakra-ui/react';
import { useScreenRuntime } from '../context';
import { useRuntimeT } from '../i18n';
import type { KindProps } from '../kindProps';

export default function TextKind({ section, data }: KindProps<'text'>) {
  const rt = useScreenRuntime();
  const { tk } = useRuntimeT();
  // a text without a source keeps the context's item (e.g. the contact a modal was opened for)
  const params = rt.resolve(section.params, data === undefined ? undefined : { item: data });
  const text = tk(section.text, params);
  const as = section.as ?? 'p';
  if (as !== 'p') return <Heading as={as} size={as === 'h2' ? 'lg' : 'md'}>{text}</Heading>;
  return <Text color={section.tone === 'muted' ? 'fg.muted' : undefined}>{text}</Text>;
}
