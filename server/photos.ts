// Photos (spec 2.10): the upload is a multipart body with one file; its type is decided by its
// content (magic bytes), never by its name, then it is decoded, resized and re-encoded as JPEG, so
// nothing the parent sent is ever served back as is.
import { Jimp } from 'jimp';
import type { HandlerContext } from './context';
import { HttpError } from './errors';

/** Largest photo accepted, in MB (the upload action declares the same limit). */
export const PHOTO_MAX_MB = 5;
/** Longest side of a stored photo, in pixels. */
export const PHOTO_MAX_SIDE = 600;

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

/** The first file part of a multipart/form-data body. */
export function firstFilePart(body: Buffer, contentType: string): { fileName: string; data: Buffer } | null {
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!m) return null;
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  let pos = body.indexOf(boundary);
  while (pos >= 0) {
    const headStart = pos + boundary.length + 2;
    const headEnd = body.indexOf('\r\n\r\n', headStart);
    if (headEnd < 0) return null;
    const head = body.subarray(headStart, headEnd).toString('utf8');
    const next = body.indexOf(boundary, headEnd + 4);
    if (next < 0) return null;
    const name = /filename="([^"]*)"/i.exec(head);
    if (name) return { fileName: name[1], data: body.subarray(headEnd + 4, next - 2) };
    pos = next;
  }
  return null;
}

function rejected(c: HandlerContext, key: string, params: Record<string, unknown> = {}): HttpError {
  return new HttpError(400, c.deps.t(c.lang, key, params), { key: `server.${key}` });
}

/** The uploaded file of the request, checked for size and type by content. */
export function readUploadedImage(c: HandlerContext): { data: Buffer; kind: ImageKind } {
  const body = c.body;
  const part = Buffer.isBuffer(body) ? firstFilePart(body, String(c.req.headers['content-type'] ?? '')) : null;
  if (!part || part.data.length === 0) throw rejected(c, 'errors.photoMissing');
  if (part.data.length > PHOTO_MAX_MB * 1024 * 1024) throw rejected(c, 'errors.photoTooLarge', { maxMB: PHOTO_MAX_MB });
  const kind = imageKindOf(part.data);
  if (!kind) throw rejected(c, 'errors.photoType');
  return { data: part.data, kind };
}

/** Decodes, shrinks to PHOTO_MAX_SIDE and re-encodes as JPEG; an undecodable file is refused. */
export async function storePhoto(img: { data: Buffer }, c?: HandlerContext): Promise<{ data: Uint8Array; width: number; height: number }> {
  let image: Awaited<ReturnType<typeof Jimp.read>>;
  try {
    image = await Jimp.read(img.data);
  } catch {
    throw c ? rejected(c, 'errors.photoType') : new HttpError(400, 'The file is not a picture', { key: 'server.errors.photoType' });
  }
  const { width, height } = image.bitmap;
  if (Math.max(width, height) > PHOTO_MAX_SIDE) {
    if (width >= height) image.resize({ w: PHOTO_MAX_SIDE });
    else image.resize({ h: PHOTO_MAX_SIDE });
  }
  const data = await image.getBuffer('image/jpeg', { quality: 85 });
  return { data: new Uint8Array(data), width: image.bitmap.width, height: image.bitmap.height };
}
