import { SkipNavLink } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export const MAIN_ID = 'main-content';

/** Spec accessibility: the first focusable element jumps to the main content. */
export function SkipLink() {
  const { t } = useTranslation('common');
  return (
    <SkipNavLink id={MAIN_ID} zIndex="max" bg="bg" color="fg">
      {t('a11y.skipToContent')}
    </SkipNavLink>
  );
}
