// The provider's approval of an application that claimed financial assistance, on both databases:
// the child is enrolled and the application's charges go on the account in the approval's own
// transaction, once (with the assistance, the child's registration and tuition are waived; without
// it, the full fees), and the parent is e-mailed in her language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gt } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, KAREN, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { isoDay } from '../../server/clock';
import { accountMoney } from '../../server/domains/billing/ledger';
import { ApprovalError, approveApplication, pendingApplications } from '../../server/domains/enrolment/approvals';

const AMARA = ['brightpath', 'amara.mensah@example.com', 'Sunshine#2026'] as const;
const DAYS = ['M', 'T', 'W', 'TH', 'F'];

describe.each(BACKENDS)('approval of a financial assistance application on %s', (backend) => {
  let t: TestApp;
  let pid = 0;
  let summer = 0;
  let adventure = 0;
  let agency = 0;
  let weeks: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(backend);
    const db = t.db.handle.db;
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    summer = pp.id;
    pid = pp.providerId;
    const [a] = await db.select().from(s.activities).where(and(eq(s.activities.programPeriodId, pp.id), eq(s.activities.activity, 'Adventure Week')));
    adventure = a.id;
    const [ag] = await db.select().from(s.assistanceAgencies).where(eq(s.assistanceAgencies.programPeriodId, pp.id));
    agency = ag.id;
  }, 60_000);
  afterAll(async () => t?.close());

  const api = apiClient(() => t.app);
  const accountOf = async (email: string) => (await t.db.handle.db.select().from(s.adults).where(eq(s.adults.email, email)))[0];
  const balance = async (accountId: number) => (await accountMoney(t.db.handle.db, pid, accountId, isoDay(t.app.deps.today()))).balanceCents;
  const approvalMails = (to: string) =>
    t.db.handle.db.select().from(s.outbox).where(and(eq(s.outbox.kind, 'application-approved'), eq(s.outbox.toAddress, to)));

  /** The parent applies for the summer camp with financial assistance: the fee page's rows, then Approval Pending. */
  async function applyWithAssistance(token: string, children: { id: number; week: number }[], miscName: string) {
    const { key } = (await api('ParentApplication.start', { token, body: { programPeriodID: summer } })).json();
    expect((await api('ParentApplication.setChildren', { token, query: { key }, body: { childIDs: children.map((c) => c.id) } })).statusCode).toBe(200);
    const acts = (await api('ParentApplication.activities', { token, params: { prChildID: children[0].id }, query: { key } })).json();
    weeks = acts.weeks.map((w: { weekStart: string }) => w.weekStart);
    const site = acts.activities.find((a: { activityID: number }) => a.activityID === adventure).siteID;
    const enrol = await api('ParentApplication.saveEnrollment', { token, query: { key }, body: {
      children: children.map((c) => ({ prChildID: c.id, siteID: site, selections: [{ activityID: adventure, weekStart: weeks[c.week], daysOfWeek: DAYS, date: null }] })),
      enrollmentOption: 'Y',
    } });
    expect(enrol.statusCode, enrol.body).toBe(200);
    const misc = (await api('ParentApplication.fees', { token, query: { key } })).json().miscOptions.find((m: { feeName: string }) => m.feeName === miscName);
    const fee = await api('ParentApplication.saveFee', { token, query: { key }, body: { miscCharges: [misc.miscChargeID], isCreditBalanceApplied: false, isOptedFinancialAssistance: true, agencies: [agency] } });
    expect(fee.statusCode, fee.body).toBe(200);
    const fees = (await api('ParentApplication.fees', { token, query: { key } })).json() as { rows: { prChildID: number; kind: string; regularFee: number }[]; totalCost: number };
    const done = await api('ParentApplication.submit', { token, query: { key } });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().children.map((c: { status: string }) => c.status)).toEqual(children.map(() => 'PENDING'));
    return { key, fees };
  }

  it('approved without the discount, the full charges go on the account once, and the parent is e-mailed', async () => {
    const db = t.db.handle.db;
    const karen = await tokenFor(t.app, ...KAREN);
    const holder = await accountOf('karen.johnson@example.com');
    const [tyler] = await db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    const { key, fees } = await applyWithAssistance(karen, [{ id: tyler.id, week: 2 }], 'Camp T-shirt');
    // registration $75, the week $210, the T-shirt $15
    expect(fees.totalCost).toBe(30000);
    // the confirmation read settles the submit: nothing is charged while the provider reviews it
    expect((await api('ParentApplication.confirmation', { token: karen, query: { key } })).json().payment).toMatchObject({ paymentStatus: 'NONE', amountDue: 0 });
    const before = await balance(holder.accountId);
    const [pending] = (await pendingApplications(db, 'brightpath')).filter((p) => p.childName === 'Tyler Johnson');
    expect(pending).toMatchObject({ claimsDiscount: true });
    const lastEntry = Math.max(0, ...(await db.select({ id: s.ledgerEntries.id }).from(s.ledgerEntries)).map((r) => r.id));

    // two approvals at the same moment: one enrols and charges, the other finds it approved
    const both = await Promise.allSettled([
      approveApplication(t.app.deps, 'brightpath', pending.registrationID, { discount: false }),
      approveApplication(t.app.deps, 'brightpath', pending.registrationID, { discount: false }),
    ]);
    const done = both.filter((r) => r.status === 'fulfilled');
    expect(done).toHaveLength(1);
    expect((done[0] as PromiseFulfilledResult<{ enrolled: number; chargedCents: number }>).value).toMatchObject({ enrolled: 1, chargedCents: 30000 });
    expect((both.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(ApprovalError);

    expect(await balance(holder.accountId)).toBe(before + 30000);
    const charges = await db.select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.accountId, holder.accountId), gt(s.ledgerEntries.id, lastEntry)));
    expect(charges.map((c) => [c.kind, c.amountCents]).sort()).toEqual([['CHARGE', 1500], ['CHARGE', 21000], ['CHARGE', 7500]]);
    expect(charges.every((c) => c.description.startsWith('Tyler: ') || c.description === 'Camp T-shirt')).toBe(true);
    const [registration] = await db.select().from(s.registrations).where(eq(s.registrations.id, pending.registrationID));
    expect(registration).toMatchObject({ status: 'REGISTERED', claimsDiscount: false });
    expect(await db.select().from(s.enrollments).where(and(eq(s.enrollments.childId, tyler.id), eq(s.enrollments.activityId, adventure)))).toHaveLength(1);
    const [draft] = await db.select().from(s.applicationDrafts).where(eq(s.applicationDrafts.key, key));
    expect(draft).toMatchObject({ chargedCents: 30000, paymentStatus: 'NONE' });

    // a third approval, and the confirmation read again, post nothing more
    await expect(approveApplication(t.app.deps, 'brightpath', pending.registrationID, { discount: false })).rejects.toBeInstanceOf(ApprovalError);
    await api('ParentApplication.confirmation', { token: karen, query: { key } });
    expect(await balance(holder.accountId)).toBe(before + 30000);

    const mails = await approvalMails('karen.johnson@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain('Summer Adventure Camp');
    expect(mails[0].subject).toContain('Tyler Johnson');
    expect(mails[0].textBody).toContain('Hello Karen Johnson');
    expect(mails[0].textBody).toContain('without the financial assistance');
    expect(mails[0].textBody).toContain('$300.00');
    expect(mails[0].textBody).toContain(`$${((before + 30000) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect(mails[0].textBody).toContain('Pay Now');
  });

  it('approved with the discount, registration and tuition are waived and the optional fee chosen is charged; a sibling approved without it pays the sibling rates', async () => {
    const db = t.db.handle.db;
    const holder = await accountOf('amara.mensah@example.com');
    // Amara reads her mail in Portuguese
    await db.update(s.adults).set({ primaryLanguage: 'pt' }).where(eq(s.adults.id, holder.id));
    const amara = await tokenFor(t.app, ...AMARA);
    const kids = await db.select().from(s.children).where(eq(s.children.lastName, 'Mensah'));
    const ada = kids.find((k) => k.firstName === 'Ada')!;
    const ben = kids.find((k) => k.firstName === 'Ben')!;
    const { key, fees } = await applyWithAssistance(amara, [{ id: ada.id, week: 3 }, { id: ben.id, week: 3 }], 'Field trip fund');
    expect(fees.rows.map((r) => `${r.kind} ${r.regularFee}`)).toEqual(['registration 7500', 'tuition 21000', 'registration 6000', 'sibling 19000', 'misc 2500']);
    // approved before the confirmation was read (nothing settled yet)
    const before = await balance(holder.accountId);
    const pending = (await pendingApplications(db, 'brightpath')).filter((p) => p.childName.endsWith('Mensah'));
    const idOf = (name: string) => pending.find((p) => p.childName === name)!.registrationID;

    expect(await approveApplication(t.app.deps, 'brightpath', idOf('Ada Mensah'), { discount: true })).toMatchObject({ enrolled: 1, chargedCents: 2500 });
    expect(await balance(holder.accountId)).toBe(before + 2500);
    // Ben is still the second child: his registration and week at the sibling rates, the fund not twice
    expect(await approveApplication(t.app.deps, 'brightpath', idOf('Ben Mensah'), { discount: false })).toMatchObject({ enrolled: 1, chargedCents: 25000 });
    expect(await balance(holder.accountId)).toBe(before + 27500);
    expect((await db.select().from(s.registrations).where(eq(s.registrations.id, idOf('Ada Mensah'))))[0]).toMatchObject({ status: 'REGISTERED', claimsDiscount: true });

    // the confirmation read afterwards settles nothing more
    const read = (await api('ParentApplication.confirmation', { token: amara, query: { key } })).json();
    expect(read.payment).toMatchObject({ paymentStatus: 'NONE', amountDue: 0 });
    expect(await balance(holder.accountId)).toBe(before + 27500);
    const [draft] = await db.select().from(s.applicationDrafts).where(eq(s.applicationDrafts.key, key));
    expect(draft.chargedCents).toBe(27500);

    const mails = await approvalMails('amara.mensah@example.com');
    expect(mails).toHaveLength(2);
    const program = 'Acampamento de verão Aventura';
    expect(mails.map((m) => m.subject)).toEqual([
      t.app.deps.t('pt', 'mail.applicationApproved.subject', { child: 'Ada Mensah', program }),
      t.app.deps.t('pt', 'mail.applicationApproved.subject', { child: 'Ben Mensah', program }),
    ]);
    expect(mails[0].subject).not.toBe(t.app.deps.t('en', 'mail.applicationApproved.subject', { child: 'Ada Mensah', program: 'Summer Adventure Camp' }));
    expect(mails[0].textBody).toContain(t.app.deps.t('pt', 'mail.applicationApproved.withAssistance', { child: 'Ada Mensah', program }));
    expect(mails[1].textBody).toContain(t.app.deps.t('pt', 'mail.applicationApproved.withoutAssistance', { child: 'Ben Mensah', program }));
  });

  it("the demo's pending application approved with the discount charges nothing, and Maria is e-mailed in Spanish", async () => {
    const db = t.db.handle.db;
    const holder = await accountOf('maria.garcia@example.com');
    const [sofia] = (await pendingApplications(db, 'brightpath')).filter((p) => p.childName === 'Sofia Garcia');
    expect(sofia).toBeTruthy();
    const before = await balance(holder.accountId);
    expect(await approveApplication(t.app.deps, 'brightpath', sofia.registrationID, { discount: true })).toMatchObject({ enrolled: 1, chargedCents: 0 });
    expect(await balance(holder.accountId)).toBe(before);
    const mails = await approvalMails('maria.garcia@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(t.app.deps.t('es', 'mail.applicationApproved.subject', { child: 'Sofia Garcia', program: 'Campamento de verano Aventura' }));
    expect(mails[0].textBody).toContain(t.app.deps.t('es', 'mail.applicationApproved.nothingCharged'));
  });
});
