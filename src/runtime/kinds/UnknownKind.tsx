// A section whose kind the registry does not know: a visible error in development (the declaration
// is wrong), nothing in production (the rest of the screen still works).
import { Alert } from '@chakra-ui/react';
import { useRuntimeT } from '../i18n';
import type { RenderSection } from '../kindProps';

export default function UnknownKind({ section }: { section: Pick<RenderSection, 'id' | 'kind'> }) {
  const { t } = useRuntimeT();
  if (!import.meta.env.DEV) return null;
  return (
    <Alert.Root status="error" data-unknown-kind={section.kind}>
      <Alert.Indicator />
      <Alert.Title>{t('runtime:unknownKind', { kind: section.kind, section: section.id })}</Alert.Title>
    </Alert.Root>
  );
}
