// Children of the account (spec 2.9, 3, 4, 7.2): the list, a child's details and save, and the
// provider's grade levels. A split child is edited only from its primary account.
import { and, asc, eq } from 'drizzle-orm';
import type {
  DemographicsChildDetailsResponse,
  DemographicsChildSaveBody,
  DemographicsChildSaveResponse,
  DemographicsChildrenResponse,
  DemographicsGradeLevelsResponse,
} from '../../../src/engine/contract.gen';
import { children, gradeLevels, sites } from '../../db/schema';
import { isoToMdy, mdyToIso } from '../../../src/engine/index';
import { inLanguage, textIn } from '../../providerTexts';
import type { Ctx, Gender } from './model';
import { childItem, childOf, notFound, photoUrl, requireRule, udfDefs, udfFromBody, udfRows, udfStore } from './shared';
import { listTexts, listsData, requireListCodes } from './masterData';

/** The short lists the child form's rules read as `data`, by the names screens/editchild.json loads them under. */
const CHILD_LISTS = { mealEligibilities: 'meal-eligibility', tshirtSizes: 'tshirt-size' };

/** The account's children with their grade, home site and shown names of their codes. */
export async function childList(ctx: Ctx): Promise<DemographicsChildrenResponse> {
  const { deps, session: s, lang } = ctx;
  const rows = await deps.db
    .select({ c: children, grade: { gradeLevel: gradeLevels.gradeLevel, translations: gradeLevels.translations }, site: { siteName: sites.siteName, translations: sites.translations } })
    .from(children)
    .leftJoin(gradeLevels, and(eq(gradeLevels.providerId, children.providerId), eq(gradeLevels.gradeLevelCode, children.gradeLevelCode)))
    .leftJoin(sites, eq(sites.id, children.homeSiteId))
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
  // meal eligibility and T-shirt size are shown by name, never by code (spec 7.2)
  const meals = await listTexts(ctx, 'meal-eligibility');
  const sizes = await listTexts(ctx, 'tshirt-size');
  return rows.map(({ c, grade, site }) => ({
    childID: c.id,
    firstName: c.firstName,
    lastName: c.lastName,
    middleInitial: c.middleInitial,
    genderCode: c.genderCode as Gender,
    dateofBirth: c.dateOfBirth,
    gradeLevelCode: c.gradeLevelCode,
    gradeLevel: grade ? textIn(grade, 'gradeLevel', lang) : '',
    school: c.school,
    homeSiteID: c.homeSiteId,
    homeSiteName: site ? textIn(site, 'siteName', lang) : '',
    mealEligibility: c.mealEligibility,
    mealEligibilityName: meals.get(c.mealEligibility) ?? '',
    tshirtSize: c.tshirtSize,
    tshirtSizeName: sizes.get(c.tshirtSize) ?? '',
    isSplit: c.splitAccountId !== null,
    // a split child is edited only by its primary account (spec 4)
    isPrimaryAccount: c.splitAccountId === null || (c.splitPercentage ?? 100) >= 50,
    hasPhoto: c.photo !== null,
    photoUrl: photoUrl(c.photo, c.genderCode === 'M' ? 'boy' : 'girl'),
    // a split child shows this account's share in the form X/(100-X) (spec 3)
    splitPercentage: c.splitAccountId === null ? null : (c.splitPercentage ?? 100),
    splitShare: c.splitAccountId === null ? '' : `${c.splitPercentage ?? 100}/${100 - (c.splitPercentage ?? 100)}`,
  }));
}

/** The provider's grade levels in order, in the request's language. */
export async function gradeLevelList(c: Ctx): Promise<DemographicsGradeLevelsResponse> {
  const rows = await c.deps.db
    .select()
    .from(gradeLevels)
    .where(eq(gradeLevels.providerId, c.session.providerId))
    .orderBy(asc(gradeLevels.sortOrder), asc(gradeLevels.gradeLevelCode));
  return inLanguage(rows, c.lang).map((r) => ({ gradeLevelCode: r.gradeLevelCode, gradeLevel: r.gradeLevel }));
}

/** A child's form, when the account may edit the child. */
export async function childDetails(c: Ctx, childID: number): Promise<DemographicsChildDetailsResponse> {
  const ch = await childOf(c, childID);
  await requireRule(c, 'account.canEditChild', childItem(ch));
  return {
    childID: ch.id,
    firstName: ch.firstName,
    middleInitial: ch.middleInitial,
    lastName: ch.lastName,
    genderCode: ch.genderCode,
    dateofBirth: isoToMdy(ch.dateOfBirth),
    gradeLevelCode: ch.gradeLevelCode,
    school: ch.school,
    homeSiteID: ch.homeSiteId,
    mealEligibility: ch.mealEligibility,
    tshirtSize: ch.tshirtSize,
    userDefinedFields: udfRows(await udfDefs(c, 'C'), ch.userDefinedFields),
  };
}

/** The child form's facts: the user-defined fields are the provider's definitions; only their values come from the request. */
export async function childSaveFacts(c: Ctx, childID: number, body: DemographicsChildSaveBody): Promise<Record<string, unknown>> {
  const ch = await childOf(c, childID);
  await requireRule(c, 'account.canEditChild', childItem(ch));
  return { childID: ch.id, userDefinedFields: udfFromBody(await udfDefs(c, 'C'), body.userDefinedFields) };
}

/** What the child form's rules read as `data`: meal eligibility and T-shirt size show (and are saved) only while the provider offers choices. */
export function childListsData(c: Ctx): Promise<Record<string, { code: string; text: string }[]>> {
  return listsData(c, CHILD_LISTS);
}

/** Saves a child's details: the grade, home site and list codes must be the provider's (404 otherwise). */
export async function saveChild(c: Ctx, childID: number, v: DemographicsChildSaveBody): Promise<DemographicsChildSaveResponse> {
  const s = c.session;
  const ch = await childOf(c, childID);
  const grade = String(v.gradeLevelCode ?? '');
  if (grade) {
    const [g] = await c.deps.db.select().from(gradeLevels).where(and(eq(gradeLevels.providerId, s.providerId), eq(gradeLevels.gradeLevelCode, grade)));
    if (!g) throw notFound(c);
  }
  const siteId = typeof v.homeSiteID === 'number' && v.homeSiteID > 0 ? v.homeSiteID : null;
  if (siteId !== null) {
    const [site] = await c.deps.db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, siteId), eq(sites.providerId, s.providerId)));
    if (!site) throw notFound(c);
  }
  const mealEligibility = String(v.mealEligibility ?? '').trim();
  const tshirtSize = String(v.tshirtSize ?? '').trim();
  await requireListCodes(c, [
    ['meal-eligibility', mealEligibility],
    ['tshirt-size', tshirtSize],
  ]);
  await c.deps.db
    .update(children)
    .set({
      homeSiteId: siteId,
      firstName: String(v.firstName).trim(),
      middleInitial: String(v.middleInitial ?? '').trim(),
      lastName: String(v.lastName).trim(),
      genderCode: String(v.genderCode),
      dateOfBirth: mdyToIso(String(v.dateofBirth)),
      gradeLevelCode: grade,
      school: String(v.school ?? '').trim(),
      mealEligibility,
      tshirtSize,
      userDefinedFields: udfStore(v.userDefinedFields),
    })
    .where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  return { childID: ch.id };
}
