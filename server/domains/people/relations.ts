// How the account's adults and children relate (spec 2.13, 3, 4, 5.4, 7.2): an adult's children, one
// adult-child relation, a child's adults (read and save), the split children, and the account's flags.
// Every id is looked up within the signed-in provider and account (404 otherwise).
import { and, asc, eq, inArray } from 'drizzle-orm';
import type {
  DemographicsAccountFlagsResponse,
  DemographicsAdultChildRelationResponse,
  DemographicsAdultChildrenResponse,
  DemographicsChildAdultsResponse,
  DemographicsChildAdultsSaveBody,
  DemographicsChildAdultsSaveResponse,
  DemographicsSplitChildrenResponse,
} from '../../../src/engine/contract.gen';
import { accounts, adults, childAdults, children, providers, relationships } from '../../db/schema';
import { isTrue } from '../../../src/engine/index';
import { textIn } from '../../providerTexts';
import { ruleContextOf } from '../provider/provider';
import { OTHER_RELATIONSHIP, type Ctx, type LinkRow } from './model';
import { accountChildren, adultOf, childItem, childOf, fullName, notFound, requireRule } from './shared';

/** The relationship names of the provider in the request's language; 'Other' (99) is the parent's own text. */
async function relationshipName(c: Ctx) {
  const names = new Map(
    (await c.deps.db.select().from(relationships).where(eq(relationships.providerId, c.session.providerId))).map((r) => [r.relationshipId, textIn(r, 'relationship', c.lang)]),
  );
  return (l: LinkRow | undefined) => (!l ? '' : l.relationshipId === OTHER_RELATIONSHIP ? l.relationship : (names.get(l.relationshipId) ?? l.relationship));
}

function roles(l: LinkRow | undefined) {
  return {
    relationshipId: l?.relationshipId ?? 0,
    isAuthorizedToPickUp: l?.isAuthorizedToPickUp ?? false,
    isEmergencyContact: l?.isEmergencyContact ?? false,
    isLivesWith: l?.isLivesWith ?? false,
    doNotRelease: l?.doNotRelease ?? false,
  };
}

/** The links of the account's adults and children (both sides inside the account). */
async function linksOf(c: Ctx, where: { adultId?: number; childId?: number }) {
  const s = c.session;
  const cond = [eq(childAdults.providerId, s.providerId), eq(children.accountId, s.accountId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)];
  if (where.adultId !== undefined) cond.push(eq(childAdults.adultId, where.adultId));
  if (where.childId !== undefined) cond.push(eq(childAdults.childId, where.childId));
  return c.deps.db
    .select({ l: childAdults })
    .from(childAdults)
    .innerJoin(children, eq(children.id, childAdults.childId))
    .innerJoin(adults, eq(adults.id, childAdults.adultId))
    .where(and(...cond))
    .then((rows) => rows.map((r) => r.l));
}

/** The account's adults, holders first (primary before secondary), then other contacts by first name. */
async function accountAdults(c: Ctx) {
  const s = c.session;
  const rows = await c.deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)))
    .orderBy(asc(adults.firstName), asc(adults.id));
  // holder kinds 4 and 5 are both other contacts
  const rank = (a: (typeof rows)[number]) => Math.min(a.accountHolder, 4);
  return rows.sort((a, b) => rank(a) - rank(b));
}

/** The account's flags and what they decide, by the same declared rules the screens use. */
export async function accountFlags(c: Ctx): Promise<DemographicsAccountFlagsResponse> {
  const s = c.session;
  const [acc] = await c.deps.db.select().from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  const [p] = await c.deps.db.select().from(providers).where(eq(providers.id, s.providerId));
  // what the flags decide, by the same declared rules the screens use
  const rc = await ruleContextOf(c.deps.db, s, c.deps.releaseVersion);
  const decl = c.deps.declarations.get(rc.appName);
  const accountSummary = { suspended: acc.suspended, isCollection: acc.collection, isLocked: acc.locked };
  const data = { session: rc.session, provider: rc.provider, query: {}, form: {}, flow: {}, item: {}, data: { accountSummary } };
  const rule = (id: string) => (decl ? isTrue(decl.set.rules, id, data) : true);
  return {
    accountNo: acc.accountNo,
    suspended: acc.suspended,
    suspendedOn: acc.suspendedOn,
    isCollection: acc.collection,
    isLocked: acc.locked,
    delinquent: acc.delinquent,
    isPunchPass: acc.punchPass,
    isSchoolDistrict: p.isSchoolDistrict,
    countryCode: p.countryCode,
    accountHolder: s.accountHolder,
    accessType: s.accessType,
    blocked: rule('account.blocked'),
    editBlocked: rule('account.editBlocked'),
  };
}

/** The account's children an adult is related to, with the relation. */
export async function adultChildren(c: Ctx, adultID: number): Promise<DemographicsAdultChildrenResponse> {
  const a = await adultOf(c, adultID);
  const links = await linksOf(c, { adultId: a.id });
  const name = await relationshipName(c);
  const kids = await accountChildren(c);
  return kids
    .filter((k) => links.some((l) => l.childId === k.id))
    .map((k) => {
      const l = links.find((x) => x.childId === k.id);
      return { childID: k.id, childName: fullName(k), ...roles(l), relationship: name(l) };
    });
}

