// Declared fragments: a piece several screens share (sections, an action bar, a dialog, a flow block)
// is declared once in screens/fragments/<id>.json and included by reference. A reference is an object
// { "$fragment": "<id>" }, optionally with "merge": a JSON Merge Patch over an object fragment (the
// flow block's step), or over a list fragment's items by id ({ "<item id>": patch }, null drops the
// item). In an array, a fragment whose content is an array is spliced in place. Screens
// are resolved before a provider's screen overlays apply, and after its fragment overlays
// (providers/<appName>/overlays/fragments/<id>.json), so an overlay on a fragment changes every
// screen that includes it.
import type { DeclError, DeclFile, Fragments } from './declFiles';
import { mergePatchValue } from './mergePatch';

export type { FragmentFile, Fragments } from './declFiles';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isReference = (v: unknown): v is { $fragment: unknown; merge?: unknown } => isObject(v) && '$fragment' in v;
const pointer = (parts: (string | number)[]) => parts.map((p) => `/${String(p).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');

/** A declaration with every fragment reference replaced by the fragment's content; errors name file and path. */
export function resolveFragments(json: unknown, fragments: Fragments, file: string): { value: unknown; errors: DeclError[] } {
  const errors: DeclError[] = [];

  function reference(ref: { $fragment: unknown; merge?: unknown }, path: (string | number)[], stack: string[]): { ok: true; value: unknown } | { ok: false } {
    const where = pointer(path);
    const extra = Object.keys(ref).filter((k) => k !== '$fragment' && k !== 'merge');
    if (extra.length) {
      errors.push({ file, path: where, message: `a fragment reference takes only "$fragment" and "merge" (found ${extra.join(', ')})` });
      return { ok: false };
    }
    const id = ref.$fragment;
    if (typeof id !== 'string' || !fragments[id]) {
      errors.push({ file, path: `${where}/$fragment`, message: `no fragment ${JSON.stringify(id)} in screens/fragments/` });
      return { ok: false };
    }
    if (stack.includes(id)) {
      errors.push({ file, path: `${where}/$fragment`, message: `fragments include each other: ${[...stack, id].join(' → ')}` });
      return { ok: false };
    }
    const fragment = fragments[id].json;
    if (!isObject(fragment) || fragment.id !== id || !('content' in fragment)) {
      errors.push({ file: fragments[id].file, path: '', message: `a fragment is { "id": "${id}", "content": ... }` });
      return { ok: false };
    }
    let value = walk(fragment.content, [], [...stack, id], fragments[id].file);
    if (ref.merge !== undefined) {
      if (!isObject(ref.merge) || (!isObject(value) && !Array.isArray(value))) {
        errors.push({ file, path: `${where}/merge`, message: 'merge is an object, over a fragment that is an object or a list' });
        return { ok: false };
      }
      if (Array.isArray(value)) {
        // a list's merge is keyed by item id: each screen tunes the items it shares (a show rule)
        const items = value;
        for (const [id, patch] of Object.entries(ref.merge)) {
          const i = items.findIndex((item) => isObject(item) && item.id === id);
          if (i < 0) {
            errors.push({ file, path: `${where}/merge/${id}`, message: `fragment "${ref.$fragment as string}" has no item with id "${id}"` });
            return { ok: false };
          }
          if (patch === null) items.splice(i, 1);
          else items[i] = mergePatchValue(items[i], patch);
        }
      } else value = mergePatchValue(value, ref.merge);
    }
    return { ok: true, value };
  }

  function walk(v: unknown, path: (string | number)[], stack: string[], inFile: string): unknown {
    const saved = file;
    file = inFile;
    try {
      if (Array.isArray(v)) {
        const out: unknown[] = [];
        v.forEach((item, i) => {
          if (!isReference(item)) return void out.push(walk(item, [...path, i], stack, inFile));
          const r = reference(item, [...path, i], stack);
          if (!r.ok) return;
          if (Array.isArray(r.value)) out.push(...r.value);
          else out.push(r.value);
        });
        return out;
      }
      if (isReference(v)) {
        const r = reference(v, path, stack);
        return r.ok ? r.value : undefined;
      }
      if (isObject(v)) {
        const out: Record<string, unknown> = {};
        for (const [k, child] of Object.entries(v)) {
          const value = walk(child, [...path, k], stack, inFile);
          if (value !== undefined) out[k] = value;
        }
        return out;
      }
      return v;
    } finally {
      file = saved;
    }
  }

  const value = walk(json, [], [], file);
  return { value, errors };
}

/** Every screen resolved against the fragments. */
export function resolveScreens<T>(screens: Record<string, DeclFile<T>>, fragments: Fragments): { screens: Record<string, DeclFile<T>>; errors: DeclError[] } {
  const out: Record<string, DeclFile<T>> = {};
  const errors: DeclError[] = [];
  for (const [id, f] of Object.entries(screens)) {
    const r = resolveFragments(f.json, fragments, f.file);
    errors.push(...r.errors);
    out[id] = { file: f.file, json: r.value as T };
  }
  return { screens: out, errors };
}
