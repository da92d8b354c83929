// A parent's change of schedule on both databases (server/domains/enrolment/changeSchedule.ts), by the
// demo provider's policy (brightpath: 3 days of notice, changes take effect on a Monday, one free
// change, then $15.00): the request under its key is the account's only; a change before the notice
// is refused; the free changes are counted and the fee after them goes on the ledger; two changes
// for the last seat take it once, the other refused with spec 8.2's message and nothing charged; a
// change waiting for the provider is approved or rejected (its seats back, its charges undone); a
// scheduled change is applied on its effective date by the job, the old seats released then.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { apiClient, BACKENDS, createTestApp, tokenFor, KAREN, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import type { ChangeRow } from '../../server/domains/enrolment/changeSchedule';
import { isoDay } from '../../server/clock';
import { HttpError } from '../../server/errors';
import { addDays, dowOf } from '../../src/engine/billing';
import {
  applyDueChanges,
  approveChange,
  changeHooks,
  changeOf,
  discardChange,
  pendingChanges,
  quoteChange,
  rejectChange,
  saveChange,
  startChange,
  submitChange,
} from '../../server/domains/enrolment/changeSchedule';

/** The text of a PDF (poppler's pdftotext), its whitespace collapsed. */
function pdfText(file: Uint8Array): string {
  const at = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'change-')), 'report.pdf');
  fs.writeFileSync(at, file);
  return execFileSync('pdftotext', ['-layout', at, '-']).toString().replace(/\s+/g, ' ');
}

/** The first Monday at least `notice` days after `day`. */
function mondayAfter(day: string, notice: number): string {
  let d = addDays(day, notice);
  while (dowOf(d) !== 'M') d = addDays(d, 1);
  return d;
}

async function refused(p: Promise<unknown>): Promise<{ status: number; key: string | undefined }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return { status: err.statusCode, key: err.extra.key };
    throw err;
  }
  throw new Error('not refused');
}

