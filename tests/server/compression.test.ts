// Compression and caching: API answers compressed (not those carrying a token), GET answers under an
// ETag, the built portal's precompressed files with their cache lifetimes.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOperations, readContract } from '../../server/contract';
import { pickEncoding, secretRoutes } from '../../server/compression';
import { ROOT } from '../../server/app';
import { fixedToday } from '../../src/engine/today';
import { BACKENDS, createTestApp, freshIp, MARIA, tokenFor, type TestApp } from './helpers';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding(undefined)).toBeNull();
  });

  it("tells the contract's operations whose answers carry a token or a secret", () => {
    const secret = secretRoutes(contractOperations(readContract(ROOT)));
    expect(secret).toContain('POST /api/Authentication/login');
    expect(secret).toContain('GET /api/Demographics/adults/pin');
    expect(secret).not.toContain('GET /api/Customer/declarations');
    expect(secret).not.toContain('GET /api/Customer/program');
  });
});

describe.each(BACKENDS)('compression and caching on %s', (backend) => {
  let t: TestApp;
  let dist: string;
  const js = `export const portal = ${JSON.stringify('x'.repeat(4000))};\n`;
  const html = `<!doctype html><html><head><title>Parent Portal</title></head><body><div id="root"></div>${' '.repeat(2000)}</body></html>`;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    for (const [file, body] of [
      ['index.html', html],
      ['assets/index-abc123.js', js],
    ] as const) {
      writeFileSync(path.join(dist, file), body);
      writeFileSync(path.join(dist, `${file}.br`), zlib.brotliCompressSync(body));
      writeFileSync(path.join(dist, `${file}.gz`), zlib.gzipSync(body));
    }
    t = await createTestApp(backend, { distDir: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('the declaration set is sent brotli or gzip compressed as accepted, and not downloaded again while unchanged', async () => {
    const url = '/api/Customer/declarations?appName=brightpath';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const set = plain.json();

    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString('utf8'))).toEqual(set);

    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString('utf8'))).toEqual(set);

    const etag = String(br.headers.etag);
    expect(etag).toContain(set.version);
    const again = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('an answer that carries a token is never compressed; an authenticated read is', async () => {
    const ip = freshIp();
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/Authentication/login',
      payload: { appName: MARIA[0], email: MARIA[1], password: MARIA[2] },
      headers: { 'accept-encoding': 'br, gzip' },
      remoteAddress: ip,
    });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-encoding']).toBeUndefined();
    expect(login.json().token).toBeTruthy();

    const token = await tokenFor(t.app, ...MARIA);
    const url = '/api/Customer/declarations?appName=brightpath';
    const read = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br' } });
    expect(read.headers['content-encoding']).toBe('br');
  });

  it("the app QR code is an SVG image the server draws, for https addresses only", async () => {
    const text = 'https://play.google.com/store/search?q=Bright%20Path&c=apps';
    const qr = await t.app.inject({ method: 'GET', url: `/parentportal/qr.svg?text=${encodeURIComponent(text)}` });
    expect(qr.statusCode).toBe(200);
    expect(qr.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(qr.body).toMatch(/^<svg[^>]*viewBox/);
    expect(qr.headers['cache-control']).toBe('public, max-age=86400');
    for (const bad of ['javascript:alert(1)', 'http://example.com', '', `https://${'a'.repeat(600)}`]) {
      const res = await t.app.inject({ method: 'GET', url: `/parentportal/qr.svg?text=${encodeURIComponent(bad)}` });
      expect(res.statusCode).toBe(400);
    }
  });

  it('hashed assets are immutable for a year and index.html is revalidated, both sent precompressed', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/parentportal/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(asset.rawPayload).toString('utf8')).toBe(js);

    const gz = await t.app.inject({ method: 'GET', url: '/parentportal/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString('utf8')).toBe(js);

    const none = await t.app.inject({ method: 'GET', url: '/parentportal/assets/index-abc123.js' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(js);

    for (const url of ['/parentportal/', '/parentportal/home']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['content-encoding']).toBe('br');
      // with a fixed 'today' (PORTAL_TODAY) the page names that day for the browser
      const day = fixedToday();
      const expected = day ? html.replace('<head>', `<head><meta name="portal-today" content="${day}">`) : html;
      expect(zlib.brotliDecompressSync(page.rawPayload).toString('utf8')).toBe(expected);
    }
  });
});
