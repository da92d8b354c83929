// What the people resources (adults, children, medical information, photos, PINs) share: look-ups of
// an id within the signed-in provider and account (404 otherwise), the account rules the screens use
// (403 when they refuse), the provider's user-defined fields, and the row-to-API mappers.
import { and, asc, eq } from 'drizzle-orm';
import { accounts, adults, childAdults, children, userDefinedFieldDefs } from '../../db/schema';
import { HttpError, httpError } from '../../errors';
import { isTrue } from '../../../src/engine/index';
import { ruleContextOf } from '../provider/provider';
import { inLanguage } from '../../providerTexts';
import { LICENCE_SEPARATOR, LICENCE_STATE_NOT_LISTED, type AdultRow, type ChildRow, type Ctx, type UdfValue } from './model';

export function notFound(c: Ctx): HttpError {
  return httpError(c, 404, 'server.errors.notFound');
}
function forbidden(c: Ctx): HttpError {
  return httpError(c, 403, 'server.errors.forbidden');
}

/** Refuses with 403 unless the declared rule (rules/account.rules.json) allows the action for this item. */
export async function requireRule(c: Ctx, rule: string, item: Record<string, unknown> = {}): Promise<void> {
  const s = c.session;
  const rc = await ruleContextOf(c.deps.db, s, c.deps.releaseVersion);
  const decl = c.deps.declarations.get(rc.appName);
  if (!decl) throw httpError(c, 503, 'server.errors.declarationsUnavailable');
  const [acc] = await c.deps.db.select().from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  // the context the screens' rules see: provider, session and the account summary flags
  const accountSummary = { suspended: acc.suspended, isCollection: acc.collection, isLocked: acc.locked };
  const data = { session: rc.session, provider: rc.provider, query: {}, form: {}, flow: {}, data: { accountSummary }, item };
  if (!isTrue(decl.set.rules, rule, data)) throw forbidden(c);
}

export async function adultOf(c: Ctx, adultID: number): Promise<AdultRow> {
  const s = c.session;
  const [a] = await c.deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.id, adultID), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), eq(adults.deleted, false)));
  if (!a) throw notFound(c);
  return a;
}

export async function childOf(c: Ctx, childID: number): Promise<ChildRow> {
  const s = c.session;
  const [ch] = await c.deps.db
    .select()
    .from(children)
    .where(and(eq(children.id, childID), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  if (!ch) throw notFound(c);
  return ch;
}

export async function accountChildren(c: Ctx): Promise<ChildRow[]> {
  const s = c.session;
  return c.deps.db
    .select()
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
}

/** A split child is edited only from its primary account (spec 4). */
export function childItem(ch: ChildRow) {
  return { isSplit: ch.splitAccountId !== null, isPrimaryAccount: ch.splitAccountId === null || (ch.splitPercentage ?? 100) >= 50 };
}

export async function doNotReleaseOf(c: Ctx, adultID: number): Promise<0 | 1> {
  const rows = await c.deps.db
    .select({ d: childAdults.doNotRelease })
    .from(childAdults)
    .where(and(eq(childAdults.providerId, c.session.providerId), eq(childAdults.adultId, adultID), eq(childAdults.doNotRelease, true)));
  return rows.length ? 1 : 0;
}

// ----- user-defined fields (the provider's own extra fields of adults 'A' and children 'C')

/** The provider's user-defined fields, captions and options in the request's language. */
export async function udfDefs(c: Ctx, entity: 'A' | 'C') {
  const rows = await c.deps.db
    .select()
    .from(userDefinedFieldDefs)
    .where(and(eq(userDefinedFieldDefs.providerId, c.session.providerId), eq(userDefinedFieldDefs.entity, entity)))
    .orderBy(asc(userDefinedFieldDefs.displayOrder), asc(userDefinedFieldDefs.id));
  return inLanguage(rows, c.lang);
}
type UdfDefs = Awaited<ReturnType<typeof udfDefs>>;
/** A user-defined row the way a request sends it. */
type SentUdf = { fieldName?: string; value?: string | boolean | number | null };

/** The form's user-defined rows: the provider's definitions with the stored values. */
export function udfRows(defs: UdfDefs, stored: Record<string, UdfValue>) {
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
export function udfFromBody(defs: UdfDefs, sentRows: readonly SentUdf[] | undefined) {
  const sent = new Map<string, SentUdf['value']>();
  for (const r of Array.isArray(sentRows) ? sentRows : []) sent.set(String(r?.fieldName), r?.value);
  return udfRows(defs, {}).map((r) => {
    const v = sent.get(r.fieldName);
    return v === undefined || v === null ? r : { ...r, value: v };
  });
}

export function udfStore(rows: unknown): Record<string, UdfValue> {
  const out: Record<string, UdfValue> = {};
  for (const r of (Array.isArray(rows) ? rows : []) as { fieldName: string; value?: UdfValue }[]) {
    if (r.value !== undefined && r.value !== null && r.value !== '') out[r.fieldName] = r.value;
  }
  return out;
}

// ----- stored values <-> what the parent sees

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

/** Spec 5.1: 0000000000 is an empty phone; stored without mask characters. */
export function phone(v: unknown): string {
  const d = String(v ?? '').replace(/\D/g, '');
  return /^0*$/.test(d) ? '' : d;
}

/** Spec 2.10: the stored photo (re-encoded JPEG) in a data: URL, else the default picture by gender. */
export function photoUrl(photo: Uint8Array | null, fallback: 'boy' | 'girl' | 'male' | 'female'): string {
  return photo ? `data:image/jpeg;base64,${Buffer.from(photo).toString('base64')}` : `/parentportal/images/photos/${fallback}.svg`;
}

export function fullName(p: { firstName: string; lastName: string }): string {
  return `${p.firstName} ${p.lastName}`;
}
