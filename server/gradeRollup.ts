// The year-end grade roll-up (programs list): during the provider's window, before registering, the
// parent confirms each child's grade for the next school year. provider.json `yearEndGradeRollup`
// is { "from": "MM-DD", "to": "MM-DD" }, a window that comes back every year (it may span new year).
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export interface RollupWindow {
  from: string;
  to: string;
}

const MMDD = /^(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$/;

/** Reads and checks provider.json `yearEndGradeRollup`; a mistyped window stops the start. */
export function rollupOf(name: string, given: unknown): RollupWindow | null {
  if (given === undefined || given === null) return null;
  const where = `providers/${name}/provider.json: yearEndGradeRollup`;
  const g = given as { from?: unknown; to?: unknown };
  if (typeof g !== 'object' || typeof g.from !== 'string' || typeof g.to !== 'string' || !MMDD.test(g.from) || !MMDD.test(g.to)) {
    throw new Error(`${where} must be { "from": "MM-DD", "to": "MM-DD" }`);
  }
  return { from: g.from, to: g.to };
}

const cache = new Map<string, RollupWindow | null>();

export function providerRollup(root: string, appName: string): RollupWindow | null {
  const k = `${root}\u0000${appName}`;
  if (!cache.has(k)) {
    const file = join(root, 'providers', appName, 'provider.json');
    const rec = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { yearEndGradeRollup?: unknown }) : {};
    cache.set(k, rollupOf(appName, rec.yearEndGradeRollup));
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
