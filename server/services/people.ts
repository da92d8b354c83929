// Account and people (spec 2.9, 2.10, 3, 4, 5.1, 5.3, 5.4, 5.7, 6, 7.2): contact and child details,
// medical information, photos, check-in PINs and dropping an adult. Every id in a request is looked
// up within the signed-in provider and account (404 otherwise); every blocked action is refused with
// 403 by the same declared rules the screens use (rules/account.rules.json), so nothing changes.
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { HandlerContext, ServiceHandlers } from '../context';
import {
  accounts,
  adults,
  autopayRegistrations,
  childAdults,
  children,
  gradeLevels,
  medicalFieldDefs,
  paymentMethods,
  relationships,
  sites,
  userDefinedFieldDefs,
} from '../db/schema';
import { HttpError } from '../errors';
import { isTrue, isoToMdy, mdyToIso } from '../../src/engine/index';
import { ruleContextOf } from './common';
import { readUploadedImage, storePhoto } from '../photos';

type Ctx = HandlerContext;
type Gender = 'M' | 'F' | 'U';
type UdfValue = string | boolean;

/** The relationship id of 'Other' (spec 3): its text is typed by the parent. */
const OTHER_RELATIONSHIP = 99;
/** The driver licence value keeps the state and number apart with this separator (spec 3). */
const LICENCE_SEPARATOR = '$$';
/** The driver licence state list's 'not listed' choice (schemas/contact.json x-extraOptions). */
const LICENCE_STATE_NOT_LISTED = 'notListed';

function notFound(c: Ctx): HttpError {
  return new HttpError(404, c.deps.t(c.lang, 'errors.notFound'), { key: 'server.errors.notFound' });
}
function forbidden(c: Ctx): HttpError {
  return new HttpError(403, c.deps.t(c.lang, 'errors.forbidden'), { key: 'server.errors.forbidden' });
}

/** The context the screens' rules see: provider, session and the account summary flags. */
async function rulesOf(c: Ctx) {
  const s = c.session!;
  const rc = await ruleContextOf(c.deps.db, s, c.deps.releaseVersion);
  const decl = c.deps.declarations.get(rc.appName);
  if (!decl) throw new HttpError(503, c.deps.t(c.lang, 'errors.declarationsUnavailable'), { key: 'server.errors.declarationsUnavailable' });
  const [acc] = await c.deps.db.select().from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  const accountSummary = { suspended: acc.suspended, isCollection: acc.collection, isLocked: acc.locked };
  const base = { session: rc.session, provider: rc.provider, query: {}, form: {}, flow: {}, data: { accountSummary } };
  return {
    decl,
    appName: rc.appName,
    /** refuses with 403 unless the declared rule allows the action for this item */
    require(rule: string, item: Record<string, unknown> = {}) {
      if (!isTrue(decl.set.rules, rule, { ...base, item })) throw forbidden(c);
    },
    validate(schemaId: string, values: unknown) {
      const result = decl.engine.validate(schemaId, values, { session: rc.session, provider: rc.provider, today: todayMdy(c) });
      if (!result.valid) {
        throw new HttpError(400, c.deps.t(c.lang, 'errors.validation'), {
          key: 'server.errors.validation',
          errors: result.errors.map((e) => ({ path: e.path, key: e.key, params: e.params })),
        });
      }
      return result.data as Record<string, unknown>;
    },
  };
}

