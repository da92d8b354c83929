// A page titled by its data (a screen's `titleFrom`, e.g. a program period's name): the runtime sets
// it once the load answers and the shell's heading and document title show it for that screen.
import { atom } from 'jotai';

export const pageTitleAtom = atom<{ screenId: string; title: string } | null>(null);
