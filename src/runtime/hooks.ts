// React hooks over the session state that the shell installs once.
import { useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { apiRequestHooksRefAtom, applicationsRefAtom, loadingDelta, sessionAtom } from '../state';

/** Keeps session.loading in step with the API client's requests (spec 4 loading counter). */
export function useLoadingCounter(): void {
  const hooks = useAtomValue(apiRequestHooksRefAtom);
  const setSession = useSetAtom(sessionAtom);
  useEffect(() => {
    hooks.current = {
      onRequest: () => setSession((s) => loadingDelta(s, 1)),
      onSettled: () => setSession((s) => loadingDelta(s, -1)),
    };
    // no reset on unmount: a request still running must still lower the counter
  }, [hooks, setSession]);
}

/** Gives the API client the session's in-progress applications (headers of keyed calls, spec 7). */
export function useApplicationsForClient(): void {
  const holder = useAtomValue(applicationsRefAtom);
  const session = useAtomValue(sessionAtom);
  holder.current = session.applications;
}
