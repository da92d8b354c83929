// Spec 2.12 and 9: the payment loader. While the parent is sent to the gateway's page, or the portal
// waits for the gateway's answer, it says not to go back or refresh; after 30 seconds it warns and
// offers a way back to where the payment started.
import { Box, Button, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../../runtime/texts';

/** Spec 9: the payment loader's stuck warning. */
export const PAYMENT_STUCK_MS = 30_000;

export function PaymentLoaderView({ onBack }: { onBack?: () => void }) {
  const { t } = useTranslation('payment');
  const [stuck, setStuck] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setStuck(true), PAYMENT_STUCK_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Stack gap="4" align="center" textAlign="center" py="10" px="4" maxW="32rem" mx="auto" data-testid="payment-loader" role="status" aria-live="polite">
      <Spinner size="xl" color="brand.solid" borderWidth="4px" />
      <Heading as="h2" size="lg">
        {t('loader.title')}
      </Heading>
      <Text fontWeight="semibold">{t('loader.noBack')}</Text>
      <Text color="fg.muted">{t('loader.wait')}</Text>
      {stuck ? (
        <Box borderWidth="1px" borderColor="border.warning" bg="bg.warning" borderRadius="md" p="4" data-testid="payment-stuck">
          <Text mb="3">{t('loader.stuck')}</Text>
          {onBack ? (
            <Button variant="outline" onClick={onBack} data-action="paymentLoaderBack">
              {t('loader.back')}
            </Button>
          ) : null}
        </Box>
      ) : null}
    </Stack>
  );
}

/**
 * Spec 8.2, payment recorded late: the gateway took the payment but the portal has not applied it yet;
 * the reconciler applies it automatically, so the parent must not pay again.
 */
export function PaymentLateView({ onHome }: { onHome: () => void }) {
  const { t } = useTranslation('payment');
  return (
    <Stack gap="4" align="center" textAlign="center" py="10" px="4" maxW="32rem" mx="auto" data-testid="payment-late" role="status" aria-live="polite">
      <Heading as="h2" size="lg">
        {t('late.title')}
      </Heading>
      <Text fontWeight="semibold">{t('late.noPayAgain')}</Text>
      <Text>{t('late.applied')}</Text>
      <Text color="fg.muted">{t('late.contact')}</Text>
      <Button variant="outline" onClick={onHome} data-action="paymentLateHome">
        {t('late.home')}
      </Button>
    </Stack>
  );
}

/**
 * A return page opened without a gateway's answer (a bookmark, a typed or forged address: nothing to
 * wait for), or with one the portal could not check just now (the parent may check again).
 */
export function PaymentReturnProblemView({ kind, onPayNow, onRetry }: { kind: 'invalid' | 'unchecked'; onPayNow?: () => void; onRetry?: () => void }) {
  const { t } = useTranslation('payment');
  return (
    <Stack gap="4" align="center" textAlign="center" py="10" px="4" maxW="32rem" mx="auto" data-testid="payment-return-problem" role="alert">
      <Heading as="h2" size="lg">
        {t(kind === 'invalid' ? 'return.title' : 'return.uncheckedTitle')}
      </Heading>
      <Text>{t(kind === 'invalid' ? 'return.text' : 'return.uncheckedText')}</Text>
      {onRetry ? (
        <Button variant="solid" colorPalette="brand" onClick={onRetry} data-action="paymentReturnRetry">
          {t('return.retry')}
        </Button>
      ) : null}
      {onPayNow ? (
        <Button variant={onRetry ? 'outline' : 'solid'} colorPalette="brand" onClick={onPayNow} data-action="paymentReturnPayNow">
          {t('return.toPayNow')}
        </Button>
      ) : null}
    </Stack>
  );
}
