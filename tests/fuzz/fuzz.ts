// A bounded fuzzer of every write operation of the contract, generated from its schemas: a plausible
// body built from the body schema, then broken one way per case (wrong types, huge and deep values,
// NUL and control characters, lone surrogates, out-of-range and non-finite numbers ("Infinity",
// 1e999), unknown fields, missing fields, bad JSON and content types, hostile path ids). Every case
// must be answered below 500. Seeded, so a failing case can be replayed by its number.
import type { ContractOperation } from '../../server/contract';

export interface FuzzCase {
  n: number;
  op: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  what: string;
}

/** mulberry32: a small seeded generator */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}
type Rng = ReturnType<typeof rng>;

/** A plausible value of a schema: what a form would send. */
export function sample(schema: any, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date') return '2026-01-05';
      if (schema.format === 'email') return 'fuzz.parent@example.com';
      return 'Fuzz';
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return schema.items ? [sample(schema.items, depth + 1)] : [];
    case 'object':
    default: {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<any>(schema.properties ?? {})) out[k] = sample(v, depth + 1);
      return out;
    }
  }
}

/** a value JSON.stringify cannot write: the payload carries the number literal 1e999 in its place */
const RAW_1E999 = '\u2063raw-1e999\u2063';
const withRaw = (json: string) => json.split(JSON.stringify(RAW_1E999)).join('1e999');

const nest = (levels: number, leaf: unknown): unknown => (levels === 0 ? leaf : [nest(levels - 1, leaf)]);

/** Values that break a field, one kind per entry. */
const HOSTILE: Array<[string, (r: Rng) => unknown]> = [
  ['null', () => null],
  ['wrong type: number', () => 12345],
  ['wrong type: string', () => 'not-a-number'],
  ['wrong type: boolean', () => true],
  ['wrong type: object', () => ({ a: 1 })],
  ['wrong type: array', () => ['x', 1]],
  ['NUL', () => 'before\u0000after'],
  ['control characters', (r) => `x${String.fromCharCode(1 + r.int(30))}y\u007f`],
  ['CR/LF', () => 'line\r\nBcc: someone@example.com'],
  ['< > ^', () => '<script>alert(1)</script>^'],
  ['huge string', () => 'A'.repeat(200_000)],
  ['unicode', () => '\u202e\ud83d\ude00\ufeff\u0301\uffff'],
  ['lone surrogate', () => '\ud800x'],
  ['lone low surrogate', () => 'x\udc00'],
  ['cut emoji', () => 'Ana \ud83d'],
  ['"Infinity" as text', () => 'Infinity'],
  ['"-Infinity" as text', () => '-Infinity'],
  ['"1e999" as text', () => '1e999'],
  ['1e999 as a JSON number', () => RAW_1E999],
  ['2^31', () => 2 ** 31],
  ['-2^31-1', () => -(2 ** 31) - 1],
  ['2^53+', () => 2 ** 53 + 2],
  ['1e308', () => 1e308],
  ['fraction', () => 1.5],
  ['negative', () => -1],
  ['zero', () => 0],
  ['deep array', (r) => nest(20 + r.int(20), 'x')],
  ['long array', () => Array.from({ length: 5000 }, (_, i) => i)],
  ['empty string', () => ''],
  ['spaces', () => '   '],
  ['date nonsense', () => '02/30/2026'],
  ['prototype key', () => JSON.parse('{"__proto__":{"polluted":1},"constructor":{"prototype":{"x":1}}}')],
];

/** Every [path] of leaves and containers of a body, to break one. */
function paths(value: unknown, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  if (value && typeof value === 'object' && prefix.length < 6) {
    for (const [k, v] of Object.entries(value)) paths(v, [...prefix, k], out);
  }
  return out;
}

function setPath(value: any, path: string[], v: unknown): any {
  if (path.length === 0) return v;
  const [head, ...rest] = path;
  const copy = Array.isArray(value) ? [...value] : { ...(value ?? {}) };
  (copy as any)[head] = setPath((value ?? {})[head], rest, v);
  return copy;
}

function deletePath(value: any, path: string[]): any {
  if (path.length === 0 || !value || typeof value !== 'object') return value;
  const [head, ...rest] = path;
  const copy = Array.isArray(value) ? [...value] : { ...value };
  if (rest.length === 0) delete (copy as any)[head];
  else (copy as any)[head] = deletePath((value as any)[head], rest);
  return copy;
}

const PATH_IDS = ['2147483648', '-1', '0', '1e3', 'abc', '%00', '99999999999999999999', '1.5', '%2e%2e%2f', ' 1', 'Infinity', '-Infinity', '1e999', '9999999999999', '%ED%A0%80'];

