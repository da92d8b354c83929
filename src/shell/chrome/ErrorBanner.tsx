// Spec 2.13 and 8.1: the dismissible danger banner showing the last API error (session.error).
import { Alert, CloseButton } from '@chakra-ui/react';
import { useTranslation } from '../../runtime/texts';
import { useSession } from '../shellState';

export function ErrorBanner() {
  const { t } = useTranslation('common');
  const [session, setSession] = useSession();
  const error = session.error;
  if (!error?.show || !error.message) return null;
  return (
    <Alert.Root status="error" variant="surface" mb="4" role="alert" data-testid="error-banner">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{error.message}</Alert.Description>
      </Alert.Content>
      <CloseButton
        size="sm"
        alignSelf="flex-start"
        aria-label={t('action.dismiss')}
        onClick={() => setSession((s) => ({ ...s, error: { ...s.error, show: false } }))}
      />
    </Alert.Root>
  );
}
