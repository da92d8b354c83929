// Spec 2.1 /postlogin and 2.13 version-update page: after sign-in inside the native app, the server's
// native version check (Customer.nativeVersion, with the version and OS the wrapper reports) decides:
// an optional update shows the notice with Skip, a required one the update page without it. A wrapper
// that cannot tell its platform gets the native-app error view. A temporary password goes to its
// change screen when that screen exists; everyone else continues to /home.
import { Button, Card, Center, Heading, HStack, Link as ChakraLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { apiAtom } from '../../state';
import { useHasScreen, useSession } from '../hooks';
import { BASE, ProgramLogo } from '../Header';
import { StoreBadge } from '../Footer';
import { nativeAppInfo, nativePlatform, storeLinks } from '../nativeApp';

export function PostLogin() {
  const { t } = useTranslation('common');
  const { t: ta } = useTranslation('auth');
  const api = useAtomValue(apiAtom);
  const [session] = useSession();
  const [, navigate] = useLocation();
  const hasScreen = useHasScreen();
  const info = useMemo(() => nativeAppInfo(), []);
  const os = nativePlatform(info);
  const version = info?.version?.trim();
  const temporary = session.isTemporaryPassword === true;
  const next = temporary && hasScreen('/changetemporarypassword') ? '/changetemporarypassword' : '/home';
  const [copied, setCopied] = useState<'ok' | 'failed' | null>(null);

  const check = useQuery({
    queryKey: ['Customer.nativeVersion', session.appName, os, version],
    queryFn: () => api.call('Customer.nativeVersion', { query: { CurrentVersion: version!, OS: os! }, silent: true }),
    enabled: Boolean(session.token && os && version),
    retry: 1,
  });

  // no wrapper, no version to check, or the check failed: sign-in is never held up
  const unknownPlatform = Boolean(info && version && !os);
  const decided = !info || !version ? 'continue' : unknownPlatform ? 'notice' : check.isError ? 'continue' : check.data ? (check.data.updateRequired ? 'notice' : 'continue') : 'pending';

  useEffect(() => {
    if (!session.token) navigate('/', { replace: true });
    else if (decided === 'continue') navigate(next, { replace: true });
  }, [session.token, decided, next, navigate]);

  if (decided !== 'notice') {
    return (
      <Center minH="40vh">
        <Spinner size="lg" color="brand.solid" aria-label={t('status.loading')} />
      </Center>
    );
  }

  const required = check.data?.required ?? false;
  const fallback = storeLinks(session.programName);
  const storeUrl = check.data?.storeUrl || (os === 'ios' ? fallback.ios : fallback.android);
  return (
    <Card.Root maxW="xl" mx="auto" data-testid="native-update" data-required={required ? 'true' : 'false'}>
      <Card.Body>
        <Stack gap="4">
          <HStack gap="3">
            <ProgramLogo size="12" />
            <Text fontWeight="bold" fontSize="lg">
              {session.programName}
            </Text>
          </HStack>
          <Heading as="h1" size="xl">
            {unknownPlatform || required ? t('nativeUpdate.title') : ta('nativeVersion.availableTitle')}
          </Heading>
          {check.data ? (
            <Text data-testid="native-update-latest">
              {required
                ? ta('nativeVersion.requiredText', { latest: check.data.latestVersion, current: version })
                : ta('nativeVersion.availableText', { latest: check.data.latestVersion, current: version })}
            </Text>
          ) : null}
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
                <StoreBadge href={storeUrl} icon={`${BASE}images/badges/app-store.svg`} top={t('footer.appStoreTop')} bottom={t('footer.appStore')} />
                {/* inside an iOS web view the store link may not open: the parent can paste it in Safari */}
                <Button
                  variant="outline"
                  data-testid="native-update-copy"
                  onClick={() =>
                    navigator.clipboard.writeText(storeUrl).then(
                      () => setCopied('ok'),
                      () => setCopied('failed'),
                    )
                  }
                >
                  {t('nativeUpdate.copyLink')}
                </Button>
              </HStack>
              <Text role="status" data-testid="native-update-copied">
                {copied === 'ok' ? t('nativeUpdate.copied') : copied === 'failed' ? t('nativeUpdate.copyFailed', { url: storeUrl }) : ''}
              </Text>
            </Stack>
          ) : (
            <Text>{t('nativeUpdate.unknownPlatform')}</Text>
          )}
          {os === 'android' || !required ? (
            <HStack gap="3" wrap="wrap">
              {os === 'android' ? (
                <ChakraLink href={storeUrl} target="_blank" rel="noopener noreferrer">
                  {t('nativeUpdate.openStore')}
                </ChakraLink>
              ) : null}
              {/* spec 2.1: the skip option, except when the installed version is below the provider's minimum */}
              {required ? null : (
                <Button variant="outline" onClick={() => navigate(next, { replace: true })} data-testid="native-update-skip">
                  {t('nativeUpdate.skip')}
                </Button>
              )}
            </HStack>
          ) : null}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
