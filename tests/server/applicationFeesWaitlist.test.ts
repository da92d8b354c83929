// What the fee and review steps show is what the submit bills (spec 4: no fee for a waitlisted
// child's week), on both databases: amara registers Ada and Ben for the summer camp, each for the
// full first week and a week with seats. The full weeks are listed as "waitlist, not charged" with
// no amount in the totals; the fee step's total is what goes on the ledger; the confirmation and its
// e-mail list per child what was charged (with amounts) and what was waitlisted (each week with its
// own place). The optional fees carry their prices; a program without any hides the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, type TestApp } from './helpers';
import * as s from '../../server/db/schema';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;

describe.each(BACKENDS)('fees of waitlisted choices on %s', (backend) => {
  let t: TestApp;
  let amara = '';
  let summer = 0;
  let adventure = 0;
  let kids = { ada: 0, ben: 0 };

  beforeAll(async () => {
    t = await createTestApp(backend);
    amara = await tokenFor(t.app, ...AMARA);
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    summer = pp.id;
    const [a] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'Adventure Week')));
    adventure = a.id;
    const children = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    kids = { ada: children.find((c) => c.firstName === 'Ada')!.id, ben: children.find((c) => c.firstName === 'Ben')!.id };
  }, 120_000);
  afterAll(async () => t?.close());

  const api = apiClient(() => t.app, () => ({ token: amara, lang: 'en' }));

  it('a full week is "waitlist, not charged"; the fee step total is what the submit puts on the ledger; confirmation and e-mail itemise charges and each week\'s place', async () => {
    const db = t.db.handle.db;
    const { key } = (await api('ParentApplication.start', { body: { programPeriodID: summer } })).json();
    expect((await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [kids.ada, kids.ben] } })).statusCode).toBe(200);
    const acts = (await api('ParentApplication.activities', { params: { prChildID: kids.ada }, query: { key } })).json();
    const weeks: string[] = acts.weeks.map((w: { weekStart: string }) => w.weekStart);
    const site = acts.activities.find((a: { activityID: number }) => a.activityID === adventure).siteID;
    const sel = (week: string) => ({ activityID: adventure, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null });
    const enrol = await api('ParentApplication.saveEnrollment', { query: { key }, body: {
      children: [
        { prChildID: kids.ada, siteID: site, selections: [sel(weeks[0]), sel(weeks[1])] },
        { prChildID: kids.ben, siteID: site, selections: [sel(weeks[1]), sel(weeks[0])] },
      ],
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);

    // the draft carries the count of optional fees (the field shows only when there are some)
    expect((await api('ParentApplication.draft', { query: { key } })).json()).toMatchObject({ miscCount: 2, creditBalance: 4000 });
    const before = (await api('ParentApplication.fees', { query: { key } })).json();
    // each optional fee with its price
    expect(before.miscOptions.map((m: { label: string }) => m.label)).toEqual(['Camp T-shirt ($15.00)', 'Field trip fund ($25.00)']);
    const shirt = before.miscOptions.find((m: { feeName: string }) => m.feeName === 'Camp T-shirt');
    expect((await api('ParentApplication.saveFee', { query: { key }, body: { miscCharges: [shirt.miscChargeID], isCreditBalanceApplied: false, isOptedFinancialAssistance: false, agencies: [] } })).statusCode).toBe(200);

    const fees = (await api('ParentApplication.fees', { query: { key } })).json();
    const rows = fees.rows.map((r: { firstName: string; kind: string; regularFee: number; status: string }) => `${r.firstName} ${r.kind} ${r.status} ${r.regularFee}`);
    // Ada (1st child): registration $75, week 2 $210, week 1 full: waitlisted, not charged;
    // Ben (2nd child): registration $60, week 2 at the sibling rate $190, week 1 waitlisted; T-shirt $15
    expect(rows).toEqual([
      'Ada registration CHARGED 7500',
      'Ada tuition WAITLIST 0',
      'Ada tuition CHARGED 21000',
      'Ben registration CHARGED 6000',
      'Ben sibling CHARGED 19000',
      'Ben tuition WAITLIST 0',
      ' misc CHARGED 1500',
    ]);
    expect(fees).toMatchObject({ totalCost: 55000, creditBalanceApplied: 0, totalDue: 55000 });

    const ledgerBefore = await db.select({ id: s.ledgerEntries.id }).from(s.ledgerEntries).orderBy(s.ledgerEntries.id);
    const lastId = ledgerBefore.at(-1)?.id ?? 0;
    const submitted = await api('ParentApplication.submit', { query: { key } });
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().emailSent).toBe(true);
    const conf = (await api('ParentApplication.confirmation', { query: { key } })).json();
    // what the submit billed is what the fee step showed
    const charges = await db.select().from(s.ledgerEntries).where(and(gt(s.ledgerEntries.id, lastId), eq(s.ledgerEntries.kind, 'CHARGE')));
    expect(charges.reduce((n, c) => n + c.amountCents, 0)).toBe(fees.totalDue);

    // the confirmation: what was charged, per child with amounts, and each waitlisted week's own place
    expect(conf.charged.total).toBe(55000);
    expect(conf.charged.rows.map((r: { firstName: string; feeName: string; amount: number }) => `${r.firstName}: ${r.feeName} ${r.amount}`)).toEqual([
      'Ada: Registration fee 7500',
      `Ada: Adventure Week, week of ${weeks[1].slice(5, 7)}/${weeks[1].slice(8, 10)}/${weeks[1].slice(0, 4)} 21000`,
      'Ben: Registration fee 6000',
      `Ben: Adventure Week, week of ${weeks[1].slice(5, 7)}/${weeks[1].slice(8, 10)}/${weeks[1].slice(0, 4)} (sibling rate) 19000`,
      ': Camp T-shirt 1500',
    ]);
    const ada = conf.children.find((c: { prChildID: number }) => c.prChildID === kids.ada);
    const ben = conf.children.find((c: { prChildID: number }) => c.prChildID === kids.ben);
    expect(ada.activities.find((a: { weekStart: string }) => a.weekStart === weeks[0])).toMatchObject({ state: 'W', waitlistPosition: 1 });
    expect(ben.activities.find((a: { weekStart: string }) => a.weekStart === weeks[0])).toMatchObject({ state: 'W', waitlistPosition: 2 });
    expect(ben.activities.find((a: { weekStart: string }) => a.weekStart === weeks[1])).toMatchObject({ state: 'A' });

    // the e-mail: one, itemised: charged with amounts, waitlisted with each week's place
    const mails = await db.select().from(s.outbox).where(and(eq(s.outbox.kind, 'application-confirmation'), eq(s.outbox.toAddress, 'amara.mensah@example.com')));
    expect(mails).toHaveLength(1);
    const text = mails[0].textBody;
    const mdy = (iso: string) => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
    for (const line of [
      'Ada Mensah: Registered',
      'Registration fee: $75.00',
      `Adventure Week, week of ${mdy(weeks[1])}: $210.00`,
      `Adventure Week, week of ${mdy(weeks[0])}: waitlisted, number 1 (not charged)`,
      'Ben Mensah: Registered',
      'Registration fee: $60.00',
      `Adventure Week, week of ${mdy(weeks[1])} (sibling rate): $190.00`,
      `Adventure Week, week of ${mdy(weeks[0])}: waitlisted, number 2 (not charged)`,
      'Camp T-shirt: $15.00',
      'Total charged: $550.00',
    ]) expect(text).toContain(line);
    // reading the confirmation again sends nothing more
    await api('ParentApplication.confirmation', { query: { key } });
    expect(await db.select().from(s.outbox).where(and(eq(s.outbox.kind, 'application-confirmation'), eq(s.outbox.toAddress, 'amara.mensah@example.com')))).toHaveLength(1);
  });

  it('a program without optional fees has none to show (the field hides)', async () => {
    const db = t.db.handle.db;
    const [pre] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Little Sprouts Preschool'));
    const { key } = (await api('ParentApplication.start', { body: { programPeriodID: pre.id } })).json();
    const draft = (await api('ParentApplication.draft', { query: { key } })).json();
    expect(draft.miscCount).toBe(0);
  });
});
