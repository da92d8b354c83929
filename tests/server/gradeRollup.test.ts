// The year-end grade roll-up of the programs list (spec 7.2 accounts/yearend-grade-rollup): open only
// in the provider's window, once per season, for the account's own children and the provider's grades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { BACKENDS, callOperation, createTestApp, tokenFor, KAREN, MARIA, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { inRollup, rollupSeason } from '../../server/gradeRollup';

describe('roll-up window', () => {
  it('is inside the window on any year, also across new year, with the season of its opening', () => {
    expect(inRollup({ from: '05-15', to: '06-30' }, '2026-06-01')).toBe(true);
    expect(inRollup({ from: '05-15', to: '06-30' }, '2026-07-01')).toBe(false);
    expect(inRollup({ from: '12-01', to: '01-15' }, '2027-01-10')).toBe(true);
    expect(inRollup({ from: '12-01', to: '01-15' }, '2027-02-10')).toBe(false);
    expect(rollupSeason({ from: '12-01', to: '01-15' }, '2027-01-10')).toBe(2026);
    expect(inRollup(null, '2026-06-01')).toBe(false);
  });
});

describe.each(BACKENDS)('year-end grade roll-up on %s', (backend) => {
  let open: TestApp;
  let closed: TestApp;
  const ids = { school: 0, sofia: 0, tyler: 0 };

  beforeAll(async () => {
    open = await createTestApp(backend, { gradeRollup: { brightpath: { from: '01-01', to: '12-31' } } });
    closed = await createTestApp(backend, { gradeRollup: { brightpath: null } });
    const db = open.db.handle.db;
    [{ id: ids.school }] = await db.select({ id: s.programPeriods.id }).from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'School Year Before & After Care'));
    [{ id: ids.sofia }] = await db.select({ id: s.children.id }).from(s.children).where(eq(s.children.firstName, 'Sofia'));
    [{ id: ids.tyler }] = await db.select({ id: s.children.id }).from(s.children).where(eq(s.children.firstName, 'Tyler'));
  });
  afterAll(async () => {
    await open?.close();
    await closed?.close();
  });

  it('offers the next grades while open, saves them once per season, then no longer asks', async () => {
    const maria = await tokenFor(open.app, ...MARIA);
    const status = (await callOperation(open.app, 'Demographics.gradeRollup', { token: maria, lang: 'es' })).json();
    expect(status.active).toBe(true);
    const sofia = status.form.children.find((c: { childID: number }) => c.childID === ids.sofia);
    // Sofia is in 3rd grade: 4th is offered
    expect(sofia).toEqual({ childID: ids.sofia, childName: 'Sofia Garcia', gradeLevelCode: '04' });
    const saved = await callOperation(open.app, 'Demographics.gradeRollupSave', { token: maria, lang: 'es', body: { programPeriodID: ids.school, children: [{ childID: ids.sofia, gradeLevelCode: '04' }] } });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await open.db.handle.db.select({ grade: s.children.gradeLevelCode }).from(s.children).where(eq(s.children.id, ids.sofia));
    expect(row.grade).toBe('04');
    expect((await callOperation(open.app, 'Demographics.gradeRollup', { token: maria, lang: 'es' })).json().active).toBe(false);
    const rows = await open.db.handle.db.select().from(s.gradeRollups).where(and(eq(s.gradeRollups.programPeriodId, ids.school)));
    expect(rows).toHaveLength(1);
  });

  it('refuses another account’s child, an unknown grade, and any save outside the window', async () => {
    const maria = await tokenFor(open.app, ...MARIA);
    const karen = await tokenFor(open.app, ...KAREN);
    expect((await callOperation(open.app, 'Demographics.gradeRollupSave', { token: maria, lang: 'es', body: { programPeriodID: ids.school, children: [{ childID: ids.tyler, gradeLevelCode: '05' }] } })).statusCode).toBe(404);
    expect((await callOperation(open.app, 'Demographics.gradeRollupSave', { token: karen, lang: 'es', body: { programPeriodID: ids.school, children: [{ childID: ids.sofia, gradeLevelCode: '05' }] } })).statusCode).toBe(404);
    const unknown = await callOperation(open.app, 'Demographics.gradeRollupSave', { token: maria, lang: 'es', body: { programPeriodID: ids.school, children: [{ childID: ids.sofia, gradeLevelCode: '13' }] } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Elija un grado de la lista.');
    const [row] = await open.db.handle.db.select({ grade: s.children.gradeLevelCode }).from(s.children).where(eq(s.children.id, ids.tyler));
    expect(row.grade).toBe('04');

    const m2 = await tokenFor(closed.app, ...MARIA);
    expect((await callOperation(closed.app, 'Demographics.gradeRollup', { token: m2, lang: 'es' })).json().active).toBe(false);
    const shut = await callOperation(closed.app, 'Demographics.gradeRollupSave', { token: m2, lang: 'es', body: { programPeriodID: ids.school, children: [{ childID: ids.sofia, gradeLevelCode: '04' }] } });
    expect(shut.statusCode).toBe(403);
    expect(shut.json().key).toBe('programs.errors.rollupClosed');
  });
});
