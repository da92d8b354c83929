// Customer.firstLoads (server/firstLoads.ts): a page opened cold gets its screen's first data loads in
// one answer, each as the API answers it for that session, and nothing the API would refuse.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiClient, createTestApp, KAREN, MARIA, tokenFor, type TestApp } from './helpers';
import * as s from '../../server/db/schema';

describe('Customer.firstLoads', () => {
  let t: TestApp;
  let maria: string;
  const call = apiClient(() => t.app);
  beforeAll(async () => {
    t = await createTestApp('pglite');
    maria = await tokenFor(t.app, ...MARIA);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers Home's loads as the API answers each of them, in the session's language", async () => {
    const res = await call('Customer.firstLoads', { token: maria, lang: 'es', body: { path: '/parentportal/home', search: '', session: {} } });
    expect(res.statusCode).toBe(200);
    const body = res.json<{ lang: string; loads: Array<{ op: string; params: Record<string, unknown>; answer: unknown }> }>();
    expect(body.lang).toBe('es');
    const byOp = new Map(body.loads.map((l) => [l.op, l]));
    // the screen's loads a full-access parent sees (screens/home.json)
    for (const op of ['Communication.alertsHome', 'Billing.accountSummary', 'Registration.programPeriods', 'Communication.bulletins']) expect(byOp.has(op), op).toBe(true);
    const [account] = await t.db.handle.db.select({ id: s.accounts.id }).from(s.accounts).innerJoin(s.adults, eq(s.adults.accountId, s.accounts.id)).where(eq(s.adults.email, MARIA[1]));
    // the account is the session's, whatever the browser's stored session said
    expect(byOp.get('Registration.programPeriods')!.params).toEqual({ AccountID: account.id });
    const direct = await call('Registration.programPeriods', { token: maria, lang: 'es', query: { AccountID: account.id } });
    expect(byOp.get('Registration.programPeriods')!.answer).toEqual(direct.json());
    const alerts = await call('Communication.alertsHome', { token: maria, lang: 'es' });
    expect(byOp.get('Communication.alertsHome')!.answer).toEqual(alerts.json());
  });

  it("draws Home with those answers, in the session's language, with the portal's own components (dist-server/, built by npm run build)", async () => {
    const res = await call('Customer.firstLoads', { token: maria, lang: 'es', body: { path: '/parentportal/home', search: '', session: {} } });
    const html = res.json<{ html?: string }>().html;
    expect(html, 'no drawing: run npm run build first (it builds dist-server/)').toBeTypeOf('string');
    // the sections by their ids, the parent's alerts and balance, Spanish texts, links under the portal's base
    expect(html).toContain('data-section="alerts"');
    expect(html).toContain('El día de fotos es <strong>el próximo jueves</strong>');
    expect(html).toMatch(/\$\d+\.\d\d/);
    expect(html).toContain('Pagar ahora');
    expect(html).toMatch(/href="\/parentportal\/paynow"/);
    expect(html).not.toContain('data-state="loading"');
    expect(html).not.toMatch(/<script/i);
  });

  it("draws a screen with a full form with the provider's form engine: Pay Now's amount choices, the communication filter", async () => {
    const draw = async (path: string) => (await call('Customer.firstLoads', { token: maria, body: { path, search: '', session: {} } })).json<{ html?: string }>().html ?? '';
    const paynow = await draw('/parentportal/paynow');
    expect(paynow).toContain('Amount to pay');
    expect(paynow).toMatch(/<input[^>]+type="radio"/);
    expect(paynow).not.toContain('data-state="loading"');
    const communication = await draw('/parentportal/communication');
    expect(communication).toContain('Last 90 days');
    expect(communication).toContain('Payment receipt');
  });

  it("leaves out what the API refuses: another account's contact is not answered", async () => {
    const [karen] = await t.db.handle.db.select({ id: s.adults.id }).from(s.adults).where(eq(s.adults.email, KAREN[1]));
    const res = await call('Customer.firstLoads', { token: maria, body: { path: '/parentportal/editcontact', search: `?adultID=${karen.id}`, session: { accountID: 999999 } } });
    expect(res.statusCode).toBe(200);
    const ops = res.json<{ loads: Array<{ op: string }> }>().loads.map((l) => l.op);
    expect(ops).not.toContain('Demographics.adultDetails');
    expect(ops).toContain('Demographics.maritalStatuses');
  });

  it('answers nothing for a path that is no screen with loads, and refuses a caller without a session', async () => {
    const none = await call('Customer.firstLoads', { token: maria, body: { path: '/parentportal/nowhere' } });
    expect(none.json()).toEqual({ lang: 'en', loads: [] });
    const out = await call('Customer.firstLoads', { body: { path: '/parentportal/home' } });
    expect(out.statusCode).toBe(401);
    const bad = await call('Customer.firstLoads', { token: maria, body: { path: 'home' } as never });
    expect(bad.statusCode).toBe(400);
  });
});
