// Spec 2.4: the menu drawer of small screens (loaded when the header's menu button is first used, see
// SideMenu.tsx). The header's button is the drawer's trigger through its id: focus returns to it.
import { CloseButton, Drawer, Portal, Stack } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';
import { AccessibilityButton } from './AccessibilityModal';
import { LanguageSwitch } from './LanguageSwitch';
import { MenuEntries } from './MenuEntries';

export default function MenuDrawer(props: { open: boolean; onOpenChange: (open: boolean) => void; triggerId: string; longName: boolean }) {
  const { open, onOpenChange, triggerId, longName } = props;
  const { t } = useTranslation('common');
  return (
    <Drawer.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} placement="start" size="xs" ids={{ trigger: triggerId }}>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{t('menu.label')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <nav aria-label={t('menu.label')}>
                <MenuEntries compact={false} onNavigate={() => onOpenChange(false)} longName={longName} />
              </nav>
              <Stack mt="6" pt="4" borderTopWidth="1px" borderColor="border" gap="3" align="flex-start" data-testid="drawer-settings">
                <AccessibilityButton showLabel />
                <LanguageSwitch id="pp-language-drawer" />
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('menu.close')} />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
