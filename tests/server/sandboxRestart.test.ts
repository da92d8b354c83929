// The sandbox gateway keeps the notifications it has not delivered in its store (attempts so far, when
// the next is due) and retries them with exponential backoff, across a restart: a payment's notification
// fails while the portal is down, the sandbox program is killed and started again from its data file,
// the portal comes up, and the notification is delivered and applies the payment without the parent's
// return.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../../server/db/schema';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import type { StoredDelivery } from '../../sandbox-gateway/store';
import type { BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { BACKENDS, MARIA, apiClient, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'sandbox-restart-secret-0123456789';

/** Waits until `read` answers something truthy (checked every 50 ms), or fails after `ms`. */
async function until<T>(what: string, read: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(BACKENDS)('sandbox notifications across a restart on %s', (backend) => {
  let t: TestApp;
  let maria = '';
  let portalPort = 0;
  let gwPort = 0;
  const dataFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-restart-')), 'sandbox.json');
  const children: ChildProcess[] = [];
  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };

  /** The sandbox program, as `npm start` runs it (its default retry schedule), once it listens. */
  async function startSandbox(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sandbox-gateway/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', SANDBOX_GATEWAY_PORT: String(gwPort), SANDBOX_GATEWAY_HOST: '127.0.0.1', SANDBOX_GATEWAY_SECRETS: JSON.stringify({ '1': SECRET }), SANDBOX_GATEWAY_DATA: dataFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += String(d)));
    child.stderr!.on('data', (d: Buffer) => (out += String(d)));
    await until(`the sandbox to listen (${out})`, () => out.includes('Sandbox payment gateway: http') || child.exitCode !== null);
    if (child.exitCode !== null) throw new Error(`the sandbox stopped: ${out}`);
    return child;
  }
  const stored = (): StoredDelivery[] => {
    try {
      return Object.values((JSON.parse(fs.readFileSync(dataFile, 'utf8')) as { deliveries?: Record<string, StoredDelivery> }).deliveries ?? {});
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    gwPort = await freePort();
    portalPort = await freePort();
    t = await createTestApp(backend, {
      // the portal's notifications address; nothing listens there until the portal comes up
      publicUrl: `http://127.0.0.1:${portalPort}`,
      gateways: { 1: sandboxGateway({ code: 1, url: `http://127.0.0.1:${gwPort}`, merchant: '1', secret: SECRET }) },
      providerSettings: { brightpath: { payments: { gateways: { CCD: 1, ECH: 1 } } } },
    });
    maria = await tokenFor(t.app, ...MARIA);
  }, 120_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await t?.close();
    fs.rmSync(path.dirname(dataFile), { recursive: true, force: true });
  });

  it('a notification that failed while the portal was down is delivered by the restarted sandbox once the portal is up', async () => {
    const first = await startSandbox();
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '21.00' } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const { checkoutUrl, paymentID } = started.json();
    const paid = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: '4111111111111111', expiry: '12/30', cvv: '123' }), redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(new URL(paid.headers.get('location')!).searchParams.get('status')).toBe('APPROVED');

    // the portal is down: the first try fails and the store says when the next is due
    const failed = await until('a failed try written to the store', () => stored().find((d) => d.attempts >= 1));
    expect(JSON.parse(failed.body)).toMatchObject({ type: 'transaction.completed', transaction: { reference: paymentID, status: 'APPROVED' } });
    expect(failed.nextAttemptAt).toBeGreaterThan(Date.now() - 60_000);

    // the sandbox dies (no shutdown) and starts again from its data file, the portal still down
    first.kill('SIGKILL');
    await until('the first sandbox to end', () => first.exitCode !== null || first.signalCode !== null);
    await startSandbox();
    const attempt = async () => (await t.db.handle.db.select().from(s.paymentAttempts).where(eq(s.paymentAttempts.publicId, paymentID)))[0];
    expect((await attempt()).status).toBe('CREATED');

    // the portal comes up: the next try delivers it, and it applies the payment (nobody returned from the page)
    await t.app.listen({ port: portalPort, host: '127.0.0.1' });
    const applied = await until('the payment applied by the notification', async () => {
      const a = await attempt();
      return a.status === 'APPROVED' ? a : null;
    });
    expect(applied.paymentId).toBeGreaterThan(0);
    const events = await t.db.handle.db.select().from(s.gatewayEvents).where(eq(s.gatewayEvents.eventId, (JSON.parse(failed.body) as { eventId: string }).eventId));
    expect(events).toHaveLength(1);
    // and the sandbox's store keeps nothing more to deliver
    await until('the delivery gone from the store', () => stored().length === 0);
  }, 120_000);
});
