// The provider's master data of spec 7.2 beyond relationships and grade levels: medical standard
// values by field (1 allergies to 5 medication), user-defined fields, the adult and child field
// configurations, states and the driver licence's state list, and the short lists (gender, marital
// status, primary language, meal eligibility, T-shirt size, transportation mode). Texts come in the
// request's language through the provider texts (server/providerTexts.ts).
import { and, asc, eq } from 'drizzle-orm';
import type { DemographicsAdultFieldsResponse, DemographicsChildFieldsResponse } from '../../../src/engine/contract.gen';
import { masterItems, medicalFieldDefs, providers, userDefinedFieldDefs } from '../../db/schema';
import { inLanguage } from '../../providerTexts';
import { regionsOf } from '../../../src/engine/regions';
import { LICENCE_STATE_NOT_LISTED, type Ctx } from './model';
import { notFound } from './shared';

/** Spec 3: the kind of a user-defined field is its name's prefix. */
const UDF_TYPES: Record<string, 'date' | 'checkbox' | 'text' | 'multiline' | 'dropdown' | 'radio' | undefined> = { UDDat: 'date', UDBit: 'checkbox', UDTex: 'text', UDMul: 'multiline', UDDro: 'dropdown', UDRad: 'radio' };
/** The standard adult fields a provider sets a field option for, and the option when it sets none (rules/contact.rules.json). */
const ADULT_FIELD_OPTIONS: { fieldName: string; titleKey: string; fallback: 'M' | 'R' | 'O' | 'H' }[] = [
  { fieldName: 'driverLicense', titleKey: 'fields.contact.driverLicenseNumber', fallback: 'H' },
  { fieldName: 'employer', titleKey: 'fields.contact.employer', fallback: 'O' },
];

/** A short list of the provider (gender, marital status, ...) in the request's language. */
export async function shortList(c: Ctx, list: string) {
  const rows = await c.deps.db
    .select()
    .from(masterItems)
    .where(and(eq(masterItems.providerId, c.session.providerId), eq(masterItems.list, list)))
    .orderBy(asc(masterItems.sortOrder), asc(masterItems.code));
  return inLanguage(rows, c.lang).map((r) => ({ code: r.code, text: r.text }));
}

/** Whether a code is one of the provider's choices of a short list (a saved value must be). */
async function isListCode(c: Ctx, list: string, code: string): Promise<boolean> {
  const [row] = await c.deps.db
    .select({ id: masterItems.id })
    .from(masterItems)
    .where(and(eq(masterItems.providerId, c.session.providerId), eq(masterItems.list, list), eq(masterItems.code, code)));
  return row !== undefined;
}

/**
 * A saved value of a short list is a choice of the provider's list, never a free text or another
 * provider's code: the first [list, code] that is not one is refused like an id outside the provider
 * (404). An empty code is no choice and passes.
 */
export async function requireListCodes(c: Ctx, choices: readonly (readonly [list: string, code: string])[]): Promise<void> {
  for (const [list, code] of choices) {
    if (code && !(await isListCode(c, list, code))) throw notFound(c);
  }
}

/** A short list's texts in the request's language by code (a stored code shown by its name). */
export async function listTexts(c: Ctx, list: string): Promise<Map<string, string>> {
  return new Map((await shortList(c, list)).map((r) => [r.code, r.text]));
}

/**
 * The short lists a form's rules read as `data` on the server, by the names the screen's loads give
 * them in the browser ({ maritalStatuses: 'marital-status' }): a list the provider leaves empty hides
 * its field, and a hidden field's value is not saved.
 */
export async function listsData(c: Ctx, lists: Record<string, string>): Promise<Record<string, { code: string; text: string }[]>> {
  const out: Record<string, { code: string; text: string }[]> = {};
  for (const [name, list] of Object.entries(lists)) out[name] = await shortList(c, list);
  return out;
}

