// Spec 2.2 bare layout (the generic error page): content only.
import { Box } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { MAIN_ID } from './SkipLink';

export function BareLayout({ children }: { children: ReactNode }) {
  return (
    <Box as="main" id={MAIN_ID} tabIndex={-1} minH="100vh" px="4" py="10" outline="none" data-testid="main">
      <Box maxW="3xl" mx="auto">
        {children}
      </Box>
    </Box>
  );
}
