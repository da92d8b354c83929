// Adults of the account (spec 2.9, 3, 4, 6, 7.2): the list of holders and other contacts, a contact's
// details and save, and dropping an adult. The account holder kind and do-not-release are facts of the
// record: the form is validated with them, never with what the request claims.
import { and, asc, eq, inArray } from 'drizzle-orm';
import type {
  DemographicsAdultDeleteResponse,
  DemographicsAdultDetailsResponse,
  DemographicsAdultDropStatusResponse,
  DemographicsAdultSaveBody,
  DemographicsAdultSaveResponse,
  DemographicsAdultsResponse,
  DemographicsRelationshipsResponse,
} from '../../../src/engine/contract.gen';
import { accounts, adults, autopayRegistrations, childAdults, children, paymentMethods, relationships } from '../../db/schema';
import { httpError } from '../../errors';
import { TokenRefused } from '../../gateways/adapter';
import { checkContactLimit } from '../../providerSettings';
import { listsData, requireListCodes } from './masterData';
import { inLanguage, textIn } from '../../providerTexts';
import { OTHER_RELATIONSHIP, type Ctx, type Gender } from './model';
import {
  accountChildren,
  adultOf,
  doNotReleaseOf,
  fullName,
  joinLicence,
  notFound,
  phone,
  photoUrl,
  requireRule,
  splitLicence,
  udfDefs,
  udfFromBody,
  udfRows,
  udfStore,
} from './shared';

/** The short lists the contact form's rules read as `data`, by the names screens/editcontact.json loads them under. */
const CONTACT_LISTS = { maritalStatuses: 'marital-status' };

/** The account's adults with their children, holders first; one adult when adultID is given (404 if not the account's). */
export async function adultList(
  { deps, session: s, lang }: Ctx,
  adultID: number | undefined,
  includeOtherContacts: boolean | undefined,
): Promise<DemographicsAdultsResponse> {
  const where = [eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)];
  if (adultID) where.push(eq(adults.id, adultID));
  if (includeOtherContacts === false) where.push(inArray(adults.accountHolder, [1, 2]));
  const rows = await deps.db
    .select({ a: adults, accountNo: accounts.accountNo })
    .from(adults)
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(...where));
  if (adultID && rows.length === 0) {
    throw httpError({ deps, lang }, 404, 'server.errors.notFound');
  }
  const ids = rows.map((r) => r.a.id);
  const links = ids.length
    ? await deps.db
        .select({ l: childAdults, firstName: children.firstName, lastName: children.lastName })
        .from(childAdults)
        .innerJoin(children, eq(children.id, childAdults.childId))
        .where(and(eq(childAdults.providerId, s.providerId), inArray(childAdults.adultId, ids), eq(children.accountId, s.accountId)))
        .orderBy(asc(children.firstName))
    : [];
  // the provider's relationship names in the request's language; 'Other' (99) is the parent's own text
  const names = new Map(
    (await deps.db.select().from(relationships).where(eq(relationships.providerId, s.providerId))).map((r) => [r.relationshipId, textIn(r, 'relationship', lang)]),
  );
  const list = rows.map(({ a, accountNo }) => {
    const mine = links.filter((l) => l.l.adultId === a.id);
    return {
      adultID: a.id,
      accountNo,
      accountHolder: a.accountHolder as 1 | 2 | 4 | 5,
      firstName: a.firstName,
      lastName: a.lastName,
      middleInitial: a.middleInitial,
      genderCode: a.genderCode as Gender,
      streetAddress: a.streetAddress,
      apartmentNo: a.apartmentNo,
      city: a.city,
      stateCode: a.stateCode,
      zip: a.zip,
      workPhone: a.workPhone,
      workPhoneExt: a.workPhoneExt,
      homePhone: a.homePhone,
      cellPhone: a.cellPhone,
      textMessageConsent: a.textMessageConsent,
      emailOptedOut: a.emailOptedOut,
      email: a.email,
      employmentStatus: a.employmentStatus,
      employer: a.employer,
      primaryLanguage: a.primaryLanguage,
      isDistrictEmployee: a.isDistrictEmployee,
      // derived from the child-adult relationships (spec 3)
      doNotRelease: (mine.some((l) => l.l.doNotRelease) ? 1 : 0) as 0 | 1,
      hasPhoto: a.photo !== null,
      photoUrl: photoUrl(a.photo, a.genderCode === 'M' ? 'male' : 'female'),
      children: mine.map((l) => ({
        childID: l.l.childId,
        childName: fullName(l),
        relationshipId: l.l.relationshipId,
        relationship: l.l.relationshipId === OTHER_RELATIONSHIP ? l.l.relationship : (names.get(l.l.relationshipId) ?? l.l.relationship),
        isAuthorizedToPickUp: l.l.isAuthorizedToPickUp,
        isEmergencyContact: l.l.isEmergencyContact,
        isLivesWith: l.l.isLivesWith,
        doNotRelease: l.l.doNotRelease,
      })),
    };
  });
  // holders first (primary before secondary); other contacts by first name, do-not-release last
  return list.sort((x, y) => {
    const hx = x.accountHolder <= 2 ? 0 : 1;
    const hy = y.accountHolder <= 2 ? 0 : 1;
    if (hx !== hy) return hx - hy;
    if (hx === 0) return x.accountHolder - y.accountHolder || x.adultID - y.adultID;
    if (x.doNotRelease !== y.doNotRelease) return x.doNotRelease - y.doNotRelease;
    return x.firstName.localeCompare(y.firstName) || x.adultID - y.adultID;
  });
}

