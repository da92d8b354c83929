// RFC 7396 JSON Merge Patch, shared by provider overlays (declarations.ts) and fragment references
// (fragments.ts).

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 7396 JSON Merge Patch: objects merge key by key, null deletes, anything else replaces. */
export function mergePatchValue(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return cloneJson(patch);
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatchValue(out[key], value);
  }
  return out;
}

/** A deep copy of JSON data. */
export function cloneJson<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}
