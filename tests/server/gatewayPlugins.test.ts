// Payment gateways as plug-ins (server/gateways/): a gateway is one adapter folder and one line of the
// registry. A test adapter (tests/fixtures/gateways/testpay/, code 3) is registered: its settings are
// checked by its own schema, the portal sends its parents back to its return route and serves the
// portal there, and npm run check's rule refuses a gateway whose return route no screen or no shell map
// declares.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewaysFromSettings, registryErrors, returnRouteErrors, shellMapModule, shellRouteMap } from '../../server/gateways/plugins';
import { RETURN_ROUTES, gatewayAdapters, registerGatewayAdapter } from '../../server/gateways/registry';
import { sandboxAdapter } from '../../server/gateways/sandbox/index';
import { readBaseDeclarations } from '../../src/engine/node';
import { GATEWAY_OF_ROUTE } from '../../src/shell/payments/gatewayRoutes.gen';
import type { BillingPaymentResultBody as PaymentResult, BillingStartPaymentBody as StartPayment } from '../../src/engine/contract.gen';
import { testPayAdapter, type TestPayGateway } from '../fixtures/gateways/testpay/index';
import { BACKENDS, MARIA, apiClient, createTestApp, freePort, tokenFor, type TestApp } from './helpers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = 'tests/fixtures/gateways/testpay';
const SETTINGS = { merchant: 'brightpath-test', secret: 'test-pay-secret-0123456789', pageUrl: 'https://pay.testpay.example' };
const SANDBOX = { url: 'http://127.0.0.1:9', merchant: '1', secret: 'sandbox-secret-0123456789' };
const fixtureScreens = () =>
  Object.fromEntries(
    fs.readdirSync(path.join(ROOT, FIXTURE, 'screens')).map((f) => {
      const file = `${FIXTURE}/screens/${f}`;
      const json = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as { id: string };
      return [json.id, { file, json }];
    }),
  );

describe('a gateway adapter\'s settings', () => {
  const adapters = [sandboxAdapter, testPayAdapter];
  const settings = (entries: object) => () => gatewaysFromSettings(adapters, JSON.stringify(entries));

  it('are checked by its own schema, each entry by the adapter serving its code', () => {
    const gateways = gatewaysFromSettings(adapters, JSON.stringify({ 1: SANDBOX, 3: SETTINGS }));
    expect(Object.keys(gateways)).toEqual(['1', '3']);
    expect(gateways[3].code).toBe(3);
    expect((gateways[3] as TestPayGateway).checkouts.size).toBe(0);
    // naming the adapter is the same
    expect(gatewaysFromSettings(adapters, JSON.stringify({ 3: { adapter: 'testpay', ...SETTINGS } }))[3].code).toBe(3);

    expect(settings({ 3: { ...SETTINGS, secret: 'short' } })).toThrow('PAYMENT_GATEWAYS: gateway "3" (testpay): /secret must NOT have fewer than 16 characters');
    expect(settings({ 3: { ...SETTINGS, pageUrl: 'http://plain.example' } })).toThrow(/gateway "3" \(testpay\): \/pageUrl must match pattern/);
    expect(settings({ 3: { merchant: 'm' } })).toThrow(/must have required property 'secret'.*must have required property 'pageUrl'/);
    expect(settings({ 3: { ...SETTINGS, url: 'https://x.example' } })).toThrow('must NOT have additional properties (url)');
    // the sandbox's entry by the sandbox's schema
    expect(settings({ 1: { ...SANDBOX, secret: '' } })).toThrow('gateway "1" (sandbox): /secret must NOT have fewer than 8 characters');
    expect(settings({ 1: SETTINGS })).toThrow(/gateway "1" \(sandbox\): .*must have required property 'url'/);
  });

  it('name a code some adapter serves, and that adapter', () => {
    expect(settings({ 4: SETTINGS })).toThrow('gateway "4": no adapter serves code 4');
    expect(settings({ 5: SETTINGS })).toThrow('gateway "5": a code is 1 to 4');
    expect(settings({ 1: { adapter: 'testpay', ...SETTINGS } })).toThrow('the testpay adapter serves codes 3 only');
    expect(settings({ 3: { adapter: 'bluepay', ...SETTINGS } })).toThrow('no adapter is named "bluepay" (sandbox, testpay)');
    expect(() => gatewaysFromSettings(adapters, '{"1": ')).toThrow('PAYMENT_GATEWAYS: not JSON');
    expect(settings([SETTINGS])).toThrow('PAYMENT_GATEWAYS: an object of gateway code -> settings');
  });
});

