// Spec 7.3 native version check and 2.13 version-update page: the app wrapper reports its version and
// OS after sign-in; the provider record holds the minimum (below it the update is required, no skip)
// and the latest version (below it the update is offered with Skip). Native apps exist for US only.
import type { Handlers } from '../../context';
import { HttpError } from '../../errors';
import { compareVersions } from '../../providerRecord';
import { providerByAppName, providerOf } from './provider';

/** Without a configured store address, the store's own search for the program leads to a real page. */
function storeSearch(os: 'android' | 'ios', programName: string): string {
  const q = encodeURIComponent(programName);
  return os === 'android' ? `https://play.google.com/store/search?q=${q}&c=apps` : `https://apps.apple.com/us/search?term=${q}`;
}

export const nativeVersion = {
  'Customer.nativeVersion': {
    handler: async ({ deps, query, session }) => {
      // signed in: the session's provider; before sign-in the app names its provider
      if (!session && !query.appName) throw new HttpError(400, 'appName is required without a session');
      const p = session ? await providerOf(deps.db, session) : await providerByAppName(deps.db, query.appName ?? '');
      const os = query.OS as 'android' | 'ios';
      const current = String(query.CurrentVersion);
      const app = p.countryCode === 'US' ? p.nativeApps?.[os] : undefined;
      if (!app) return { updateRequired: false, required: false, latestVersion: current, storeUrl: '' };
      return {
        updateRequired: compareVersions(current, app.latestVersion) < 0,
        required: compareVersions(current, app.minimumVersion) < 0,
        latestVersion: app.latestVersion,
        storeUrl: app.storeUrl || storeSearch(os, p.programName),
      };
    },
  },
} satisfies Partial<Handlers>;
