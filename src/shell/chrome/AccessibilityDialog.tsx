// Spec 2.3: the accessibility dialog — high-contrast theme and font size, Apply and Close. Loaded
// when the accessibility button is first used (see AccessibilityModal.tsx).
import { Button, Checkbox, CloseButton, Dialog, Portal, RadioGroup, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import type { FontSize } from '../../state/session';
import { postToNative, useSession } from '../shellState';

const FONT_SIZES: FontSize[] = ['small', 'default', 'medium', 'large'];

export default function AccessibilityDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('common');
  const [session, setSession] = useSession();
  const [theme, setTheme] = useState(session.accessibilityTheme);
  const [fontSize, setFontSize] = useState<FontSize>(session.fontSize);

  // each opening starts from what is applied now
  useEffect(() => {
    if (open) {
      setTheme(session.accessibilityTheme);
      setFontSize(session.fontSize);
    }
  }, [open, session.accessibilityTheme, session.fontSize]);

  function apply() {
    setSession((s) => ({ ...s, accessibilityTheme: theme, fontSize, theme: theme ? 'accessibility' : 'default' }));
    postToNative({ type: 'accessibility', accessibilityTheme: theme, fontSize });
    onClose();
  }

  return (
    <Dialog.Root open={open} onOpenChange={(e) => !e.open && onClose()} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="accessibility-modal">
            <Dialog.Header>
              <Dialog.Title>{t('accessibility.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="5">
                <Checkbox.Root checked={theme} onCheckedChange={(e) => setTheme(e.checked === true)}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{t('accessibility.enableTheme')}</Checkbox.Label>
                </Checkbox.Root>
                <RadioGroup.Root value={fontSize} onValueChange={(e) => e.value && setFontSize(e.value as FontSize)} aria-labelledby="pp-font-size-label">
                  <Text id="pp-font-size-label" fontWeight="semibold" mb="2">
                    {t('accessibility.fontSize')}
                  </Text>
                  <Stack direction={{ base: 'column', sm: 'row' }} gap="4">
                    {FONT_SIZES.map((size) => (
                      <RadioGroup.Item key={size} value={size}>
                        <RadioGroup.ItemHiddenInput />
                        <RadioGroup.ItemIndicator />
                        <RadioGroup.ItemText>{t(`accessibility.font.${size}`)}</RadioGroup.ItemText>
                      </RadioGroup.Item>
                    ))}
                  </Stack>
                </RadioGroup.Root>
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('action.close')}
              </Button>
              <Button colorPalette="brand" onClick={apply} data-testid="accessibility-apply">
                {t('action.apply')}
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('action.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
