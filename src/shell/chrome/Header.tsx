// Spec 2.3: sticky header — program logo and name, accessibility button, language switch and, when
// signed in, the menu button (small screens), a home link (small screens) and the profile panel.
import { Box, Flex, HStack, Image, Text, chakra } from '@chakra-ui/react';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { Link } from 'wouter';
import { AccessibilityButton } from './AccessibilityModal';
import { useProvider, useSession } from '../shellState';
import { Icon } from './Icon';
import { LanguageSwitch } from './LanguageSwitch';
import { MenuDrawerButton } from './SideMenu';
import { lazyWhenOnline } from '../../runtime/whenOnline';

const ProfileButton = lazyWhenOnline(() => import('./ProfilePanel').then((m) => ({ default: m.ProfileButton })));

export const BASE = import.meta.env.BASE_URL || '/parentportal/';
export const DEFAULT_LOGO = `${BASE}logos/default.svg`;

export function ProgramLogo({ size = '10' }: { size?: string }) {
  const [session] = useSession();
  const provider = useProvider();
  const src = provider?.logoUrl || session.logo || DEFAULT_LOGO;
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <Image
      src={failed === src ? DEFAULT_LOGO : src}
      alt=""
      boxSize={size}
      objectFit="contain"
      flexShrink={0}
      onError={() => setFailed(src)}
    />
  );
}

const HeaderLink = chakra(Link);

export function Header({ signedIn, longName, showMenu = signedIn }: { signedIn: boolean; longName: boolean; showMenu?: boolean }) {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const provider = useProvider();
  const programName = provider?.programName || session.programName || t('app.name');
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="bg"
      borderBottomWidth="1px"
      borderColor="border"
      boxShadow="xs"
      data-testid="header"
      data-long-name={longName || undefined}
    >
      <Flex align="center" gap={{ base: '1', md: '3' }} px={{ base: '2', md: '4' }} minH="4rem" py="2">
        {showMenu ? <MenuDrawerButton longName={longName} /> : null}
        <HeaderLink
          href={signedIn ? '/home' : '/'}
          display="flex"
          alignItems="center"
          gap="2"
          minW="0"
          flex="1"
          color="fg"
          textDecoration="none"
          data-testid="program-home-link"
        >
          <ProgramLogo />
          <Text
            as="span"
            fontWeight="bold"
            fontSize={longName ? { base: 'sm', md: 'md' } : { base: 'md', md: 'xl' }}
            lineHeight="short"
            lineClamp={longName ? 2 : { base: 2, md: 1 }}
            data-testid="program-name"
          >
            {programName}
          </Text>
        </HeaderLink>
        <HStack gap={{ base: '1', md: '2' }} flexShrink={0}>
          {signedIn ? (
            <HeaderLink
              href="/home"
              display={{ base: 'inline-flex', md: 'none' }}
              alignItems="center"
              p="2"
              color="fg"
              aria-label={t('menu.home')}
              data-testid="header-home-link"
            >
              <Icon name="home" size="1.4em" />
            </HeaderLink>
          ) : null}
          {/* on small screens a signed-in header keeps these in the menu drawer */}
          <HStack gap={{ base: '1', md: '2' }} display={showMenu ? { base: 'none', md: 'flex' } : 'flex'}>
            <AccessibilityButton />
            <LanguageSwitch />
          </HStack>
          {signedIn ? (
            // the room of the button while its code loads (signed-in pages only: sign-in does not carry it)
            <Suspense fallback={<Box w="10" h="10" flexShrink="0" aria-hidden="true" />}>
              <ProfileButton />
            </Suspense>
          ) : null}
        </HStack>
      </Flex>
    </Box>
  );
}
