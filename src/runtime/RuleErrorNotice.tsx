import { Alert } from '@chakra-ui/react';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { apiAtom } from '../state';
import { useRuntimeT } from './i18n';

/**
 * A rule that throws (ARCHITECTURE.md: an error everywhere, never swallowed): development shows the
 * rule's own message; production shows a translated generic one and posts the message to the error log.
 */
export default function RuleErrorNotice({ err, screenId, appName }: { err: unknown; screenId: string; appName?: string }) {
  const api = useAtomValue(apiAtom);
  const { t } = useRuntimeT();
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error && err.stack ? err.stack.slice(0, 2000) : message;
  // logged once per distinct error (the screen re-renders with a new Error object)
  useEffect(() => {
    const body = {
      PageName: screenId,
      Url: window.location.href,
      EventDateTime: new Date().toISOString(),
      StackTrace: stack,
      Message: message,
      Source: 'PARENT PORTAL' as const,
      ...(appName ? { appName } : {}),
    };
    void api.call('Customer.errorlog', { body, silent: true }).catch(() => undefined);
  }, [api, stack, message, screenId, appName]);
  return (
    <Alert.Root status="error" role="alert" data-rule-error="">
      <Alert.Indicator />
      <Alert.Title>{import.meta.env.DEV ? message : t('runtime:ruleError')}</Alert.Title>
    </Alert.Root>
  );
}

