// The side menu's entries (spec 2.4), as the rail and full menu beside the content (SideMenu.tsx) and
// the drawer of small screens (MenuDrawer.tsx, a chunk of its own) both list them.
import { chakra, Stack, Text } from '@chakra-ui/react';
import { useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { useTranslation } from '../../runtime/texts';
import { i18nKey, useKeysLoaded } from '../../runtime/i18n';
import { useProvider, useRule, useScreens } from '../shellState';
import { Icon } from './Icon';
import { menuHref, menuItemsOf, visibleMenuItems, type MenuItem } from '../routing/menu';
import { useAskSignOut } from './SignOut';

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
