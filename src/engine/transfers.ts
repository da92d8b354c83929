// What leaves the page or comes into it from outside: the target of a redirect to an external
// application and the check of a chosen upload. Kept apart from screen.ts so the portal's first load
// does not carry them (the effects import them when such an effect runs).
import type { RuleContext } from './form';
import type { DeclarationSet, Effect } from './types';
import { BASE_PATH, matchRoute, resolveBinding } from './screen';

/**
 * Where a redirectOut effect sends the browser and where the external application returns to. The
 * return route must be a screen of the set; the external URL gets it as `returnUrl`.
 */
export function redirectTarget(
  set: Pick<DeclarationSet, 'screens'>,
  effect: Extract<Effect, { type: 'redirectOut' }>,
  ctx: RuleContext,
  origin: string,
): { url: string; returnUrl: string } {
  const route = matchRoute(set, effect.returnTo.split('?')[0]);
  if (!route) throw new Error(`redirect return route ${effect.returnTo} is not a screen`);
  const returnUrl = `${origin}${BASE_PATH}${effect.returnTo}`;
  const target = resolveBinding(effect.url, ctx);
  if (typeof target !== 'string' || !/^https?:\/\//.test(target)) throw new Error('redirect URL is missing or not absolute');
  const url = new URL(target);
  url.searchParams.set('returnUrl', returnUrl);
  return { url: url.toString(), returnUrl };
}

export interface UploadMeta {
  name: string;
  /** bytes */
  size: number;
}

/** Check a chosen file against an upload effect's accept list (case-insensitive) and size limit. */
export function validateUpload(
  file: UploadMeta,
  limits: { accept?: string[]; maxMB?: number },
): { ok: true } | { ok: false; key: string; params: Record<string, unknown> } {
  const ext = file.name.includes('.') ? file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase() : '';
  const accept = (limits.accept ?? []).map((a) => a.replace(/^\./, '').toLowerCase());
  if (accept.length && !accept.includes(ext)) return { ok: false, key: 'errors.upload.type', params: { accept: accept.join(', ') } };
  if (limits.maxMB !== undefined && file.size > limits.maxMB * 1024 * 1024) return { ok: false, key: 'errors.upload.size', params: { maxMB: limits.maxMB } };
  if (file.size <= 0) return { ok: false, key: 'errors.upload.empty', params: {} };
  return { ok: true };
}

