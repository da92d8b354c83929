// Photos of adults and children (spec 2.10, 7.2): the stored picture, and an upload checked by
// content, shrunk and re-encoded (server/photos.ts).
import { and, eq } from 'drizzle-orm';
import type { Handlers } from '../../context';
import { adults, children } from '../../db/schema';
import { readUploadedImage, storePhoto } from '../../photos';
import { adultOf, childItem, childOf, notFound, requireRule } from './shared';

export const photoHandlers = {
  'Demographics.adultPhoto': {
    handler: async (c) => {
      const a = await adultOf(c, c.params.adultID);
      if (!a.photo) throw notFound(c);
      return { file: a.photo, fileName: `adult-${a.id}.jpg`, contentType: 'image/jpeg' };
    },
  },

  'Demographics.childPhoto': {
    handler: async (c) => {
      const ch = await childOf(c, c.params.childID);
      if (!ch.photo) throw notFound(c);
      return { file: ch.photo, fileName: `child-${ch.id}.jpg`, contentType: 'image/jpeg' };
    },
  },

  'Demographics.adultPhotoUpload': {
    handler: async (c) => {
      const s = c.session;
      const a = await adultOf(c, c.params.adultID);
      await requireRule(c, 'account.canChangePhoto', a);
      const img = await storePhoto(await readUploadedImage(c), c);
      await c.deps.db.update(adults).set({ photo: img.data }).where(and(eq(adults.id, a.id), eq(adults.providerId, s.providerId), eq(adults.accountId, s.accountId)));
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },

  'Demographics.childPhotoUpload': {
    handler: async (c) => {
      const s = c.session;
      const ch = await childOf(c, c.params.childID);
      await requireRule(c, 'account.canChangePhoto', childItem(ch));
      const img = await storePhoto(await readUploadedImage(c), c);
      await c.deps.db.update(children).set({ photo: img.data }).where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },

} satisfies Partial<Handlers>;
