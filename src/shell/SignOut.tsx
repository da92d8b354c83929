// Spec 2.4: sign out asks for confirmation; it ends the server session, clears the token and the
// account fields, keeps the chosen language and goes to sign-in.
import { Button, Dialog, Portal, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { apiAtom, signedOutSession } from '../state';
import { useSession } from './hooks';

/** Ends the session without asking (session-expired OK, confirmed sign out). */
export function useEndSession() {
  const [, setSession] = useSession();
  const api = useAtomValue(apiAtom);
  const queryClient = useQueryClient();
  return useCallback(
    async (opts: { callServer?: boolean } = {}) => {
      if (opts.callServer !== false) {
        // the token goes either way; a failed logout call must not keep the user signed in
        await api.call('Authentication.logout', { body: {}, silent: true }).catch(() => undefined);
      }
      setSession((s) => signedOutSession(s));
      // nothing of the previous account may be shown to the next one
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'Customer.program' && q.queryKey[0] !== 'Customer.declarations' });
    },
    [api, setSession, queryClient],
  );
}

const SignOutContext = createContext<() => void>(() => undefined);

/** Opens the sign-out confirmation from anywhere in the chrome (menu, profile panel). */
export function useAskSignOut() {
  return useContext(SignOutContext);
}

export function SignOutProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const endSession = useEndSession();
  const [, navigate] = useLocation();
  const ask = useCallback(() => setOpen(true), []);

  async function confirm() {
    setBusy(true);
    await endSession();
    setBusy(false);
    setOpen(false);
    navigate('/', { replace: true });
  }

  return (
    <SignOutContext.Provider value={ask}>
      {children}
      <Dialog.Root open={open} onOpenChange={(e) => !e.open && setOpen(false)} role="alertdialog" placement="center">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content data-testid="signout-confirm">
              <Dialog.Header>
                <Dialog.Title>{t('signOut.title')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Text>{t('signOut.message')}</Text>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setOpen(false)}>
                  {t('action.cancel')}
                </Button>
                <Button colorPalette="brand" onClick={() => void confirm()} loading={busy} data-testid="signout-confirm-button">
                  {t('menu.signOut')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </SignOutContext.Provider>
  );
}
