// Spec 2.4: the side menu — a drawer below 768 px, an icon rail from 768 to 1279 px and the full menu
// from 1280 px. Entries are declared by the screens (`menu`, see menu.ts) and shown by their rules.
import { Box, Button } from '@chakra-ui/react';
import { Suspense, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Icon } from './Icon';
import { MenuEntries } from './MenuEntries';
import { lazyWhenOnline } from '../../runtime/whenOnline';

/** spec 9's md breakpoint (768 px), where the rail replaces the drawer */
const WIDE = '(min-width: 768px)';
const wideQuery = typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(WIDE) : null;
const subscribeWide = (change: () => void) => {
  wideQuery?.addEventListener('change', change);
  return () => wideQuery?.removeEventListener('change', change);
};
const isWide = () => wideQuery?.matches ?? true;

/**
 * The rail / full menu beside the content (768 px and wider). Below that it is hidden and the drawer
 * lists the entries, so its entries are drawn only on a wide screen: a phone's first paint does not
 * spend its main thread on sixty hidden elements.
 */
export function SideMenu({ longName }: { longName: boolean }) {
  const { t } = useTranslation('common');
  const wide = useSyncExternalStore(subscribeWide, isWide, () => true);
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
      {wide ? <MenuEntries compact longName={longName} /> : null}
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
