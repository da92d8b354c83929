// Starts the sandbox payment gateway on its own port (its own origin):
//   SANDBOX_GATEWAY_SECRETS='{"northridge":"a-long-random-secret"}' npx tsx sandbox-gateway/main.ts
// Environment:
//   SANDBOX_GATEWAY_SECRETS     JSON object merchant → shared secret (required)
//   SANDBOX_GATEWAY_PORT        default 8090
//   SANDBOX_GATEWAY_HOST        default 127.0.0.1
//   SANDBOX_GATEWAY_PUBLIC_URL  default http://HOST:PORT (the hosted page's address as browsers reach it)
//   SANDBOX_GATEWAY_DATA        the store's JSON file, default .data/sandbox-gateway.json in the repository
//                               (undelivered notifications too: a restart resumes them)
//   SANDBOX_GATEWAY_BLOCKED_IPS comma-separated client IPs the fraud filter refuses (optional)
//   SANDBOX_GATEWAY_SETTLE_EVERY_MS how often due bank debits settle or come back, default 60000
//   SANDBOX_GATEWAY_LOG=1       Fastify's request log (never bodies)
//   SANDBOX_GATEWAY_SETTLE_AHEAD=1  a settlement run may name a later date (tests only)
// A sandbox takes no real money: with NODE_ENV=production it refuses to start unless
// SANDBOX_GATEWAY_ENABLED=1 says it is meant to.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function fail(message: string): never {
  console.error(`Sandbox payment gateway: ${message}`);
  process.exit(1);
}

if (process.env.NODE_ENV === 'production' && process.env.SANDBOX_GATEWAY_ENABLED !== '1') {
  fail('refusing to start with NODE_ENV=production: the sandbox gateway takes no real payments. Set SANDBOX_GATEWAY_ENABLED=1 to run it anyway (test environments only).');
}

function readSecrets(): Record<string, string> {
  const raw = process.env.SANDBOX_GATEWAY_SECRETS;
  if (!raw || !raw.trim()) fail('SANDBOX_GATEWAY_SECRETS is required: a JSON object of merchant → shared secret, e.g. {"northridge":"a-long-random-secret"}.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail('SANDBOX_GATEWAY_SECRETS is not valid JSON: it must be a JSON object of merchant → shared secret.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) fail('SANDBOX_GATEWAY_SECRETS must be a JSON object of merchant → shared secret.');
  const secrets: Record<string, string> = {};
  for (const [merchant, secret] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof secret !== 'string' || secret.length < 8) fail(`SANDBOX_GATEWAY_SECRETS: the secret of "${merchant}" must be a string of at least 8 characters.`);
    secrets[merchant] = secret;
  }
  if (Object.keys(secrets).length === 0) fail('SANDBOX_GATEWAY_SECRETS names no merchant.');
  return secrets;
}

const secrets = readSecrets();
const port = Number(process.env.SANDBOX_GATEWAY_PORT || 8090);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`SANDBOX_GATEWAY_PORT is not a port number: ${process.env.SANDBOX_GATEWAY_PORT}`);
const host = process.env.SANDBOX_GATEWAY_HOST || '127.0.0.1';
const publicUrl = process.env.SANDBOX_GATEWAY_PUBLIC_URL || `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
try {
  const u = new URL(publicUrl);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
} catch {
  fail(`SANDBOX_GATEWAY_PUBLIC_URL is not an http(s) URL: ${publicUrl}`);
}
const dataFile = process.env.SANDBOX_GATEWAY_DATA || join(ROOT, '.data', 'sandbox-gateway.json');
const blockedIps = (process.env.SANDBOX_GATEWAY_BLOCKED_IPS || '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const settleEveryMs = Number(process.env.SANDBOX_GATEWAY_SETTLE_EVERY_MS || 60_000);
if (!Number.isInteger(settleEveryMs) || settleEveryMs < 10 || settleEveryMs > 86_400_000) fail(`SANDBOX_GATEWAY_SETTLE_EVERY_MS must be a number of milliseconds from 10 to 86400000: ${process.env.SANDBOX_GATEWAY_SETTLE_EVERY_MS}`);

const { buildSandboxGateway } = await import('./app');
// a test convenience, switched on explicitly (browser tests settle bank debits days ahead)
const settleAhead = process.env.SANDBOX_GATEWAY_SETTLE_AHEAD === '1';
const gateway = await buildSandboxGateway({ secrets, publicUrl, dataFile, blockedIps, settleEveryMs, settleAhead, logger: process.env.SANDBOX_GATEWAY_LOG === '1' });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    void gateway.close().finally(() => process.exit(0));
  });
}

await gateway.app.listen({ port, host });
console.log(`Sandbox payment gateway: ${publicUrl}  (listening on ${host}:${port}; merchants: ${Object.keys(secrets).join(', ')}; store: ${dataFile})`);

// started beside the portal: it ends with the portal, even one killed without a shutdown
const parent = Number(process.env.SANDBOX_GATEWAY_PARENT_PID);
if (Number.isInteger(parent) && parent > 1) {
  setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch {
      void gateway.close().finally(() => process.exit(0));
    }
  }, 2000).unref();
}