describe('npm run check on the gateways\' return routes', () => {
  const base = readBaseDeclarations(ROOT);

  it('passes the registry as it is: each code\'s route has its screen in both products and its place in the shell\'s map', () => {
    expect(returnRouteErrors(gatewayAdapters(), base.screens, GATEWAY_OF_ROUTE)).toEqual([]);
    expect(shellRouteMap(gatewayAdapters())).toEqual({ '/bluepayresponse': 1, '/ezceredirection': 2, '/stripereturn': 4 });
    expect(fs.readFileSync(path.join(ROOT, 'src/shell/payments/gatewayRoutes.gen.ts'), 'utf8')).toBe(shellMapModule(gatewayAdapters()));
  });

  it('refuses a gateway whose return route no screen declares, or the shell\'s map does not know', () => {
    const adapters = [...gatewayAdapters(), testPayAdapter];
    const messages = returnRouteErrors(adapters, base.screens, GATEWAY_OF_ROUTE).map((e) => `${e.file} ${e.path}: ${e.message}`);
    expect(messages).toEqual([
      'server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay) returns to /testpayreturn, but no screen of parentportal declares that path with shellPart paymentResponse',
      'server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay) returns to /testpayreturn, but no screen of parentapplication declares that path with shellPart paymentResponse',
      'server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay) returns to /testpayreturn, but no screen of onetimeenrollment declares that path with shellPart paymentResponse',
      'server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay) returns to /testpayreturn, but no screen of calendar declares that path with shellPart paymentResponse',
      'server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay) returns to /testpayreturn, but no screen of punchpass declares that path with shellPart paymentResponse',
      "server/gateways/registry.ts /testpay/gateways/0: gateway 3 (testpay): /testpayreturn is not in the shell's map (src/shell/payments/gatewayRoutes.gen.ts): run `npm run gen`",
    ]);
    // its screens declared (the fixture's): only the shell's map is missing
    const screens = { ...base.screens, ...fixtureScreens() };
    expect(returnRouteErrors(adapters, screens, GATEWAY_OF_ROUTE).map((e) => e.message)).toEqual([
      "gateway 3 (testpay): /testpayreturn is not in the shell's map (src/shell/payments/gatewayRoutes.gen.ts): run `npm run gen`",
    ]);
    // and with the map npm run gen would write, nothing
    expect(returnRouteErrors(adapters, screens, shellRouteMap(adapters))).toEqual([]);
    // one product's screen alone is not enough
    const portalOnly = { ...base.screens, testpayreturn: fixtureScreens().testpayreturn };
    expect(returnRouteErrors(adapters, portalOnly, shellRouteMap(adapters)).map((e) => e.message)).toEqual([
      'gateway 3 (testpay) returns to /testpayreturn, but no screen of parentapplication declares that path with shellPart paymentResponse',
      'gateway 3 (testpay) returns to /testpayreturn, but no screen of onetimeenrollment declares that path with shellPart paymentResponse',
      'gateway 3 (testpay) returns to /testpayreturn, but no screen of calendar declares that path with shellPart paymentResponse',
      'gateway 3 (testpay) returns to /testpayreturn, but no screen of punchpass declares that path with shellPart paymentResponse',
    ]);
  });

  it('refuses a return screen no gateway returns to, a stale shell map, and clashing codes or routes', () => {
    // the fixture's screens without its adapter
    const screens = { ...base.screens, ...fixtureScreens() };
    expect(returnRouteErrors(gatewayAdapters(), screens, GATEWAY_OF_ROUTE).map((e) => `${e.file}: ${e.message}`).sort()).toEqual([
      `${FIXTURE}/screens/flexcalendar-testpayreturn.json: /testpayreturn is a payment return screen, but no gateway adapter in server/gateways/registry.ts returns to it`,
      `${FIXTURE}/screens/onetimeenrollment-testpayreturn.json: /testpayreturn is a payment return screen, but no gateway adapter in server/gateways/registry.ts returns to it`,
      `${FIXTURE}/screens/parentapplication-testpayreturn.json: /testpayreturn is a payment return screen, but no gateway adapter in server/gateways/registry.ts returns to it`,
      `${FIXTURE}/screens/punchpass-testpayreturn.json: /testpayreturn is a payment return screen, but no gateway adapter in server/gateways/registry.ts returns to it`,
      `${FIXTURE}/screens/testpayreturn.json: /testpayreturn is a payment return screen, but no gateway adapter in server/gateways/registry.ts returns to it`,
    ]);
    expect(returnRouteErrors(gatewayAdapters(), base.screens, { ...GATEWAY_OF_ROUTE, '/testpayreturn': 3 }).map((e) => e.message)).toEqual(['/testpayreturn -> 3 is no adapter\'s: run `npm run gen`']);
    expect(registryErrors([sandboxAdapter, { ...testPayAdapter, gateways: [{ code: 2, returnRoute: '/testpayreturn' }] }])).toEqual(['gateway code 2 is served by both "sandbox" and "testpay"']);
    expect(registryErrors([sandboxAdapter, { ...testPayAdapter, gateways: [{ code: 3, returnRoute: '/bluepayresponse' }] }])).toEqual([
      'return route /bluepayresponse is given to codes 1 and 3: the shell could not tell them apart',
    ]);
    expect(registryErrors([{ ...testPayAdapter, gateways: [{ code: 3, returnRoute: '/Pay/Back' }] }])).toEqual([
      'adapter "testpay": return route "/Pay/Back" of code 3 is not one lowercase path segment such as /bluepayresponse',
    ]);
    // the registry refuses to take an adapter that clashes
    expect(() => registerGatewayAdapter({ ...testPayAdapter, gateways: [{ code: 1, returnRoute: '/testpayreturn' }] })).toThrow('gateway code 1 is served by both "sandbox" and "testpay"');
    expect(gatewayAdapters().map((a) => a.name)).toEqual(['sandbox', 'stripe']);
  });
});

