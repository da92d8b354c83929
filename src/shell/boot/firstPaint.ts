// The server draws a provider's entry page as HTML before the scripts (server/boot.ts: the header and,
// for sign-in, the form). React renders beside it, hidden, and takes over once its own page is drawn:
// what was typed into the HTML form (and which field had the focus) goes into React's form, a
// press of the sign-in button held meanwhile (firstPaintEarly.ts) is replayed there, and the HTML
// is removed in the same task as React's page is shown, so the two never show at once.

const FIRST_PAINT = '[data-first-paint]';
/** Longest wait for React's page; then React's page is shown whatever it holds. */
const HAND_OVER_AT_LATEST_MS = 20_000;

type Field = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
/** The early script's part of the hand-over from a screen the server drew (firstPaintEarly.ts drawnHandOver). */
interface DrawnHandOver {
  ready(host: HTMLElement): boolean;
  take(drawn: Element): (host: HTMLElement) => void;
}
const early = () => (window as { ppDrawnHandOver?: DrawnHandOver }).ppDrawnHandOver;
const isField = (el: unknown): el is Field => el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;

/** The value setter of the element's own prototype: React's change tracking sees the value as typed. */
function setTypedValue(el: Field, value: string): void {
  const proto = Object.getPrototypeOf(el) as object;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

function fieldsOf(form: HTMLFormElement): Field[] {
  return Array.from(form.elements).filter((el): el is Field => isField(el) && el.name !== '');
}

/** React's form with every field of the HTML one, once drawn. */
function reactForm(host: HTMLElement, names: string[]): HTMLFormElement | null {
  for (const form of Array.from(host.querySelectorAll('form'))) {
    if (names.every((n) => form.elements.namedItem(n))) return form;
  }
  return null;
}

/** What the parent typed and checked in the HTML form, into React's form, and the focus with it. */
function carryOver(from: HTMLFormElement, to: HTMLFormElement, focused: { name: string; start: number | null; end: number | null } | null): void {
  for (const src of fieldsOf(from)) {
    const dest = to.elements.namedItem(src.name);
    if (!isField(dest)) continue;
    if (src instanceof HTMLInputElement && (src.type === 'checkbox' || src.type === 'radio')) {
      if (dest instanceof HTMLInputElement && dest.checked !== src.checked) dest.click();
    } else if (src.value !== '' && dest.value !== src.value) {
      setTypedValue(dest, src.value);
    }
  }
  if (!focused) return;
  const dest = to.elements.namedItem(focused.name);
  if (!isField(dest)) return;
  dest.focus();
  if (dest instanceof HTMLInputElement && focused.start !== null) {
    try {
      dest.setSelectionRange(focused.start, focused.end ?? focused.start);
    } catch {
      /* e-mail inputs have no selection to set */
    }
  }
}

/** Clicks React's submit button once it is enabled (the held press), giving up after a while. */
function replaySubmit(form: HTMLFormElement, until = Date.now() + HAND_OVER_AT_LATEST_MS): void {
  const button = form.querySelector<HTMLButtonElement>('button[type=submit]');
  if (button && !button.disabled) {
    button.click();
    return;
  }
  if (Date.now() < until && form.isConnected) setTimeout(() => replaySubmit(form, until), 100);
}

/**
 * The element React renders into: #root itself when the page has no first paint; else a hidden
 * element beside the first paint, shown (and the first paint removed) once React's page is there.
 */
export function firstPaintHost(root: HTMLElement): HTMLElement {
  const paint = root.querySelector<HTMLElement>(`:scope > ${FIRST_PAINT}`);
  if (!paint) return root;
  const host = document.createElement('div');
  host.style.display = 'none';
  root.appendChild(host);
  const entryPath = location.pathname;
  // the sign-in form drawn ahead; not a form of a screen the early script drew (a list's filter)
  const from = Array.from(paint.querySelectorAll('form')).find((f) => !f.closest('[data-first-paint-screen]')) ?? null;
  const wantsForm = Boolean(from) && !document.documentElement.classList.contains('pp-fp-elsewhere');
  const names = from ? fieldsOf(from).map((f) => f.name) : [];

  // a page other than the entry: the server drew the provider's header only; React's layout replaces it
  const chromeOnly = paint.getAttribute('data-first-paint') === 'chrome' && !from;
  // the screen the server drew ahead, once there (firstPaintEarly.ts): React's takes over when it
  // shows that screen, not a skeleton in its place, or has moved on to another page
  const drawn = () => (chromeOnly ? paint.querySelector('[data-first-paint-screen]') : null);
  const ready = (): boolean => {
    const screen = drawn();
    if (screen) return Boolean(early()?.ready(host)) || (location.pathname !== entryPath && host.querySelector('[data-testid=page-title]') !== null);
    if (chromeOnly) return host.querySelector('[data-testid=main]') !== null;
    if (wantsForm && reactForm(host, names)) return true;
    // another page than the one drawn ahead (signed in already, a link to another page, an error):
    // its own title, once the entry has moved on
    const moved = location.pathname !== entryPath && !(wantsForm && /^\/parentportal\/?$/.test(location.pathname));
    return moved && host.querySelector('[data-testid=page-title]') !== null;
  };

  let done = false;
  const handOver = () => {
    if (done) return;
    done = true;
    observer.disconnect();
    clearTimeout(latest);
    const active = document.activeElement;
    const focused =
      isField(active) && paint.contains(active)
        ? {
            name: active.name,
            start: active instanceof HTMLInputElement ? safe(() => active.selectionStart) : null,
            end: active instanceof HTMLInputElement ? safe(() => active.selectionEnd) : null,
          }
        : null;
    const held = from?.hasAttribute('data-held-submit') ?? false;
    // the screen the server drew, if any: a press held there follows (firstPaintEarly.ts)
    const drawnScreen = drawn();
    const drawnFollows = drawnScreen ? early()?.take(drawnScreen) : undefined;
    host.style.display = '';
    paint.remove();
    drawnFollows?.(host);
    const to = from ? reactForm(host, names) : null;
    if (!from || !to) return;
    carryOver(from, to, focused);
    // React applies the carried values first; then the press
    if (held) setTimeout(() => replaySubmit(to), 0);
  };
  const observer = new MutationObserver(() => {
    if (ready()) handOver();
  });
  observer.observe(host, { childList: true, subtree: true });
  // at the latest, whatever React has drawn by then (nothing drawn: wait on)
  const atLatest = () => (host.firstElementChild ? handOver() : (latest = setTimeout(atLatest, 1_000)));
  let latest = setTimeout(atLatest, HAND_OVER_AT_LATEST_MS);
  return host;
}

function safe<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}
