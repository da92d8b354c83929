// Photos of adults and children (spec 2.10, 7.2): the stored picture, and where an upload (checked by
// content, shrunk and re-encoded by server/photos.ts) is stored.
import { and, eq } from 'drizzle-orm';
import type { FileResult } from '../../context';
import { adults, children } from '../../db/schema';
import type { AdultRow, ChildRow, Ctx } from './model';
import { adultOf, childItem, childOf, notFound, requireRule } from './shared';

/** An adult's stored photo; 404 without one. */
export async function adultPhoto(c: Ctx, adultID: number): Promise<FileResult> {
  const a = await adultOf(c, adultID);
  if (!a.photo) throw notFound(c);
  return { file: a.photo, fileName: `adult-${a.id}.jpg`, contentType: 'image/jpeg' };
}

/** A child's stored photo; 404 without one. */
export async function childPhoto(c: Ctx, childID: number): Promise<FileResult> {
  const ch = await childOf(c, childID);
  if (!ch.photo) throw notFound(c);
  return { file: ch.photo, fileName: `child-${ch.id}.jpg`, contentType: 'image/jpeg' };
}

/** The adult whose photo the account may change (before the upload is read). */
export async function adultForPhoto(c: Ctx, adultID: number): Promise<AdultRow> {
  const a = await adultOf(c, adultID);
  await requireRule(c, 'account.canChangePhoto', a);
  return a;
}

/** The child whose photo the account may change (before the upload is read). */
export async function childForPhoto(c: Ctx, childID: number): Promise<ChildRow> {
  const ch = await childOf(c, childID);
  await requireRule(c, 'account.canChangePhoto', childItem(ch));
  return ch;
}

export async function setAdultPhoto({ deps, session: s }: Ctx, adultId: number, photo: Uint8Array): Promise<void> {
  await deps.db.update(adults).set({ photo }).where(and(eq(adults.id, adultId), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId)));
}

export async function setChildPhoto({ deps, session: s }: Ctx, childId: number, photo: Uint8Array): Promise<void> {
  await deps.db.update(children).set({ photo }).where(and(eq(children.id, childId), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
}
