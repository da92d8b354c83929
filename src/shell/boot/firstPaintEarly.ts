// Runs before the portal's scripts (vite.config.ts builds it into a small script of its own that the
// page loads async, ahead of the entry): what a parent does on the first paint the server drew
// (server/boot.ts) before the entry arrives must not be lost. A press of the sign-in button is held
// (the form is method="dialog": without this it does nothing) and src/shell/boot/firstPaint.ts replays
// it in React's form. It imports nothing, so it stays a few hundred bytes.

// The page's module scripts, when the server drew a first paint (server/boot.ts scriptsAfterPaint):
// asked once that paint is on screen. The browser reports a paint once it is presented; a frame
// later where it does not report paints, and after 2 s whatever happened (a tab opened in the
// background paints nothing until shown).
const afterPaint = (document.currentScript as HTMLScriptElement | null)?.dataset.afterPaint;
if (afterPaint) {
  let asked = false;
  const ask = () => {
    if (asked) return;
    asked = true;
    for (const src of afterPaint.split(' ')) {
      const script = document.createElement('script');
      script.type = 'module';
      script.src = src;
      document.head.append(script);
    }
  };
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) new PerformanceObserver(() => setTimeout(ask)).observe({ type: 'paint', buffered: true });
  else requestAnimationFrame(() => setTimeout(ask));
  setTimeout(ask, 2000);
}

document.addEventListener(
  'submit',
  (e) => {
    const form = e.target instanceof HTMLFormElement ? e.target : null;
    if (!form?.closest('[data-first-paint]')) return;
    e.preventDefault();
    form.setAttribute('data-held-submit', '');
    form.querySelector('[type=submit]')?.setAttribute('aria-busy', 'true');
  },
  true,
);

// a parent signed in to this provider, or a link that continues to another page: the sign-in form
// is not what follows, so it is not shown (the header stays)
// (only on an entry link, /<appName>/parent: the first read of localStorage waits for the browser
// process, which other pages need not do this early)
const app = /^\/parentportal\/([A-Za-z0-9_-]+)\/parent\/?$/.exec(location.pathname)?.[1]?.toLowerCase();
if (app) {
  // the provider chosen, for the server: its other pages then come with its header drawn and its
  // declarations (server/boot.ts cookieAppName); the name only, never the session
  document.cookie = `pp_app=${app}; Max-Age=31536000; Path=/; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  try {
    const session = JSON.parse(localStorage.getItem('pp.session') ?? 'null') as { token?: string; appName?: string } | null;
    if ((session?.token && session.appName === app) || new URLSearchParams(location.search).has('next')) {
      document.documentElement.classList.add('pp-fp-elsewhere');
    }
  } catch {
    /* storage refused: sign-in is shown */
  }
}
