// The access matrix: every operation of the contract that takes an id (an `x-idKind` on a parameter
// in schemas/api) is called with the owner's ids as the owner, as a holder of another account of the
// same provider, as another provider's parent, as a payment-only login and anonymously; and as the
// owner with the ids of the other account and of the other provider. Refusals must change nothing
// (a snapshot of every table before and after), and the owner (and whoever else may) must succeed,
// so a server refusing everything fails too. A new operation is covered by declaring its ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import { Jimp } from 'jimp';
import { BACKENDS, createTestApp, freePort, tokenFor, ANA, KAREN, LINH, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { ROOT } from '../../server/app';
import { isoDay } from '../../server/clock';
import { contractOperations, readContract, type ContractOperation } from '../../server/contract';
import { changedTables, snapshotDb } from './snapshot';
import { multipart } from '../fixtures/images/index';
import { buildSandboxGateway, type SandboxGateway } from '../../sandbox-gateway/app';
import { sandboxGateway } from '../../server/gateways/sandbox/client';
import { saveChange, startChange } from '../../server/domains/enrolment/changeSchedule';
import { startOneTime } from '../../server/domains/enrolment/oneTime';
import { saveAddWeeks } from '../../server/domains/enrolment/addWeeks';


type Kind = 'account' | 'adult' | 'child' | 'bulletin' | 'bulletinAttachment' | 'form' | 'programPeriod' | 'absenceReason' | 'site' | 'relationship' | 'medicalField' | 'application' | 'changeRequest' | 'payment' | 'servicePeriod' | 'paymentMethod' | 'autopayRegistration' | 'oneTime' | 'flexCalendar' | 'punchPass' | 'punchPurchase' | 'addWeeks';
/** records of one account; the other kinds are the provider's */
const ACCOUNT_KINDS = new Set<Kind>(['account', 'adult', 'child', 'application', 'changeRequest', 'payment', 'servicePeriod', 'paymentMethod', 'autopayRegistration', 'oneTime', 'flexCalendar', 'punchPurchase', 'addWeeks']);
/** codes every provider numbers alike (fieldNo 1-5, relationship codes): not swapped for others' */
const CODES = new Set<Kind>(['relationship', 'medicalField']);

interface IdParam {
  part: 'params' | 'query' | 'body';
  /** property path; '[]' steps into array items */
  path: string[];
  kind: Kind;
}

/** Every x-idKind of an operation's params, query and body, with its path. */
export function idParams(op: ContractOperation): IdParam[] {
  const out: IdParam[] = [];
  const walk = (schema: any, part: IdParam['part'], path: string[]) => {
    if (!schema || typeof schema !== 'object') return;
    if (schema['x-idKind']) out.push({ part, path, kind: schema['x-idKind'] });
    for (const [k, v] of Object.entries(schema.properties ?? {})) walk(v, part, [...path, k]);
    if (schema.items) walk(schema.items, part, [...path, '[]']);
  };
  walk(op.params, 'params', []);
  walk(op.query, 'query', []);
  walk(op.body, 'body', []);
  return out;
}

/** ids of records; an in-progress application is named by its key (a string) */
type IdSet = Record<Kind, number | string>;

/** Sets every id of kind in value at path (through arrays), to the id of the set. */
function setIds(value: any, path: string[], id: number | string): any {
  if (path.length === 0) return id;
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) && value.length ? value.map((v) => setIds(v, rest, id)) : [setIds(undefined, rest, id)];
  return { ...(value ?? {}), [head]: setIds(value?.[head], rest, id) };
}

const OPS = contractOperations(readContract(ROOT))
  .filter((op) => idParams(op).length > 0)
  // photo uploads first (the photo reads need one), the drop last (it removes the contact)
  .sort((a, b) => rank(a) - rank(b));
function rank(op: ContractOperation): number {
  return op.id.endsWith('PhotoUpload') ? 0 : op.id === 'Demographics.adultDelete' || op.id === 'Billing.removeSavedMethod' || op.id === 'Billing.cancelAutopay' ? 2 : 1;
}

