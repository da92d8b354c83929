// Spec 2.4: sign out asks for confirmation; it ends the server session, clears the token and the
// account fields, keeps the chosen language and goes to sign-in.
import { useAtomValue } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import { createContext, Suspense, useCallback, useContext, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { apiAtom, signedOutSession } from '../../state';
import { useSession } from '../shellState';
import { lazyWhenOnline } from '../../runtime/whenOnline';

/** Ends the session without asking (session-expired OK, confirmed sign out). */
export function useEndSession() {
  const [, setSession] = useSession();
  const api = useAtomValue(apiAtom);
  const queryClient = useAtomValue(queryClientAtom);
  return useCallback(
    async (opts: { callServer?: boolean } = {}) => {
      if (opts.callServer !== false) {
        // the token goes either way; a failed logout call must not keep the user signed in
        await api.call('Authentication.logout', { silent: true }).catch(() => undefined);
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

// the confirmation dialog loads when sign out is first asked for
const SignOutDialog = lazyWhenOnline(() => import('./SignOutDialog'));

export function SignOutProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  if (open && !asked) setAsked(true);
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
      {asked ? (
        <Suspense fallback={null}>
          <SignOutDialog open={open} busy={busy} onCancel={() => setOpen(false)} onConfirm={() => void confirm()} />
        </Suspense>
      ) : null}
    </SignOutContext.Provider>
  );
}
