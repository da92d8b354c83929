// Runs before the portal's scripts (vite.config.ts builds it into two small scripts of their own that
// the page loads async, ahead of the entry): what a parent does on the first paint the server drew
// (server/boot.ts) before the entry arrives must not be lost. It imports nothing, so it stays small.
// - A provider's entry (sign-in drawn ahead): a press of Sign In is held (the form is
//   method="dialog": without this it does nothing) and src/shell/boot/firstPaint.ts replays it in
//   React's form.
// - Any other page of the provider (its header drawn ahead; __SIGNED_IN_PAGE__): for a signed-in
//   parent, the screen's first data loads are asked at once and the screen the server drew with them
//   is put into the page (its forms inert until React's, which run their rules, are there); a press
//   of its buttons is held and pressed again in React's screen when it takes over (ppDrawnHandOver).
declare const __SIGNED_IN_PAGE__: boolean;

type FirstLoads = { lang?: unknown; html?: unknown; loads?: Array<{ op: string; params: unknown; answer: unknown; taken?: boolean }> } | null;
type EarlyWindow = {
  ppEarlyAnswer?: (op: string, params: unknown, accountID: unknown, lang: unknown) => Promise<{ answer: unknown } | undefined>;
  ppDrawnHandOver?: typeof drawnHandOver;
};

const early = (document.currentScript as HTMLScriptElement | null)?.dataset ?? {};

/** Settles once the screen the server drew is on the page, or there is none to wait for. */
const screenDrawn = __SIGNED_IN_PAGE__ ? askFirstLoads() : null;

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
  const next = __SIGNED_IN_PAGE__ ? () => void screenDrawn?.then(() => setTimeout(ask)) : ask;
  if (PerformanceObserver.supportedEntryTypes?.includes('paint')) new PerformanceObserver(() => setTimeout(next)).observe({ type: 'paint', buffered: true });
  else requestAnimationFrame(() => setTimeout(next));
  setTimeout(ask, 3000);
}

if (!__SIGNED_IN_PAGE__) {
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
        // the side menu's room beside it (firstPaint.css)
        page.closest('.pp-fp')?.classList.add('pp-fp-signed-in');
        const screen = document.createElement('div');
        screen.setAttribute('data-first-paint-screen', '');
        screen.innerHTML = html;
        // its forms take no input until React's, which keeps it and runs their rules, are there
        for (const form of Array.from(screen.querySelectorAll('form'))) form.inert = true;
        page.append(screen);
      }
      // settled once the frame that shows it is drawn
      requestAnimationFrame(() => setTimeout(resolve));
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', put, { once: true });
    else put();
  });
}

// A signed-in page opened cold: its screen's first data loads are asked now, in one request
// (server/domains/provider/firstLoads.ts), while the scripts are on their way, instead of one by one
// once they ran; the screen's queries take their answers (src/runtime/dataLoads.ts askLoad).
// The answer holds the screen drawn by the server when it draws that screen ahead (drawScreen).
function askFirstLoads(): Promise<void> {
  if (!early.sessionKey || !early.app) return Promise.resolve();
  try {
    const stored = JSON.parse(localStorage.getItem(early.sessionKey) ?? 'null') as Record<string, unknown> | null;
    if (!stored || typeof stored.token !== 'string' || !stored.token || stored.appName !== early.app) return Promise.resolve();
    const { token, ...session } = stored;
    const headers: Record<string, string> = {
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
      .then((r) => (r.ok ? (r.json() as Promise<FirstLoads>) : null))
      .catch(() => null);
    // the screen's queries ask here first (src/runtime/dataLoads.ts askLoad): each answer once, for
    // this account and language, in the half minute from the scripts' first question (however long
    // the scripts took to come: the drawn screen shows these answers meanwhile)
    const w = window as EarlyWindow;
    let asked = false;
    w.ppEarlyAnswer = (op, params, accountID, lang) => {
      if (!asked) {
        asked = true;
        setTimeout(() => delete w.ppEarlyAnswer, 30_000);
      }
      return answer.then((a) => {
        const key = JSON.stringify([op, params]);
        const found = a && accountID === stored.accountID && lang === a.lang ? a.loads?.find((l) => !l.taken && JSON.stringify([l.op, l.params]) === key) : undefined;
        if (!found) return undefined;
        found.taken = true;
        return { answer: found.answer };
      });
    };
    return answer.then((a) => (typeof a?.html === 'string' ? drawScreen(a.html) : undefined));
  } catch {
    return Promise.resolve(); // storage refused: the screen asks for its loads itself
  }
}

/** The buttons among these with this action and text: a held press is found again by both (and its place among them). */
function sameButtons(buttons: Iterable<HTMLButtonElement>, action: string, text: string): HTMLButtonElement[] {
  return Array.from(buttons).filter((b) => (b.getAttribute('data-action') ?? '') === action && (b.textContent ?? '') === text);
}

/**
 * React's screen takes over from the drawn one (src/shell/boot/firstPaint.ts) once it shows its
 * sections with nothing of them still loading (`ready`); then (`take`) a held press is pressed again
 * on React's button with the same action and text (the same one of several), once it is there and enabled.
 */
const drawnHandOver = {
  ready(host: HTMLElement): boolean {
    const main = host.querySelector('[data-testid=main]');
    if (!main?.querySelector('[data-section]')) return false;
    // nothing of it still loading
    return !main.querySelector('[data-state=loading]');
  },
  take(drawn: Element) {
    const held = drawn.getAttribute('data-held-click');
    return (host: HTMLElement) => {
      if (held === null) return;
      const [action, text, nth] = JSON.parse(held) as [string, string, number];
      const until = Date.now() + 20_000;
      // on the page it was pressed on only: a button of the same name elsewhere is another button
      const path = location.pathname + location.search;
      const press = () => {
        if (location.pathname + location.search !== path) return;
        const button = sameButtons(host.querySelectorAll<HTMLButtonElement>('[data-testid=main] button'), action, text)[nth];
        if (button && !button.disabled) button.click();
        else if (Date.now() < until) setTimeout(press, 100);
      };
      press();
    };
  },
};

if (__SIGNED_IN_PAGE__) {
  // A press of a button of the drawn screen before the scripts (a section's or the screen's action
  // bar): held (the button shows busy) and pressed again in React's screen once it is drawn. A link
  // needs no script: it is followed.
  document.addEventListener(
    'click',
    (e) => {
      const button = e.target instanceof Element ? e.target.closest<HTMLButtonElement>('[data-first-paint-screen] button') : null;
      const screen = button?.closest('[data-first-paint-screen]');
      if (!button || !screen) return;
      e.preventDefault();
      e.stopPropagation();
      const action = button.getAttribute('data-action') ?? '';
      const text = button.textContent ?? '';
      const nth = sameButtons(screen.querySelectorAll('button'), action, text).indexOf(button);
      screen.setAttribute('data-held-click', JSON.stringify([action, text, nth]));
      button.setAttribute('aria-busy', 'true');
    },
    true,
  );
  (window as EarlyWindow).ppDrawnHandOver = drawnHandOver;
}