/** How one adult and one child of the account relate (related: false when they do not). */
export async function adultChildRelation(c: Ctx, adultID: number, childID: number): Promise<DemographicsAdultChildRelationResponse> {
  const a = await adultOf(c, adultID);
  const k = await childOf(c, childID);
  const [l] = await linksOf(c, { adultId: a.id, childId: k.id });
  const name = await relationshipName(c);
  return {
    adultID: a.id,
    childID: k.id,
    adultName: fullName(a),
    childName: fullName(k),
    related: l !== undefined,
    ...roles(l),
    relationship: name(l),
    otherRelationship: l?.relationshipId === OTHER_RELATIONSHIP ? l.relationship : '',
  };
}

/** The account's split children with both accounts' numbers and shares. */
export async function splitChildren(c: Ctx): Promise<DemographicsSplitChildrenResponse> {
  const kids = (await accountChildren(c)).filter((k) => k.splitAccountId !== null);
  if (!kids.length) return [];
  const [mine] = await c.deps.db.select().from(accounts).where(eq(accounts.id, c.session.accountId));
  // the other account of each split, within the same provider
  const others = await c.deps.db
    .select({ id: accounts.id, accountNo: accounts.accountNo })
    .from(accounts)
    .where(and(eq(accounts.providerId, c.session.providerId), inArray(accounts.id, kids.flatMap((k) => (k.splitAccountId === null ? [] : [k.splitAccountId])))));
  return kids.map((k) => {
    const share = k.splitPercentage ?? 100;
    const other = others.find((o) => o.id === k.splitAccountId)?.accountNo ?? '';
    const primary = childItem(k).isPrimaryAccount;
    return {
      childID: k.id,
      childName: fullName(k),
      primaryAccNo: primary ? mine.accountNo : other,
      splitAccNo: primary ? other : mine.accountNo,
      splitPercentage: share,
      splitShare: `${share}/${100 - share}`,
      isPrimaryAccount: primary,
    };
  });
}

/** The account's adults with their relation to one child. */
export async function childAdultList(c: Ctx, childID: number): Promise<DemographicsChildAdultsResponse> {
  const k = await childOf(c, childID);
  const links = await linksOf(c, { childId: k.id });
  const name = await relationshipName(c);
  return {
    childID: k.id,
    childName: fullName(k),
    adults: (await accountAdults(c)).map((a) => {
      const l = links.find((x) => x.adultId === a.id);
      return {
        adultID: a.id,
        adultName: fullName(a),
        accountHolder: a.accountHolder,
        ...roles(l),
        relationship: name(l),
        otherRelationship: l?.relationshipId === OTHER_RELATIONSHIP ? l.relationship : '',
      };
    }),
  };
}

/** The child's adults form's facts: the holder kind and do-not-release of each row are the adult's record, never the request's. */
export async function childAdultsFacts(c: Ctx, childID: number, body: DemographicsChildAdultsSaveBody): Promise<Record<string, unknown>> {
  const k = await childOf(c, childID);
  await requireRule(c, 'account.canEditChild', childItem(k));
  const mine = await accountAdults(c);
  const links = await linksOf(c, { childId: k.id });
  const rows = body.adults.map((r) => {
    const a = mine.find((x) => x.id === r.adultID);
    if (!a) throw notFound(c);
    const l = links.find((x) => x.adultId === a.id);
    return { ...r, adultName: fullName(a), accountHolder: a.accountHolder, doNotRelease: l?.doNotRelease ?? false };
  });
  return { childID: k.id, childName: fullName(k), adults: rows };
}

/** Saves a child's relations to the account's adults, in one transaction; do-not-release links are left alone. */
export async function saveChildAdults(c: Ctx, childID: number, v: DemographicsChildAdultsSaveBody): Promise<DemographicsChildAdultsSaveResponse> {
  const s = c.session;
  const k = await childOf(c, childID);
  const relations = await c.deps.db.select().from(relationships).where(eq(relationships.providerId, s.providerId));
  const rows = v.adults ?? [];
  return c.deps.db.transaction(async (tx) => {
    let saved = 0;
    for (const r of rows) {
      const adultId = Number(r.adultID);
      const where = and(eq(childAdults.providerId, s.providerId), eq(childAdults.childId, k.id), eq(childAdults.adultId, adultId));
      const [link] = await tx.select().from(childAdults).where(where);
      // a do-not-release link is the provider's decision: the parent never changes it (spec 6)
      if (link?.doNotRelease) continue;
      const relationshipId = Number(r.relationshipId ?? 0);
      if (relationshipId && !relations.some((x) => x.relationshipId === relationshipId)) throw notFound(c);
      const text = relationshipId === OTHER_RELATIONSHIP ? String(r.otherRelationship ?? '').trim() : (relations.find((x) => x.relationshipId === relationshipId)?.relationship ?? '');
      const flags = { isAuthorizedToPickUp: r.isAuthorizedToPickUp === true, isEmergencyContact: r.isEmergencyContact === true, isLivesWith: r.isLivesWith === true };
      if (!relationshipId && !flags.isAuthorizedToPickUp && !flags.isEmergencyContact && !flags.isLivesWith) {
        if (link) await tx.delete(childAdults).where(where);
      } else if (link) await tx.update(childAdults).set({ relationshipId, relationship: text, ...flags }).where(where);
      else await tx.insert(childAdults).values({ providerId: s.providerId, childId: k.id, adultId, relationshipId, relationship: text, ...flags });
      saved++;
    }
    return { childID: k.id, saved };
  });
}
