import { SkipNavLink } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';

export const MAIN_ID = 'main-content';
/**
 * The main area fills the screen below the header, so the footer starts below the fold and the page
 * does not shift while its sections and data arrive.
 */
export const MAIN_MIN_HEIGHT = 'calc(100vh - 4rem)';

/** Spec accessibility: the first focusable element jumps to the main content. */
export function SkipLink() {
  const { t } = useTranslation('common');
  return (
    <SkipNavLink id={MAIN_ID} zIndex="max" bg="bg" color="fg">
      {t('a11y.skipToContent')}
    </SkipNavLink>
  );
}
