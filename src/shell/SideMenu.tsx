// Spec 2.4: the side menu — a drawer below 768 px, an icon rail from 768 to 1279 px and the full menu
// from 1280 px. Entries are declared by the screens (`menu`, see menu.ts) and shown by their rules.
import { Box, Button, chakra, Stack, Text } from '@chakra-ui/react';
import { Suspense, useId, useMemo, useState } from 'react';
import { useTranslation } from '../runtime/texts';
import { Link, useLocation } from 'wouter';
import { i18nKey, useKeysLoaded } from '../runtime/i18n';
import { useProvider, useRule, useScreens } from './hooks';
import { Icon } from './Icon';
import { menuHref, menuItemsOf, visibleMenuItems, type MenuItem } from './menu';
import { useAskSignOut } from './SignOut';
import { lazyWhenOnline } from '../runtime/whenOnline';

export function useMenuItems(): MenuItem[] {
  const screens = useScreens();
  const rule = useRule();
  const provider = useProvider();
  return useMemo(() => visibleMenuItems(menuItemsOf(screens), { isTrue: rule, provider }), [screens, rule, provider]);
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

export function MenuEntries({ compact, onNavigate, longName }: { compact: boolean; onNavigate?: () => void; longName?: boolean }) {
  const { t } = useTranslation(['common', 'screens']);
  const items = useMenuItems();
  const [location] = useLocation();
  const askSignOut = useAskSignOut();
  // a label of a namespace that is not a start namespace (programs.title) shows once it is in, never as its key
  const labelsReady = useKeysLoaded(items.map((item) => item.label));
  return (
    <Stack as="ul" gap={longName ? '0' : '1'} listStyleType="none" m="0" p="0">
      {items.map((item) => {
        const label = labelsReady ? t(i18nKey(item.label)) : '';
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
            ) : item.href ? (
              // a provider page (the User Guide): its own site, in a new tab
              <chakra.a
                href={item.href}
                target="_blank"
                rel="noopener noreferrer"
                {...itemStyles}
                justifyContent={compact ? { base: 'flex-start', md: 'center', xl: 'flex-start' } : 'flex-start'}
                aria-label={`${label} ${t('a11y.newTab')}`}
                title={compact ? label : undefined}
                onClick={onNavigate}
                data-testid={`menu-${item.id}`}
              >
                {inner}
              </chakra.a>
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

// the drawer (dialog machine, focus trap) loads when the menu button is first used
const MenuDrawer = lazyWhenOnline(() => import('./MenuDrawer'));

/** The header's menu button of small screens; it opens the menu drawer. */
export function MenuDrawerButton({ longName }: { longName: boolean }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const triggerId = `pp-menu-button${useId()}`;
  return (
    <>
      <Button
        id={triggerId}
        variant="ghost"
        size="sm"
        display={{ base: 'inline-flex', md: 'none' }}
        aria-label={t('menu.open')}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? 'open' : 'closed'}
        data-testid="menu-button"
        px="2"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <Icon name="menu" size="1.5em" />
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <MenuDrawer open={open} onOpenChange={setOpen} triggerId={triggerId} longName={longName} />
        </Suspense>
      ) : null}
    </>
  );
}
