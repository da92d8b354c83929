// Spec 2.6: whether the bookmark notice for old links is pending. The notice itself
// (pages/BookmarkNotice.tsx) is a chunk of its own: only a visit through an old link draws it.
import { useAtom } from 'jotai';
import { atomWithDefault } from 'jotai/utils';
import { useEffect } from 'react';
import { useLocation } from 'wouter';
import { hasOldLinkFlag, withOldLinkFlag } from './oldLink';

/**
 * true while the bookmark notice is pending (cleared by Continue: the app is loaded). Read on first
 * use, after main.tsx has turned an old link into a clean path.
 */
export const oldLinkAtom = atomWithDefault(() => typeof history !== 'undefined' && hasOldLinkFlag(history.state));

export function useBookmarkNotice(): [boolean, () => void] {
  const [pending, setPending] = useAtom(oldLinkAtom);
  const [location] = useLocation();
  // a redirect while the notice is pending replaces the history entry (and its state): the flag goes
  // onto the new one, so a reload still shows the notice
  useEffect(() => {
    if (pending && !hasOldLinkFlag(history.state)) history.replaceState(withOldLinkFlag(history.state, true), '');
  }, [pending, location]);
  return [
    pending,
    () => {
      history.replaceState(withOldLinkFlag(history.state, false), '');
      setPending(false);
    },
  ];
}
