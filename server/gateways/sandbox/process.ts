// `npm start` runs the built-in sandbox gateway beside the portal, in a process of its own on its own
// port (its own origin: card and bank numbers are typed there, never on the portal's origin). Its
// shared secrets are made once and kept beside its store. In production the sandbox runs only when
// SANDBOX_GATEWAY_ENABLED=1 says so; a real gateway is configured with PAYMENT_GATEWAYS instead. The
// program is sandbox-gateway/main.ts, started by its path: the portal imports only its protocol.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import type { PaymentGateway } from '../adapter';
import { isStringRecord } from '../../json';
import { sandboxAdapter } from './index';

/** Gateway codes the sandbox stands in for (its adapter's). */
const SANDBOX_CODES = sandboxAdapter.gateways.map((g) => g.code);

/**
 * A port free now, other than the portal's: the portal listens only after the sandbox has started,
 * so the system could otherwise hand its port, free until then, to the sandbox.
 */
async function freePort(host: string, not: number): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const srv = net.createServer();
      srv.once('error', reject);
      srv.listen(0, host, () => {
        const address = srv.address();
        srv.close(() => (address !== null && typeof address === 'object' ? resolve(address.port) : reject(new Error(`no port on ${host}`))));
      });
    });
    if (port !== not) return port;
  }
}

function secretsFor(file: string): Record<string, string> {
  if (existsSync(file)) {
    const saved: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isStringRecord(saved)) throw new Error(`${file}: not the sandbox's secrets (gateway code -> secret); delete it to make new ones`);
    return saved;
  }
  const secrets = Object.fromEntries(SANDBOX_CODES.map((c) => [String(c), randomBytes(32).toString('hex')]));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600 });
  return secrets;
}

export interface SandboxProcess {
  url: string;
  gateways: Record<number, PaymentGateway>;
  stop(): void;
}

export async function startSandboxProcess(opts: { root: string; host: string; portalPort: number; dataFile: string; log: (line: string) => void }): Promise<SandboxProcess> {
  const port = Number(process.env.SANDBOX_GATEWAY_PORT) || (opts.portalPort === 8080 ? 8090 : await freePort(opts.host, opts.portalPort));
  const url = process.env.SANDBOX_GATEWAY_PUBLIC_URL || `http://${opts.host}:${port}`;
  const secrets = secretsFor(`${opts.dataFile}.secrets`);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(opts.root, 'sandbox-gateway', 'main.ts')], {
    cwd: opts.root,
    env: { ...process.env, SANDBOX_GATEWAY_PORT: String(port), SANDBOX_GATEWAY_HOST: opts.host, SANDBOX_GATEWAY_PUBLIC_URL: url, SANDBOX_GATEWAY_SECRETS: JSON.stringify(secrets), SANDBOX_GATEWAY_DATA: opts.dataFile, SANDBOX_GATEWAY_PARENT_PID: String(process.pid) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => opts.log(String(d).trimEnd()));
  child.stderr?.on('data', (d: Buffer) => opts.log(String(d).trimEnd()));
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal === null) opts.log(`Sandbox payment gateway stopped (exit ${code}).`);
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stop);
  const gateways = Object.fromEntries(SANDBOX_CODES.map((code) => [code, sandboxAdapter.create(code, { url, merchant: String(code), secret: secrets[String(code)] })]));
  return { url, gateways, stop };
}

