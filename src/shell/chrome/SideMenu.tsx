// Spec 2.4: the side menu — a drawer below 768 px, an icon rail from 768 to 1279 px and the full menu
// from 1280 px. Entries are declared by the screens (`menu`, see menu.ts) and shown by their rules.
import { Box, Button } from '@chakra-ui/react';
import { Suspense, useId, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Icon } from './Icon';
import { MenuEntries } from './MenuEntries';
import { lazyWhenOnline } from '../../runtime/whenOnline';

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
