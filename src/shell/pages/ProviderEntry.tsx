// Spec 2.1 /{appName}/parent: selects the provider. Loads Customer.program; the provider's fields go
// into the session and the user continues to sign-in (or home when already signed in to it). An
// unknown provider answers 'no configuration data for', which the error handler sends to /invalidurl.
// A `next` query (links in e-mails, the social sign-in return) continues to that page instead.
import { Center, Spinner, Text, VStack } from '@chakra-ui/react';
import { queryClientAtom } from 'jotai-tanstack-query';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useLocation } from 'wouter';
import { apiAtom, programQueryKey, signedOutSession, type ProviderRecord, type SessionState } from '../../state';
import { useSession } from '../shellState';
import { takeBootProvider } from '../boot/bootData';

/** The session fields that come from the provider record. */
export function providerSessionFields(p: ProviderRecord): Partial<SessionState> {
  return {
    appName: p.appName,
    customerID: p.customerID,
    programName: p.programName,
    logo: p.logoUrl,
    organisation: p.organisation,
    supportPhone: p.supportPhone,
    supportEmail: p.supportEmail,
    countryCode: p.countryCode,
    locales: p.languages,
    isMultiLanguageSupport: p.isMultiLanguageSupport,
    isSchoolDistrict: p.isSchoolDistrict,
    hasSmsLicense: p.hasSmsLicense,
  };
}

/**
 * Links in e-mails name the provider and the page to continue to: /{appName}/parent?next=/resetpassword&token=...
 * Only a path inside the portal is followed; the other query values go along.
 */
export function continueTo(search: string): string | null {
  const q = new URLSearchParams(search);
  const next = q.get('next');
  if (!next || !/^\/[a-z][a-z0-9/-]*$/i.test(next)) return null;
  q.delete('next');
  const rest = q.toString();
  return rest ? `${next}?${rest}` : next;
}

/** Where a provider's entry link goes on: Home when signed in to that provider, else its `next` page or sign-in. */
export function entryContinuesTo(appName: string, search: string, session: { token?: string | null; appName?: string | null }): string {
  const signedIn = Boolean(session.token) && session.appName === appName;
  return signedIn ? '/home' : (continueTo(search) ?? '/');
}

export function ProviderEntry({ appName }: { appName: string }) {
  const { t } = useTranslation('common');
  const api = useAtomValue(apiAtom);
  const [session, setSession] = useSession();
  const [, navigate] = useLocation();
  const started = useRef<string | null>(null);
  const queryClient = useAtomValue(queryClientAtom);

  useEffect(() => {
    const name = appName.trim().toLowerCase();
    if (!name || started.current === name) return;
    started.current = name;
    // decided on the session as it was before this provider's fields go in
    const next = entryContinuesTo(name, window.location.search, session);
    // the server put the provider (and its declaration set) into this page: no round trips for them
    const boot = takeBootProvider(queryClient, name, session.locale, session.releaseVersion);
    (boot ? Promise.resolve(boot) : api.call('Customer.program', { query: { appName: name } }))
      .then((p) => {
        // the provider record is what providerAtom asks for next: no second request
        queryClient.setQueryData(programQueryKey(p.appName, session.locale), p);
        setSession((s) => {
          // a token belongs to one provider: choosing another one signs out first
          const base = s.appName && s.appName !== p.appName ? signedOutSession(s) : s;
          return { ...base, ...providerSessionFields(p), sessionExpired: false, error: { statusCode: 0, message: '', show: false } };
        });
        navigate(next, { replace: true });
      })
      .catch(() => {
        // shown and routed by the API error handler (e.g. /invalidurl)
      });
    // it runs once per provider chosen (`started`): on these fields of the session, not on every change of it
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, appName, navigate, queryClient, session.appName, session.locale, session.releaseVersion, session.token, setSession]);

  return (
    <Center minH="40vh" data-testid="provider-entry">
      <VStack gap="3">
        <Spinner size="lg" color="brand.solid" />
        <Text role="status">{t('entry.loading')}</Text>
      </VStack>
    </Center>
  );
}
