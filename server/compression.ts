// Compression and revalidation of the server's own answers (API JSON, validator modules). The built
// portal's files are compressed at build time and served by @fastify/static (preCompressed).
//  - An answer of 1 kB or more is sent brotli or gzip compressed, whichever the browser prefers,
//    except an answer that carries a token or a secret (a session cookie, a token, a PIN, a
//    password): compressing a secret beside reflected input is a side channel (BREACH).
//  - A GET answer gets an ETag (its content hash) unless it may not be stored; a request whose
//    If-None-Match names it is answered 304 without a body, so a returning parent downloads nothing
//    unchanged (the declaration set above all).
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from './json';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const MIN_COMPRESS_BYTES = 1024;

/** Property names of an answer that hold a secret (tokens, secrets, passwords, PINs, one-time codes). */
const SECRET_PROPERTY = /^(?:[a-z]*token|[a-z]*secret|password|newpassword|pin|otp)$/i;

const COMPRESSIBLE = /^(?:application\/(?:json|javascript)|text\/|image\/svg\+xml)/;

export type Encoding = 'br' | 'gzip';

/** The best encoding the Accept-Encoding header allows (brotli before gzip; q=0 refuses). */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    accepted.set(name.trim(), q ? Number(q[1]) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** Whether a response schema declares a property that holds a secret, at any depth. */
export function declaresSecret(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(declaresSecret);
  if (!isRecord(schema)) return false;
  const properties = schema.properties;
  if (isRecord(properties) && Object.keys(properties).some((k) => SECRET_PROPERTY.test(k))) return true;
  return Object.values(schema).some(declaresSecret);
}

/** The routes ("METHOD /url") of the contract's operations whose answers carry a secret. */
export function secretRoutes(ops: Array<{ method: string; url: string; response?: unknown }>): Set<string> {
  return new Set(ops.filter((op) => declaresSecret(op.response)).map((op) => `${op.method.toUpperCase()} ${op.url}`));
}

function appendVary(reply: FastifyReply, value: string) {
  const vary = reply.getHeader('vary');
  const list = vary ? String(vary).split(',').map((v) => v.trim().toLowerCase()) : [];
  if (!list.includes(value.toLowerCase())) reply.header('vary', vary ? `${vary}, ${value}` : value);
}

/** Compressed copies of large answers by content hash (the declaration set, validator modules). */
class CompressedCache {
  private entries = new Map<string, Buffer>();
  constructor(private readonly max = 64) {}
  get(key: string) {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }
  set(key: string, value: Buffer) {
    this.entries.set(key, value);
    if (this.entries.size <= this.max) return;
    // the entry used longest ago goes (a Map keeps its keys in the order set; get sets a hit again)
    const oldest = this.entries.keys().next();
    if (!oldest.done) this.entries.delete(oldest.value);
  }
}

/** `secret`: routes ("METHOD /url") whose answers carry a token or a secret (see secretRoutes). */
export function installCompression(app: FastifyInstance, secret: Set<string>): void {
  const cache = new CompressedCache();

  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload; // files and streams
    if (reply.getHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');

    let etag: string | undefined;
    const cacheControl = String(reply.getHeader('cache-control') ?? '');
    if (req.method === 'GET' && reply.statusCode === 200 && !/no-store/i.test(cacheControl)) {
      const given = reply.getHeader('etag');
      etag = typeof given === 'string' ? given : undefined;
      if (!etag) {
        etag = `"${createHash('sha1').update(payload).digest('base64url').slice(0, 22)}"`;
        reply.header('etag', etag);
      }
      const match = req.headers['if-none-match'];
      if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
        reply.code(304);
        reply.removeHeader('content-length');
        reply.removeHeader('content-type');
        return '';
      }
    }

    const size = Buffer.byteLength(payload);
    if (size < MIN_COMPRESS_BYTES || !COMPRESSIBLE.test(type)) return payload;
    // an answer that sets a cookie or carries a token or secret is never compressed
    if (reply.getHeader('set-cookie') || secret.has(`${req.method} ${req.routeOptions.url}`)) return payload;
    appendVary(reply, 'Accept-Encoding');
    const encoding = pickEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;

    const key = etag && size >= 8192 ? `${etag}:${encoding}` : null;
    let body = key ? cache.get(key) : undefined;
    if (!body) {
      // brotli 5 and gzip 6: most of the gain for a fraction of the maximum levels' time
      body =
        encoding === 'br'
          ? await brotli(payload, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size } })
          : await gzip(payload, { level: 6 });
      if (key) cache.set(key, body);
    }
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    return body;
  });
}