describe('the contract declares the kind of every id', () => {
  it('marks each integer parameter named like an id with x-idKind', () => {
    const unmarked: string[] = [];
    for (const op of contractOperations(readContract(ROOT))) {
      const walk = (schema: any, where: string) => {
        if (!schema || typeof schema !== 'object') return;
        for (const [k, v] of Object.entries<any>(schema.properties ?? {})) {
          const isInt = (t: unknown) => t === 'integer' || (Array.isArray(t) && t.includes('integer'));
          const idLike = /(^id$|ID$|Id$|IDs$)/.test(k) && (isInt(v.type) || isInt(v.items?.type));
          if (idLike && !v['x-idKind'] && !v.items?.['x-idKind']) unmarked.push(`${op.id} ${where}.${k}`);
          walk(v, `${where}.${k}`);
          walk(v.items, `${where}.${k}[]`);
        }
      };
      walk(op.params, 'params');
      walk(op.query, 'query');
      walk(op.body, 'body');
    }
    // values within a declared field (a user-defined field's choices, a medical field's standard values)
    // and the PIN form's adultIDs when saving one's own PIN (the signed-in adult's, never read)
    // and the activities and sites an application chooses: checked against the application's own program
    // (tests/server/application.test.ts), and an activity's type is a code
    const notRecords = [
      'Demographics.adultSave body.userDefinedFields[].values[].idValue',
      'Demographics.childMedicalSave body.questions[].values[].id',
      'Demographics.pinSave body.adultIDs',
      'ParentApplication.saveEnrollment body.children[].selections[].activityID',
      'ParentApplication.saveEnrollment body.children[].selections[].activityTypeID',
      'ParentApplication.saveEnrollment body.children[].siteID',
      'Registration.changeSave body.children[].selections[].activityID',
      'Registration.changeSave body.children[].siteID',
      'Registration.changeSave body.children[].selections[].activityTypeID',
      'Registration.changeSite body.siteID',
      'Registration.oneTimeSave body.activityID',
    ];
    expect(unmarked.filter((u) => !notRecords.includes(u))).toEqual([]);
    expect(OPS.length).toBeGreaterThanOrEqual(20);
  });
});

