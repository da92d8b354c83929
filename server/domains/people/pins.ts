// Check-in PINs (spec 5.3, 7.2): the holders' PINs, changing one's own and generating new ones. A PIN
// is unique among the provider's adults.
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { DemographicsGeneratePinResponse, DemographicsPinResponse, DemographicsPinSaveResponse } from '../../../src/engine/contract.gen';
import { adults } from '../../db/schema';
import { httpError } from '../../errors';
import type { Ctx } from './model';
import { notFound, requireRule } from './shared';

/** A PIN no other adult of the provider holds (spec 5.3). */
async function pinTaken(c: Ctx, pin: string, exceptAdult: number): Promise<boolean> {
  const rows = await c.deps.db
    .select({ id: adults.id })
    .from(adults)
    .where(and(eq(adults.providerId, c.session.providerId), eq(adults.pin, pin), ne(adults.id, exceptAdult), eq(adults.deleted, false)));
  return rows.length > 0;
}

/** The account holders' PINs. */
export async function holderPins(c: Ctx): Promise<DemographicsPinResponse> {
  const s = c.session;
  const rows = await c.deps.db
    .select()
    .from(adults)
    .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), inArray(adults.accountHolder, [1, 2]), eq(adults.deleted, false)))
    .orderBy(asc(adults.accountHolder), asc(adults.id));
  return rows.map((a) => ({ adultID: a.id, firstName: a.firstName, lastName: a.lastName, accountHolder: a.accountHolder, pin: a.pin ?? '', isMe: a.id === s.adultId }));
}

/** Refuses with 403 unless the account may change PINs. */
export async function requirePinChange(c: Ctx): Promise<void> {
  await requireRule(c, 'account.canChangePin');
}

/** Changes one's own PIN; 409 when another adult of the provider holds it. */
export async function saveOwnPin(c: Ctx, pin: string): Promise<DemographicsPinSaveResponse> {
  const s = c.session;
  if (await pinTaken(c, pin, s.adultId)) {
    throw httpError(c, 409, 'server.errors.pinExists', undefined, { errors: [{ path: '/pin', key: 'server.errors.pinExists' }] });
  }
  await c.deps.db.update(adults).set({ pin }).where(and(eq(adults.id, s.adultId), eq(adults.providerId, s.providerId)));
  return { adultID: s.adultId };
}

/** New PINs for the chosen holders of the account, each unique among the provider's adults. */
export async function generatePins(c: Ctx, adultIDs: readonly number[]): Promise<DemographicsGeneratePinResponse> {
  const s = c.session;
  const ids = [...new Set(adultIDs)];
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
    if (!pin) throw httpError(c, 409, 'server.errors.pinExists');
    await c.deps.db.update(adults).set({ pin }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId)));
    out.push({ adultID: a.id, firstName: a.firstName, pin });
  }
  return out;
}
