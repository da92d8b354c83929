// Checks for values read from JSON (files, JSONB columns, request parts) before they are used as
// typed data.

/** A JSON object (not null, not a list). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An object of strings only. */
export function isStringRecord(v: unknown): v is Record<string, string> {
  return isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** What a caught value says: an Error's message (or any thrown object's), else the value in text. */
export function errorMessage(e: unknown): string {
  return isRecord(e) && typeof e.message === 'string' ? e.message : String(e);
}