function todayMdy(c: Ctx): string {
  const d = c.deps.clock();
  return `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
}

async function adultOf(c: Ctx, adultID: number) {
  const s = c.session!;
  const [a] = await c.deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.id, adultID), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)));
  if (!a) throw notFound(c);
  return a;
}

async function childOf(c: Ctx, childID: number) {
  const s = c.session!;
  const [ch] = await c.deps.db
    .select()
    .from(children)
    .where(and(eq(children.id, childID), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  if (!ch) throw notFound(c);
  return ch;
}

/** A split child is edited only from its primary account (spec 4). */
function childItem(ch: typeof children.$inferSelect) {
  return { isSplit: ch.splitAccountId !== null, isPrimaryAccount: ch.splitAccountId === null || (ch.splitPercentage ?? 100) >= 50 };
}

async function doNotReleaseOf(c: Ctx, adultID: number): Promise<0 | 1> {
  const rows = await c.deps.db
    .select({ d: childAdults.doNotRelease })
    .from(childAdults)
    .where(and(eq(childAdults.providerId, c.session!.providerId), eq(childAdults.adultId, adultID), eq(childAdults.doNotRelease, true)));
  return rows.length ? 1 : 0;
}

async function udfDefs(c: Ctx, entity: 'A' | 'C') {
  return c.deps.db
    .select()
    .from(userDefinedFieldDefs)
    .where(and(eq(userDefinedFieldDefs.providerId, c.session!.providerId), eq(userDefinedFieldDefs.entity, entity)))
    .orderBy(asc(userDefinedFieldDefs.displayOrder), asc(userDefinedFieldDefs.id));
}

/** The form's user-defined rows: the provider's definitions with the stored values. */
function udfRows(defs: Awaited<ReturnType<typeof udfDefs>>, stored: Record<string, UdfValue>) {
  return defs.map((d) => ({
    fieldName: d.fieldName,
    caption: d.caption,
    isMandatory: d.isMandatory,
    values: d.values,
    ...(stored[d.fieldName] !== undefined && stored[d.fieldName] !== '' ? { value: stored[d.fieldName] } : {}),
  }));
}

/**
 * The submitted user-defined values placed on the provider's own definitions: a client cannot
 * change which fields exist, their captions, values or mandatory flags.
 */
function udfFromBody(defs: Awaited<ReturnType<typeof udfDefs>>, body: unknown) {
  const sent = new Map<string, unknown>();
  for (const r of (Array.isArray(body) ? body : []) as { fieldName?: unknown; value?: unknown }[]) sent.set(String(r?.fieldName), r?.value);
  return udfRows(defs, {}).map((r) => {
    const v = sent.get(r.fieldName);
    return v === undefined || v === null ? r : { ...r, value: v as UdfValue };
  });
}

function udfStore(rows: unknown): Record<string, UdfValue> {
  const out: Record<string, UdfValue> = {};
  for (const r of (Array.isArray(rows) ? rows : []) as { fieldName: string; value?: UdfValue }[]) {
    if (r.value !== undefined && r.value !== null && r.value !== '') out[r.fieldName] = r.value;
  }
  return out;
}

/** Spec 3: read back STATE$$NUMBER; a number stored alone had no state of the list: the not-listed choice. */
export function splitLicence(value: string): { driverLicenseState: string; driverLicenseNumber: string } {
  if (!value) return { driverLicenseState: '', driverLicenseNumber: '' };
  const i = value.indexOf(LICENCE_SEPARATOR);
  return i < 0 ? { driverLicenseState: LICENCE_STATE_NOT_LISTED, driverLicenseNumber: value } : { driverLicenseState: value.slice(0, i), driverLicenseNumber: value.slice(i + LICENCE_SEPARATOR.length) };
}

/** Spec 3: STATE$$NUMBER, or the number alone when no state (or the not-listed choice) is given. */
export function joinLicence(state: string | undefined, number: string | undefined): string {
  const n = (number ?? '').trim();
  if (!n) return '';
  const st = (state ?? '').trim();
  return st && st !== LICENCE_STATE_NOT_LISTED ? `${st}${LICENCE_SEPARATOR}${n}` : n;
}

/** Spec 5.1: 0000000000 counts as an empty phone; stored without mask characters. */
function phone(v: unknown): string {
  const d = String(v ?? '').replace(/\D/g, '');
  return /^0*$/.test(d) ? '' : d;
}

async function accountChildren(c: Ctx) {
  const s = c.session!;
  return c.deps.db
    .select()
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
}

async function medicalDefs(c: Ctx) {
  return c.deps.db.select().from(medicalFieldDefs).where(eq(medicalFieldDefs.providerId, c.session!.providerId)).orderBy(asc(medicalFieldDefs.fieldNo));
}

interface StoredMedical {
  doctorName?: string;
  doctorPhone?: string;
  doctorAddress?: string;
  suite?: string;
  city?: string;
  stateCode?: string;
  zip?: string;
  preferredHospital?: string;
  primaryInsurance?: Record<string, string>;
  secondaryInsurance?: Record<string, string>;
  answers?: Record<string, { answer?: boolean; standardValues?: number[]; otherStandardValue?: string; explanation?: string }>;
}

function medicalQuestions(defs: Awaited<ReturnType<typeof medicalDefs>>, answers: StoredMedical['answers'] = {}, sent?: Map<number, Record<string, unknown>>) {
  return defs.map((d) => {
    const a = sent ? (sent.get(d.fieldNo) ?? {}) : (answers[String(d.fieldNo)] ?? {});
    const row: Record<string, unknown> = {
      fieldID: d.fieldNo,
      fieldCaption: d.fieldCaption,
      displayMessage: d.displayMessage,
      isMandatory: d.isMandatory,
      hasStandardValues: d.hasStandardValues,
      isOtherStandardEnabled: d.isOtherStandardEnabled,
      explanationType: d.explanationType,
      values: d.values,
    };
    if (typeof a.answer === 'boolean') row.answer = a.answer;
    if (Array.isArray(a.standardValues)) row.standardValues = a.standardValues;
    if (typeof a.otherStandardValue === 'string' && a.otherStandardValue !== '') row.otherStandardValue = a.otherStandardValue;
    if (typeof a.explanation === 'string' && a.explanation !== '') row.explanation = a.explanation;
    return row;
  });
}

/** A PIN no other adult of the provider holds (spec 5.3). */
async function pinTaken(c: Ctx, pin: string, exceptAdult: number): Promise<boolean> {
  const rows = await c.deps.db
    .select({ id: adults.id })
    .from(adults)
    .where(and(eq(adults.providerId, c.session!.providerId), eq(adults.pin, pin), ne(adults.id, exceptAdult), eq(adults.deleted, false)));
  return rows.length > 0;
}

export const people: ServiceHandlers = {
  'Demographics.relationships': {
    handler: async (c) => {
      const rows = await c.deps.db
        .select()
        .from(relationships)
        .where(eq(relationships.providerId, c.session!.providerId))
        .orderBy(asc(relationships.sortOrder), asc(relationships.relationshipId));
      return rows.map((r) => ({ relationshipId: r.relationshipId, relationship: r.relationship }));
    },
  },

  'Demographics.gradeLevels': {
    handler: async (c) => {
      const rows = await c.deps.db
        .select()
        .from(gradeLevels)
        .where(eq(gradeLevels.providerId, c.session!.providerId))
        .orderBy(asc(gradeLevels.sortOrder), asc(gradeLevels.gradeLevelCode));
      return rows.map((r) => ({ gradeLevelCode: r.gradeLevelCode, gradeLevel: r.gradeLevel }));
    },
  },

  'Demographics.adultDetails': {
    handler: async (c) => {
      const id = Number(c.params.adultID);
      const r = await rulesOf(c);
      const kids = await accountChildren(c);
      const defs = await udfDefs(c, 'A');
      if (id === 0) {
        r.require('account.canAddContact');
        return {
          adultID: 0,
          accountHolder: 4 as const,
          firstName: '',
          lastName: '',
          doNotRelease: 0 as const,
          relationships: kids.map((k) => ({
            childID: k.id,
            childName: `${k.firstName} ${k.lastName}`,
            relationshipId: 0,
            isAuthorizedToPickUp: false,
            isEmergencyContact: false,
            isLivesWith: false,
          })),
          userDefinedFields: udfRows(defs, {}),
        };
      }
      const a = await adultOf(c, id);
      const links = await c.deps.db
        .select()
        .from(childAdults)
        .where(and(eq(childAdults.providerId, c.session!.providerId), eq(childAdults.adultId, a.id)));
      const dnr = links.some((l) => l.doNotRelease) ? 1 : 0;
      return {
        adultID: a.id,
        accountHolder: a.accountHolder as 1 | 2 | 4 | 5,
        firstName: a.firstName,
        middleInitial: a.middleInitial,
        lastName: a.lastName,
        genderCode: a.genderCode as Gender,
        streetAddress: a.streetAddress,
        apartmentNo: a.apartmentNo,
        city: a.city,
        stateCode: a.stateCode,
        zip: a.zip,
        workPhone: a.workPhone,
        workPhoneExt: a.workPhoneExt,
        noWorkPhone: a.workPhoneNone,
        homePhone: a.homePhone,
        homePhoneExt: a.homePhoneExt,
        noHomePhone: a.homePhoneNone,
        cellPhone: a.cellPhone,
        cellPhoneExt: a.cellPhoneExt,
        noCellPhone: a.cellPhoneNone,
        smsConsent: a.textMessageConsent,
        email: a.email,
        emailOptedOut: a.emailOptedOut,
        ...splitLicence(a.driverLicense),
        employmentStatus: a.employmentStatus,
        employer: a.employer,
        primaryLanguage: a.primaryLanguage,
        annualIncome: a.annualIncome,
        transportation: a.transportation,
        ...(a.householdSize !== null ? { householdSize: a.householdSize } : {}),
        districtEmployee: a.isDistrictEmployee,
        doNotRelease: dnr as 0 | 1,
        relationships: kids.map((k) => {
          const l = links.find((x) => x.childId === k.id);
          return {
            childID: k.id,
            childName: `${k.firstName} ${k.lastName}`,
            relationshipId: l?.relationshipId ?? 0,
            ...(l?.relationshipId === OTHER_RELATIONSHIP ? { otherRelationship: l.relationship } : {}),
            isAuthorizedToPickUp: l?.isAuthorizedToPickUp ?? false,
            isEmergencyContact: l?.isEmergencyContact ?? false,
            isLivesWith: l?.isLivesWith ?? false,
          };
        }),
        userDefinedFields: udfRows(defs, a.userDefinedFields),
      };
    },
  },

  'Demographics.adultSave': {
    handler: async (c) => {
      const s = c.session!;
      const id = Number(c.params.adultID);
      const r = await rulesOf(c);
      const existing = id === 0 ? null : await adultOf(c, id);
      const dnr = existing ? await doNotReleaseOf(c, existing.id) : 0;
      if (existing) r.require('account.canEditContact', { ...existing, doNotRelease: dnr });
      else r.require('account.canAddContact');
      // the account holder kind and do-not-release come from the record, never from the request
      const accountHolder = existing ? existing.accountHolder : 4;
      const body = c.body as Record<string, unknown>;
      const defs = await udfDefs(c, 'A');
      const kids = await accountChildren(c);
      const kidIds = new Set(kids.map((k) => k.id));
      const rels = (Array.isArray(body.relationships) ? body.relationships : []) as { childID?: number }[];
      if (rels.some((x) => !kidIds.has(Number(x.childID)))) throw notFound(c);
      const v = r.validate('contact', { ...body, adultID: id, accountHolder, doNotRelease: dnr, userDefinedFields: udfFromBody(defs, body.userDefinedFields) });
      const str = (k: string) => (typeof v[k] === 'string' ? (v[k] as string).trim() : '');
      const values = {
        firstName: str('firstName'),
        middleInitial: str('middleInitial'),
        lastName: str('lastName'),
        genderCode: str('genderCode') || 'U',
        streetAddress: str('streetAddress'),
        apartmentNo: str('apartmentNo'),
        city: str('city'),
        stateCode: str('stateCode'),
        zip: str('zip'),
        workPhone: phone(v.workPhone),
        workPhoneExt: phone(v.workPhone) ? str('workPhoneExt') : '',
        workPhoneNone: v.noWorkPhone === true,
        homePhone: phone(v.homePhone),
        homePhoneExt: phone(v.homePhone) ? str('homePhoneExt') : '',
        homePhoneNone: v.noHomePhone === true,
        cellPhone: phone(v.cellPhone),
        cellPhoneExt: phone(v.cellPhone) ? str('cellPhoneExt') : '',
        cellPhoneNone: v.noCellPhone === true,
        textMessageConsent: v.smsConsent === true,
        email: str('email'),
        emailOptedOut: accountHolder === 2 && v.emailOptedOut === true,
        driverLicense: joinLicence(str('driverLicenseState'), str('driverLicenseNumber')),
        employmentStatus: str('employmentStatus'),
        employer: str('employer'),
        primaryLanguage: str('primaryLanguage') || existing?.primaryLanguage || 'en',
        annualIncome: str('annualIncome'),
        transportation: str('transportation'),
        householdSize: typeof v.householdSize === 'number' ? v.householdSize : null,
        isDistrictEmployee: v.districtEmployee === true,
        userDefinedFields: udfStore(v.userDefinedFields),
      };
      const relations = await c.deps.db.select().from(relationships).where(eq(relationships.providerId, s.providerId));
      return c.deps.db.transaction(async (tx) => {
        let adultID = id;
        if (existing) {
          await tx.update(adults).set(values).where(and(eq(adults.id, id), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId)));
        } else {
          const [row] = await tx
            .insert(adults)
            .values({ ...values, providerId: s.providerId, accountId: s.accountId, accountHolder })
            .returning({ id: adults.id });
          adultID = row.id;
        }
        for (const rel of (Array.isArray(v.relationships) ? v.relationships : []) as Record<string, unknown>[]) {
          const childId = Number(rel.childID);
          const relationshipId = Number(rel.relationshipId ?? 0);
          const known = relations.find((x) => x.relationshipId === relationshipId);
          const text = relationshipId === OTHER_RELATIONSHIP ? String(rel.otherRelationship ?? '').trim() : (known?.relationship ?? '');
          const flags = {
            isAuthorizedToPickUp: rel.isAuthorizedToPickUp === true,
            isEmergencyContact: rel.isEmergencyContact === true,
            isLivesWith: rel.isLivesWith === true,
          };
          const where = and(eq(childAdults.providerId, s.providerId), eq(childAdults.childId, childId), eq(childAdults.adultId, adultID));
          const [link] = await tx.select().from(childAdults).where(where);
          if (!relationshipId && !flags.isAuthorizedToPickUp && !flags.isEmergencyContact && !flags.isLivesWith) {
            if (link) await tx.delete(childAdults).where(where);
            continue;
          }
          if (link) await tx.update(childAdults).set({ relationshipId, relationship: text, ...flags }).where(where);
          else await tx.insert(childAdults).values({ providerId: s.providerId, childId, adultId: adultID, relationshipId, relationship: text, ...flags });
        }
        return { adultID };
      });
    },
  },

  'Demographics.adultDropStatus': {
    handler: async (c) => {
      const a = await adultOf(c, Number(c.params.adultID));
      const st = await dropStatus(c, a.id);
      return { adultID: a.id, ...st };
    },
  },

  'Demographics.adultDelete': {
    handler: async (c) => {
      const s = c.session!;
      const a = await adultOf(c, Number(c.params.adultID));
      const r = await rulesOf(c);
      r.require('account.canDeleteContact', { ...a, doNotRelease: await doNotReleaseOf(c, a.id) });
      const st = await dropStatus(c, a.id);
      const needsConfirm = st.isAutoPay || st.isPaymentOnfile;
      // a payer adult is dropped only once its autopay and payment on file are cancelled (spec 4)
      if (needsConfirm && (c.body as { confirmCancel?: boolean } | undefined)?.confirmCancel !== true) {
        throw new HttpError(409, c.deps.t(c.lang, 'errors.payerHasAutopay'), { key: 'server.errors.payerHasAutopay' });
      }
      return c.deps.db.transaction(async (tx) => {
        const cancelled = await tx
          .update(autopayRegistrations)
          .set({ active: false })
          .where(and(eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.adultId, a.id), eq(autopayRegistrations.active, true)))
          .returning({ id: autopayRegistrations.id });
        const removed = await tx
          .delete(paymentMethods)
          .where(and(eq(paymentMethods.providerId, s.providerId), eq(paymentMethods.adultId, a.id)))
          .returning({ id: paymentMethods.id });
        await tx.delete(childAdults).where(and(eq(childAdults.providerId, s.providerId), eq(childAdults.adultId, a.id)));
        await tx.update(adults).set({ deleted: true, pin: null }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId)));
        return { dropped: true, cancelledAutoPay: cancelled.length, removedPaymentMethods: removed.length };
      });
    },
  },

  'Demographics.childDetails': {
    handler: async (c) => {
      const ch = await childOf(c, Number(c.params.childID));
      const r = await rulesOf(c);
      r.require('account.canEditChild', childItem(ch));
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
        userDefinedFields: udfRows(await udfDefs(c, 'C'), ch.userDefinedFields),
      };
    },
  },

  'Demographics.childSave': {
    handler: async (c) => {
      const s = c.session!;
      const ch = await childOf(c, Number(c.params.childID));
      const r = await rulesOf(c);
      r.require('account.canEditChild', childItem(ch));
      const body = c.body as Record<string, unknown>;
      const v = r.validate('child', { ...body, childID: ch.id, userDefinedFields: udfFromBody(await udfDefs(c, 'C'), body.userDefinedFields) });
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
          userDefinedFields: udfStore(v.userDefinedFields),
        })
        .where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
      return { childID: ch.id };
    },
  },

  'Demographics.childMedical': {
    handler: async (c) => {
      const ch = await childOf(c, Number(c.params.childID));
      const r = await rulesOf(c);
      r.require('account.canEditMedical', childItem(ch));
      const m = ch.medical as StoredMedical;
      const { answers, ...rest } = m;
      return { childID: ch.id, ...rest, questions: medicalQuestions(await medicalDefs(c), answers) };
    },
  },

  'Demographics.childMedicalSave': {
    handler: async (c) => {
      const s = c.session!;
      const ch = await childOf(c, Number(c.params.childID));
      const r = await rulesOf(c);
      r.require('account.canEditMedical', childItem(ch));
      const body = c.body as Record<string, unknown>;
      const sent = new Map<number, Record<string, unknown>>();
      for (const q of (Array.isArray(body.questions) ? body.questions : []) as Record<string, unknown>[]) sent.set(Number(q.fieldID), q);
      // the questions are the provider's definitions; only the answers come from the request
      const v = r.validate('medical', { ...body, questions: medicalQuestions(await medicalDefs(c), undefined, sent) });
      const answers: NonNullable<StoredMedical['answers']> = {};
      for (const q of (v.questions ?? []) as Record<string, unknown>[]) {
        answers[String(q.fieldID)] = {
          ...(typeof q.answer === 'boolean' ? { answer: q.answer } : {}),
          ...(Array.isArray(q.standardValues) ? { standardValues: q.standardValues as number[] } : {}),
          ...(typeof q.otherStandardValue === 'string' ? { otherStandardValue: q.otherStandardValue.trim() } : {}),
          ...(typeof q.explanation === 'string' ? { explanation: q.explanation } : {}),
        };
      }
      const pick = (k: string) => (typeof v[k] === 'string' ? (v[k] as string).trim() : '');
      const medical: StoredMedical = {
        doctorName: pick('doctorName'),
        doctorPhone: phone(v.doctorPhone),
        doctorAddress: pick('doctorAddress'),
        suite: pick('suite'),
        city: pick('city'),
        stateCode: pick('stateCode'),
        zip: pick('zip'),
        preferredHospital: pick('preferredHospital'),
        primaryInsurance: (v.primaryInsurance as Record<string, string>) ?? {},
        secondaryInsurance: (v.secondaryInsurance as Record<string, string>) ?? {},
        answers,
      };
      await c.deps.db
        .update(children)
        .set({ medical: medical as Record<string, unknown> })
        .where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
      return { childID: ch.id };
    },
  },

  'Demographics.adultPhoto': {
    handler: async (c) => {
      const a = await adultOf(c, Number(c.params.adultID));
      if (!a.photo) throw notFound(c);
      return { file: a.photo, fileName: `adult-${a.id}.jpg`, contentType: 'image/jpeg' };
    },
  },

  'Demographics.childPhoto': {
    handler: async (c) => {
      const ch = await childOf(c, Number(c.params.childID));
      if (!ch.photo) throw notFound(c);
      return { file: ch.photo, fileName: `child-${ch.id}.jpg`, contentType: 'image/jpeg' };
    },
  },

  'Demographics.adultPhotoUpload': {
    allowSpecialCharacters: true,
    handler: async (c) => {
      const s = c.session!;
      const a = await adultOf(c, Number(c.params.adultID));
      const r = await rulesOf(c);
      r.require('account.canChangePhoto', a);
      const img = await storePhoto(readUploadedImage(c), c);
      await c.deps.db.update(adults).set({ photo: img.data }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId)));
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },

  'Demographics.childPhotoUpload': {
    allowSpecialCharacters: true,
    handler: async (c) => {
      const s = c.session!;
      const ch = await childOf(c, Number(c.params.childID));
      const r = await rulesOf(c);
      r.require('account.canChangePhoto', childItem(ch));
      const img = await storePhoto(readUploadedImage(c), c);
      await c.deps.db.update(children).set({ photo: img.data }).where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },

  'Demographics.pin': {
    handler: async (c) => {
      const s = c.session!;
      const rows = await c.deps.db
        .select()
        .from(adults)
        .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), inArray(adults.accountHolder, [1, 2]), eq(adults.deleted, false)))
        .orderBy(asc(adults.accountHolder), asc(adults.id));
      return rows.map((a) => ({ adultID: a.id, firstName: a.firstName, lastName: a.lastName, accountHolder: a.accountHolder, pin: a.pin ?? '', isMe: a.id === s.adultId }));
    },
  },

  'Demographics.pinSave': {
    handler: async (c) => {
      const s = c.session!;
      const r = await rulesOf(c);
      r.require('account.canChangePin');
      const v = c.form!.data as { mode: string; pin?: string };
      if (v.mode !== 'change' || !v.pin) throw new HttpError(400, c.deps.t(c.lang, 'errors.validation'), { key: 'server.errors.validation' });
      if (await pinTaken(c, v.pin, s.adultId)) {
        throw new HttpError(409, c.deps.t(c.lang, 'errors.pinExists'), { key: 'server.errors.pinExists', errors: [{ path: '/pin', key: 'server.errors.pinExists' }] });
      }
      await c.deps.db.update(adults).set({ pin: v.pin }).where(and(eq(adults.id, s.adultId), eq(adults.providerId, s.providerId)));
      return { adultID: s.adultId };
    },
  },

  'Demographics.generatePin': {
    handler: async (c) => {
      const s = c.session!;
      const r = await rulesOf(c);
      r.require('account.canChangePin');
      const v = c.form!.data as { mode: string; adultIDs?: number[] };
      const ids = [...new Set(v.adultIDs ?? [])];
      if (v.mode !== 'generate' || ids.length === 0) throw new HttpError(400, c.deps.t(c.lang, 'errors.validation'), { key: 'server.errors.validation' });
      const rows = await c.deps.db
        .select()
        .from(adults)
        .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), inArray(adults.id, ids), inArray(adults.accountHolder, [1, 2]), eq(adults.deleted, false)));
      if (rows.length !== ids.length) throw notFound(c);
      const out: { adultID: number; firstName: string; pin: string }[] = [];
      for (const a of rows) {
        let pin = '';
        // four digits; a taken PIN is drawn again
        for (let i = 0; i < 50; i++) {
          const candidate = String(randomInt(0, 10000)).padStart(4, '0');
          if (!(await pinTaken(c, candidate, a.id)) && !out.some((o) => o.pin === candidate)) {
            pin = candidate;
            break;
          }
        }
        if (!pin) throw new HttpError(409, c.deps.t(c.lang, 'errors.pinExists'), { key: 'server.errors.pinExists' });
        await c.deps.db.update(adults).set({ pin }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId)));
        out.push({ adultID: a.id, firstName: a.firstName, pin });
      }
      return out;
    },
  },
};

async function dropStatus(c: Ctx, adultId: number) {
  const s = c.session!;
  const regs = await c.deps.db
    .select()
    .from(autopayRegistrations)
    .where(and(eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.accountId, s.accountId), eq(autopayRegistrations.adultId, adultId), eq(autopayRegistrations.active, true)));
  const methods = await c.deps.db
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.providerId, s.providerId), eq(paymentMethods.accountId, s.accountId), eq(paymentMethods.adultId, adultId)));
  const isAutoPay = regs.some((x) => x.isAutoPay);
  const isPaymentOnfile = regs.some((x) => x.isPaymentOnFile) || methods.length > 0;
  return { isAutoPay, isPaymentOnfile, paymentMethodCode: regs[0]?.paymentMethodCode ?? methods[0]?.paymentMethodCode ?? '' };
}
