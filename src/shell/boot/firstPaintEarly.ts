// Runs before the portal's scripts (vite.config.ts builds it into a small script of its own that the
// page loads async, ahead of the entry): what a parent does on the first paint the server drew
// (server/boot.ts) before the entry arrives must not be lost. A press of the sign-in button is held
// (the form is method="dialog": without this it does nothing) and src/shell/boot/firstPaint.ts replays
// it in React's form; on a signed-in page it asks for the screen's first loads and puts the screen the
// server drew with them into the page. It imports nothing, so it stays small (about 2.5 kB).

const early = (document.currentScript as HTMLScriptElement | null)?.dataset ?? {};

/** Settles once the screen the server drew is on the page, or there is none to wait for. */
const screenDrawn = askFirstLoads();

// The page's module scripts, when the server drew a first paint (server/boot.ts scriptsAfterPaint):
// asked once that paint is on screen, and on a signed-in page once its screen drawn by the server is
// (the scripts would otherwise take the line from it). The browser reports a paint once it is
// presented; a frame later where it does not report paints, and after 3 s whatever happened (a tab
// opened in the background paints nothing until shown).
const afterPaint = early.afterPaint;
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
  const painted = new Promise<void>((resolve) => {
    if (PerformanceObserver.supportedEntryTypes?.includes('paint')) new PerformanceObserver(() => resolve()).observe({ type: 'paint', buffered: true });
    else requestAnimationFrame(() => resolve());
  });
  void Promise.all([painted, screenDrawn]).then(() => setTimeout(ask));
  setTimeout(ask, 3000);
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

/**
 * The screen the server drew with those answers (src/shell/boot/screenPaint.tsx), under the title of
 * the header drawn ahead, while that is still what the page shows.
 */
function drawScreen(html: string): Promise<void> {
  return new Promise((resolve) => {
    const put = () => {
      const page = document.querySelector('#root > [data-first-paint=chrome] .pp-fp-page');
      if (page && !page.querySelector('[data-first-paint-screen]')) {
        const screen = document.createElement('div');
        screen.setAttribute('data-first-paint-screen', '');
        screen.innerHTML = html;
        page.append(screen);
      }
      // settled once the frame that shows it is drawn
      requestAnimationFrame(() => setTimeout(resolve));
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', put, { once: true });
    else put();
  });
}

// A press of a button of that screen before the scripts: held (the button shows busy) and pressed
// again in React's screen once it is drawn (firstPaint.ts). A link needs no script: it is followed.
document.addEventListener(
  'click',
  (e) => {
    const button = e.target instanceof Element ? e.target.closest('[data-first-paint-screen] [data-section] button') : null;
    const screen = button?.closest('[data-first-paint-screen]');
    if (!button || !screen) return;
    e.preventDefault();
    e.stopPropagation();
    screen.setAttribute('data-held-click', String(Array.from(screen.querySelectorAll('[data-section] button')).indexOf(button as HTMLButtonElement)));
    button.setAttribute('aria-busy', 'true');
  },
  true,
);

// A signed-in page opened cold (a page of the provider other than its entry, server/boot.ts): its
// screen's first data loads are asked now, in one request (server/firstLoads.ts), while the scripts
// are on their way, instead of one by one once they ran; src/shell/boot/prefetch.ts takes the answer.
// The answer holds the screen drawn by the server when it draws that screen ahead (drawScreen).
function askFirstLoads(): Promise<void> {
  if (!early.sessionKey || !early.app) return Promise.resolve();
  try {
    const stored = JSON.parse(localStorage.getItem(early.sessionKey) ?? 'null') as Record<string, unknown> | null;
    if (!stored || typeof stored.token !== 'string' || !stored.token || stored.appName !== early.app) return Promise.resolve();
    const { token, ...session } = stored;
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      'Accept-Language': typeof stored.locale === 'string' ? stored.locale : 'en',
      Authorization: `Bearer ${token}`,
    };
    if (typeof stored.releaseVersion === 'string' && stored.releaseVersion) headers['X-Release-Version'] = stored.releaseVersion;
    const notice = (history.state as { notice?: unknown } | null)?.notice;
    const answer = fetch('/api/Customer/first-loads', {
      method: 'POST',
      headers,
      body: JSON.stringify({ path: location.pathname, search: location.search, session, ...(notice && typeof notice === 'object' ? { notice } : {}) }),
    })
      .then((r) => (r.ok ? (r.json() as Promise<{ html?: unknown }>) : null))
      .catch(() => null);
    (window as { ppFirstLoads?: Promise<unknown> }).ppFirstLoads = answer;
    return answer.then((a) => (typeof a?.html === 'string' ? drawScreen(a.html) : undefined));
  } catch {
    return Promise.resolve(); // storage refused: the screen asks for its loads itself
  }
}
