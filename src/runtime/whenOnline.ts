// Spec 2.13: a lazy chunk that fails to load while the browser is offline is fetched again once it is
// back online, instead of failing the page (the No Connection screen covers it meanwhile) or reloading
// it (a reload while offline leaves the portal for the browser's own error page).
import { lazy, type ComponentType } from 'react';

type OnlineEvents = { navigator: { onLine: boolean }; addEventListener: Window['addEventListener'] };

export function whenOnline<T>(load: () => Promise<T>, given?: OnlineEvents): () => Promise<T> {
  const attempt = (): Promise<T> =>
    load().catch((error: unknown) => {
      // read at failure time: modules that declare lazy parts also load outside a browser (tests)
      const win = given ?? (typeof window === 'undefined' ? undefined : window);
      if (!win || win.navigator.onLine) throw error;
      return new Promise<T>((resolve, reject) => {
        win.addEventListener('online', () => attempt().then(resolve, reject), { once: true });
      });
    });
  return attempt;
}

/** React.lazy whose chunk is fetched again when a load failed offline. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyWhenOnline<C extends ComponentType<any>>(load: () => Promise<{ default: C }>) {
  return lazy(whenOnline(load));
}
