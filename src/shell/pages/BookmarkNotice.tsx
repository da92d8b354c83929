// Spec 2.6: the bookmark notice for old links. Before sign-in, a visitor who came through an old
// (hash) link sees a heading, the program name, the language switch and advice to bookmark this page;
// Continue marks the app loaded and reveals header and footer.
import { Box, Button, Center, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';
import { ProgramLogo } from '../chrome/Header';
import { useProvider, useSession } from '../shellState';
import { LanguageSwitch } from '../chrome/LanguageSwitch';
import { MAIN_ID, SkipLink } from '../layouts/SkipLink';

export function BookmarkNotice({ onContinue }: { onContinue: () => void }) {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const provider = useProvider();
  const programName = provider?.programName || session.programName || t('app.name');
  return (
    <>
      <SkipLink />
      <Center as="main" id={MAIN_ID} tabIndex={-1} minH="100vh" p="6" outline="none" data-testid="bookmark-notice">
        <Stack gap="5" maxW="lg" align="center" textAlign="center">
          <ProgramLogo size="16" />
          <Heading as="h1" size="2xl">
            {t('bookmark.title')}
          </Heading>
          <Text fontSize="xl" fontWeight="semibold">
            {programName}
          </Text>
          <Box>
            <LanguageSwitch id="pp-language-bookmark" />
          </Box>
          <Text>{t('bookmark.advice')}</Text>
          <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
            {window.location.origin}
            {import.meta.env.BASE_URL || '/parentportal/'}
          </Text>
          <Button colorPalette="brand" size="lg" onClick={onContinue} data-testid="bookmark-continue">
            {t('action.continue')}
          </Button>
        </Stack>
      </Center>
    </>
  );
}
