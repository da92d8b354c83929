// Who a program is for (program_periods.eligibility: ages on a day, or a range of grades) and whether
// a child of the account may register for it. The decision is the declared rule
// `eligibility.reason` (rules/eligibility.rules.json, overlayable per provider), evaluated with the
// provider's effective rules; this file only gathers the facts it reads: the child's birth date and
// the place of her grade in the provider's grade list, the program's range and start date.
import { asc, eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import { gradeLevels, providers, type ProgramEligibility } from '../../db/schema';
import { httpError } from '../../errors';
import { evaluateRule } from '../../../src/engine/index';
import { textIn } from '../../providerTexts';
import type { ParentApplicationChildrenResponse } from '../../../src/engine/contract.gen';

export type IneligibleReason = 'age' | 'grade';

/** What the programs list and the children step say of a program's eligibility: the contract's shape. */
export type EligibilityView = NonNullable<ParentApplicationChildrenResponse[number]['eligibility']>;

interface ProgramFacts {
  startDate: string;
  eligibility: ProgramEligibility | null;
}

interface GradeList {
  order: Map<string, number>;
  rows: (typeof gradeLevels.$inferSelect)[];
}

/** The provider's grade list: each code's place (sort order) and its rows for names. */
export async function gradeListOf(deps: Pick<AppDeps, 'db'>, providerId: number): Promise<GradeList> {
  const rows = await deps.db.select().from(gradeLevels).where(eq(gradeLevels.providerId, providerId)).orderBy(asc(gradeLevels.sortOrder), asc(gradeLevels.id));
  return { order: new Map(rows.map((r, i) => [r.gradeLevelCode, i])), rows };
}

/** The program's eligibility in the API's answer; null for a program that takes every child. */
export function eligibilityView(pp: ProgramFacts, grades: GradeList, lang: string): EligibilityView | null {
  const e = pp.eligibility;
  if (!e) return null;
  if (e.by === 'age') return { by: 'age', minAge: e.minAge ?? null, maxAge: e.maxAge ?? null, ageOn: e.ageOn ?? pp.startDate, minGrade: null, maxGrade: null };
  const name = (code: string) => {
    const row = grades.rows.find((g) => g.gradeLevelCode === code);
    return row ? textIn(row, 'gradeLevel', lang) : code;
  };
  return { by: 'grade', minAge: null, maxAge: null, ageOn: null, minGrade: name(e.minGrade), maxGrade: name(e.maxGrade) };
}

/** The provider's effective rules (base and overlays); 503 while its declarations cannot be loaded. */
export async function eligibilityRules(deps: AppDeps, providerId: number, lang: string) {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!decl) throw httpError({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  return decl.set.rules;
}

/** Why the child may not register for the program (the rule eligibility.reason), or null when she may. */
export function ineligibility(
  rules: Parameters<typeof evaluateRule>[0],
  pp: ProgramFacts,
  child: { dateOfBirth: string | null; gradeLevelCode: string | null },
  grades: GradeList,
): IneligibleReason | null {
  const e = pp.eligibility;
  if (!e) return null;
  const data = {
    program: {
      startDate: pp.startDate,
      eligibility: e.by === 'grade' ? { by: 'grade', minGradeOrder: grades.order.get(e.minGrade) ?? null, maxGradeOrder: grades.order.get(e.maxGrade) ?? null } : { ...e },
    },
    child: { dateOfBirth: child.dateOfBirth, gradeOrder: child.gradeLevelCode ? (grades.order.get(child.gradeLevelCode) ?? null) : null },
  };
  const reason = evaluateRule(rules, 'eligibility.reason', data);
  return reason === 'age' || reason === 'grade' ? reason : null;
}

/** The refusal's text parameters: the program's ages or grades. */
export function reasonParams(view: EligibilityView | null): Record<string, unknown> {
  return view?.by === 'age' ? { min: view.minAge, max: view.maxAge } : { min: view?.minGrade ?? '', max: view?.maxGrade ?? '' };
}
