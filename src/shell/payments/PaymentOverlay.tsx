// The payment loader over the page that sends the parent to the gateway (session loaderInfo
// 'payment', set by the `leave` effect). A page the browser restores from its cache (the back
// button from the gateway) drops it.
import { Box } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { useSession } from '../shellState';
import { PaymentLoaderView } from './PaymentLoader';

export default function PaymentOverlay() {
  const [session, setSession] = useSession();
  const [, navigate] = useLocation();
  const referrer = session.loaderInfo.referrer;
  useEffect(() => {
    const restored = (e: PageTransitionEvent) => {
      if (e.persisted) setSession((s) => ({ ...s, loaderInfo: { type: 'common' } }));
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, [setSession]);
  return (
    <Box position="fixed" inset="0" bg="bg" zIndex="overlay" overflowY="auto" data-testid="payment-overlay">
      <PaymentLoaderView
        onBack={() => {
          setSession((s) => ({ ...s, loaderInfo: { type: 'common' } }));
          if (referrer) navigate(referrer);
        }}
      />
    </Box>
  );
}
