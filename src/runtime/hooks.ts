// React hooks over the session state that the shell installs once.
import { useEffect } from 'react';
import { useAtomValue, useSetAtom } from 'jotai';
import { apiRequestHooksRefAtom, applicationsRefAtom, loadingAtom, loadingDelta, sessionAtom } from '../state';

/** Keeps the loading counter in step with the API client's requests (spec 4). */
export function useLoadingCounter(): void {
  const hooks = useAtomValue(apiRequestHooksRefAtom);
  const setLoading = useSetAtom(loadingAtom);
  useEffect(() => {
    hooks.current = {
      onRequest: () => setLoading((n) => loadingDelta(n, 1)),
      onSettled: () => setLoading((n) => loadingDelta(n, -1)),
    };
    // no reset on unmount: a request still running must still lower the counter
  }, [hooks, setLoading]);
}

/** Gives the API client the session's in-progress applications (headers of keyed calls, spec 7). */
export function useApplicationsForClient(): void {
  const holder = useAtomValue(applicationsRefAtom);
  const session = useAtomValue(sessionAtom);
  holder.current = session.applications;
}
