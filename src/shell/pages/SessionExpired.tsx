// Spec 2.13 and 8.1: the session-ended notice. The shell renders it because it must also work when
// the declaration set cannot load: with an outdated release version every other call is refused.
// OK ends the session and goes to sign-in; for INVALID_RELEASE_VERSION it takes the server's current
// release version (Customer.version answers whatever the client's version) and goes home.
import { Alert, Box, Button, Stack } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useLocation } from 'wouter';
import { apiAtom } from '../../state';
import { useRule, useSession } from '../shellState';
import { useEndSession } from '../chrome/SignOut';
import { TEMPORARY_AUTHENTICATION } from '../errors/errors';

export function SessionExpiredPage({ type }: { type?: string }) {
  const { t } = useTranslation('screens');
  const api = useAtomValue(apiAtom);
  const [, setSession] = useSession();
  const [, navigate] = useLocation();
  const endSession = useEndSession();
  const rule = useRule({ type });
  const [busy, setBusy] = useState(false);
  const release = rule('shell.invalidReleaseVersion');
  // spec 8.2: a temporary-password session that expired or failed says so
  const temporary = !release && type === TEMPORARY_AUTHENTICATION;

  async function ok() {
    setBusy(true);
    try {
      if (release) {
        const v = await api.call('Customer.version', { query: { sourceApp: 'parentportal' } });
        setSession((s) => ({ ...s, releaseVersion: v.releaseVersion, sessionExpired: false }));
        navigate('/home', { replace: true });
      } else {
        await endSession({ callServer: false });
        navigate('/', { replace: true });
      }
    } catch {
      // shown by the API error handler
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack gap="5" align="flex-start" data-testid="session-expired">
      <Alert.Root status={release ? 'info' : 'warning'}>
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t(release ? 'sessionexpired.releaseHeading' : 'sessionexpired.heading')}</Alert.Title>
          <Alert.Description data-testid="session-expired-message">
            {t(release ? 'sessionexpired.releaseMessage' : temporary ? 'sessionexpired.temporaryMessage' : 'sessionexpired.message')}
          </Alert.Description>
        </Alert.Content>
      </Alert.Root>
      <Box>
        <Button colorPalette="brand" onClick={() => void ok()} loading={busy} data-action={release ? 'okRelease' : 'ok'}>
          {t('sessionexpired.ok')}
        </Button>
      </Box>
    </Stack>
  );
}