/** The case number n of the run (deterministic for a seed). */
export function makeCase(ops: ContractOperation[], seed: number, n: number, token: string | null): FuzzCase {
  const r = rng(seed * 1_000_003 + n);
  const op = r.pick(ops);
  let url = op.url.replace(/:([A-Za-z]+)/g, () => String(1 + r.int(40)));
  const headers: Record<string, string> = {};
  if (token && op.auth !== 'public') headers.authorization = `Bearer ${token}`;
  const base = sample(op.body ?? { type: 'object', properties: {} });
  const kind = r.int(10);
  let what: string;
  let payload: string | Buffer | undefined;
  if (kind === 0) {
    // hostile path ids
    const id = r.pick(PATH_IDS);
    url = op.url.includes(':') ? op.url.replace(/:([A-Za-z]+)/g, id) : `${url}?id=${id}`;
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(base);
    what = `path id ${id}`;
  } else if (kind === 1) {
    const bad = r.pick([
      ['bad JSON', '{"a":', 'application/json'],
      ['JSON with a trailing comma', '{"a":1,}', 'application/json'],
      ['text body', 'hello', 'text/plain'],
      ['XML', '<a>1</a>', 'application/xml'],
      ['form-urlencoded', 'a=1&b=2', 'application/x-www-form-urlencoded'],
      ['multipart without a boundary', '--x\r\n\r\n', 'multipart/form-data'],
      ['multipart with garbage', '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\u0089PNG\r\n--b--', 'multipart/form-data; boundary=b'],
      ['empty JSON body', '', 'application/json'],
      ['JSON null', 'null', 'application/json'],
      ['JSON array', '[1,2,3]', 'application/json'],
      ['JSON string', '"x"', 'application/json'],
      ['deep JSON', '['.repeat(5000) + ']'.repeat(5000), 'application/json'],
      ['charset nonsense', '{}', 'application/json; charset=utf-7'],
    ] as const);
    what = bad[0];
    payload = bad[1];
    headers['content-type'] = bad[2];
  } else if (kind === 2) {
    // an unknown field next to the plausible ones, or a missing one
    if (r.int(2) === 0) {
      what = 'unknown field';
      payload = withRaw(JSON.stringify({ ...(base as object), [`fuzz_${r.int(1000)}`]: r.pick(HOSTILE)[1](r) }));
    } else {
      const ps = paths(base).filter((p) => p.length > 0);
      const p = ps.length ? r.pick(ps) : [];
      what = `missing ${p.join('.') || 'everything'}`;
      payload = JSON.stringify(deletePath(base, p));
    }
    headers['content-type'] = 'application/json';
  } else {
    // one field broken
    const ps = paths(base);
    const p = r.pick(ps);
    const [label, make] = r.pick(HOSTILE);
    what = `${p.join('.') || 'body'}: ${label}`;
    payload = withRaw(JSON.stringify(setPath(base, p, make(r))));
    headers['content-type'] = 'application/json';
  }
  return { n, op: op.id, method: op.method, url, headers, payload, what };
}

export interface FuzzReport {
  cases: number;
  byStatus: Record<string, number>;
  errors: Array<{ c: FuzzCase; status: number; body: string }>;
  ms: number;
}

/** The operations the fuzzer writes to: every write but sign-out (it would end the fuzzer's session). */
export function writeOperations(ops: ContractOperation[]): ContractOperation[] {
  return ops.filter((op) => op.method !== 'GET' && op.id !== 'Authentication.logout');
}

type Inject = (req: { method: string; url: string; headers: Record<string, string>; payload?: string | Buffer; remoteAddress: string }) => Promise<{ statusCode: number; body: string }>;

export async function runFuzz(inject: Inject, ops: ContractOperation[], opts: { cases: number; seed: number; token: string | null }): Promise<FuzzReport> {
  const started = performance.now();
  const byStatus: Record<string, number> = {};
  const errors: FuzzReport['errors'] = [];
  const writes = writeOperations(ops);
  for (let n = 0; n < opts.cases; n++) {
    const c = makeCase(writes, opts.seed, n, opts.token);
    // a client address per case, so the per-address limits do not answer for the handlers
    const res = await inject({ method: c.method, url: c.url, headers: c.headers, payload: c.payload, remoteAddress: `10.77.${(n >> 8) & 255}.${n & 255}` });
    byStatus[res.statusCode] = (byStatus[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) errors.push({ c: { ...c, payload: typeof c.payload === 'string' ? c.payload.slice(0, 300) : c.payload }, status: res.statusCode, body: res.body.slice(0, 300) });
  }
  return { cases: opts.cases, byStatus, errors, ms: performance.now() - started };
}
