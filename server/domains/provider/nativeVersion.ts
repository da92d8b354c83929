// Spec 7.3 native version check and 2.13 version-update page: the app wrapper reports its version and
// OS after sign-in; the provider record holds the minimum (below it the update is required, no skip)
// and the latest version (below it the update is offered with Skip). Native apps exist for US only.
import type { Db } from '../../db/index';
import type { SessionInfo } from '../../auth';
import type { CustomerNativeVersionResponse } from '../../../src/engine/contract.gen';
import { KeyedError } from '../../errors';
import { compareVersions } from '../../providerRecord';
import { providerByAppName, providerOf } from './provider';

/** Without a configured store address, the store's own search for the program leads to a real page. */
function storeSearch(os: 'android' | 'ios', programName: string): string {
  const q = encodeURIComponent(programName);
  return os === 'android' ? `https://play.google.com/store/search?q=${q}&c=apps` : `https://apps.apple.com/us/search?term=${q}`;
}

/**
 * Whether the app must or may update: the session's provider, or before sign-in the one the app names
 * (400 without either).
 */
export async function nativeVersionCheck(
  db: Db,
  session: SessionInfo | null,
  appName: string | undefined,
  os: 'android' | 'ios',
  current: string,
): Promise<CustomerNativeVersionResponse> {
  if (!session && !appName) throw new KeyedError(400, 'server.errors.appNameRequired');
  const p = session ? await providerOf(db, session) : await providerByAppName(db, appName ?? '');
  const app = p.countryCode === 'US' ? p.nativeApps?.[os] : undefined;
  if (!app) return { updateRequired: false, required: false, latestVersion: current, storeUrl: '' };
  return {
    updateRequired: compareVersions(current, app.latestVersion) < 0,
    required: compareVersions(current, app.minimumVersion) < 0,
    latestVersion: app.latestVersion,
    storeUrl: app.storeUrl || storeSearch(os, p.programName),
  };
}
