// The error a crashed page leaves for the generic error page (pages/GenericError.tsx, a chunk of its
// own): the error boundary writes it, the page reads it once.

/** The error a crashed page leaves for the error page (set by the error boundary). */
const LAST_ERROR_KEY = 'pp.lastError';

export function rememberCrash(error: unknown, page: string): void {
  try {
    const e = error as { name?: string; message?: string; stack?: string };
    sessionStorage.setItem(
      LAST_ERROR_KEY,
      JSON.stringify({ message: `${e?.name ?? 'Error'}: ${e?.message ?? String(error)}`, stack: e?.stack ?? '', page, url: location.href }),
    );
  } catch {
    /* storage full or blocked: the page still shows */
  }
}

export function takeCrash(): { message: string; stack: string; page: string; url: string } | null {
  try {
    const raw = sessionStorage.getItem(LAST_ERROR_KEY);
    sessionStorage.removeItem(LAST_ERROR_KEY);
    return raw ? JSON.parse(raw) : null;
  } catch {
    return null;
  }
}
