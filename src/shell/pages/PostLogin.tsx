// Spec 2.1 /postlogin: after sign-in. Inside the native app with an outdated version, the update notice
// shows (with Skip); a temporary password goes to its change screen when that screen exists; everyone
// else continues to /home.
import { Button, Card, Center, Heading, HStack, Link as ChakraLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { useHasScreen, useSession } from '../hooks';
import { BASE, ProgramLogo } from '../Header';
import { StoreBadge } from '../Footer';
import { nativeAppInfo, needsNativeUpdate, storeLinks } from '../nativeApp';

export function PostLogin() {
  const { t } = useTranslation('common');
  const [session] = useSession();
  const [, navigate] = useLocation();
  const hasScreen = useHasScreen();
  const info = useMemo(() => nativeAppInfo(), []);
  const update = needsNativeUpdate(info);
  const temporary = Boolean((session as unknown as { isTemporaryPassword?: boolean }).isTemporaryPassword);
  const next = temporary && hasScreen('/changetemporarypassword') ? '/changetemporarypassword' : '/home';
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);

  useEffect(() => {
    if (!session.token) navigate('/', { replace: true });
    else if (!update) navigate(next, { replace: true });
  }, [session.token, update, next, navigate]);

  if (!update) {
    return (
      <Center minH="40vh">
        <Spinner size="lg" color="brand.solid" aria-label={t('status.loading')} />
      </Center>
    );
  }

  const stores = storeLinks(session.programName);
  const os = (info?.os ?? '').toLowerCase();
  return (
    <Card.Root maxW="xl" mx="auto" data-testid="native-update">
      <Card.Body>
        <Stack gap="4">
          <HStack gap="3">
            <ProgramLogo size="12" />
            <Text fontWeight="bold" fontSize="lg">
              {session.programName}
            </Text>
          </HStack>
          <Heading as="h1" size="xl">
            {t('nativeUpdate.title')}
          </Heading>
          {os === 'android' ? (
            <Stack as="ol" ps="5" gap="1" listStyleType="decimal">
              <li>{t('nativeUpdate.android.store')}</li>
              <li>{t('nativeUpdate.android.install')}</li>
              <li>{t('nativeUpdate.android.update')}</li>
              <li>{t('nativeUpdate.android.done')}</li>
            </Stack>
          ) : os === 'ios' ? (
            <Stack gap="3">
              <Text>{t('nativeUpdate.ios')}</Text>
              <HStack gap="3" wrap="wrap">
                <StoreBadge href={stores.ios} icon={`${BASE}images/badges/app-store.svg`} top={t('footer.appStoreTop')} bottom={t('footer.appStore')} />
                {/* inside an iOS web view the store link may not open: the parent can paste it in Safari */}
                <Button
                  variant="outline"
                  data-testid="native-update-copy"
                  onClick={() =>
                    navigator.clipboard.writeText(stores.ios).then(
                      () => setCopied('ok'),
                      () => setCopied('failed'),
                    )
                  }
                >
                  {t('nativeUpdate.copyLink')}
                </Button>
              </HStack>
              <Text role="status" data-testid="native-update-copied">
                {copied === 'ok' ? t('nativeUpdate.copied') : copied === 'failed' ? t('nativeUpdate.copyFailed', { url: stores.ios }) : ''}
              </Text>
            </Stack>
          ) : (
            <Text>{t('nativeUpdate.unknownPlatform')}</Text>
          )}
          <HStack gap="3" wrap="wrap">
            {os === 'android' ? (
              <ChakraLink href={stores.android} target="_blank" rel="noopener noreferrer">
                {t('nativeUpdate.openStore')}
              </ChakraLink>
            ) : null}
            <Button variant="outline" onClick={() => navigate(next, { replace: true })} data-testid="native-update-skip">
              {t('nativeUpdate.skip')}
            </Button>
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