describe.each(BACKENDS)('change of schedule on %s', (backend) => {
  let t: TestApp;
  let pid = 0;
  let schoolYear = 0;
  const owner = { garcia: { providerId: 0, accountId: 0 }, johnson: { providerId: 0, accountId: 0 } };
  const kid = { sofia: 0, lucas: 0, tyler: 0 };
  const act = { beforeCare: 0, afterCareLincoln: 0, afterCareWashington: 0 };
  const site = { lincoln: 0, washington: 0 };
  let today = '';

  beforeAll(async () => {
    t = await createTestApp(backend);
    const db = t.db.handle.db;
    today = isoDay(t.app.deps.today());
    const [pp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    schoolYear = pp.id;
    pid = pp.providerId;
    const acts = await db.select({ a: s.activities, site: s.sites }).from(s.activities).innerJoin(s.sites, eq(s.sites.id, s.activities.siteId)).where(eq(s.activities.programPeriodId, pp.id));
    const find = (name: string, siteName: string) => acts.find((x) => x.a.activity === name && x.site.siteName.includes(siteName))!;
    act.beforeCare = find('Before Care', 'Lincoln').a.id;
    act.afterCareLincoln = find('After Care', 'Lincoln').a.id;
    act.afterCareWashington = find('After Care', 'Washington').a.id;
    site.lincoln = find('After Care', 'Lincoln').site.id;
    site.washington = find('After Care', 'Washington').site.id;
    const kids = await db.select().from(s.children).where(eq(s.children.providerId, pid));
    kid.sofia = kids.find((k) => k.firstName === 'Sofia')!.id;
    kid.lucas = kids.find((k) => k.firstName === 'Lucas')!.id;
    kid.tyler = kids.find((k) => k.firstName === 'Tyler')!.id;
    owner.garcia = { providerId: pid, accountId: kids.find((k) => k.firstName === 'Sofia')!.accountId };
    owner.johnson = { providerId: pid, accountId: kids.find((k) => k.firstName === 'Tyler')!.accountId };
  }, 60_000);
  afterAll(async () => t?.close());

  const deps = () => t.app.deps;
  const ledger = (accountId: number) => t.db.handle.db.select().from(s.ledgerEntries).where(and(eq(s.ledgerEntries.providerId, pid), eq(s.ledgerEntries.accountId, accountId)));
  const seatOf = async (activityId: number) => (await t.db.handle.db.select().from(s.seats).where(eq(s.seats.activityId, activityId)))[0];

  it('starts a request under a random hex key, resumable, with the earliest effective date; another account\'s key is not found', async () => {
    const r = await startChange(deps(), owner.garcia, schoolYear, 'en');
    expect(r.key).toMatch(/^[0-9a-f]{32}$/);
    expect(r.effectiveDate).toBe(mondayAfter(today, 3));
    expect(r.data.children?.map((c) => c.prChildID).sort()).toEqual([kid.sofia, kid.lucas].sort());
    // each child at the site of the schedule in force
    expect(r.data.children?.every((c) => c.siteID === site.lincoln || c.siteID === site.washington)).toBe(true);
    // the same open request from another device
    expect((await startChange(deps(), owner.garcia, schoolYear, 'en')).key).toBe(r.key);
    expect(await refused(changeOf(deps(), owner.johnson, r.key, 'en'))).toEqual({ status: 404, key: 'application.errors.change.notFound' });
    expect(await refused(saveChange(deps(), owner.johnson, r.key, { children: [] }, 'en'))).toMatchObject({ status: 404 });
    expect(await refused(submitChange(deps(), owner.johnson, r.key, 'en'))).toMatchObject({ status: 404 });
    // a child of another account is not part of the request
    expect(await refused(saveChange(deps(), owner.garcia, r.key, { children: [{ prChildID: kid.tyler, noChange: true, siteID: null, selections: [] }] }, 'en'))).toMatchObject({ status: 404 });
    await discardChange(deps(), owner.garcia, r.key, 'en');
    expect(await refused(changeOf(deps(), owner.garcia, r.key, 'en'))).toMatchObject({ status: 404 });
  });

  it('refuses an effective date before the notice, or on a day changes do not take effect, and an incomplete request', async () => {
    const r = await startChange(deps(), owner.garcia, schoolYear, 'en');
    const tooSoon = addDays(today, 1);
    expect(await refused(saveChange(deps(), owner.garcia, r.key, { effectiveDate: tooSoon }, 'en'))).toEqual({ status: 400, key: 'application.errors.change.notice' });
    const notMonday = addDays(mondayAfter(today, 3), 2);
    expect(await refused(saveChange(deps(), owner.garcia, r.key, { effectiveDate: notMonday }, 'en'))).toEqual({ status: 400, key: 'application.errors.change.effectiveDay' });
    // each child needs a change or 'No change required' (spec 5.5)
    await saveChange(deps(), owner.garcia, r.key, { children: [{ prChildID: kid.lucas, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.beforeCare, daysOfWeek: [] }] }] }, 'en');
    expect(await refused(submitChange(deps(), owner.garcia, r.key, 'en'))).toMatchObject({ status: 400, key: 'application.errors.change.childChoice' });
    // a request whose date went past its notice (kept from days ago) is refused at submit
    await saveChange(deps(), owner.garcia, r.key, { children: [{ prChildID: kid.lucas, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.beforeCare, daysOfWeek: [] }] }, { prChildID: kid.sofia, noChange: true, siteID: null, selections: [] }] }, 'en');
    await t.db.handle.db.update(s.changeRequests).set({ effectiveDate: tooSoon }).where(eq(s.changeRequests.key, r.key));
    expect(await refused(submitChange(deps(), owner.garcia, r.key, 'en'))).toEqual({ status: 400, key: 'application.errors.change.notice' });
    await discardChange(deps(), owner.garcia, r.key, 'en');
  });

  it('counts the free changes: the first is free, the second pays the fee on the ledger; applied on the effective date by the job, once', async () => {
    const first = await startChange(deps(), owner.garcia, schoolYear, 'en');
    await saveChange(
      deps(),
      owner.garcia,
      first.key,
      {
        children: [
          { prChildID: kid.lucas, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.beforeCare, daysOfWeek: [] }, { activityID: act.afterCareLincoln, daysOfWeek: [] }] },
          { prChildID: kid.sofia, noChange: true, siteID: null, selections: [] },
        ],
      },
      'en',
    );
    const quote = await quoteChange(deps(), owner.garcia, first.key, 'en');
    expect(quote.changesInPeriod).toBe(0);
    expect(quote.total.changeFeeCents).toBe(0);
    expect(quote.appliesItself).toBe(true);
    const before = (await seatOf(act.beforeCare))?.taken ?? 0;
    const sent = await submitChange(deps(), owner.garcia, first.key, 'en');
    expect(sent.status).toBe('scheduled');
    expect(sent.changeFeeCents).toBe(0);
    // Lucas took a Before Care seat (he had After Care already: no new seat there)
    expect((await seatOf(act.beforeCare)).taken).toBe(before + 1);
    // sent twice: the same request, nothing taken again
    expect((await submitChange(deps(), owner.garcia, first.key, 'en')).status).toBe('scheduled');
    expect((await seatOf(act.beforeCare)).taken).toBe(before + 1);

    const second = await startChange(deps(), owner.garcia, schoolYear, 'en');
    expect(second.key).not.toBe(first.key);
    await saveChange(
      deps(),
      owner.garcia,
      second.key,
      {
        children: [
          { prChildID: kid.lucas, noChange: true, siteID: null, selections: [] },
          { prChildID: kid.sofia, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.afterCareLincoln, daysOfWeek: [] }] },
        ],
      },
      'en',
    );
    expect((await quoteChange(deps(), owner.garcia, second.key, 'en')).changesInPeriod).toBe(1);
    const paid = await submitChange(deps(), owner.garcia, second.key, 'en');
    expect(paid.changeFeeCents).toBe(15_00);
    const fees = (await ledger(owner.garcia.accountId)).filter((e) => e.description.endsWith('schedule change fee'));
    expect(fees.map((e) => [e.kind, e.amountCents])).toEqual([['CHARGE', 15_00]]);

    // on the effective date the job applies both, once
    const job = { ...deps(), today: () => new Date(`${first.effectiveDate}T12:00:00Z`) };
    expect(await applyDueChanges(job)).toBe(2);
    expect(await applyDueChanges(job)).toBe(0);
    const lucas = await t.db.handle.db.select().from(s.enrollments).where(and(eq(s.enrollments.childId, kid.lucas), eq(s.enrollments.status, 'A')));
    const fromEffective = lucas.filter((e) => e.enrollmentDate === first.effectiveDate).map((e) => e.activityId).sort();
    expect(fromEffective).toEqual([act.beforeCare, act.afterCareLincoln].sort());
    expect(lucas.find((e) => e.activityId === act.afterCareLincoln && e.enrollmentDate < first.effectiveDate!)?.deEnrollDate).toBe(addDays(first.effectiveDate!, -1));
    // Sofia left Before Care: her enrolment there ends the day before
    const sofia = await t.db.handle.db.select().from(s.enrollments).where(and(eq(s.enrollments.childId, kid.sofia), eq(s.enrollments.activityId, act.beforeCare)));
    expect(sofia.every((e) => e.deEnrollDate !== null && e.deEnrollDate < first.effectiveDate!)).toBe(true);
  });

  it('two changes for the last seat take it once; the other is refused with the spec message and charged nothing', async () => {
    const db = t.db.handle.db;
    // Washington's After Care with one seat left; neither Sofia nor Tyler (Lincoln's After Care) is in it
    const [a] = await db.select().from(s.activities).where(eq(s.activities.id, act.afterCareWashington));
    await db
      .insert(s.seats)
      .values({ providerId: pid, activityId: a.id, weekStart: '1900-01-01', total: a.capacity, taken: a.capacity - 1 })
      .onConflictDoUpdate({ target: [s.seats.activityId, s.seats.weekStart], set: { taken: a.capacity - 1, total: a.capacity } });
    const toWashington = (childId: number) => ({ prChildID: childId, noChange: false, siteID: site.washington, selections: [{ activityID: act.afterCareWashington, daysOfWeek: [] }] });
    const m = await startChange(deps(), owner.garcia, schoolYear, 'en');
    await saveChange(deps(), owner.garcia, m.key, { children: [toWashington(kid.sofia), { prChildID: kid.lucas, noChange: true, siteID: null, selections: [] }] }, 'en');
    const k = await startChange(deps(), owner.johnson, schoolYear, 'en');
    await saveChange(deps(), owner.johnson, k.key, { children: [toWashington(kid.tyler)] }, 'en');
    const before = { garcia: (await ledger(owner.garcia.accountId)).length, johnson: (await ledger(owner.johnson.accountId)).length };
    changeHooks.pauseBeforeSeatTakeMs = 50;
    let outcomes: PromiseSettledResult<ChangeRow>[];
    try {
      outcomes = await Promise.allSettled([submitChange(deps(), owner.garcia, m.key, 'en'), submitChange(deps(), owner.johnson, k.key, 'en')]);
    } finally {
      changeHooks.pauseBeforeSeatTakeMs = 0;
    }
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0].reason).toBeInstanceOf(HttpError);
    expect((lost[0].reason as HttpError).statusCode).toBe(409);
    expect((lost[0].reason as HttpError).extra.key).toBe('application.errors.change.seatsUnavailable');
    expect((lost[0].reason as HttpError).message).toBe('Seats unavailable for the changed schedule.');
    expect((await seatOf(act.afterCareWashington)).taken).toBe(a.capacity);
    // the loser: still open, nothing charged, no seat take
    const loser = outcomes[0].status === 'rejected' ? { o: owner.garcia, key: m.key, n: before.garcia } : { o: owner.johnson, key: k.key, n: before.johnson };
    expect((await changeOf(deps(), loser.o, loser.key, 'en')).status).toBe('open');
    expect((await ledger(loser.o.accountId)).length).toBe(loser.n);
    const loserRow = await changeOf(deps(), loser.o, loser.key, 'en');
    expect(await db.select().from(s.seatTakes).where(eq(s.seatTakes.changeRequestId, loserRow.id))).toHaveLength(0);
    await discardChange(deps(), loser.o, loser.key, 'en');
  });

  it('a change waits for the provider when parents may not change enrolment: rejected, its seats and charges undone; approved, applied on its date', async () => {
    const db = t.db.handle.db;
    const [p] = await db.select().from(s.providers).where(eq(s.providers.id, pid));
    await db.update(s.providers).set({ programOptions: { ...p.programOptions, canParentChangeEnrollment: false } }).where(eq(s.providers.id, pid));
    try {
      const toBeforeCare = { children: [{ prChildID: kid.tyler, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.beforeCare, daysOfWeek: [] }, { activityID: act.afterCareLincoln, daysOfWeek: [] }] }] };
      const net = async () => (await ledger(owner.johnson.accountId)).reduce((n, e) => n + (e.kind === 'CREDIT' || e.kind === 'PAYMENT' ? -e.amountCents : e.amountCents), 0);
      const netBefore = await net();
      const seatsBefore = (await seatOf(act.beforeCare)).taken;
      const r = await startChange(deps(), owner.johnson, schoolYear, 'en');
      await saveChange(deps(), owner.johnson, r.key, toBeforeCare, 'en');
      const sent = await submitChange(deps(), owner.johnson, r.key, 'en');
      expect(sent.status).toBe('waiting');
      expect((await seatOf(act.beforeCare)).taken).toBe(seatsBefore + 1);
      const listed = await pendingChanges(db, 'brightpath');
      expect(listed.map((x) => x.id)).toContain(sent.id);
      expect(listed.find((x) => x.id === sent.id)!.children[0].change).toContain('Before Care');
      const rejected = await rejectChange(deps(), 'brightpath', sent.id);
      expect(rejected.released).toBe(1);
      expect((await seatOf(act.beforeCare)).taken).toBe(seatsBefore);
      expect(await net()).toBe(netBefore);
      await expect(rejectChange(deps(), 'brightpath', sent.id)).rejects.toThrow(/rejected, not waiting/);
      const told = async (kind: string) => db.select().from(s.outbox).where(and(eq(s.outbox.kind, kind), eq(s.outbox.toAddress, 'karen.johnson@example.com')));
      expect((await told('change-rejected')).map((m) => m.subject)).toEqual(['Schedule change not approved: School Year Before & After Care']);

      const again = await startChange(deps(), owner.johnson, schoolYear, 'en');
      await saveChange(deps(), owner.johnson, again.key, toBeforeCare, 'en');
      const waiting = await submitChange(deps(), owner.johnson, again.key, 'en');
      expect(waiting.status).toBe('waiting');
      // another provider's change is not this one's to decide
      await expect(approveChange(deps(), 'northridge', waiting.id)).rejects.toThrow(/not found/);
      const approved = await approveChange(deps(), 'brightpath', waiting.id);
      expect((await told('change-approved'))[0]?.textBody).toContain('was approved');
      expect(approved).toEqual({ applied: waiting.effectiveDate! <= today, effectiveDate: waiting.effectiveDate });
      const job = { ...deps(), today: () => new Date(`${waiting.effectiveDate}T12:00:00Z`) };
      await applyDueChanges(job);
      const [row] = await db.select().from(s.changeRequests).where(eq(s.changeRequests.id, waiting.id));
      expect(row.status).toBe('applied');
      const tyler = await db.select().from(s.enrollments).where(and(eq(s.enrollments.childId, kid.tyler), eq(s.enrollments.status, 'A'), eq(s.enrollments.enrollmentDate, waiting.effectiveDate!)));
      expect(tyler.map((e) => e.activityId).sort()).toEqual([act.beforeCare, act.afterCareLincoln].sort());
    } finally {
      await db.update(s.providers).set({ programOptions: p.programOptions }).where(eq(s.providers.id, pid));
    }
  });

  it('through the API: the parent starts, chooses, sees the cost and sends; another account\'s key is refused', async () => {
    const api = apiClient(() => t.app);
    const maria = await tokenFor(t.app, ...MARIA);
    const karen = await tokenFor(t.app, ...KAREN);
    const start = await api('Registration.changeStart', { token: maria, body: { programPeriodID: schoolYear } });
    expect(start.statusCode, start.body).toBe(200);
    const view = start.json();
    expect(view).toMatchObject({ applicationTypeID: 4, status: 'open', appliesItself: true, cost: null });
    expect(view.key).toMatch(/^[0-9a-f]{32}$/);
    expect((await api('Registration.change', { token: karen, query: { key: view.key } })).statusCode).toBe(404);
    expect((await api('Registration.changeSubmit', { token: karen, query: { key: view.key } })).statusCode).toBe(404);
    // the activities Lucas may be scheduled in, at both sites with the seats left, and his schedule on the effective date
    const eligible = await api('Registration.changeActivities', { token: maria, query: { key: view.key, prChildID: kid.lucas } });
    expect(eligible.statusCode, eligible.body).toBe(200);
    const e = eligible.json();
    expect(e.sites.map((x: { siteID: number }) => x.siteID)).toEqual(expect.arrayContaining([site.lincoln, site.washington]));
    expect(e.activities.map((x: { activityID: number }) => x.activityID)).toEqual(expect.arrayContaining([act.beforeCare, act.afterCareWashington]));
    expect(e.seats.find((x: { activityID: number }) => x.activityID === act.afterCareWashington)).toMatchObject({ available: 0, isFull: true });
    expect(e.asOnDate).toBe(view.effectiveDate);
    expect(e.current.map((x: { activityID: number }) => x.activityID)).toContain(act.afterCareLincoln);
    expect((await api('Registration.changeActivities', { token: maria, query: { key: view.key, prChildID: kid.tyler } })).statusCode).toBe(404);
    expect((await api('Registration.changeActivities', { token: karen, query: { key: view.key, prChildID: kid.lucas } })).statusCode).toBe(404);
    const tooSoon = await api('Registration.changeSave', { token: maria, query: { key: view.key }, body: { children: [], effectiveDate: addDays(today, 1) } });
    expect(tooSoon.statusCode).toBe(400);
    const saved = await api('Registration.changeSave', {
      token: maria,
      query: { key: view.key },
      body: {
        children: [
          { prChildID: kid.lucas, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.afterCareLincoln, daysOfWeek: [] }] },
          { prChildID: kid.sofia, noChange: true, siteID: null, selections: [] },
        ],
        effectiveDate: null,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const cost = saved.json().cost;
    expect(cost).not.toBeNull();
    expect(cost.amountDue).toBe(cost.total - cost.creditApplied);
    // from another device: the same request and choices
    const again = (await api('Registration.change', { token: maria, query: { key: view.key } })).json();
    expect(again.children.find((c: { prChildID: number }) => c.prChildID === kid.lucas).selections).toEqual([{ activityID: act.afterCareLincoln, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'] }]);
    const sent = await api('Registration.changeSubmit', { token: maria, query: { key: view.key } });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(['scheduled', 'applied']).toContain(sent.json().status);
    expect(sent.json().cost).toEqual(cost);
    // the confirmation e-mail, in the sender's language, and in the account's Emails/Texts history
    const mails = await t.db.handle.db.select().from(s.outbox).where(and(eq(s.outbox.kind, 'change-submitted'), eq(s.outbox.toAddress, 'maria.garcia@example.com')));
    const mail = mails.find((m) => m.textBody.includes('Lucas Garcia: After Care'));
    expect(mail?.subject).toBe('Schedule change sent: School Year Before & After Care');
    expect(mail?.textBody).toContain('Sofia Garcia: no change');
    const history = await t.db.handle.db.select().from(s.communications).where(and(eq(s.communications.accountId, owner.garcia.accountId), eq(s.communications.subject, 'Schedule change sent: School Year Before & After Care')));
    expect(history.length).toBeGreaterThan(0);

    // the program report of type ChangeSchedule lists the account's changes sent, in the reader's language
    for (const [lang, heading, child] of [['en', 'Schedule changes', 'Lucas Garcia: After Care'], ['es', 'Cambios de horario', 'Lucas Garcia: Cuidado después de clases']] as const) {
      const report = await api('Registration.programReport', { token: maria, lang, query: { programPeriodID: schoolYear, reportType: 'ChangeSchedule' } });
      expect(report.statusCode, report.body.slice(0, 200)).toBe(200);
      const text = pdfText(report.rawPayload);
      expect(text).toContain(heading);
      expect(text, text).toContain(child);
    }
    // another account's report has none of them
    const theirs = await api('Registration.programReport', { token: karen, query: { programPeriodID: schoolYear, reportType: 'ChangeSchedule' } });
    expect(pdfText(theirs.rawPayload)).not.toContain('Lucas Garcia');
  });
  it('through the API: a child\'s site changed in the dialog, the chosen schedules as read back, and what the sent change left due', async () => {
    const api = apiClient(() => t.app);
    const maria = await tokenFor(t.app, ...MARIA);
    const karen = await tokenFor(t.app, ...KAREN);
    const { key } = (await api('Registration.changeStart', { token: maria, body: { programPeriodID: schoolYear } })).json();
    // the change-site dialog: the site of Sofia's new schedule; a site of no schedule activity, another account or child refused
    const moved = await api('Registration.changeSite', { token: maria, query: { key }, body: { prChildID: kid.sofia, siteID: site.washington } });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().children.find((c: { prChildID: number }) => c.prChildID === kid.sofia)).toMatchObject({ siteID: site.washington, noChange: false, selections: [] });
    expect((await api('Registration.changeSite', { token: maria, query: { key }, body: { prChildID: kid.sofia, siteID: 2147483000 } })).statusCode).toBe(400);
    expect((await api('Registration.changeSite', { token: maria, query: { key }, body: { prChildID: kid.tyler, siteID: site.lincoln } })).statusCode).toBe(404);
    expect((await api('Registration.changeSite', { token: karen, query: { key }, body: { prChildID: kid.sofia, siteID: site.lincoln } })).statusCode).toBe(404);
    const saved = await api('Registration.changeSave', {
      token: maria,
      query: { key },
      body: {
        children: [
          { prChildID: kid.sofia, noChange: false, siteID: site.lincoln, selections: [{ activityID: act.beforeCare, daysOfWeek: [] }] },
          { prChildID: kid.lucas, noChange: true, siteID: null, selections: [] },
        ],
        effectiveDate: null,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const chosen = await api('Registration.changeSubmittedActivities', { token: maria, query: { key } });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const sofia = chosen.json().children.find((c: { prChildID: number }) => c.prChildID === kid.sofia);
    expect(sofia).toMatchObject({ fullName: 'Sofia Garcia', noChange: false, activities: [{ activityID: act.beforeCare, activity: 'Before Care' }] });
    expect(sofia.siteName).toContain('Lincoln');
    expect(chosen.json().children.find((c: { prChildID: number }) => c.prChildID === kid.lucas)).toMatchObject({ noChange: true, activities: [] });
    expect((await api('Registration.changeSubmittedActivities', { token: karen, query: { key } })).statusCode).toBe(404);
    expect((await api('Registration.changeConfirmationMail', { token: maria, query: { key } })).statusCode).toBe(409);
    // nothing to pay before it is sent
    expect((await api('Billing.processingFee', { token: maria, query: { ChangeKey: key } })).json()).toMatchObject({ valid: false, methods: [] });
    const sent = await api('Registration.changeSubmit', { token: maria, query: { key } });
    expect(sent.statusCode, sent.body).toBe(200);
    const due = sent.json().amountDue;
    // a third change in the period: the fee after the free one
    expect(sent.json().cost.changeFee).toBe(15_00);
    expect(due).toBeGreaterThan(0);
    const fee = (await api('Billing.processingFee', { token: maria, query: { ChangeKey: key, PaymentMethod: 'CCD' } })).json();
    expect(fee.valid).toBe(true);
    expect(Math.round(fee.amount * 100)).toBeLessThanOrEqual(due);
    expect(fee.amount).toBeGreaterThan(0);
    expect((await api('Billing.processingFee', { token: karen, query: { ChangeKey: key } })).statusCode).toBe(404);
    // the confirmation e-mailed again on asking (refused while open, and for another account)
    const again = await api('Registration.changeConfirmationMail', { token: maria, lang: 'es', query: { key } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual({ sent: true });
    const resent = await t.db.handle.db.select().from(s.outbox).where(and(eq(s.outbox.kind, 'change-submitted'), eq(s.outbox.toAddress, 'maria.garcia@example.com')));
    expect(resent.some((m) => m.subject.includes('Cuidado antes y después de clases del año escolar'))).toBe(true);
    expect((await api('Registration.changeConfirmationMail', { token: karen, query: { key } })).statusCode).toBe(404);
    // the checkout itself (purpose CHANGE, back at the change's confirmation) is paid in tests/e2e/change-schedule.test.ts
  });
});
