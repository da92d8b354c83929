// Checkout: CHECKOUT_PAYMENTS parents' payments of $1.00 by card, CHECKOUT_CONCURRENCY at a time,
// against the production server (embedded database, or DATABASE_URL) with the sandbox gateway beside
// it. Every payment is started twice at once (a double click) and its return is answered twice (a
// refresh), while the gateway's notification arrives too. Prints p50 / p99 of starting a checkout and
// of a whole payment (start, the hosted page, the return), and checks the books: one payment and one
// ledger entry per checkout, the balance lowered by exactly the sum. Exits 1 when a count is wrong.
//   npm run bench:checkout
//   CHECKOUT_PAYMENTS=400 CHECKOUT_CONCURRENCY=40 npm run bench:checkout
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startPortal } from './lib/portal';

const PAYMENTS = Number(process.env.CHECKOUT_PAYMENTS || 200);
const CONCURRENCY = Number(process.env.CHECKOUT_CONCURRENCY || 20);

/** A Luhn-valid Visa number of its own per payment (one card would trip the gateway's velocity filter). */
function cardNumber(n: number): string {
  // 4242...: clear of the sandbox's special test numbers (4000...)
  const body = `4242${String(100000000000 + n).slice(-11)}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d *= 2;
    if (d > 9) d -= 9;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pp-bench-checkout-'));
const portal = await startPortal(
  // every parent of the run pays from this machine: the per-address limits (30 checkouts a minute)
  // would answer for the server
  { PGLITE_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? '', SANDBOX_GATEWAY_ENABLED: '1', SANDBOX_GATEWAY_DATA: path.join(dataDir, '..', `${path.basename(dataDir)}.gateway.json`), RATE_LIMIT_ALLOW_LIST: '127.0.0.1,::1,::ffff:127.0.0.1' },
  async () => fs.rmSync(dataDir, { recursive: true, force: true }),
);
let failed = false;
try {
  const login = await fetch(`${portal.url}/api/Authentication/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ appName: 'brightpath', email: 'maria.garcia@example.com', password: 'Sunshine#2026' }) });
  const { token } = (await login.json()) as { token: string };
  const version = ((await (await fetch(`${portal.url}/api/Customer/version?sourceApp=parentportal`)).json()) as { releaseVersion: string }).releaseVersion;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-release-version': version };
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${portal.url}/api${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const before = (await api('GET', '/Billing/account-summary')).currentBalance as number;
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };
  const starts: number[] = [];
  const whole: number[] = [];
  let approved = 0;
  let next = 0;
  const one = async (n: number) => {
    const t0 = performance.now();
    const body = { ...payer, idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '1.00' };
    const [a, b] = await Promise.all([api('POST', '/Billing/payment/checkout', body), api('POST', '/Billing/payment/checkout', body)]);
    starts.push(performance.now() - t0);
    if (a.checkoutUrl !== b.checkoutUrl) throw new Error('a double click started two checkouts');
    const page = await fetch(a.checkoutUrl as string, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: cardNumber(n), expiry: '12/30', cvv: '123' }), redirect: 'manual' });
    const q = Object.fromEntries(new URL(page.headers.get('location')!).searchParams);
    const result = { gatewayCode: 1, checkout: q.checkout, transaction: q.transaction, status: q.status, sig: q.sig };
    const [r1, r2] = await Promise.all([api('POST', '/Billing/payment/result', result), api('POST', '/Billing/payment/result', result)]);
    whole.push(performance.now() - t0);
    if (r1.status === 'APPROVED' && r1.accountPaymentID === r2.accountPaymentID) approved++;
  };
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let n = next++; n < PAYMENTS; n = next++) await one(n);
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  // the notifications may still be arriving: they must change nothing
  await new Promise((r) => setTimeout(r, 2000));
  const after = (await api('GET', '/Billing/account-summary')).currentBalance as number;
  const paid = ((await api('GET', '/Billing/payments-received')) as unknown as { amount: number }[]).filter((p) => p.amount === 1).length;
  const lowered = Math.round((before - after) * 100) / 100;
  console.log(`checkout: ${PAYMENTS} payments, ${CONCURRENCY} at a time, in ${seconds.toFixed(1)} s (${(PAYMENTS / seconds).toFixed(1)}/s)`);
  console.log(`  approved once each: ${approved}/${PAYMENTS}; payments recorded: ${paid}; balance lowered by $${lowered.toFixed(2)} (expected $${PAYMENTS.toFixed(2)})`);
  console.log(`  start (double click): p50 ${pct(starts, 50).toFixed(0)} ms, p99 ${pct(starts, 99).toFixed(0)} ms`);
  console.log(`  whole payment: p50 ${pct(whole, 50).toFixed(0)} ms, p99 ${pct(whole, 99).toFixed(0)} ms`);
  failed = approved !== PAYMENTS || paid !== PAYMENTS || lowered !== PAYMENTS;
} finally {
  await portal.stop();
}
if (failed) {
  console.error('checkout: a count is wrong');
  process.exit(1);
}
