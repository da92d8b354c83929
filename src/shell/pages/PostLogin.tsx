// Spec 2.1 /postlogin and 2.13 version-update page: after sign-in inside the native app, the server's
// native version check (Customer.nativeVersion, with the version and OS the wrapper reports) decides:
// an optional update shows the notice with Skip, a required one the update page without it. A wrapper
// that cannot tell its platform gets the native-app error view. Beside it the session's first load
// reads the signed-in account (Demographics.accountFlags); when either answers an error the parent
// gets the post-login error page (spec 2.13) instead of a portal that cannot work. A temporary
// password goes to its change screen when that screen exists; everyone else continues to /home.
import { Button, Card, Center, Heading, HStack, Link as ChakraLink, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQuery } from '@tanstack/react-query';
import { queryClientAtom } from 'jotai-tanstack-query';
import { useAtomValue } from 'jotai';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useLocation } from 'wouter';
import type { ApiError } from '../../api/client';
import { apiAtom, apiErrorHandlerAtom } from '../../state';
import { decideApiError, type ApiErrorLike } from '../errors/errors';
import { rememberPostLoginError } from './PostLoginError';
import { useHasScreen, useSession } from '../shellState';
import { BASE, ProgramLogo } from '../chrome/Header';
import { StoreBadge } from '../chrome/Footer';
import { nativeAppInfo, nativePlatform, storeLinks } from '../boot/nativeApp';

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

  const errorHandler = useAtomValue(apiErrorHandlerAtom);
  const reported = useRef(false);
  const queryClient = useAtomValue(queryClientAtom);
  const check = useQuery({
    queryKey: ['Customer.nativeVersion', session.appName, os, version],
    queryFn: () => api.call('Customer.nativeVersion', { query: { CurrentVersion: version!, OS: os! }, silent: true }),
    enabled: Boolean(session.token && os && version),
    retry: 1,
  }, queryClient);
  // a temporary-password session may only change its password: it reads no account yet
  const account = useQuery({
    queryKey: ['Demographics.accountFlags', session.appName, session.accountID],
    queryFn: () => api.call('Demographics.accountFlags', { silent: true }),
    enabled: Boolean(session.token) && !temporary,
    retry: 1,
  }, queryClient);

  // no wrapper or no version to check: only the account's load decides
  const unknownPlatform = Boolean(info && version && !os);
  const failed = (check.error ?? account.error) as ApiErrorLike | null;
  const versionDecision = !info || !version ? 'continue' : unknownPlatform ? 'notice' : check.data ? (check.data.updateRequired ? 'notice' : 'continue') : 'pending';
  const accountReady = temporary || account.isSuccess;
  const decided = failed ? 'failed' : versionDecision === 'continue' && !accountReady ? 'pending' : versionDecision;

  useEffect(() => {
    if (!session.token) navigate('/', { replace: true });
    else if (decided === 'continue') navigate(next, { replace: true });
    else if (decided === 'failed' && failed && !reported.current) {
      reported.current = true;
      // the shell's handling of spec 8.1 (error log; an expired session goes to its own page)
      const decision = decideApiError(failed, session.appName, temporary);
      errorHandler.handle?.(failed as ApiError);
      if (decision.redirect) return;
      rememberPostLoginError(decision.message ?? { key: 'error.unknown' });
      navigate('/postloginerror', { replace: true });
    }
  }, [session.token, session.appName, decided, failed, next, navigate, errorHandler, temporary]);

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
