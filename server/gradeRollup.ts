// The year-end grade roll-up (programs list): during the provider's window, before registering, the
// parent confirms each child's grade for the next school year. provider.json `yearEndGradeRollup`
// is { "from": "MM-DD", "to": "MM-DD" } (checked on start against schemas/meta/provider.schema.json),
// a window that comes back every year (it may span new year).
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { providerRecordOf, type ProviderRecord } from './providerRecord';

export interface RollupWindow {
  from: string;
  to: string;
}

/** The window of a checked provider record's `yearEndGradeRollup` (MM-DD days), or null: none. */
export function rollupOf(given: ProviderRecord['yearEndGradeRollup']): RollupWindow | null {
  return given ? { from: given.from, to: given.to } : null;
}

const cache = new Map<string, RollupWindow | null>();

export function providerRollup(root: string, appName: string): RollupWindow | null {
  const k = `${root}\u0000${appName}`;
  if (!cache.has(k)) {
    const file = join(root, 'providers', appName, 'provider.json');
    const rec = existsSync(file) ? providerRecordOf(appName, JSON.parse(readFileSync(file, 'utf8'))) : null;
    cache.set(k, rollupOf(rec?.yearEndGradeRollup));
  }
  return cache.get(k) ?? null;
}

/** Whether the business day (yyyy-mm-dd) is inside the window. */
export function inRollup(window: RollupWindow | null, isoDay: string): boolean {
  if (!window) return false;
  const md = isoDay.slice(5, 10);
  return window.from <= window.to ? md >= window.from && md <= window.to : md >= window.from || md <= window.to;
}

/** The season of a day inside the window: the year the window opened. */
export function rollupSeason(window: RollupWindow, isoDay: string): number {
  const year = Number(isoDay.slice(0, 4));
  const md = isoDay.slice(5, 10);
  return window.from <= window.to || md >= window.from ? year : year - 1;
}