describe.each(BACKENDS)('a registered test adapter on %s', (backend) => {
  let t: TestApp;
  let gateway: TestPayGateway;
  let unregister = () => {};
  let portal = '';
  let maria = '';
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'gateway-plugins-dist-'));
  const api = apiClient(() => t.app, { lang: 'en', headers: { 'x-release-version': '9.9.9' } });
  const payer = { paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' };

  beforeAll(async () => {
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><head></head><body>the portal</body></html>');
    unregister = registerGatewayAdapter(testPayAdapter);
    const gateways = gatewaysFromSettings(gatewayAdapters(), JSON.stringify({ 1: SANDBOX, 3: SETTINGS }));
    gateway = gateways[3] as TestPayGateway;
    portal = `http://127.0.0.1:${await freePort()}`;
    t = await createTestApp(backend, {
      publicUrl: portal,
      distDir: dist,
      gateways,
      // the provider takes cards through the test gateway
      providerSettings: { brightpath: { payments: { gateways: { CCD: 3, ECH: 1 } } } },
    });
    maria = await tokenFor(t.app, ...MARIA);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    unregister();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the parent back to its return route, serves the portal there, and the return applies the payment', async () => {
    expect(RETURN_ROUTES[3]).toBe('/testpayreturn');
    const before = (await api('Billing.accountSummary', { token: maria })).json().currentBalance as number;
    const started = await api('Billing.startPayment', { token: maria, body: { ...payer, idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '15.00' } as StartPayment });
    expect(started.statusCode, started.body).toBe(200);
    const { checkoutUrl } = started.json();
    expect(checkoutUrl.startsWith(`${SETTINGS.pageUrl}/checkout/`)).toBe(true);
    const [checkout] = [...gateway.checkouts.values()];
    expect(checkout.request.returnUrl).toBe(`${portal}/parentportal/testpayreturn`);

    // the parent pays on the page and comes back to the route, which serves the portal
    const back = new URL(gateway.pay(checkout.answer.checkoutId, 'APPROVED'));
    expect(back.pathname).toBe('/parentportal/testpayreturn');
    const page = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('the portal');
    expect((await t.app.inject({ method: 'GET', url: '/parentapplication/testpayreturn' })).statusCode).toBe(200);

    // the shell names the route's gateway (its map, made from the registry) and the portal applies the payment once
    const q = Object.fromEntries(back.searchParams);
    const body = { gatewayCode: shellRouteMap(gatewayAdapters())[back.pathname.replace('/parentportal', '')], checkout: q.checkout, transaction: q.transaction, status: q.status as PaymentResult['status'], sig: q.sig };
    expect(body.gatewayCode).toBe(3);
    const result = (await api('Billing.paymentResult', { token: maria, body })).json();
    expect(result).toMatchObject({ status: 'APPROVED', purpose: 'BALANCE' });
    expect(result.accountPaymentID).toBeGreaterThan(0);
    expect((await api('Billing.paymentResult', { token: maria, body })).json().accountPaymentID).toBe(result.accountPaymentID);
    expect((await api('Billing.accountSummary', { token: maria })).json().currentBalance).toBe(before - 15);
    // a return signed with another secret is not this gateway's
    expect((await api('Billing.paymentResult', { token: maria, body: { ...body, sig: 'f'.repeat(64) } })).statusCode).toBe(400);
  });
});