describe.each(BACKENDS)('access matrix on %s', (backend) => {
  let t: TestApp;
  let gw: SandboxGateway;
  const tokens: Record<'maria' | 'karen' | 'linh' | 'ana', string> = { maria: '', karen: '', linh: '', ana: '' };
  const ids: Record<'maria' | 'karen' | 'linh', IdSet> = {} as never;
  let today = '';
  /** the contact the owner drops (a holder cannot be dropped) */
  let rosa = 0;

  /**
   * A service period only this account has an invoice of: the billed school year invoices every family
   * in it for the same period, so the matrix gives the owner an invoice of a period of its own (a
   * statement from the provider's own books, of nothing) when it has none.
   */
  async function ownServicePeriod(providerId: number, accountId: number): Promise<number> {
    const db = t.db.handle.db;
    const all = await db.select({ accountId: s.invoices.accountId, period: s.invoices.servicePeriodDetailID }).from(s.invoices).where(eq(s.invoices.providerId, providerId));
    const own = all.find((i) => i.accountId === accountId && !all.some((o) => o.period === i.period && o.accountId !== accountId));
    if (own) return own.period;
    const period = 900_000 + accountId;
    await db.insert(s.invoices).values({ providerId, accountId, servicePeriodDetailID: period, servicePeriod: 'Statement', invoiceDate: isoDay(t.app.deps.today()), paymentDueDate: isoDay(t.app.deps.today()), amountCents: 0 });
    return period;
  }

  async function idsOf(email: string, contactName?: string, childName?: string): Promise<IdSet> {
    const db = t.db.handle.db;
    const [me] = await db.select().from(s.adults).where(eq(s.adults.email, email));
    const pid = me.providerId;
    const first = async (table: any, where: any) => ((await db.select().from(table).where(where).orderBy(asc(table.id)).limit(1)) as any[])[0];
    const contact = contactName ? await first(s.adults, and(eq(s.adults.accountId, me.accountId), eq(s.adults.firstName, contactName))) : me;
    const child = await first(s.children, and(eq(s.children.accountId, me.accountId), childName ? eq(s.children.firstName, childName) : undefined));
    const rel = await first(s.relationships, eq(s.relationships.providerId, pid));
    const med = await first(s.medicalFieldDefs, eq(s.medicalFieldDefs.providerId, pid));
    return {
      account: me.accountId,
      adult: contact.id,
      child: child.id,
      bulletin: (await first(s.bulletins, eq(s.bulletins.providerId, pid))).id,
      bulletinAttachment: (await first(s.bulletinAttachments, eq(s.bulletinAttachments.providerId, pid))).id,
      form: (await first(s.forms, eq(s.forms.providerId, pid))).id,
      programPeriod: (await first(s.programPeriods, eq(s.programPeriods.providerId, pid))).id,
      absenceReason: (await first(s.absenceReasons, and(eq(s.absenceReasons.providerId, pid), eq(s.absenceReasons.showInParentPortal, true)))).id,
      site: (await first(s.sites, eq(s.sites.providerId, pid))).id,
      relationship: rel.relationshipId,
      medicalField: med.fieldNo,
      application: '',
      changeRequest: '',
      oneTime: '',
      flexCalendar: '',
      // the provider's per-child pass (another provider's parent: none)
      punchPass: ((await db.select().from(s.punchPasses).where(and(eq(s.punchPasses.providerId, pid), eq(s.punchPasses.scope, 'child'))).limit(1))[0]?.id ?? 0) as number,
      punchPurchase: '',
      addWeeks: '',
      payment: (await first(s.payments, eq(s.payments.accountId, me.accountId))).id,
      servicePeriod: await ownServicePeriod(pid, me.accountId),
      // the account's last saved method (the owner's is saved on the gateway's page below)
      paymentMethod: ((await db.select().from(s.paymentMethods).where(eq(s.paymentMethods.accountId, me.accountId)).orderBy(desc(s.paymentMethods.id)).limit(1))[0]?.id ?? 0) as number,
      // the account's first autopay (the demo's, monthly), 0 when it has none
      autopayRegistration: ((await db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.accountId, me.accountId)).orderBy(asc(s.autopayRegistrations.id)).limit(1))[0]?.id ?? 0) as number,
    };
  }

  /**
   * A new in-progress application of each account, ready to submit (the owner's child in the
   * preschool, where it is not yet): each application operation gets its own, since the owner's call
   * may submit or discard it.
   */
  async function freshApplications() {
    const db = t.db.handle.db;
    for (const who of ['maria', 'karen', 'linh'] as const) {
      const set = ids[who];
      const [child] = await db.select().from(s.children).where(eq(s.children.id, set.child as number));
      const [pp] = await db.select().from(s.programPeriods).where(and(eq(s.programPeriods.providerId, child.providerId), eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool')));
      const program = pp ?? (await db.select().from(s.programPeriods).where(eq(s.programPeriods.providerId, child.providerId)).orderBy(asc(s.programPeriods.id)).limit(1))[0];
      // the matrix is about who may call, not whom a program takes: the preschool (ages 3 to 5) takes Sofia here
      if (program.eligibility) await db.update(s.programPeriods).set({ eligibility: null }).where(eq(s.programPeriods.id, program.id));
      const [act] = await db.select().from(s.activities).where(eq(s.activities.programPeriodId, program.id)).orderBy(asc(s.activities.id)).limit(1);
      const key = randomBytes(16).toString('hex');
      const now = new Date();
      const selection = act ? [{ activityID: act.id, weekStart: null, daysOfWeek: act.daysOfWeek.split(','), date: null, daysPerWeek: act.daysPerWeek, activityTypeID: act.activityTypeID }] : [];
      await db.insert(s.applicationDrafts).values({
        key,
        providerId: child.providerId,
        accountId: child.accountId,
        programPeriodId: program.id,
        step: 'review',
        status: 'open',
        createdAt: now,
        updatedAt: now,
        data: { childIDs: [child.id], enrollmentOption: 'Y', children: [{ prChildID: child.id, childName: `${child.firstName} ${child.lastName}`, siteID: act?.siteId ?? 0, selections: selection }] },
      });
      set.application = key;
    }
  }

  /**
   * A new change-schedule request of each account in the school year (its children registered
   * there), one child moving to Before Care: each change operation gets its own, since the owner's
   * call may submit or discard it. Another provider's parent has none: a key nobody holds.
   */
  async function freshChangeRequests() {
    const db = t.db.handle.db;
    const deps = t.app.deps;
    for (const who of ['maria', 'karen'] as const) {
      const set = ids[who];
      const [me] = await db.select().from(s.children).where(eq(s.children.id, set.child as number));
      const owner = { providerId: me.providerId, accountId: me.accountId };
      const [pp] = await db.select().from(s.programPeriods).where(and(eq(s.programPeriods.providerId, me.providerId), eq(s.programPeriods.programPeriod, 'School Year Before & After Care')));
      await db.update(s.changeRequests).set({ status: 'discarded' }).where(and(eq(s.changeRequests.accountId, me.accountId), eq(s.changeRequests.status, 'open')));
      const r = await startChange(deps, owner, pp.id, 'en');
      const [before] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'Before Care')));
      const children = (r.data.children ?? []).map((c, i) => (i === 0 ? { ...c, noChange: false, siteID: before.siteId, selections: [{ activityID: before.id, daysOfWeek: [] }] } : { ...c, noChange: true }));
      await saveChange(deps, owner, r.key, { children }, 'en');
      set.changeRequest = r.key;
    }
    ids.linh.changeRequest = randomBytes(16).toString('hex');
  }

  /**
   * A new one-time enrolment of each account in the school year (its children registered there):
   * each one-time operation gets its own, since the owner's call may submit or discard it. Another
   * provider's parent has none: a key nobody holds.
   */
  async function freshOneTimes() {
    const db = t.db.handle.db;
    for (const who of ['maria', 'karen'] as const) {
      const set = ids[who];
      const [me] = await db.select().from(s.children).where(eq(s.children.id, set.child as number));
      await db.update(s.applicationDrafts).set({ status: 'discarded' }).where(and(eq(s.applicationDrafts.accountId, me.accountId), eq(s.applicationDrafts.applicationTypeId, 5), eq(s.applicationDrafts.status, 'open')));
      const [pp] = await db.select().from(s.programPeriods).where(and(eq(s.programPeriods.providerId, me.providerId), eq(s.programPeriods.programPeriod, 'School Year Before & After Care')));
      const session = { providerId: me.providerId, accountId: me.accountId, email: '', firstName: 'Matrix', lastName: 'Parent' } as Parameters<typeof startOneTime>[1];
      set.oneTime = (await startOneTime(t.app.deps, session, pp.id, 'en')).key;
    }
    ids.linh.oneTime = randomBytes(16).toString('hex');
  }

  /** A new punch pass purchase of each account, not paid (bought through the API); another provider's parent has none. */
  async function freshPunchPurchases() {
    for (const who of ['maria', 'karen'] as const) {
      const set = ids[who];
      const res = await t.app.inject({ method: 'POST', url: '/api/Registration/punchpass/purchase', headers: { authorization: `Bearer ${tokens[who]}` }, payload: { passID: set.punchPass, childID: set.child, confirmed: true } });
      if (res.statusCode !== 200) throw new Error(`punch pass purchase: ${res.body}`);
      set.punchPurchase = res.json().key;
    }
    ids.linh.punchPurchase = randomBytes(16).toString('hex');
  }

  /** The weekly summer camp and its registered child (Lucas): the add-weeks operations name them. */
  async function weeklyOwner(): Promise<Partial<IdSet>> {
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    const [lucas] = await db.select().from(s.children).where(eq(s.children.firstName, 'Lucas'));
    return { programPeriod: pp.id, child: lucas.id };
  }

  /**
   * A new add-weeks request of the owner, one week of Lucas's chosen (each operation gets its own,
   * since the owner's send takes it); the other account and the other provider's parent have none.
   */
  async function freshAddWeeks() {
    const db = t.db.handle.db;
    const w = await weeklyOwner();
    const [lucas] = await db.select().from(s.children).where(eq(s.children.id, w.child as number));
    await db.update(s.changeRequests).set({ status: 'discarded' }).where(and(eq(s.changeRequests.accountId, lucas.accountId), eq(s.changeRequests.status, 'open')));
    const week = await openWeek(w);
    ids.maria.addWeeks = (await saveAddWeeks(t.app.deps, { providerId: lucas.providerId, accountId: lucas.accountId }, { programPeriodID: w.programPeriod as number, childID: lucas.id, weeks: [week] }, 'en')).key;
    ids.karen.addWeeks = randomBytes(16).toString('hex');
    ids.linh.addWeeks = randomBytes(16).toString('hex');
  }

  /** The first week Lucas may add now. */
  async function openWeek(w: Partial<IdSet>): Promise<string> {
    const offer = await get(`/api/Registration/changeschedule/weeks?programPeriodID=${w.programPeriod}&childID=${w.child}`);
    return offer.weeks.find((x: { unavailable: boolean }) => !x.unavailable).value;
  }

  /** The calendar program (option C): the calendar's operations name it, not the provider's first program. */
  async function calendarProgram(providerId: number): Promise<number> {
    const [pp] = await t.db.handle.db.select().from(s.programPeriods).where(and(eq(s.programPeriods.providerId, providerId), eq(s.programPeriods.enrollmentOption, 'C'))).orderBy(asc(s.programPeriods.id)).limit(1);
    return pp.id;
  }

  /**
   * A new calendar addition of the owner waiting for its payment (each pay-later call gets its own);
   * the other account and the other provider's parent have none: keys nobody holds.
   */
  async function freshFlexCalendars() {
    const db = t.db.handle.db;
    const [me] = await db.select().from(s.children).where(eq(s.children.id, ids.maria.child as number));
    const key = randomBytes(16).toString('hex');
    const now = new Date();
    await db.insert(s.applicationDrafts).values({ key, providerId: me.providerId, accountId: me.accountId, programPeriodId: await calendarProgram(me.providerId), applicationTypeId: 6, status: 'submitted', step: 'submitted', data: {}, createdAt: now, updatedAt: now, submittedAt: now, paymentStatus: 'AWAITING', holdUntil: new Date(Date.now() + 60 * 60_000), amountDueCents: 500, chargedCents: 500 });
    ids.maria.flexCalendar = key;
    ids.karen.flexCalendar = randomBytes(16).toString('hex');
    ids.linh.flexCalendar = randomBytes(16).toString('hex');
  }

  /** The owner's one-time enrolment ready to submit: her child enrolled in the first open date, the others skipped. */
  async function readyOneTime(m: IdSet) {
    const kids = await get(`/api/Registration/programperiods/activities/onetime-enrollment?key=${m.oneTime}`);
    for (const k of kids as { childID: number; activities: { activityID: number; dates: { date: string; open: boolean }[] }[] }[]) {
      const a = k.activities.find((x) => x.dates.some((d) => d.open));
      const body = k.childID === m.child && a ? { childID: k.childID, skip: false, dates: [`${a.activityID}/${a.dates.find((d) => d.open)!.date}`] } : { childID: k.childID, skip: true };
      const r = await t.app.inject({ method: 'PUT', url: `/api/Registration/onetime-enrollment/child?key=${m.oneTime}`, headers: { authorization: `Bearer ${tokens.maria}` }, payload: body });
      if (r.statusCode !== 200) throw new Error(`one-time enrolment before its submit: ${r.body}`);
    }
  }

  /** The owner's application submitted, its fees due now while its seats are held. */
  async function awaitingPayment(key: string) {
    const db = t.db.handle.db;
    const [d] = await db.select().from(s.applicationDrafts).where(eq(s.applicationDrafts.key, key));
    const result = { key, programPeriodID: d.programPeriodId, programPeriod: '', submittedOn: null, emailSent: false, parentName: '', children: [] };
    await db
      .update(s.applicationDrafts)
      .set({ status: 'submitted', step: 'submitted', result, paymentStatus: 'AWAITING', holdUntil: new Date(Date.now() + 60 * 60_000), amountDueCents: 500, chargedCents: 500 })
      .where(eq(s.applicationDrafts.id, d.id));
  }

  beforeAll(async () => {
    // the year-end grade roll-up open on any day, so its save is callable
    // a sandbox gateway, so starting a payment can succeed for its owner
    const gwPort = await freePort();
    gw = await buildSandboxGateway({ secrets: { '1': 'access-matrix-secret-1' }, publicUrl: `http://127.0.0.1:${gwPort}` });
    await gw.app.listen({ port: gwPort, host: '127.0.0.1' });
    t = await createTestApp(backend, {
      gradeRollup: { brightpath: { from: '01-01', to: '12-31' } },
      gateways: { 1: sandboxGateway({ code: 1, url: `http://127.0.0.1:${gwPort}`, merchant: '1', secret: 'access-matrix-secret-1' }) },
      // the payer page offers save for later (the autopay form variant OTP_SPM), so the owner can keep a card
      providerSettings: { brightpath: { payments: { gateways: { CCD: 1, ECH: 1 }, autopayForm: 'OTP_SPM', autoPaymentForCCEnabled: true } } },
    });
    // a payment of the other account, so its id can be tried
    const [johnson] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, KAREN[1]));
    await t.db.handle.db.insert(s.payments).values({ providerId: johnson.providerId, accountId: johnson.accountId, adultId: johnson.id, paymentDate: '2026-11-02', amountCents: 50_00, paymentMethodCode: 'CCD', last4Digits: '4242', payerName: 'Karen Johnson' });
    tokens.maria = await tokenFor(t.app, ...MARIA);
    tokens.karen = await tokenFor(t.app, ...KAREN);
    tokens.linh = await tokenFor(t.app, ...LINH);
    tokens.ana = await tokenFor(t.app, ...ANA);
    // a card the owner saves for later on the gateway's page (its token is what the saved-method operations charge)
    const started = await t.app.inject({ method: 'POST', url: '/api/Billing/payment/checkout', headers: { authorization: `Bearer ${tokens.maria}` }, payload: { idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '5.00', saveCard: true, paidByFamilyMemberID: -1, firstName: 'Maria', lastName: 'Garcia', streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' } });
    const paid = await fetch(started.json().checkoutUrl, { method: 'POST', body: new URLSearchParams({ name: 'Maria Garcia', number: '4111111111111111', expiry: '12/30', cvv: '123', saveMethod: '1' }), redirect: 'manual' });
    const back = Object.fromEntries(new URL(paid.headers.get('location')!).searchParams);
    // and a saved method of the other account and of the other provider, whose ids are tried
    const [linh] = await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, LINH[1]));
    for (const a of [johnson, linh]) await t.db.handle.db.insert(s.paymentMethods).values({ providerId: a.providerId, accountId: a.accountId, adultId: a.id, paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '1111', firstName: a.firstName, lastName: a.lastName, expiry: '12/30', savedOn: '2026-11-01' });
    await t.app.inject({ method: 'POST', url: '/api/Billing/payment/result', headers: { authorization: `Bearer ${tokens.maria}` }, payload: { gatewayCode: 1, checkout: back.checkout, transaction: back.transaction, status: back.status, sig: back.sig } });
    ids.maria = await idsOf(MARIA[1], 'David', 'Sofia');
    rosa = (await idsOf(MARIA[1], 'Rosa')).adult as number;
    ids.karen = await idsOf(KAREN[1]);
    ids.linh = await idsOf(LINH[1]);
    // a business date (the server's 'today', fixed by PORTAL_TODAY or not), three days ahead
    const d = t.app.deps.today();
    d.setDate(d.getDate() + 3);
    today = `${String(d.getMonth() + 1).padStart(2, '0')}/${String(d.getDate()).padStart(2, '0')}/${d.getFullYear()}`;
  });
  afterAll(async () => {
    await t?.close();
    await gw?.close();
  });

  const get = async (url: string) => (await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokens.maria}` } })).json();

  /** A request the owner may make: a valid body for each write (the others send the same). */
  async function ownerRequest(op: ContractOperation, m: IdSet): Promise<{ query: Record<string, unknown>; body?: unknown; upload?: boolean }> {
    switch (op.id) {
      case 'Attendance.records':
        return { query: {} };
      case 'Attendance.notifyAbsence':
        return { query: {}, body: { childIDs: [m.child], reasonID: m.absenceReason, startDate: today, multiDay: false, timeOffered: 'fullday', additionalInfo: 'Matrix' } };
      case 'Demographics.adultSave': {
        const d = await get(`/api/Demographics/adults/details/${m.adult}`);
        const udf = d.userDefinedFields.map((u: { fieldName: string }) => ({ ...u, value: u.fieldName.startsWith('UDDro') ? 1 : u.fieldName.startsWith('UDRad') ? true : 'answer' }));
        return { query: {}, body: { ...d, employer: 'Matrix Inc.', userDefinedFields: udf } };
      }
      case 'Demographics.adultDelete':
        return { query: {}, body: { confirmCancel: true } };
      case 'Demographics.childSave':
        return { query: {}, body: { ...(await get(`/api/Demographics/children/${m.child}/details`)), school: 'Matrix School' } };
      case 'Demographics.childMedicalSave': {
        const med = await get(`/api/Demographics/children/${m.child}/medical-information`);
        const questions = med.questions.map((q: { fieldID: number }) => ({ ...q, answer: q.fieldID === 1, standardValues: q.fieldID === 1 ? [101] : undefined, explanation: q.fieldID === 1 ? 'Milk' : undefined }));
        return { query: {}, body: { ...med, childID: undefined, questions } };
      }
      case 'Demographics.pinSave':
        return { query: {}, body: { mode: 'change', pin: '4826', adultIDs: [m.adult] } };
      case 'Demographics.generatePin':
        return { query: {}, body: { mode: 'generate', adultIDs: [m.adult] } };
      case 'Demographics.childAdultsSave': {
        const d = await get(`/api/Demographics/children/${m.child}/adults`);
        const rows = d.adults.filter((a: { adultID: number }) => a.adultID === m.adult);
        return { query: {}, body: { adults: rows.map((a: object) => ({ ...a, isEmergencyContact: true })) } };
      }
      case 'Registration.programReport':
        // the first program period of the provider is the school year (enrolment option T)
        return { query: { reportType: 'T' } };
      case 'Registration.redirectionUrl':
        return { query: {}, body: { programPeriodID: m.programPeriod, user: 'maria.garcia@example.com', userType: 'PARENT', source: 'PROGRAMLIST', destination: 'INSTRUCTION', accountID: m.account, applicationName: 'brightpath' } };
      case 'Registration.applicationToken':
        return { query: {}, body: { product: 'parentapplication', programPeriodID: m.programPeriod, accountID: m.account, ApplicationTokenString: JSON.stringify({ applicationName: 'brightpath', locale: 'en', menu: '/programlist' }) } };
      case 'Demographics.gradeRollupSave':
        return { query: {}, body: { programPeriodID: m.programPeriod, children: [{ childID: m.child, gradeLevelCode: '04' }] } };
      case 'Registration.changeStart':
        return { query: {}, body: { programPeriodID: m.programPeriod } };
      case 'Registration.changeSave':
        // the owner's child (every prChildID is set to the id set's child): no change required for her
        return { query: {}, body: { children: [{ prChildID: m.child, noChange: true, siteID: null, selections: [] }], effectiveDate: null } };
      case 'Registration.changeSubmit':
      case 'Registration.changeDiscard':
      case 'Registration.changeSubmittedActivities':
        return { query: {} };
      case 'Registration.changeConfirmationMail': {
        // a confirmation is e-mailed again once the change was sent
        const res = await t.app.inject({ method: 'POST', url: `/api/Registration/changeschedule/submit?key=${m.changeRequest}`, headers: { authorization: `Bearer ${tokens.maria}` } });
        if (res.statusCode !== 200) throw new Error(`submit before the confirmation: ${res.body}`);
        return { query: {} };
      }
      case 'Registration.changeSite': {
        // the site of the owner's request's new schedule (one of the program's sites)
        const [r] = await t.db.handle.db.select().from(s.changeRequests).where(eq(s.changeRequests.key, String(m.changeRequest)));
        const siteID = (r?.data.children ?? []).find((c) => c.siteID !== null)?.siteID ?? 1;
        return { query: {}, body: { prChildID: m.child, siteID } };
      }
      case 'ParentApplication.start':
        return { query: {}, body: { programPeriodID: m.programPeriod } };
      case 'Registration.oneTimeStart':
        // the provider's first program is the school year, which offers one-time dates to both accounts
        return { query: {}, body: { programPeriodID: m.programPeriod } };
      case 'Registration.punchPassBuy':
        return { query: {}, body: { passID: m.punchPass, childID: m.child, confirmed: true } };
      case 'Registration.punchPassCancel':
        return { query: {} };
      case 'Registration.oneTimeSave':
        return { query: {}, body: { childID: m.child, skip: true } };
      case 'Registration.oneTimeSubmit':
        await readyOneTime(m);
        return { query: {} };
      case 'Registration.oneTimePayLater': {
        // a submitted enrolment, its seat held while she pays
        await readyOneTime(m);
        const r = await t.app.inject({ method: 'POST', url: `/api/Registration/onetime-enrollment/submit?key=${m.oneTime}`, headers: { authorization: `Bearer ${tokens.maria}` } });
        if (r.statusCode !== 200) throw new Error(`one-time submit before pay later: ${r.body}`);
        return { query: {} };
      }
      case 'Registration.oneTimeDiscard':
        return { query: {} };
      case 'Registration.flexCalendarSave': {
        // the child's month as it is: nothing added or removed
        const month = await get(`/api/Registration/flexcalendar/month?programPeriodID=${m.programPeriod}&childID=${m.child}`);
        return { query: {}, body: { programPeriodID: m.programPeriod, childID: m.child, month: month.month, dates: month.days.filter((d: { enrolled: boolean }) => d.enrolled).map((d: { value: string }) => d.value) } };
      }
      case 'Registration.flexCalendarPayLater':
        return { query: {} };
      case 'Registration.addWeeksSave':
        return { query: {}, body: { programPeriodID: m.programPeriod, childID: m.child, weeks: [await openWeek(m)] } };
      case 'Registration.addWeeksSubmit':
        return { query: {} };
      case 'ParentApplication.setChildren':
        return { query: {}, body: { childIDs: [m.child] } };
      case 'ParentApplication.saveEnrollment': {
        const d = await get(`/api/ParentApplication/application?key=${m.application}`);
        return { query: {}, body: { children: d.data.children.map((c: { prChildID: number; siteID: number; selections: object[] }) => ({ prChildID: c.prChildID, siteID: c.siteID, selections: c.selections })), enrollmentOption: 'Y' } };
      }
      case 'ParentApplication.saveFee':
        return { query: {}, body: { miscCharges: [], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } };
      case 'ParentApplication.discard':
      case 'ParentApplication.submit':
        return { query: {} };
      case 'ParentApplication.confirmation': {
        // a confirmation exists once the application was submitted
        const res = await t.app.inject({ method: 'POST', url: `/api/ParentApplication/application/submit?key=${m.application}`, headers: { authorization: `Bearer ${tokens.maria}` } });
        if (res.statusCode !== 200) throw new Error(`submit before the confirmation: ${res.body}`);
        return { query: {} };
      }
      case 'ParentApplication.payLater':
        await awaitingPayment(m.application as string);
        return { query: {} };
      case 'Billing.startPayment':
        await awaitingPayment(m.application as string);
        return { query: {}, body: { idempotencyKey: randomBytes(16).toString('hex'), paymentMethodCode: 'CCD', amountChoice: 'other', otherAmount: '5.00', paidByFamilyMemberID: m.adult, streetAddress: '412 Oak Street', city: 'Springfield', stateCode: 'IL', zip: '62704', homecellphone: '(217)555-0101', email: 'maria.garcia@example.com' } };
      case 'Billing.removeSavedMethod':
        // the autopay enrolment above made it the autopay's method, which cannot be removed
        await t.db.handle.db.update(s.paymentMethods).set({ usedForAutoPay: false }).where(eq(s.paymentMethods.id, m.paymentMethod as number));
        return { query: {}, body: { paymentMethodID: m.paymentMethod } };
      case 'Billing.updateSavedMethod':
        return { query: {}, body: { paymentMethodID: m.paymentMethod, expiryMonth: '11', expiryYear: '2031', firstName: 'Maria', lastName: 'Garcia' } };
      case 'Billing.restApiPayment':
        await awaitingPayment(m.application as string);
        return { query: {}, body: { idempotencyKey: randomBytes(16).toString('hex'), paymentMethodID: m.paymentMethod, amountChoice: 'other', otherAmount: '5.00' } };
      case 'Billing.autopayEnroll':
        return { query: {}, body: { paymentMethodID: m.paymentMethod, autopay: true, frequency: 'W', termsAccepted: true } };
      case 'Billing.autopayChange':
        return { query: {}, body: { automaticPaymentRegistrationID: m.autopayRegistration, frequency: 'W', termsAccepted: true } };
      case 'Billing.autopayAgreementPdf': {
        // the demo's autopay was put on file without the portal: its agreement recorded here
        const db = t.db.handle.db;
        const [r] = await db.select().from(s.autopayRegistrations).where(eq(s.autopayRegistrations.id, m.autopayRegistration as number));
        await db.insert(s.autopayAgreements).values({ providerId: r.providerId, accountId: r.accountId, automaticPaymentRegistrationId: r.id, kind: 'ENROL', payerAdultId: r.adultId, signedByAdultId: r.adultId, payerName: 'David Garcia', paymentMethodCode: 'CCR', methodType: 'VISA', last4Digits: '4242', frequency: r.frequency, startDate: r.startDate, termsVersion: '0000000000000000', termsHtml: '', locale: 'en', signedAt: new Date() });
        return { query: {} };
      }
      case 'Billing.cancelAutopay':
        return { query: {}, body: { accountID: m.account, automaticPaymentRegistrationID: m.autopayRegistration } };
      case 'Communication.customText':
        return { query: { contenttype: 'AUTOMATIC_PAYMENT_TERMSANDCONDITIONS' } };
      case 'Demographics.adultPhotoUpload':
      case 'Demographics.childPhotoUpload':
        return { query: {}, upload: true };
      default:
        if (op.method !== 'GET') throw new Error(`${op.id}: add a valid owner request to the access matrix`);
        return { query: {} };
    }
  }

  async function call(op: ContractOperation, token: string | null, set: IdSet, base: { query: Record<string, unknown>; body?: unknown; upload?: boolean }) {
    let url = op.url;
    let query = { ...base.query };
    let body = base.body;
    for (const p of idParams(op)) {
      // codes stay as the owner's request has them
      if (CODES.has(p.kind)) continue;
      const id = set[p.kind];
      if (p.part === 'params') url = url.replace(`:${p.path[0]}`, String(id));
      else if (p.part === 'query') query = setIds(query, p.path, id);
      else if (body !== undefined) body = setIds(body, p.path, id);
    }
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    if (base.upload) {
      const m = multipart('me.png', await new Jimp({ width: 8, height: 8, color: 0x2255aaff }).getBuffer('image/png'));
      return t.app.inject({ method: op.method, url: `${url}${qs ? `?${qs}` : ''}`, headers: { ...headers, 'content-type': m.contentType }, payload: m.body });
    }
    return t.app.inject({ method: op.method, url: `${url}${qs ? `?${qs}` : ''}`, headers, ...(body !== undefined ? { payload: body as object } : {}) });
  }

  const needsAccount = (op: ContractOperation) => idParams(op).some((p) => ACCOUNT_KINDS.has(p.kind));
  // declared on the operation in the contract
  const paymentOnly = (op: ContractOperation) => op.paymentOnly === true;

  it.each(OPS.map((op) => [op.id, op] as const))('%s', async (_id, op) => {
    if (op.id.startsWith('ParentApplication.') || idParams(op).some((p) => p.kind === 'application')) await freshApplications();
    if (idParams(op).some((p) => p.kind === 'changeRequest')) await freshChangeRequests();
    if (idParams(op).some((p) => p.kind === 'oneTime')) await freshOneTimes();
    if (idParams(op).some((p) => p.kind === 'flexCalendar')) await freshFlexCalendars();
    if (idParams(op).some((p) => p.kind === 'punchPurchase')) await freshPunchPurchases();
    if (idParams(op).some((p) => p.kind === 'addWeeks')) await freshAddWeeks();
    const calendar = op.id.startsWith('Registration.flexCalendar');
    const owner: IdSet =
      op.id === 'Demographics.adultDelete'
        ? { ...ids.maria, adult: rosa }
        : calendar
          ? { ...ids.maria, programPeriod: await calendarProgram((await t.db.handle.db.select().from(s.children).where(eq(s.children.id, ids.maria.child as number)))[0].providerId) }
          : op.id.startsWith('Registration.addWeeks')
            ? { ...ids.maria, ...(await weeklyOwner()) }
            : ids.maria;
    const base = await ownerRequest(op, owner);
    const before = await snapshotDb(t.db.handle.db);
    const refused: string[] = [];
    const expectRefused = async (who: string, token: string | null, set: IdSet) => {
      const res = await call(op, token, set, base);
      const okStatus = token === null ? [401] : [400, 403, 404];
      if (!okStatus.includes(res.statusCode)) refused.push(`${who}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    };
    await expectRefused('anonymous', null, owner);
    await expectRefused('another provider’s parent', tokens.linh, owner);
    if (needsAccount(op)) await expectRefused('a holder of another account', tokens.karen, owner);
    if (!paymentOnly(op)) await expectRefused('a payment-only login', tokens.ana, owner);
    // the owner with the ids of the others
    await expectRefused('the owner with another provider’s ids', tokens.maria, ids.linh);
    if (needsAccount(op)) await expectRefused('the owner with another account’s ids', tokens.maria, { ...owner, account: ids.karen.account, adult: ids.karen.adult, child: ids.karen.child, application: ids.karen.application, changeRequest: ids.karen.changeRequest, oneTime: ids.karen.oneTime, flexCalendar: ids.karen.flexCalendar, punchPurchase: ids.karen.punchPurchase, addWeeks: ids.karen.addWeeks, payment: ids.karen.payment, servicePeriod: ids.karen.servicePeriod, paymentMethod: ids.karen.paymentMethod, autopayRegistration: ids.karen.autopayRegistration });
    expect(refused, `${op.id} answered the others`).toEqual([]);
    expect(changedTables(before, await snapshotDb(t.db.handle.db)), `${op.id}: a refused request changed data`).toEqual([]);

    // and the owner succeeds (the same provider's other account does for provider-wide records)
    const mine = await call(op, tokens.maria, owner, base);
    expect(mine.statusCode, `${op.id} as the owner: ${mine.body.slice(0, 300)}`).toBe(200);
    if (!needsAccount(op)) {
      const karen = await call(op, tokens.karen, owner, base);
      expect(karen.statusCode, `${op.id} as another account of the provider: ${karen.body.slice(0, 300)}`).toBe(200);
    }
  });
});
