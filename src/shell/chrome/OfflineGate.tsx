// Spec 2.13: while offline the page is replaced by a No Connection screen with Try Again; the page
// stays mounted underneath so nothing typed is lost, and returns 1 s after the connection does.
import { Button, Center, Heading, Image, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../runtime/texts';
import { createConnectivity, type Connectivity } from '../boot/connectivity';
import { BASE } from './Header';

export function OfflineGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine));
  const [checking, setChecking] = useState(false);
  const conn = useRef<Connectivity | null>(null);

  useEffect(() => {
    const c = createConnectivity(navigator.onLine, setOnline);
    conn.current = c;
    const off = () => c.wentOffline();
    const on = () => c.cameOnline();
    window.addEventListener('offline', off);
    window.addEventListener('online', on);
    return () => {
      window.removeEventListener('offline', off);
      window.removeEventListener('online', on);
      c.dispose();
    };
  }, []);

  async function tryAgain() {
    setChecking(true);
    try {
      // a real request: navigator.onLine alone can be wrong
      await fetch(`${BASE}favicon.svg?ping=${Date.now()}`, { cache: 'no-store' });
      conn.current?.cameOnline();
    } catch {
      /* still offline */
    } finally {
      setChecking(false);
    }
  }

  return (
    <>
      <div hidden={!online} style={{ display: online ? 'contents' : 'none' }}>
        {children}
      </div>
      {online ? null : (
        <Center as="main" minH="100vh" p="6" data-testid="no-connection">
          <Stack align="center" gap="4" textAlign="center" maxW="md">
            <Image src={`${BASE}images/no-connection.svg`} alt="" w="8rem" />
            <Heading as="h1" size="xl">
              {t('offline.title')}
            </Heading>
            <Text color="fg.muted">{t('offline.message')}</Text>
            <Button colorPalette="brand" onClick={() => void tryAgain()} loading={checking}>
              {t('offline.tryAgain')}
            </Button>
          </Stack>
        </Center>
      )}
    </>
  );
}
