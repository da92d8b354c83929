// Spec 2.6: whether the bookmark notice for old links is pending. The notice itself
// (pages/BookmarkNotice.tsx) is a chunk of its own: only a visit through an old link draws it.
import { useAtom } from 'jotai';
import { atomWithDefault } from 'jotai/utils';
import { OLD_LINK_FLAG } from './oldLink';

function readFlag(): boolean {
  try {
    return sessionStorage.getItem(OLD_LINK_FLAG) === '1';
  } catch {
    return false;
  }
}

/**
 * true while the bookmark notice is pending (cleared by Continue: the app is loaded). Read on first
 * use, after main.tsx has turned an old link into a clean path.
 */
export const oldLinkAtom = atomWithDefault(() => readFlag());

export function useBookmarkNotice(): [boolean, () => void] {
  const [pending, setPending] = useAtom(oldLinkAtom);
  return [
    pending,
    () => {
      try {
        sessionStorage.removeItem(OLD_LINK_FLAG);
      } catch {
        /* ignore */
      }
      setPending(false);
    },
  ];
}
