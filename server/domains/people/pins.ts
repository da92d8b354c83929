// Check-in PINs (spec 5.3, 7.2): the holders' PINs, changing one's own and generating new ones. A PIN
// is unique among the provider's adults.
import { randomInt } from 'node:crypto';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import type { Handlers } from '../../context';
import { adults } from '../../db/schema';
import { httpError } from '../../errors';
import { notFound, requireRule, type Ctx } from './shared';

/** A PIN no other adult of the provider holds (spec 5.3). */
async function pinTaken(c: Ctx, pin: string, exceptAdult: number): Promise<boolean> {
  const rows = await c.deps.db
    .select({ id: adults.id })
    .from(adults)
    .where(and(eq(adults.providerId, c.session.providerId), eq(adults.pin, pin), ne(adults.id, exceptAdult), eq(adults.deleted, false)));
  return rows.length > 0;
}

export const pinHandlers = {
  'Demographics.pin': {
    handler: async (c) => {
      const s = c.session;
      const rows = await c.deps.db
        .select()
        .from(adults)
        .where(and(eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId), inArray(adults.accountHolder, [1, 2]), eq(adults.deleted, false)))
        .orderBy(asc(adults.accountHolder), asc(adults.id));
      return rows.map((a) => ({ adultID: a.id, firstName: a.firstName, lastName: a.lastName, accountHolder: a.accountHolder, pin: a.pin ?? '', isMe: a.id === s.adultId }));
    },
  },

  'Demographics.pinSave': {
    // this operation changes one's own PIN: the form is validated in that mode, so the PIN is required
    facts: async (c) => {
      await requireRule(c, 'account.canChangePin');
      return { mode: 'change' };
    },
    handler: async (c) => {
      const s = c.session;
      const v = c.form.data as { pin: string };
      if (await pinTaken(c, v.pin, s.adultId)) {
        throw httpError(c, 409, 'server.errors.pinExists', undefined, { errors: [{ path: '/pin', key: 'server.errors.pinExists' }] });
      }
      await c.deps.db.update(adults).set({ pin: v.pin }).where(and(eq(adults.id, s.adultId), eq(adults.providerId, s.providerId)));
      return { adultID: s.adultId };
    },
  },

  'Demographics.generatePin': {
    // this operation generates PINs: the form is validated in that mode, so an adult must be chosen
    facts: async (c) => {
      await requireRule(c, 'account.canChangePin');
      return { mode: 'generate' };
    },
    handler: async (c) => {
      const s = c.session;
      const ids = [...new Set(c.form.data.adultIDs)];
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
    },
  },
} satisfies Partial<Handlers>;
