// What the server put into a provider's page (server/boot.ts): the provider's record in the page's
// language, its declaration set and, on the entry, the sign-in screen's public data loads, so the
// first screen does not wait for them one round trip after another once the scripts ran. The entry
// page takes it once (takeBootProvider); any other page of the provider seeds the query cache with it
// as the portal starts (seedBootData).
import type { QueryClient } from '@tanstack/query-core';
import { dataLoadQueryKey, programQueryKey, type ProviderRecord } from '../../state';
import { keepFresh } from '../../runtime/dataLoads';

interface BootData {
  appName: string;
  lang: string;
  program: ProviderRecord;
  declarations: unknown;
  loads?: Array<{ op: string; params: Record<string, unknown>; answer: unknown }>;
  releaseVersion?: string;
}

let boot: BootData | null | undefined;

function read(): BootData | null {
  if (boot !== undefined) return boot;
  const el = typeof document === 'undefined' ? null : document.getElementById('pp-boot');
  try {
    const data = el?.textContent ? (JSON.parse(el.textContent) as BootData) : null;
    boot = data && typeof data.appName === 'string' && data.program && data.declarations ? data : null;
  } catch {
    boot = null;
  }
  el?.remove();
  return boot;
}

/**
 * Puts the boot's declaration set and provider record into the query cache when they are the
 * session's provider's (a signed-in page opened cold: Home's screen then needs no round trip for
 * them). The entry page's own use (takeBootProvider) still finds them. True when seeded.
 */
export function seedBootData(queryClient: QueryClient, session: { appName?: string | null; locale: string; releaseVersion: string }): boolean {
  const data = read();
  // a session of an older release: its declarations request is refused as before (the release notice)
  if (!data || !session.appName || data.appName !== session.appName || (session.releaseVersion && data.releaseVersion && session.releaseVersion !== data.releaseVersion)) return false;
  queryClient.setQueryData(['Customer.declarations', { appName: data.appName }, session.releaseVersion], data.declarations);
  if (data.lang === session.locale) queryClient.setQueryData(programQueryKey(data.appName, session.locale), data.program);
  return true;
}

/**
 * The boot's provider record when it is the provider asked for, in the language asked for (else
 * null: the caller asks the server). The provider's declaration set goes into the query cache, as its
 * answer would have, and so does the record.
 */
export function takeBootProvider(queryClient: QueryClient, appName: string, locale: string, releaseVersion: string): ProviderRecord | null {
  const data = read();
  if (!data || data.appName !== appName) return null;
  boot = null;
  queryClient.setQueryData(['Customer.declarations', { appName }, releaseVersion], data.declarations);
  if (data.lang !== locale) return null;
  queryClient.setQueryData(programQueryKey(appName, locale), data.program);
  // keyed as the screen's data loads are, with no account yet; fresh for a minute, so the sign-in
  // screen does not ask again as it opens
  for (const l of data.loads ?? []) {
    const queryKey = dataLoadQueryKey(l.op, l.params, null, locale, releaseVersion);
    keepFresh(queryKey, 60_000);
    queryClient.setQueryData(queryKey, l.answer);
  }
  return data.program;
}