/** The provider's relationships in order, in the request's language. */
export async function relationshipList(c: Ctx): Promise<DemographicsRelationshipsResponse> {
  const rows = await c.deps.db
    .select()
    .from(relationships)
    .where(eq(relationships.providerId, c.session.providerId))
    .orderBy(asc(relationships.sortOrder), asc(relationships.relationshipId));
  return inLanguage(rows, c.lang).map((r) => ({ relationshipId: r.relationshipId, relationship: r.relationship }));
}

/** A contact's form: an empty one for adultID 0 (a new contact, when the account may add one). */
export async function adultDetails(c: Ctx, id: number): Promise<DemographicsAdultDetailsResponse> {
  const kids = await accountChildren(c);
  const defs = await udfDefs(c, 'A');
  if (id === 0) {
    await requireRule(c, 'account.canAddContact');
    return {
      adultID: 0,
      accountHolder: 4 as const,
      firstName: '',
      lastName: '',
      doNotRelease: 0 as const,
      relationships: kids.map((k) => ({
        childID: k.id,
        childName: fullName(k),
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
    .where(and(eq(childAdults.providerId, c.session.providerId), eq(childAdults.adultId, a.id)));
  const dnr = links.some((l) => l.doNotRelease) ? 1 : 0;
  return {
    adultID: a.id,
    accountHolder: a.accountHolder as 1 | 2 | 4 | 5,
    firstName: a.firstName,
    middleInitial: a.middleInitial,
    lastName: a.lastName,
    genderCode: a.genderCode,
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
    maritalStatus: a.maritalStatus,
    annualIncome: a.annualIncome,
    transportation: a.transportation,
    ...(a.householdSize !== null ? { householdSize: a.householdSize } : {}),
    districtEmployee: a.isDistrictEmployee,
    doNotRelease: dnr,
    relationships: kids.map((k) => {
      const l = links.find((x) => x.childId === k.id);
      return {
        childID: k.id,
        childName: fullName(k),
        relationshipId: l?.relationshipId ?? 0,
        ...(l?.relationshipId === OTHER_RELATIONSHIP ? { otherRelationship: l.relationship } : {}),
        isAuthorizedToPickUp: l?.isAuthorizedToPickUp ?? false,
        isEmergencyContact: l?.isEmergencyContact ?? false,
        isLivesWith: l?.isLivesWith ?? false,
      };
    }),
    userDefinedFields: udfRows(defs, a.userDefinedFields),
  };
}

/**
 * The contact form's facts: the account holder kind and do-not-release come from the record, the
 * user-defined fields from the provider's definitions, never from the request.
 */
export async function adultSaveFacts(c: Ctx, id: number, body: DemographicsAdultSaveBody): Promise<Record<string, unknown>> {
  const existing = id === 0 ? null : await adultOf(c, id);
  const doNotRelease = existing ? await doNotReleaseOf(c, existing.id) : 0;
  if (existing) await requireRule(c, 'account.canEditContact', { ...existing, doNotRelease });
  else {
    await requireRule(c, 'account.canAddContact');
    await checkContactLimit(c.deps, c.lang, c.session);
  }
  const kidIds = new Set((await accountChildren(c)).map((k) => k.id));
  if ((body.relationships ?? []).some((x) => !kidIds.has(Number(x.childID)))) throw notFound(c);
  return {
    adultID: id,
    accountHolder: existing ? existing.accountHolder : 4,
    doNotRelease,
    userDefinedFields: udfFromBody(await udfDefs(c, 'A'), body.userDefinedFields),
  };
}

/** What the contact form's rules read as `data`: marital status shows (and is saved) only while the provider offers a choice. */
export function contactListsData(c: Ctx): Promise<Record<string, { code: string; text: string }[]>> {
  return listsData(c, CONTACT_LISTS);
}

/** Saves a contact (adultID 0: a new one) with its relations to the account's children, in one transaction. */
export async function saveAdult(c: Ctx, id: number, v: DemographicsAdultSaveBody): Promise<DemographicsAdultSaveResponse> {
  const s = c.session;
  const existing = id === 0 ? null : await adultOf(c, id);
  const accountHolder = Number(v.accountHolder);
  const str = (k: keyof typeof v) => {
    const x = v[k];
    return typeof x === 'string' ? x.trim() : '';
  };
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
    maritalStatus: str('maritalStatus'),
    householdSize: typeof v.householdSize === 'number' ? v.householdSize : null,
    isDistrictEmployee: v.districtEmployee === true,
    userDefinedFields: udfStore(v.userDefinedFields),
  };
  // a choice of the provider's lists, never a free text or another provider's code
  await requireListCodes(c, [
    ['primary-language', str('primaryLanguage')],
    ['transportation-mode', values.transportation],
    ['marital-status', values.maritalStatus],
  ]);
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
    for (const rel of Array.isArray(v.relationships) ? v.relationships : []) {
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
}

/** Whether dropping an adult cancels an autopay or a payment method on file. */
export async function adultDropStatus(c: Ctx, adultID: number): Promise<DemographicsAdultDropStatusResponse> {
  const a = await adultOf(c, adultID);
  const st = await dropStatus(c, a.id);
  return { adultID: a.id, ...st };
}

/** Drops an adult: its autopay, payment methods and relations go with it, in one transaction. */
export async function dropAdult(c: Ctx, adultID: number, confirmCancel: boolean | undefined): Promise<DemographicsAdultDeleteResponse> {
  const s = c.session;
  const a = await adultOf(c, adultID);
  await requireRule(c, 'account.canDeleteContact', { ...a, doNotRelease: await doNotReleaseOf(c, a.id) });
  const st = await dropStatus(c, a.id);
  const needsConfirm = st.isAutoPay || st.isPaymentOnfile;
  // a payer adult is dropped only once its autopay and payment on file are cancelled (spec 4)
  if (needsConfirm && confirmCancel !== true) {
    throw httpError(c, 409, 'server.errors.payerHasAutopay');
  }
  const dropped = await c.deps.db.transaction(async (tx) => {
    const cancelled = await tx
      .update(autopayRegistrations)
      .set({ active: false })
      .where(and(eq(autopayRegistrations.providerId, s.providerId), eq(autopayRegistrations.adultId, a.id), eq(autopayRegistrations.active, true)))
      .returning({ id: autopayRegistrations.id });
    const removed = await tx
      .delete(paymentMethods)
      .where(and(eq(paymentMethods.providerId, s.providerId), eq(paymentMethods.adultId, a.id)))
      .returning({ id: paymentMethods.id, token: paymentMethods.token, gatewayCode: paymentMethods.gatewayCode });
    await tx.delete(childAdults).where(and(eq(childAdults.providerId, s.providerId), eq(childAdults.adultId, a.id)));
    await tx.update(adults).set({ deleted: true, pin: null }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId)));
    return { cancelled, removed };
  });
  // the gateway forgets the dropped adult's saved methods once the drop is committed; the drop does
  // not wait for it, and a token the gateway could not forget is logged with what deletes it by hand
  for (const m of dropped.removed) if (m.token && m.gatewayCode) void forgetToken(c, m.id, m.gatewayCode, m.token);
  return { dropped: true, cancelledAutoPay: dropped.cancelled.length, removedPaymentMethods: dropped.removed.length };
}

/** Deletes a removed saved method's token at its gateway; a failure is logged, never thrown. */
async function forgetToken(c: Ctx, paymentMethodId: number, gatewayCode: number, token: string): Promise<void> {
  const gateway = c.deps.gateways?.(gatewayCode);
  try {
    if (!gateway) throw new Error(`gateway ${gatewayCode} is not configured`);
    await gateway.deleteToken(token);
  } catch (e) {
    // a token the gateway no longer knows is forgotten already
    if (e instanceof TokenRefused) return;
    c.deps.log?.error({ err: e instanceof Error ? e.message : String(e), paymentMethodId, gatewayCode, token }, 'the token of a dropped adult\'s saved method is left at its gateway');
  }
}

async function dropStatus(c: Ctx, adultId: number) {
  const s = c.session;
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
