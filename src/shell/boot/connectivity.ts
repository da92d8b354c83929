// Spec 2.13 and 9: going offline replaces the page at once; coming back restores it after 1 second
// (a flapping connection does not flash the page).

export const BACK_ONLINE_DELAY_MS = 1000;

export interface Connectivity {
  readonly online: boolean;
  wentOffline(): void;
  cameOnline(): void;
  dispose(): void;
}

export function createConnectivity(initial: boolean, onChange: (online: boolean) => void, delay = BACK_ONLINE_DELAY_MS): Connectivity {
  let online = initial;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const set = (v: boolean) => {
    if (v !== online) {
      online = v;
      onChange(v);
    }
  };
  return {
    get online() {
      return online;
    },
    wentOffline() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      set(false);
    },
    cameOnline() {
      if (online || timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        set(true);
      }, delay);
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
