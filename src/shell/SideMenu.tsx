// Spec 2.4: the side menu — a drawer below 768 px, an icon rail from 768 to 1279 px and the full menu
// from 1280 px. Entries come from MENU_ITEMS filtered by declared screens and the shell rules.
import { Box, Button, chakra, CloseButton, Drawer, Portal, Stack, Text } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { useHasScreen, useRule } from './hooks';
import { Icon } from './Icon';
import { MENU_ITEMS, menuHref, visibleMenuItems, type MenuItem } from './menu';
import { useAskSignOut } from './SignOut';
import { AccessibilityButton } from './AccessibilityModal';
import { LanguageSwitch } from './LanguageSwitch';

export function useMenuItems(): MenuItem[] {
  const hasScreen = useHasScreen();
  const rule = useRule();
  return useMemo(() => visibleMenuItems(MENU_ITEMS, { hasScreen, isTrue: rule }), [hasScreen, rule]);
}

const itemStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2.5',
  rounded: 'md',
  color: 'fg',
  textDecoration: 'none',
  fontWeight: 'medium',
  _hover: { bg: 'brand.subtle', color: 'brand.fg' },
  '&[aria-current=page]': { bg: 'brand.solid', color: 'brand.contrast' },
} as const;

const MenuLink = chakra(Link);

function MenuEntries({ compact, onNavigate, longName }: { compact: boolean; onNavigate?: () => void; longName?: boolean }) {
  const { t } = useTranslation('common');
  const items = useMenuItems();
  const [location] = useLocation();
  const askSignOut = useAskSignOut();
  return (
    <Stack as="ul" gap={longName ? '0' : '1'} listStyleType="none" m="0" p="0">
      {items.map((item) => {
        const label = t(item.label);
        const inner = (
          <>
            <Icon name={item.icon} size="1.35em" />
            <Text as="span" display={compact ? { base: 'inline', md: 'none', xl: 'inline' } : 'inline'} fontSize={longName ? 'sm' : 'md'}>
              {label}
            </Text>
          </>
        );
        const current = item.path && !item.query && location === item.path;
        return (
          <li key={item.id}>
            {item.action === 'signOut' ? (
              <chakra.button
                type="button"
                {...itemStyles}
                justifyContent={compact ? { base: 'flex-start', md: 'center', xl: 'flex-start' } : 'flex-start'}
                cursor="pointer"
                bg="transparent"
                aria-label={compact ? label : undefined}
                title={compact ? label : undefined}
                onClick={() => {
                  onNavigate?.();
                  askSignOut();
                }}
                data-testid={`menu-${item.id}`}
              >
                {inner}
              </chakra.button>
            ) : (
              <MenuLink
                href={menuHref(item)}
                {...itemStyles}
                justifyContent={compact ? { base: 'flex-start', md: 'center', xl: 'flex-start' } : 'flex-start'}
                aria-current={current ? 'page' : undefined}
                aria-label={compact ? label : undefined}
                title={compact ? label : undefined}
                onClick={onNavigate}
                data-testid={`menu-${item.id}`}
              >
                {inner}
              </MenuLink>
            )}
          </li>
        );
      })}
    </Stack>
  );
}

/** The rail / full menu beside the content (768 px and wider). */
export function SideMenu({ longName }: { longName: boolean }) {
  const { t } = useTranslation('common');
  return (
    <Box
      as="nav"
      aria-label={t('menu.label')}
      display={{ base: 'none', md: 'block' }}
      w={{ md: '4.5rem', xl: longName ? '15rem' : '16rem' }}
      flexShrink={0}
      borderEndWidth="1px"
      borderColor="border"
      bg="bg.subtle"
      px="2"
      py="4"
      position="sticky"
      top="var(--pp-header-height, 4rem)"
      alignSelf="flex-start"
      maxH="calc(100vh - var(--pp-header-height, 4rem))"
      overflowY="auto"
      data-testid="side-menu"
      data-long-name={longName || undefined}
    >
      <MenuEntries compact longName={longName} />
    </Box>
  );
}

/** The drawer of small screens, opened by the header's menu button. */
export function MenuDrawerButton({ longName }: { longName: boolean }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  return (
    <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="start" size="xs">
      <Drawer.Trigger asChild>
        <Button variant="ghost" size="sm" display={{ base: 'inline-flex', md: 'none' }} aria-label={t('menu.open')} data-testid="menu-button" px="2">
          <Icon name="menu" size="1.5em" />
        </Button>
      </Drawer.Trigger>
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content>
            <Drawer.Header>
              <Drawer.Title>{t('menu.label')}</Drawer.Title>
            </Drawer.Header>
            <Drawer.Body>
              <nav aria-label={t('menu.label')}>
                <MenuEntries compact={false} onNavigate={() => setOpen(false)} longName={longName} />
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