/** The standard values of a medical field (1 allergies to 5 medication). */
export async function medicalValues(c: Ctx, fieldNo: number) {
  const [def] = await c.deps.db
    .select()
    .from(medicalFieldDefs)
    .where(and(eq(medicalFieldDefs.providerId, c.session.providerId), eq(medicalFieldDefs.fieldNo, fieldNo)));
  if (!def) return [];
  return inLanguage([def], c.lang)[0].values.map((v) => ({ id: v.id, value: v.value }));
}

/** The provider's user-defined fields, of one entity or both. */
export async function udfList(c: Ctx, entity?: 'A' | 'C') {
  const where = [eq(userDefinedFieldDefs.providerId, c.session.providerId)];
  if (entity) where.push(eq(userDefinedFieldDefs.entity, entity));
  const rows = await c.deps.db
    .select()
    .from(userDefinedFieldDefs)
    .where(and(...where))
    .orderBy(asc(userDefinedFieldDefs.entity), asc(userDefinedFieldDefs.displayOrder), asc(userDefinedFieldDefs.id));
  return inLanguage(rows, c.lang).map((d) => ({
    entity: d.entity as 'A' | 'C',
    fieldName: d.fieldName,
    fieldType: UDF_TYPES[d.fieldName.slice(0, 5)] ?? 'text',
    caption: d.caption,
    isMandatory: d.isMandatory,
    values: [...d.values].sort((a, b) => a.displayOrder - b.displayOrder).map((v) => ({ idValue: v.idValue, itemValue: v.itemValue, displayOrder: v.displayOrder })),
  }));
}

async function countryOf(c: Ctx): Promise<'US' | 'CA'> {
  const [p] = await c.deps.db.select({ countryCode: providers.countryCode }).from(providers).where(eq(providers.id, c.session.providerId));
  return p.countryCode === 'CA' ? 'CA' : 'US';
}

/** The states (provinces in Canada) of the provider's country. */
export async function stateList(c: Ctx) {
  return regionsOf(await countryOf(c)).map(([stateCode, state]) => ({ stateCode, state }));
}

/** The states with the not-listed choice (spec 3: with it only the number is stored). */
export async function driverLicenseStates(c: Ctx) {
  return [...(await stateList(c)), { stateCode: LICENCE_STATE_NOT_LISTED, state: c.deps.t(c.lang, 'masterData.notListed') }];
}

/** The adult form's field options: the standard fields the provider configures, then its user-defined fields. */
export async function adultFieldList(c: Ctx): Promise<DemographicsAdultFieldsResponse> {
  const [p] = await c.deps.db.select({ fieldOptions: providers.fieldOptions }).from(providers).where(eq(providers.id, c.session.providerId));
  const standard = ADULT_FIELD_OPTIONS.map((f) => ({ fieldName: f.fieldName, source: 'standard' as const, titleKey: f.titleKey, mode: p.fieldOptions[f.fieldName] ?? f.fallback }));
  const udfs = (await udfList(c, 'A')).map((u) => ({ fieldName: u.fieldName, source: 'userDefined' as const, caption: u.caption, mode: u.isMandatory ? ('M' as const) : ('O' as const) }));
  return [...standard, ...udfs];
}

/** The child form's field options: the provider's user-defined fields and medical questions. */
export async function childFieldList(c: Ctx): Promise<DemographicsChildFieldsResponse> {
  const udfs = (await udfList(c, 'C')).map((u) => ({ fieldName: u.fieldName, source: 'userDefined' as const, caption: u.caption, mode: u.isMandatory ? ('M' as const) : ('O' as const) }));
  const medical = inLanguage(
    await c.deps.db.select().from(medicalFieldDefs).where(eq(medicalFieldDefs.providerId, c.session.providerId)).orderBy(asc(medicalFieldDefs.fieldNo)),
    c.lang,
  ).map((m) => ({ fieldName: `medical${m.fieldNo}`, source: 'medical' as const, caption: m.fieldCaption, mode: m.isMandatory ? ('M' as const) : ('O' as const) }));
  return [...udfs, ...medical];
}
