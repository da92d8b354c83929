// The year-end grade roll-up of the programs list (spec 7.2 accounts/yearend-grade-rollup): during
// the provider's window, before registering, the parent confirms each child's grade for the next
// school year; the portal offers the grade after the current one. Saved once per season.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { DemographicsGradeRollupResponse, DemographicsGradeRollupSaveBody, DemographicsGradeRollupSaveResponse } from '../../../src/engine/contract.gen';
import type { SessionInfo } from '../../auth';
import { children, gradeLevels, gradeRollups } from '../../db/schema';
import { httpError } from '../../errors';
import { isoDay } from '../../clock';
import { inRollup, rollupSeason } from '../../gradeRollup';
import { providerOf } from '../provider/provider';
import { programPeriodOf } from './registration';

/** The window's season when it is open today, else null. */
async function openSeason(deps: AppDeps, s: SessionInfo): Promise<number | null> {
  const p = await providerOf(deps.db, s);
  const window = deps.gradeRollup?.(p.appName) ?? null;
  const today = isoDay(deps.today());
  return window && inRollup(window, today) ? rollupSeason(window, today) : null;
}

/** The account's children with the grade offered for next year; active while the window is open and not yet confirmed. */
export async function gradeRollupOf(deps: AppDeps, s: SessionInfo): Promise<DemographicsGradeRollupResponse> {
  const season = await openSeason(deps, s);
  const kids = await deps.db
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName, grade: children.gradeLevelCode })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
  const grades = await deps.db.select({ code: gradeLevels.gradeLevelCode }).from(gradeLevels).where(eq(gradeLevels.providerId, s.providerId)).orderBy(asc(gradeLevels.sortOrder), asc(gradeLevels.id));
  const codes = grades.map((g) => g.code);
  // the grade after the current one; the last grade stays
  const next = (code: string | null) => {
    const i = code ? codes.indexOf(code) : -1;
    return i < 0 ? (code ?? '') : codes[Math.min(i + 1, codes.length - 1)];
  };
  let done = false;
  if (season !== null) {
    const [row] = await deps.db
      .select({ id: gradeRollups.id })
      .from(gradeRollups)
      .where(and(eq(gradeRollups.providerId, s.providerId), eq(gradeRollups.accountId, s.accountId), eq(gradeRollups.season, season)));
    done = Boolean(row);
  }
  return {
    active: season !== null && !done && kids.length > 0,
    form: { children: kids.map((k) => ({ childID: k.id, childName: `${k.firstName} ${k.lastName}`, gradeLevelCode: next(k.grade) })) },
  };
}

/** Saves the confirmed grades and the season's confirmation, in one transaction, while the window is open. */
export async function saveGradeRollup(deps: AppDeps, s: SessionInfo, lang: string, body: DemographicsGradeRollupSaveBody): Promise<DemographicsGradeRollupSaveResponse> {
  const notFound = () => httpError({ deps, lang }, 404, 'server.errors.notFound');
  if (!(await programPeriodOf(deps, s.providerId, body.programPeriodID))) throw notFound();
  const ids = [...new Set(body.children.map((c) => c.childID))];
  if (ids.length !== body.children.length) throw httpError({ deps, lang }, 400, 'server.errors.validation');
  const own = await deps.db
    .select({ id: children.id })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId), inArray(children.id, ids)));
  if (own.length !== ids.length) throw notFound();
  const known = new Set((await deps.db.select({ code: gradeLevels.gradeLevelCode }).from(gradeLevels).where(eq(gradeLevels.providerId, s.providerId))).map((g) => g.code));
  if (body.children.some((c) => !known.has(c.gradeLevelCode))) {
    throw httpError({ deps, lang }, 400, 'programs.errors.gradeUnknown');
  }
  const season = await openSeason(deps, s);
  if (season === null) throw httpError({ deps, lang }, 403, 'programs.errors.rollupClosed');
  await deps.db.transaction(async (tx) => {
    for (const c of body.children) {
      await tx.update(children).set({ gradeLevelCode: c.gradeLevelCode }).where(and(eq(children.id, c.childID), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
    }
    await tx
      .insert(gradeRollups)
      .values({ providerId: s.providerId, accountId: s.accountId, season, adultId: s.adultId, programPeriodId: body.programPeriodID, confirmedAt: deps.clock() })
      .onConflictDoUpdate({ target: [gradeRollups.providerId, gradeRollups.accountId, gradeRollups.season], set: { confirmedAt: deps.clock(), adultId: s.adultId, programPeriodId: body.programPeriodID } });
  });
  return { saved: body.children.length };
}
