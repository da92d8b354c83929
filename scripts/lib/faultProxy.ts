// An HTTP proxy in front of a server that can misbehave on purpose, one request at a time: a hook
// reads each request (its body too) and says what becomes of it. What a benchmark injects between the
// payment gateway and the portal (notifications lost, late, repeated, out of order; a gateway call
// that times out before or after the gateway did it). A proxy without a target (its server is being
// restarted) answers 502, as a load balancer in front of a dead server would.
import http from 'node:http';
import { freePort } from './portal';

export type ProxyAction =
  /** forwarded as it came */
  | { kind: 'pass' }
  /** answered 200 and never forwarded: the sender believes it delivered */
  | { kind: 'ack' }
  /** forwarded once `until` settles */
  | { kind: 'wait'; until: Promise<unknown> }
  /** forwarded, then `copies` more times, each after `gapMs`: the sender gets the first answer */
  | { kind: 'copies'; copies: number; gapMs: number }
  /** no answer until the sender gives up; with `forward`, the server does the request first */
  | { kind: 'hang'; forward: boolean };

export interface ProxyRequest {
  method: string;
  url: string;
  body: Buffer;
}

export interface FaultProxy {
  url: string;
  /** where requests go; '' while the server is down */
  setTarget(url: string): void;
  close(): Promise<void>;
}

/** the longest a hung request is held when its sender does not give up */
const HANG_MS = 30_000;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function send(target: string, req: ProxyRequest, headers: http.IncomingHttpHeaders): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const out = http.request(new URL(req.url, target), { method: req.method, headers: { ...headers, 'content-length': String(req.body.length), connection: 'close' } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => resolve({ status: r.statusCode ?? 502, headers: r.headers, body: Buffer.concat(chunks) }));
      r.on('error', reject);
    });
    out.on('error', reject);
    out.end(req.body);
  });
}

export async function startFaultProxy(decide: (req: ProxyRequest) => ProxyAction | Promise<ProxyAction>, target = ''): Promise<FaultProxy> {
  let current = target;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const r: ProxyRequest = { method: req.method ?? 'GET', url: req.url ?? '/', body: Buffer.concat(chunks) };
    const headers = { ...req.headers };
    delete headers['content-length'];
    delete headers.connection;
    delete headers['keep-alive'];
    const reply = (a: Answer) => {
      if (res.headersSent || res.destroyed) return;
      const h = { ...a.headers };
      delete h['transfer-encoding'];
      delete h.connection;
      res.writeHead(a.status, { ...h, 'content-length': String(a.body.length) }).end(a.body);
    };
    const forward = async (): Promise<Answer> => {
      if (!current) return { status: 502, headers: {}, body: Buffer.alloc(0) };
      return send(current, r, headers).catch(() => ({ status: 502, headers: {}, body: Buffer.alloc(0) }));
    };
    const action = await decide(r);
    switch (action.kind) {
      case 'ack':
        return reply({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('{}') });
      case 'wait':
        await action.until.catch(() => undefined);
        return reply(await forward());
      case 'copies': {
        reply(await forward());
        for (let i = 0; i < action.copies; i++) {
          await new Promise((t) => setTimeout(t, action.gapMs));
          await forward();
        }
        return;
      }
      case 'hang': {
        if (action.forward) await forward();
        // held until the sender's own timeout closes the connection (or HANG_MS)
        await new Promise<void>((done) => {
          const timer = setTimeout(done, HANG_MS);
          res.once('close', () => (clearTimeout(timer), done()));
        });
        res.destroy();
        return;
      }
      default:
        return reply(await forward());
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1000;
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${port}`,
    setTarget: (url) => (current = url),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
