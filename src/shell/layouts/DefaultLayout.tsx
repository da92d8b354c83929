// Spec 2.2 default layout: sticky header; side menu when signed in; content; footer.
import { Box, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { FooterDecl } from '../../engine/types';
import { ErrorBanner } from '../chrome/ErrorBanner';
import { Footer } from '../chrome/Footer';
import { Header } from '../chrome/Header';
import { useRule, useSignedIn } from '../shellState';
import { SideMenu } from '../chrome/SideMenu';
import { MAIN_ID, MAIN_MIN_HEIGHT, SkipLink } from './SkipLink';

export function DefaultLayout({ footer, children }: { footer?: FooterDecl; children: ReactNode }) {
  const rule = useRule();
  const signedIn = useSignedIn();
  const longName = rule('shell.longProgramName');
  return (
    <Flex direction="column" minH="100vh">
      <SkipLink />
      <Header signedIn={signedIn} longName={longName} />
      <Flex flex="1" align="stretch">
        {signedIn ? <SideMenu longName={longName} /> : null}
        <Box
          as="main"
          id={MAIN_ID}
          tabIndex={-1}
          flex="1"
          minW="0"
          minH={MAIN_MIN_HEIGHT}
          px={{ base: '3', sm: '4', md: '6' }}
          py={{ base: '4', md: '6' }}
          outline="none"
          data-testid="main"
        >
          <Box maxW="7xl" mx="auto">
            <ErrorBanner />
            {children}
          </Box>
        </Box>
      </Flex>
      <Footer flags={footer} />
    </Flex>
  );
}
