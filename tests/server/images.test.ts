// Photo uploads against hostile files: a decompression bomb is refused from its header before any
// decoding (and several at once leave the server answering), a polyglot is stored only as the JPEG
// re-encoded from its pixels, an SVG with script and a zero-byte file are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { Jimp } from 'jimp';
import { BACKENDS, createTestApp, tokenFor, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { imageKindOf, imageSize, PHOTO_MAX_MB, PHOTO_MAX_PIXELS } from '../../server/photos';
import { gifHtmlPolyglot, multipart, pngBomb, SVG_WITH_SCRIPT, ZERO_BYTES } from '../fixtures/images/index';

describe('image header sizes', () => {
  it('reads width and height of PNG, JPEG, GIF and BMP without decoding', async () => {
    for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'] as const) {
      const file = await new Jimp({ width: 37, height: 21, color: 0x336699ff }).getBuffer(mime);
      const kind = imageKindOf(file)!;
      expect(imageSize(file, kind), mime).toEqual({ width: 37, height: 21 });
    }
    expect(imageSize(pngBomb(20_000, 20_000), 'png')).toEqual({ width: 20_000, height: 20_000 });
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 2]), 'jpeg')).toBeNull();
  });
});

describe.each(BACKENDS)('photo uploads of hostile files on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let sofiaId: number;
  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    const [c] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Sofia'));
    sofiaId = c.id;
  });
  afterAll(async () => t?.close());

  const upload = (name: string, data: Buffer) => {
    const m = multipart(name, data);
    return t.app.inject({ method: 'POST', url: `/api/Demographics/children/${sofiaId}/photo`, headers: { authorization: `Bearer ${maria}`, 'content-type': m.contentType }, payload: m.body });
  };
  const storedPhoto = async () => {
    const [c] = await t.db.handle.db.select().from(s.children).where(and(eq(s.children.id, sofiaId)));
    return c;
  };

  it('refuses a decompression bomb from its header, quickly, even several at once', async () => {
    const bomb = pngBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(400_000);
    const before = process.memoryUsage().rss;
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload('bomb.png', bomb)));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().key).toBe('server.errors.photoTooManyPixels');
      expect(res.json().message).toContain(String(PHOTO_MAX_PIXELS / 1_000_000));
    }
    // nothing was decoded: far less than one bomb's 1.6 GB bitmap
    expect(process.memoryUsage().rss - before).toBeLessThan(300 * 1024 * 1024);
    // just over the limit is refused, a picture within it is taken
    expect((await upload('wide.png', pngBomb(10_001, 5_000))).statusCode).toBe(400);
    const ok = await upload('fine.png', await new Jimp({ width: 800, height: 500, color: 0x00ff00ff }).getBuffer('image/png'));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('stores a GIF/HTML polyglot only as the JPEG re-encoded from its pixels', async () => {
    const res = await upload('innocent.gif', gifHtmlPolyglot());
    expect(res.statusCode, res.body).toBe(200);
    const photo = await t.app.inject({ method: 'GET', url: `/api/Demographics/children/${sofiaId}/photo`, headers: { authorization: `Bearer ${maria}` } });
    expect(photo.headers['content-type']).toBe('image/jpeg');
    expect([...photo.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(photo.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    expect(photo.rawPayload.includes(Buffer.from('<html'))).toBe(false);
  });

  it('refuses an SVG with script and a zero-byte file, and keeps the stored photo', async () => {
    const kept = (await storedPhoto()).photo;
    const svg = await upload('face.svg', SVG_WITH_SCRIPT);
    expect(svg.statusCode).toBe(400);
    expect(svg.json().key).toBe('server.errors.photoType');
    const empty = await upload('empty.png', ZERO_BYTES);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().key).toBe('server.errors.photoMissing');
    // a PNG signature with nothing after it is no picture either
    const headerOnly = await upload('head.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(headerOnly.statusCode).toBe(400);
    expect((await storedPhoto()).photo).toEqual(kept);
  });

  it('refuses a file over the size limit, a body that is not multipart and one cut short, keeping the stored photo', async () => {
    const kept = (await storedPhoto()).photo;
    const big = Buffer.alloc(PHOTO_MAX_MB * 1024 * 1024 + 1, 0x41);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const tooLarge = await upload('big.png', big);
    expect(tooLarge.statusCode, tooLarge.body).toBe(400);
    expect(tooLarge.json().key).toBe('server.errors.photoTooLarge');
    const url = `/api/Demographics/children/${sofiaId}/photo`;
    const send = (payload: string, contentType: string) => t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${maria}`, 'content-type': contentType }, payload });
    const noBoundary = await send('--x\r\n\r\n', 'multipart/form-data');
    expect(noBoundary.statusCode, noBoundary.body).toBe(400);
    const cutShort = await send('--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\u0089PNG', 'multipart/form-data; boundary=b');
    expect(cutShort.statusCode, cutShort.body).toBe(400);
    expect(cutShort.json().key).toBe('server.errors.photoMissing');
    expect((await storedPhoto()).photo).toEqual(kept);
  });
});
