// Who a program is for, on both databases: a program for ages 3 to 5 (Little Sprouts Preschool) or
// for grades 1 to 5 (Robotics & Art Studio) refuses a child outside its range when the children are
// chosen, with a translated 409 naming the range; the children step answers that child as not
// eligible (the reason and the range) and not to be chosen; the programs list says who each program
// is for, its dates, its lowest fee and, where the provider shows them, its seats left (Full or
// Waitlist only when none), and counts only the children a program takes for Register and Add child.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as s from '../../server/db/schema';
import { apiClient, BACKENDS, MARIA, createTestApp, tokenFor, type TestApp } from './helpers';

type Card = Record<string, unknown> & { programPeriodID: number; programPeriod: string };

describe.each(BACKENDS)('program eligibility on %s', (backend) => {
  let t: TestApp;
  let token = '';
  const ids = { preschool: 0, robotics: 0, summer: 0, school: 0, sofia: 0, lucas: 0, emma: 0 };

  beforeAll(async () => {
    t = await createTestApp(backend);
    const db = t.db.handle.db;
    const pp = async (name: string) => (await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, name)))[0].id;
    ids.preschool = await pp('Little Sprouts Preschool');
    ids.robotics = await pp('Robotics & Art Studio');
    ids.summer = await pp('Summer Adventure Camp');
    ids.school = await pp('School Year Before & After Care');
    const kids = await db.select().from(s.children).where(eq(s.children.lastName, 'Garcia'));
    for (const k of kids) ids[k.firstName.toLowerCase() as 'sofia' | 'lucas' | 'emma'] = k.id;
    token = await tokenFor(t.app, ...MARIA);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const api = apiClient(() => t.app, () => ({ token, lang: 'en', headers: { 'x-release-version': '9.9.9' } }));
  const list = async (lang = 'en') => (await api('Registration.programPeriods', { lang })).json() as Card[];
  const start = async (programPeriodID: number) => {
    const res = await api('ParentApplication.start', { body: { programPeriodID } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().key as string;
  };

  it('the programs list says who a program is for, its dates, its price from and its seats left', async () => {
    const cards = await list();
    const preschool = cards.find((c) => c.programPeriodID === ids.preschool)!;
    expect(preschool.eligibility).toMatchObject({ by: 'age', minAge: 3, maxAge: 5, ageOn: preschool.startDate, minGrade: null, maxGrade: null });
    // Emma is in it, Lucas (5) may be added, Sofia (8) may not
    expect(preschool.childrenToRegister).toBe(1);
    expect(preschool).toMatchObject({ priceFrom: 690, priceFromPerDay: false, seatsLeft: null });
    const robotics = cards.find((c) => c.programPeriodID === ids.robotics)!;
    expect(robotics.eligibility).toMatchObject({ by: 'grade', minGrade: '1st Grade', maxGrade: '5th Grade', minAge: null, ageOn: null });
    // Sofia is in it; Lucas (Kindergarten) and Emma (Pre-Kindergarten) are outside its grades
    expect(robotics.childrenToRegister).toBe(0);
    expect(robotics.priceFrom).toBe(60);
    expect(robotics.seatsLeft).toBeGreaterThan(0);
    // the grade names are the provider's, in the reader's language
    const es = (await list('es')).find((c) => c.programPeriodID === ids.robotics)!;
    expect((es.eligibility as { minGrade: string }).minGrade).not.toBe('');
    // a program for every child says nothing of who it is for
    const school = cards.find((c) => c.programPeriodID === ids.school)!;
    expect(school.eligibility).toBeNull();
    expect(school).toMatchObject({ priceFrom: 30, priceFromPerDay: true });
    expect(school.startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(school.endDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('seats left count down to 0: Full under capacity check C, Waitlist only under W', async () => {
    const db = t.db.handle.db;
    const acts = await db.select().from(s.activities).where(eq(s.activities.programPeriodId, ids.robotics));
    const before = (await list()).find((c) => c.programPeriodID === ids.robotics)!.seatsLeft as number;
    expect(before).toBe(Math.max(...acts.filter((a) => !a.isOneTime).map((a) => a.capacity)));
    // every seat of the program taken
    for (const a of acts) await db.insert(s.seats).values({ providerId: a.providerId, activityId: a.id, weekStart: '1900-01-01', total: a.capacity, taken: a.capacity }).onConflictDoNothing();
    const full = (await list()).find((c) => c.programPeriodID === ids.robotics)!;
    expect(full).toMatchObject({ seatsLeft: 0, capacityCheck: 'C' });
    // a provider that does not show seats: nothing said
    await db.update(s.programPeriods).set({ showSeatsLeft: false }).where(eq(s.programPeriods.id, ids.robotics));
    expect((await list()).find((c) => c.programPeriodID === ids.robotics)!.seatsLeft).toBeNull();
    await db.update(s.programPeriods).set({ showSeatsLeft: true }).where(eq(s.programPeriods.id, ids.robotics));
    await db.delete(s.seats).where(eq(s.seats.activityId, acts[0].id));
    const summer = (await list()).find((c) => c.programPeriodID === ids.summer)!;
    expect(summer.capacityCheck).toBe('W');
    expect(summer.seatsLeft).toBeGreaterThan(0);
  });

  it('the children step answers a child outside the ages as not eligible, and choosing her is refused in the parent’s language', async () => {
    const key = await start(ids.preschool);
    const kids = (await api('ParentApplication.children', { query: { key } })).json() as Record<string, unknown>[];
    const byName = (n: string) => kids.find((k) => k.firstName === n)!;
    expect(byName('Sofia')).toMatchObject({ notEligible: 'age', unavailable: true, alreadyIn: false, eligibility: { by: 'age', minAge: 3, maxAge: 5 } });
    expect(byName('Lucas')).toMatchObject({ notEligible: null, unavailable: false });
    expect(byName('Emma')).toMatchObject({ notEligible: null, alreadyIn: true, unavailable: true });

    const refused = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ids.lucas, ids.sofia] } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Sofia cannot be registered for this program: it is for ages 3 to 5.');
    const es = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ids.sofia] }, lang: 'es' });
    expect(es.statusCode).toBe(409);
    expect(es.json().message).toBe('Sofia no puede inscribirse en este programa: es para edades de 3 a 5 años.');
    // nothing was saved: the draft still has no children
    const draft = (await api('ParentApplication.draft', { query: { key } })).json();
    expect(draft.data.childIDs ?? []).toEqual([]);
    // the child the program takes is chosen
    const ok = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ids.lucas] } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a program for grades refuses a child outside them, naming the grades', async () => {
    const key = await start(ids.robotics);
    const kids = (await api('ParentApplication.children', { query: { key }, lang: 'vi' })).json() as Record<string, unknown>[];
    expect(kids.find((k) => k.firstName === 'Lucas')).toMatchObject({ notEligible: 'grade', unavailable: true });
    const refused = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ids.lucas] } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Lucas cannot be registered for this program: it is for 1st Grade to 5th Grade.');
    const pt = await api('ParentApplication.setChildren', { query: { key }, body: { childIDs: [ids.emma] }, lang: 'pt' });
    expect(pt.statusCode).toBe(409);
    expect(pt.json().message).toMatch(/^Emma não pode ser inscrito\(a\) neste programa/);
  });
});
