import { Center, Spinner } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';

/** Shown while a page's code or translations load. */
export function PageLoader() {
  const { t, ready } = useTranslation('common', { useSuspense: false });
  return (
    <Center minH="60vh" role="status" aria-live="polite">
      <Spinner size="xl" color="brand.solid" aria-label={ready ? t('status.loading') : undefined} />
    </Center>
  );
}
