// Photos (spec 2.10): the upload is a multipart body with one file; its type is decided by its
// content (magic bytes), never by its name, then it is decoded, resized and re-encoded to JPEG, so
// nothing the parent sent is ever served back unchanged.
import { Jimp } from 'jimp';
import type { HandlerContext } from './context';
import { HttpError, httpError } from './errors';
import { isRecord } from './json';

/** Largest photo accepted, in MB (the upload action declares the same limit). */
export const PHOTO_MAX_MB = 5;
/** Longest side of a stored photo, in pixels. */
export const PHOTO_MAX_SIDE = 600;
/**
 * Most pixels a photo may have before it is decoded (a 48-megapixel camera's picture passes); the
 * decoded bitmap takes 4 bytes a pixel, so a small file claiming 20,000 x 20,000 pixels would need
 * 1.6 GB. The dimensions are read from the file's header, before any decoding.
 */
export const PHOTO_MAX_PIXELS = 50_000_000;
/** Photos decoded at once; more wait their turn, and beyond PHOTO_QUEUE_MAX waiting the server is busy. */
export const PHOTO_CONCURRENCY = 2;
export const PHOTO_QUEUE_MAX = 8;

export type ImageKind = 'png' | 'jpeg' | 'gif' | 'bmp';

/** The image type by its first bytes, or null. */
export function imageKindOf(b: Uint8Array): ImageKind | null {
  const starts = (sig: number[]) => sig.every((v, i) => b[i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'gif';
  if (starts([0x42, 0x4d])) return 'bmp';
  return null;
}

/** Width and height that the file's header declares, or null when the header is not readable. */
export function imageSize(b: Uint8Array, kind: ImageKind): { width: number; height: number } | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const has = (n: number) => b.length >= n;
  switch (kind) {
    case 'png':
      // signature, then the IHDR chunk: length, type, width, height (big-endian)
      if (!has(24) || String.fromCharCode(b[12], b[13], b[14], b[15]) !== 'IHDR') return null;
      return { width: view.getUint32(16), height: view.getUint32(20) };
    case 'gif':
      // the logical screen; a frame larger than the screen is refused by the decoder's bounds
      if (!has(10)) return null;
      return { width: view.getUint16(6, true), height: view.getUint16(8, true) };
    case 'bmp':
      // BITMAPINFOHEADER: width and height (negative height: top-down rows)
      if (!has(26)) return null;
      return { width: Math.abs(view.getInt32(18, true)), height: Math.abs(view.getInt32(22, true)) };
    case 'jpeg': {
      // walk the segments to the first start-of-frame marker
      let i = 2;
      while (i + 9 < b.length) {
        if (b[i] !== 0xff) return null;
        const marker = b[i + 1];
        if (marker === 0xff) {
          i++;
          continue;
        }
        if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
          i += 2;
          continue;
        }
        const length = view.getUint16(i + 2);
        const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
        if (sof) return { width: view.getUint16(i + 7), height: view.getUint16(i + 5) };
        if (length < 2) return null;
        i += 2 + length;
      }
      return null;
    }
  }
}

/** At most PHOTO_CONCURRENCY decodes at once; null when too many already wait. */
let running = 0;
const waiting: Array<() => void> = [];
async function photoSlot(): Promise<(() => void) | null> {
  if (running >= PHOTO_CONCURRENCY) {
    if (waiting.length >= PHOTO_QUEUE_MAX) return null;
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else running++;
  return () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
}

function rejected(c: HandlerContext, key: string, params: Record<string, unknown> = {}): HttpError {
  return httpError(c, 400, key, params);
}

/** Limits of an upload (@fastify/multipart): one file, a few small fields. */
export const UPLOAD_LIMITS = { fileSize: PHOTO_MAX_MB * 1024 * 1024, files: 1, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 50 };

/** The uploaded file of the request (its first file part), checked for size and type by content. */
export async function readUploadedImage(c: HandlerContext): Promise<{ data: Buffer; kind: ImageKind }> {
  let data: Buffer | undefined;
  try {
    data = c.req.isMultipart() ? await (await c.req.file())?.toBuffer() : undefined;
  } catch (err) {
    // over the size limit, or a body that is not well-formed multipart (no boundary, cut short)
    if (isRecord(err) && err.code === 'FST_REQ_FILE_TOO_LARGE') throw rejected(c, 'server.errors.photoTooLarge', { maxMB: PHOTO_MAX_MB });
    throw rejected(c, 'server.errors.photoMissing');
  }
  if (!data || data.length === 0) throw rejected(c, 'server.errors.photoMissing');
  const kind = imageKindOf(data);
  if (!kind) throw rejected(c, 'server.errors.photoType');
  return { data, kind };
}

/** Decodes, shrinks to PHOTO_MAX_SIDE and re-encodes to JPEG; an undecodable file is refused. */
export async function storePhoto(img: { data: Buffer }, c?: HandlerContext): Promise<{ data: Uint8Array; width: number; height: number }> {
  const notPicture = () => (c ? rejected(c, 'server.errors.photoType') : new HttpError(400, 'The file is not a picture', { key: 'server.errors.photoType' }));
  const kind = imageKindOf(img.data);
  const size = kind ? imageSize(img.data, kind) : null;
  if (!size || size.width === 0 || size.height === 0) throw notPicture();
  if (size.width * size.height > PHOTO_MAX_PIXELS) {
    const maxMegapixels = PHOTO_MAX_PIXELS / 1_000_000;
    throw c ? rejected(c, 'server.errors.photoTooManyPixels', { maxMegapixels }) : new HttpError(400, 'The picture has too many pixels', { key: 'server.errors.photoTooManyPixels' });
  }
  const release = await photoSlot();
  if (!release) {
    throw c ? httpError(c, 503, 'server.errors.photoBusy') : new HttpError(503, 'Too many pictures at once', { key: 'server.errors.photoBusy' });
  }
  try {
    return await decodeAndShrink(img.data, notPicture);
  } finally {
    release();
  }
}

async function decodeAndShrink(data: Buffer, notPicture: () => HttpError): Promise<{ data: Uint8Array; width: number; height: number }> {
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(data);
  } catch {
    throw notPicture();
  }
  const { width, height } = image.bitmap;
  if (Math.max(width, height) > PHOTO_MAX_SIDE) {
    if (width >= height) image.resize({ w: PHOTO_MAX_SIDE });
    else image.resize({ h: PHOTO_MAX_SIDE });
  }
  const jpeg = await image.getBuffer('image/jpeg', { quality: 85 });
  return { data: new Uint8Array(jpeg), width: image.bitmap.width, height: image.bitmap.height };
}
