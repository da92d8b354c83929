// Saved payment methods and bank settlement at the sandbox gateway, driven through the portal's own
// sandbox adapter: "save for later" on the hosted page gives a token; the token is charged server to
// server (idempotent, merchant-scoped), updated in place and deleted; a bank debit is accepted PENDING
// and settles, or comes back with its return code, 3 business days later by the sandbox's clock, with
// signed notifications the adapter verifies; a return code decides the saved account's status.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { MERCHANT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, signMessage, type CreateCheckoutRequest, type GatewayNotification, type GatewayTransaction } from '../../sandbox-gateway/protocol';
import { sandboxGateway, type SandboxPaymentGateway } from '../../server/gateways/sandbox/client';
import { settlementDue } from '../../sandbox-gateway/outcomes';
import { TokenRefused } from '../../server/gateways/adapter';

const SECRETS = { northridge: 'northridge-sandbox-secret', lakeside: 'lakeside-sandbox-secret' };
const PUBLIC_URL = 'https://pay.sandbox.test';
const DAY = 24 * 60 * 60 * 1000;

// a Friday noon: three business days later is the next Wednesday
let now = Date.parse('2030-03-15T12:00:00Z');
const clock = () => new Date(now);

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: GatewayNotification;
}

function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (raw += c));
    req.on('end', () => {
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) as GatewayNotification });
      res.writeHead(200).end();
    });
  });
  return {
    received,
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Waits until `read` answers something truthy (checked every 20 ms), or fails. */
async function until<T>(what: string, read: () => T, ms = 10_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = read();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('sandbox gateway: saved methods and bank settlement', () => {
  let gw: SandboxGateway;
  let base = '';
  let notifyUrl = '';
  let dataDir = '';
  let dataFile = '';
  let northridge: SandboxPaymentGateway;
  let lakeside: SandboxPaymentGateway;
  const receiver = startReceiver();
  let keyCounter = 0;
  const newKey = () => `key-${++keyCounter}`;

  async function start() {
    // the timer is slow here: the tests settle with the signed run after moving the clock
    gw = await buildSandboxGateway({ secrets: SECRETS, publicUrl: PUBLIC_URL, dataFile, clock, settleEveryMs: 60 * 60_000, notify: { retryDelaysMs: [10] } });
    await gw.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(gw.app.server.address() as AddressInfo).port}`;
    northridge = sandboxGateway({ code: 1, url: base, merchant: 'northridge', secret: SECRETS.northridge, clock });
    lakeside = sandboxGateway({ code: 2, url: base, merchant: 'lakeside', secret: SECRETS.lakeside, clock });
  }

  beforeAll(async () => {
    notifyUrl = await receiver.start();
    dataDir = await mkdtemp(join(tmpdir(), 'sandbox-tokens-'));
    dataFile = join(dataDir, 'sandbox-gateway.json');
    await start();
  });
  afterAll(async () => {
    await gw?.close();
    await receiver.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  // each test a week later, on a Friday noon: no velocity window or due debit reaches the next
  beforeEach(async () => {
    const next = new Date(now + 7 * DAY);
    while (next.getUTCDay() !== 5) next.setUTCDate(next.getUTCDate() + 1);
    now = next.setUTCHours(12, 0, 0, 0);
    await northridge.runSettlements();
    await lakeside.runSettlements();
    await gw.flushNotifications();
  });

  const checkout = (overrides: Partial<Omit<CreateCheckoutRequest, 'merchant'>> = {}) =>
    northridge.createCheckout({
      idempotencyKey: newKey(),
      merchantName: 'Northridge Extended Day',
      amountCents: 12_500,
      currency: 'USD',
      method: 'CARD',
      reference: `attempt-${keyCounter}`,
      returnUrl: 'https://portal.example/payments/return',
      notifyUrl,
      cancelUrl: 'https://portal.example/payments/cancel',
      locale: 'en',
      payer: { firstName: 'Linh', lastName: 'Nguyen', street: '12 Maple Street', city: 'Northridge', state: 'CA', zip: '91324', country: 'US', email: 'linh@example.com', phone: '555-0100' },
      offerSave: true,
      ...overrides,
    });

  const pagePath = (url: string) => new URL(url).pathname;

  /** Pays on the hosted page (ticking "save for later" when `save`) and answers the transaction by the query. */
  async function payOnPage(fields: Record<string, string>, opts: { save?: boolean; method?: 'CARD' | 'BANK'; offerSave?: boolean } = {}): Promise<GatewayTransaction> {
    const a = await checkout({ method: opts.method ?? ('account' in fields ? 'BANK' : 'CARD'), offerSave: opts.offerSave ?? true });
    const res = await fetch(base + pagePath(a.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, ...(opts.save ? { saveMethod: '1' } : {}) }).toString(),
      redirect: 'manual',
    });
    expect(res.status).toBe(303);
    const q = await northridge.queryCheckout(a.checkoutId);
    return q.transaction!;
  }

  const card = (number: string, expiry = '12/35') => ({ name: 'Linh Nguyen', number, expiry, cvv: '123' });
  const bank = (account: string) => ({ name: 'Linh Nguyen', routing: '021000021', account, accountType: 'checking' });
  const charge = (gateway: SandboxPaymentGateway, token: string, overrides: { idempotencyKey?: string; amountCents?: number; reference?: string } = {}) =>
    gateway.chargeToken({ idempotencyKey: overrides.idempotencyKey ?? newKey(), token, amountCents: overrides.amountCents ?? 4_000, currency: 'USD', reference: overrides.reference ?? `charge-${keyCounter}`, notifyUrl });

  /** The notifications of a type received about a transaction, verified by the portal's adapter (just received: within its replay window). */
  function notificationsOf(transactionId: string, type: GatewayNotification['type']) {
    return receiver.received
      .filter((r) => r.body.transaction.transactionId === transactionId && r.body.type === type)
      .map((r) => {
        const verified = northridge.verifyNotification(r.headers, r.raw);
        expect(verified).not.toBeNull();
        return r.body;
      });
  }

  it('shows "save for later" only when the checkout offers it, in the page language', async () => {
    const offered = await checkout();
    const html = await (await fetch(base + pagePath(offered.url))).text();
    expect(html).toContain('name="saveMethod"');
    expect(html).toContain('Save this card for later payments to Northridge Extended Day');
    const spanishBank = await checkout({ method: 'BANK', locale: 'es' });
    expect(await (await fetch(base + pagePath(spanishBank.url))).text()).toContain('Guardar esta cuenta bancaria para pagos posteriores a Northridge Extended Day');
    const notOffered = await checkout({ offerSave: false });
    expect(await (await fetch(base + pagePath(notOffered.url))).text()).not.toContain('saveMethod');
    // a bad submit keeps the box ticked
    const res = await fetch(base + pagePath(offered.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...card('4111111111111111'), cvv: '', saveMethod: '1' }).toString(),
    });
    expect(res.status).toBe(422);
    expect(await res.text()).toMatch(/name="saveMethod" value="1"[^>]* checked/);
  });

  it('gives a token when "save for later" is ticked on an approved payment, and none otherwise', async () => {
    const tx = await payOnPage(card('4111 1111 1111 1111'), { save: true });
    expect(tx).toMatchObject({ status: 'APPROVED', settlement: 'SETTLED' });
    expect(tx.savedMethod).toEqual({ token: expect.stringMatching(/^tok_/), method: 'CARD', brand: 'VISA', last4: '1111', holderName: 'Linh Nguyen', expiry: '12/35', status: 'ACTIVE' });
    await gw.flushNotifications();
    const [completed] = notificationsOf(tx.transactionId, 'transaction.completed');
    expect(completed.type).toBe('transaction.completed');
    expect(completed.transaction.savedMethod).toEqual(tx.savedMethod);

    expect((await payOnPage(card('5555555555554444'))).savedMethod).toBeNull();
    // ticked on a page that did not offer it: nothing is saved
    expect((await payOnPage(card('5555555555554444'), { save: true, offerSave: false })).savedMethod).toBeNull();
    // a declined payment saves nothing
    expect((await payOnPage(card('4000000000000002'), { save: true })).savedMethod).toBeNull();
    // the store keeps a fingerprint, never the number
    await gw.store.settle();
    const file = await readFile(dataFile, 'utf8');
    expect(file).toContain(tx.savedMethod!.token);
    expect(file).not.toContain('4111111111111111');
  });

  it('charges a token once per idempotency key', async () => {
    const { savedMethod } = await payOnPage(card('6011111111111117'), { save: true });
    const token = savedMethod!.token;
    const count = gw.store.transactionCount();
    const key = newKey();
    const first = await charge(northridge, token, { idempotencyKey: key, reference: 'autopay-1' });
    expect(first).toMatchObject({ status: 'APPROVED', reasonCode: '', checkoutId: '', reference: 'autopay-1', amountCents: 4_000, method: 'CARD', brand: 'DISCOVER', last4: '1117', settlement: 'SETTLED' });
    expect(first.authCode).toMatch(/^[A-Z2-9]{6}$/);
    expect(first.savedMethod).toMatchObject({ token, status: 'ACTIVE' });
    const again = await charge(northridge, token, { idempotencyKey: key, reference: 'autopay-1' });
    expect(again.transactionId).toBe(first.transactionId);
    expect(gw.store.transactionCount()).toBe(count + 1);
    // the same key with another amount is a conflict, not a second charge
    await expect(charge(northridge, token, { idempotencyKey: key, reference: 'autopay-1', amountCents: 9_999 })).rejects.toThrow(/409/);
    expect(gw.store.transactionCount()).toBe(count + 1);
    // a new key is a new charge
    expect((await charge(northridge, token)).transactionId).not.toBe(first.transactionId);
  });

  it('approves the autopay test cards on the page and declines their tokens with the issuer\'s reason, soft or hard', async () => {
    const cases: [string, string][] = [
      ['4000000000009995', 'INSUFFICIENT_FUNDS'],
      ['4000000000009961', 'ISSUER_UNAVAILABLE'],
      ['4000000000009953', 'TRY_AGAIN_LATER'],
      ['4000000000009979', 'STOLEN'],
      ['4000000000009987', 'LOST'],
      ['4000000000009946', 'CLOSED'],
      ['4000000000009938', 'DO_NOT_HONOR'],
    ];
    for (const [number, reason] of cases) {
      const paid = await payOnPage(card(number), { save: true });
      expect(paid, number).toMatchObject({ status: 'APPROVED' });
      expect(await charge(northridge, paid.savedMethod!.token), number).toMatchObject({ status: 'DECLINED', reasonCode: reason, authCode: '' });
    }
  });

  it("refuses another merchant's token, an unknown one and a malformed request", async () => {
    const { savedMethod } = await payOnPage(card('4111111111111111'), { save: true });
    const token = savedMethod!.token;
    await expect(charge(lakeside, token)).rejects.toBeInstanceOf(TokenRefused);
    await expect(lakeside.updateToken({ token, expiry: '01/36' })).rejects.toBeInstanceOf(TokenRefused);
    await expect(lakeside.deleteToken(token)).rejects.toBeInstanceOf(TokenRefused);
    await expect(charge(northridge, 'tok_doesnotexist')).rejects.toBeInstanceOf(TokenRefused);
    // lakeside's attempts changed nothing
    expect((await charge(northridge, token)).status).toBe('APPROVED');
    expect(gw.store.getToken(token)!.savedMethod).toMatchObject({ expiry: '12/35', status: 'ACTIVE' });
    // signed as lakeside but naming northridge
    const raw = JSON.stringify({ idempotencyKey: newKey(), merchant: 'northridge', token, amountCents: 100, currency: 'USD', reference: 'x', notifyUrl });
    const ts = Math.floor(now / 1000);
    const headers = { 'content-type': 'application/json', [MERCHANT_HEADER]: 'lakeside', [TIMESTAMP_HEADER]: String(ts), [SIGNATURE_HEADER]: signMessage(SECRETS.lakeside, ts, raw) };
    expect((await fetch(`${base}/api/tokens/charge`, { method: 'POST', headers, body: raw })).status).toBe(400);
    // unsigned
    expect((await fetch(`${base}/api/tokens/charge`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: raw })).status).toBe(401);
    // validation like the other endpoints
    await expect(northridge.chargeToken({ idempotencyKey: newKey(), token, amountCents: 0, currency: 'USD', reference: 'x', notifyUrl })).rejects.toThrow(/400/);
    await expect(northridge.updateToken({ token, expiry: '13/36' })).rejects.toThrow(/400/);
    await expect(northridge.updateToken({ token })).rejects.toThrow(/400/);
  });

  it("updates a card's expiry and holder in place; an expired card is declined EXPIRY", async () => {
    // good through the end of next month
    const soon = new Date(now);
    const month = soon.getUTCMonth() + 2;
    const expiry = `${String(((month - 1) % 12) + 1).padStart(2, '0')}/${String((soon.getUTCFullYear() + Math.floor((month - 1) / 12)) % 100).padStart(2, '0')}`;
    const { savedMethod } = await payOnPage(card('5555555555554444', expiry), { save: true });
    const token = savedMethod!.token;
    expect((await charge(northridge, token)).status).toBe('APPROVED');
    now += 70 * DAY;
    expect(await charge(northridge, token)).toMatchObject({ status: 'DECLINED', reasonCode: 'EXPIRY', authCode: '' });
    // a past expiry is refused
    await expect(northridge.updateToken({ token, expiry })).rejects.toThrow(/400/);
    const updated = await northridge.updateToken({ token, expiry: '09/37', holderName: 'Linh T. Nguyen' });
    expect(updated.savedMethod).toEqual({ ...savedMethod, expiry: '09/37', holderName: 'Linh T. Nguyen' });
    const after = await charge(northridge, token);
    expect(after).toMatchObject({ status: 'APPROVED', expiry: '09/37', holderName: 'Linh T. Nguyen', last4: '4444' });
    expect(after.savedMethod!.token).toBe(token);
    // the page's transaction shows the method as it is now
    expect((await northridge.queryCheckout((await checkoutOfToken(token))!)).transaction!.savedMethod!.expiry).toBe('09/37');
  });

  /** The checkout whose payment saved the token. */
  async function checkoutOfToken(token: string) {
    for (let i = 1; i <= keyCounter; i++) {
      const c = gw.store.findCheckoutByKey('northridge', `key-${i}`);
      const tx = c?.transactionId ? gw.store.getTransaction(c.transactionId) : undefined;
      if (tx?.transaction.savedMethod?.token === token) return c!.checkoutId;
    }
    return null;
  }

  it('deletes a token: answered INVALID, twice alike, and never charged again', async () => {
    const { savedMethod } = await payOnPage(card('4111111111111111'), { save: true });
    const token = savedMethod!.token;
    const deleted = await northridge.deleteToken(token);
    expect(deleted.savedMethod).toEqual({ ...savedMethod, status: 'INVALID' });
    expect(await northridge.deleteToken(token)).toEqual(deleted);
    await expect(charge(northridge, token)).rejects.toBeInstanceOf(TokenRefused);
    await expect(northridge.updateToken({ token, expiry: '01/36' })).rejects.toBeInstanceOf(TokenRefused);
  });

  it('accepts a bank debit PENDING and settles it 3 business days later, with a signed notification', async () => {
    const tx = await payOnPage(bank('000123456789'), { save: true });
    expect(tx).toMatchObject({ status: 'APPROVED', reasonCode: '', settlement: 'PENDING', brand: 'CHECKING', last4: '6789', expiry: '' });
    expect(tx.savedMethod).toMatchObject({ method: 'BANK', brand: 'CHECKING', last4: '6789', expiry: '', status: 'ACTIVE' });
    expect(settlementDue(new Date(now)).toISOString()).toBe(new Date(now + 5 * DAY).toISOString());
    // Tuesday, one minute before: nothing yet (the weekend does not count)
    now += 5 * DAY - 60_000;
    expect(await northridge.runSettlements()).toEqual({ settled: [], returned: [] });
    now += 60_000;
    expect(await lakeside.runSettlements()).toEqual({ settled: [], returned: [] });
    expect(await northridge.runSettlements()).toEqual({ settled: [tx.transactionId], returned: [] });
    expect(await northridge.runSettlements()).toEqual({ settled: [], returned: [] });
    await gw.flushNotifications();
    const settled = notificationsOf(tx.transactionId, 'transaction.settled');
    expect(settled).toHaveLength(1);
    expect(settled[0].transaction).toMatchObject({ transactionId: tx.transactionId, settlement: 'SETTLED', status: 'APPROVED' });
    expect(settled[0].returnCode).toBeUndefined();
    expect((await northridge.queryCheckout(tx.checkoutId)).transaction!.settlement).toBe('SETTLED');
    // a charge of the saved account is a debit too, and it survives a restart of the gateway
    const debit = await charge(northridge, tx.savedMethod!.token);
    expect(debit).toMatchObject({ status: 'APPROVED', settlement: 'PENDING', method: 'BANK' });
    await gw.close();
    await start();
    now += 7 * DAY;
    expect(await northridge.runSettlements()).toEqual({ settled: [debit.transactionId], returned: [] });
    await gw.flushNotifications();
    expect(notificationsOf(debit.transactionId, 'transaction.settled')).toHaveLength(1);
    expect(receiver.received.filter((r) => r.body.transaction.transactionId === debit.transactionId)).toHaveLength(1);
    expect(await readFile(dataFile, 'utf8')).not.toContain('000123456789');
  });

  it('returns an R01 debit with transaction.returned and its code, and keeps the account ACTIVE', async () => {
    const tx = await payOnPage(bank('9900001'), { save: true });
    expect(tx).toMatchObject({ status: 'APPROVED', settlement: 'PENDING' });
    now += 5 * DAY;
    expect(await northridge.runSettlements()).toEqual({ settled: [], returned: [tx.transactionId] });
    await gw.flushNotifications();
    const returned = receiver.received.filter((r) => r.body.transaction.transactionId === tx.transactionId && r.body.type === 'transaction.returned');
    expect(returned).toHaveLength(1);
    // the portal's adapter verifies it, and refuses it changed or signed by another merchant
    const verified = northridge.verifyNotification(returned[0].headers, returned[0].raw);
    expect(verified).toMatchObject({ type: 'transaction.returned', returnCode: 'R01', merchant: 'northridge' });
    expect(northridge.verifyNotification(returned[0].headers, returned[0].raw.replace('R01', 'R02'))).toBeNull();
    expect(lakeside.verifyNotification(returned[0].headers, returned[0].raw)).toBeNull();
    expect(returned[0].body.transaction).toMatchObject({ settlement: 'RETURNED', returnCode: 'R01', status: 'APPROVED', reference: tx.reference });
    expect(returned[0].body.transaction.savedMethod!.status).toBe('ACTIVE');
    expect((await northridge.queryCheckout(tx.checkoutId)).transaction).toMatchObject({ settlement: 'RETURNED', returnCode: 'R01' });
    // a returned debit brought no money: nothing to refund
    expect((await northridge.refund({ idempotencyKey: newKey(), transactionId: tx.transactionId, amountCents: 100 })).status).toBe('REFUSED');
    // insufficient funds leaves the account usable
    expect(await charge(northridge, tx.savedMethod!.token)).toMatchObject({ status: 'APPROVED', settlement: 'PENDING' });
  });

  it('makes the saved account INVALID on R03 and BLOCKED on R07: a later charge is declined with the code', async () => {
    const r03 = await payOnPage(bank('9900003'), { save: true });
    const r07 = await payOnPage(bank('9900007'), { save: true });
    // charged again before the return comes back: accepted, and returned in its turn
    const early = await charge(northridge, r03.savedMethod!.token);
    expect(early).toMatchObject({ status: 'APPROVED', settlement: 'PENDING' });
    now += 5 * DAY;
    const run = await northridge.runSettlements();
    expect(run.settled).toEqual([]);
    expect(run.returned.sort()).toEqual([r03.transactionId, r07.transactionId, early.transactionId].sort());
    await gw.flushNotifications();
    const [n03] = notificationsOf(r03.transactionId, 'transaction.returned');
    expect(n03).toMatchObject({ returnCode: 'R03', transaction: { savedMethod: { status: 'INVALID' } } });
    const [n07] = notificationsOf(r07.transactionId, 'transaction.returned');
    expect(n07).toMatchObject({ returnCode: 'R07', transaction: { savedMethod: { status: 'BLOCKED' } } });
    expect(await charge(northridge, r03.savedMethod!.token)).toMatchObject({ status: 'DECLINED', reasonCode: 'BANK_R03', authCode: '', savedMethod: { status: 'INVALID' } });
    expect(await charge(northridge, r07.savedMethod!.token)).toMatchObject({ status: 'DECLINED', reasonCode: 'BANK_R07', savedMethod: { status: 'BLOCKED' } });
    // a declined charge is no debit: nothing is due later
    now += 7 * DAY;
    expect(await northridge.runSettlements()).toEqual({ settled: [], returned: [] });
  });

  it('refuses A01 and X01 accounts at once, saving nothing and settling nothing', async () => {
    for (const [account, code] of [['9900091', 'A01'], ['9900094', 'X01']]) {
      const tx = await payOnPage(bank(account), { save: true });
      expect(tx).toMatchObject({ status: 'DECLINED', reasonCode: `BANK_${code}`, authCode: '', savedMethod: null });
      expect(tx.settlement).toBeUndefined();
    }
    now += 7 * DAY;
    expect(await northridge.runSettlements()).toEqual({ settled: [], returned: [] });
  });

  it('settles ahead of its clock only when started to allow it (browser tests), and refuses a bad asOf', async () => {
    const tx = await payOnPage(bank('9900001'));
    const later = new Date(now + 7 * DAY).toISOString();
    await expect(northridge.runSettlements(later)).rejects.toThrow(/403/);
    expect((await northridge.queryCheckout(tx.checkoutId)).transaction!.settlement).toBe('PENDING');
    const ahead = await buildSandboxGateway({ secrets: SECRETS, publicUrl: PUBLIC_URL, clock, settleEveryMs: 60 * 60_000, settleAhead: true });
    try {
      await ahead.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(ahead.app.server.address() as AddressInfo).port}`;
      const client = sandboxGateway({ code: 1, url, merchant: 'northridge', secret: SECRETS.northridge, clock });
      const a = await client.createCheckout({
        idempotencyKey: newKey(),
        merchantName: 'Northridge Extended Day',
        amountCents: 2_000,
        currency: 'USD',
        method: 'BANK',
        reference: 'ahead',
        returnUrl: 'https://portal.example/r',
        notifyUrl,
        cancelUrl: 'https://portal.example/c',
        locale: 'en',
        payer: { firstName: 'A', lastName: 'B', street: '', city: '', state: '', zip: '', country: 'US', email: '', phone: '' },
      });
      await fetch(url + pagePath(a.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(bank('9900001')).toString(), redirect: 'manual' });
      const pending = (await client.queryCheckout(a.checkoutId)).transaction!;
      expect(pending.settlement).toBe('PENDING');
      // a day ahead is not enough, and a date in the past settles only what is due now
      expect(await client.runSettlements(new Date(now + DAY).toISOString())).toEqual({ settled: [], returned: [] });
      expect(await client.runSettlements(new Date(now - 30 * DAY).toISOString())).toEqual({ settled: [], returned: [] });
      await expect(client.runSettlements('not a date')).rejects.toThrow(/400/);
      expect(await client.runSettlements(later)).toEqual({ settled: [], returned: [pending.transactionId] });
    } finally {
      await ahead.close();
    }
  });

  it('settles due debits on its own timer', async () => {
    const timed = await buildSandboxGateway({ secrets: SECRETS, publicUrl: PUBLIC_URL, clock, settleEveryMs: 25 });
    try {
      await timed.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(timed.app.server.address() as AddressInfo).port}`;
      const client = sandboxGateway({ code: 1, url, merchant: 'northridge', secret: SECRETS.northridge, clock });
      const a = await client.createCheckout({
        idempotencyKey: newKey(),
        merchantName: 'Northridge Extended Day',
        amountCents: 2_000,
        currency: 'USD',
        method: 'BANK',
        reference: 'timer',
        returnUrl: 'https://portal.example/r',
        notifyUrl,
        cancelUrl: 'https://portal.example/c',
        locale: 'en',
        payer: { firstName: 'A', lastName: 'B', street: '', city: '', state: '', zip: '', country: 'US', email: '', phone: '' },
      });
      await fetch(url + pagePath(a.url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(bank('9900002')).toString(), redirect: 'manual' });
      const tx = (await client.queryCheckout(a.checkoutId)).transaction!;
      expect(tx.settlement).toBe('PENDING');
      now += 5 * DAY;
      const n = await until('the timer to return the debit', () => receiver.received.find((r) => r.body.transaction.transactionId === tx.transactionId && r.body.type === 'transaction.returned'));
      expect(n.body).toMatchObject({ returnCode: 'R02', transaction: { settlement: 'RETURNED', savedMethod: null } });
      expect(client.verifyNotification(n.headers, n.raw)).not.toBeNull();
    } finally {
      await timed.close();
    }
  });
});
