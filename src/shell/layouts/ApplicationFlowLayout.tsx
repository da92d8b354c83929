// Spec 2.2 application-flow layout: the parent application's steps — header without the side menu,
// a narrower content column and the footer.
import { Box, Flex } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { FooterDecl } from '../../engine/types';
import { ErrorBanner } from '../chrome/ErrorBanner';
import { Footer } from '../chrome/Footer';
import { Header } from '../chrome/Header';
import { useRule, useSignedIn } from '../shellState';
import { MAIN_ID, MAIN_MIN_HEIGHT, SkipLink } from './SkipLink';

export function ApplicationFlowLayout({ footer, children }: { footer?: FooterDecl; children: ReactNode }) {
  const rule = useRule();
  const signedIn = useSignedIn();
  return (
    <Flex direction="column" minH="100vh">
      <SkipLink />
      <Header signedIn={signedIn} showMenu={false} longName={rule('shell.longProgramName')} />
      <Box as="main" id={MAIN_ID} tabIndex={-1} flex="1" minH={MAIN_MIN_HEIGHT} px={{ base: '3', md: '6' }} py={{ base: '4', md: '6' }} outline="none" data-testid="main">
        <Box maxW="5xl" mx="auto">
          <ErrorBanner />
          {children}
        </Box>
      </Box>
      <Footer flags={footer} />
    </Flex>
  );
}
