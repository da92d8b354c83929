// Provider-supplied texts in the parent's language (spec 1, 2.8). A text column holds the text in the
// provider's default language (the first of provider.json languages); beside it, the row's
// `translations` JSONB column holds the other languages per field:
//   { "<field>": { "es": "...", "pt": "...", "vi": "..." } }
// Items of a JSON list column (the values of a user-defined or medical field) carry their own
// `translations` the same way. The server answers plain strings in the request's language and falls
// back to the default-language text, so the browser never sees the translations.

/** field → language → text */
export type ProviderTexts = Record<string, Partial<Record<string, string>>>;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * The row (or list item, recursively) with each translated field in `lang` when the provider supplied
 * it, otherwise the default-language text; `translations` itself is left out of the answer.
 */
export function inLanguage<T>(value: T, lang: string): T {
  if (Array.isArray(value)) return value.map((v) => inLanguage(v, lang)) as T;
  if (!isPlainObject(value)) return value;
  const texts = isPlainObject(value.translations) ? value.translations : {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'translations') continue;
    const field = texts[k];
    const t = isPlainObject(field) ? field[lang] : undefined;
    out[k] = typeof v === 'string' && typeof t === 'string' && t.trim() !== '' ? t : inLanguage(v, lang);
  }
  return out as T;
}

/** One field of a row in `lang`, with the same fallback. */
export function textIn(row: { translations?: ProviderTexts | null } & Record<string, unknown>, field: string, lang: string): string {
  const t = row.translations?.[field]?.[lang];
  return typeof t === 'string' && t.trim() !== '' ? t : String(row[field] ?? '');
}
