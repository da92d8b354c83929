// The payment gateways of a process, from its environment: the server's and the CLIs that charge (the
// autopay run by hand) take them the same way, so a CLI never charges where the server would not.
// PAYMENT_GATEWAYS configures real gateways; without it the built-in sandbox runs beside the portal,
// except in production unless SANDBOX_GATEWAY_ENABLED=1.
import type { PaymentGateway } from './adapter';
import { gatewaysFromSettings } from './plugins';
import { gatewayAdapters } from './registry';
import { startSandboxProcess } from './sandbox/process';

export interface GatewaysFromEnv {
  gateways: Record<number, PaymentGateway>;
  /** the sandbox's address when it runs */
  sandboxUrl: string | null;
  /** stops the sandbox this process started (nothing otherwise) */
  stop(): void;
}

/** Throws when PAYMENT_GATEWAYS is invalid (the message names the entry). */
export async function gatewaysFromEnv(opts: { root: string; host: string; port: number; pgliteDir: string; production: boolean; log: (line: string) => void }): Promise<GatewaysFromEnv> {
  if (process.env.PAYMENT_GATEWAYS) return { gateways: gatewaysFromSettings(gatewayAdapters(), process.env.PAYMENT_GATEWAYS), sandboxUrl: null, stop: () => undefined };
  if (opts.production && process.env.SANDBOX_GATEWAY_ENABLED !== '1') return { gateways: {}, sandboxUrl: null, stop: () => undefined };
  // the sandbox's tokens are in its data file, beside the server's database: a CLI meets the server's
  const sandbox = await startSandboxProcess({
    root: opts.root,
    host: opts.host,
    portalPort: opts.port,
    dataFile: process.env.SANDBOX_GATEWAY_DATA || `${opts.pgliteDir}.sandbox-gateway.json`,
    log: opts.log,
  });
  return { gateways: sandbox.gateways, sandboxUrl: sandbox.url, stop: () => sandbox.stop() };
}
