// Spec 2.13 and 8.2 post-login error page (bare layout): the post-login step answered an error. It
// shows that error, the provider's support line, the time of the error and a click-here that signs
// out (of the native app too, when inside it) and goes back to sign-in.
import { Alert, Box, Heading, HStack, Link as ChakraLink, Stack, Text, chakra } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useLocation } from 'wouter';
import { displayPhone } from '../../engine/formats';
import type { ShownMessage } from '../errors/errors';
import { postToNative, useProvider, useSession } from '../shellState';
import { Icon } from '../chrome/Icon';
import { useEndSession } from '../chrome/SignOut';

/** The failure the post-login step leaves for this page (a reload still shows it). */
const KEY = 'pp.postLoginError';

interface PostLoginFailure {
  message: ShownMessage;
  /** ISO time of the error */
  at: string;
}

export function rememberPostLoginError(message: ShownMessage, at = new Date()): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ message, at: at.toISOString() } satisfies PostLoginFailure));
  } catch {
    /* storage blocked: the page shows the general message and the time it opened */
  }
}

function readFailure(): PostLoginFailure {
  try {
    const f = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as PostLoginFailure | null;
    const message = f?.message;
    const valid = message && (('text' in message && typeof message.text === 'string') || ('key' in message && typeof message.key === 'string'));
    if (valid && !Number.isNaN(Date.parse(f.at))) return f;
  } catch {
    /* unreadable: as if none */
  }
  return { message: { key: 'error.unknown' }, at: new Date().toISOString() };
}

export function PostLoginError() {
  const { t, i18n } = useTranslation('common');
  const [session] = useSession();
  const provider = useProvider();
  const [, navigate] = useLocation();
  const endSession = useEndSession();
  const [busy, setBusy] = useState(false);
  const failure = useMemo(readFailure, []);
  const programName = provider?.programName || session.programName;
  const phone = provider?.supportPhone || session.supportPhone;
  const email = provider?.supportEmail || session.supportEmail;
  const message = 'text' in failure.message ? failure.message.text : t(failure.message.key, failure.message.values);
  const time = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(failure.at));

  async function back() {
    setBusy(true);
    // the native wrapper signs out of its own session as well
    postToNative({ type: 'logout' });
    await endSession();
    try {
      sessionStorage.removeItem(KEY);
    } catch {
      /* nothing to clear */
    }
    navigate('/', { replace: true });
  }

  return (
    <Stack gap="5" align="flex-start" data-testid="postlogin-error">
      <Box color="fg.error">
        <Icon name="alert" size="3rem" />
      </Box>
      <Heading as="h1" size="2xl">
        {t('postLoginError.title')}
      </Heading>
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title>{t('postLoginError.intro')}</Alert.Title>
          <Alert.Description data-testid="postlogin-error-message">{message}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
      {phone || email ? (
        <Stack gap="1" data-testid="postlogin-error-support">
          <Text fontWeight="semibold">{t('postLoginError.supportTitle', { program: programName || t('app.name') })}</Text>
          {phone ? (
            <HStack gap="2">
              <Icon name="phone" />
              <ChakraLink href={`tel:${phone.replace(/[^\d+]/g, '')}`} aria-label={t('footer.callSupport', { phone: displayPhone(phone) || phone })}>
                {displayPhone(phone) || phone}
              </ChakraLink>
            </HStack>
          ) : null}
          {email ? (
            <HStack gap="2">
              <Icon name="mail" />
              <ChakraLink href={`mailto:${email}`} wordBreak="break-all">
                {email}
              </ChakraLink>
            </HStack>
          ) : null}
        </Stack>
      ) : null}
      <Text color="fg.muted" data-testid="postlogin-error-time">
        {t('postLoginError.time')}: <time dateTime={failure.at}>{time}</time>
      </Text>
      <Text>
        {t('postLoginError.backPrefix')}{' '}
        <chakra.button
          type="button"
          font="inherit"
          color="brand.fg"
          textDecoration="underline"
          cursor="pointer"
          disabled={busy}
          onClick={() => void back()}
          data-testid="postlogin-error-back"
        >
          {t('postLoginError.clickHere')}
        </chakra.button>{' '}
        {t('postLoginError.backSuffix')}
      </Text>
    </Stack>
  );
}
