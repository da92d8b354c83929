// Spec 8.2 generic error page (bare layout): 'An unknown error occurred...', a click-here link back,
// the server time and an error code — the id of the error log record posted for it.
import { Box, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { apiAtom } from '../../state';
import { describeBrowser, detectBrowser } from '../boot/browserInfo';
import { useSession } from '../shellState';
import { Icon } from '../chrome/Icon';

import { takeCrash } from '../errors/crash';

export { rememberCrash } from '../errors/crash';

export function GenericError({ onBack }: { onBack?: () => void }) {
  const { t, i18n } = useTranslation('common');
  const api = useAtomValue(apiAtom);
  const [session] = useSession();
  const [code, setCode] = useState<string>();
  const [serverTime, setServerTime] = useState<string>();
  const posted = useRef(false);

  useEffect(() => {
    if (posted.current) return;
    posted.current = true;
    const crash = takeCrash();
    const info = detectBrowser(navigator.userAgent);
    api
      .call('Customer.errorlog', {
        body: {
          ...(session.appName ? { appName: session.appName } : {}),
          Device: info.os,
          PageName: crash?.page ?? 'error',
          Url: crash?.url ?? location.href,
          PreviousURL: document.referrer.slice(0, 2000),
          UserName: session.userName || session.email || '',
          Browser: describeBrowser(info),
          EventDateTime: new Date().toISOString(),
          APIErrorLogID: '',
          StackTrace: (crash?.stack ?? '').slice(0, 20000),
          Message: (crash?.message ?? 'Unknown error').slice(0, 4000),
          Source: 'PARENT PORTAL',
        },
        silent: true,
      })
      .then((r) => setCode(String(r.errorLogID)))
      .catch(() => undefined);
    api
      .call('Customer.serverDate', { silent: true })
      .then((r) => setServerTime(r.serverTime))
      .catch(() => setServerTime(new Date().toISOString()));
  }, [api, session.appName, session.userName, session.email]);

  const back = () => {
    if (onBack) onBack();
    else if (history.length > 1) history.back();
    else location.assign(import.meta.env.BASE_URL || '/parentportal/');
  };

  return (
    <Stack gap="5" align="flex-start" data-testid="generic-error">
      <Box color="fg.error">
        <Icon name="alert" size="3rem" />
      </Box>
      <Heading as="h1" size="2xl">
        {t('genericError.title')}
      </Heading>
      <Text fontSize="lg">{t('genericError.message')}</Text>
      <Text>
        {t('genericError.backPrefix')}{' '}
        <chakra.button type="button" font="inherit" color="brand.fg" textDecoration="underline" cursor="pointer" onClick={back} data-testid="generic-error-back">
          {t('genericError.clickHere')}
        </chakra.button>{' '}
        {t('genericError.backSuffix')}
      </Text>
      <Box fontSize="sm" color="fg.muted">
        <Text>
          {t('genericError.serverTime')}:{' '}
          {serverTime ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(serverTime)) : '…'}
        </Text>
        <Text data-testid="generic-error-code">
          {t('genericError.code')}: {code ?? '…'}
        </Text>
      </Box>
    </Stack>
  );
}
