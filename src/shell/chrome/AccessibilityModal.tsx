// Spec 2.3: the accessibility button and dialog — high-contrast theme and font size, Apply and Close.
import { Button, Text } from '@chakra-ui/react';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Icon } from './Icon';
import { lazyWhenOnline } from '../../runtime/whenOnline';

// the dialog (and its checkbox, radio group and focus trap) loads when it is first opened
const AccessibilityDialog = lazyWhenOnline(() => import('./AccessibilityDialog'));

export function AccessibilityButton({ showLabel = false }: { showLabel?: boolean }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => setOpen(true)} aria-label={showLabel ? undefined : t('accessibility.open')} data-testid="accessibility-button" px="2">
        <Icon name="accessibility" />
        <Text as="span" display={showLabel ? 'inline' : { base: 'none', lg: 'inline' }}>
          {t('accessibility.button')}
        </Text>
      </Button>
      <AccessibilityModal open={open} onClose={() => setOpen(false)} />
    </>
  );
}

export function AccessibilityModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  if (!used) return null;
  return (
    <Suspense fallback={null}>
      <AccessibilityDialog open={open} onClose={onClose} />
    </Suspense>
  );
}
