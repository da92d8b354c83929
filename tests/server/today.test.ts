// One setting for 'today' (PORTAL_TODAY): the seed, the server's business dates and the rules follow
// the fixed day while session times stay on the real clock, and the portal page names the day for the
// browser. Fixed here on a month end in another year, far from the real date.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestApp, tokenFor, MARIA, type TestApp } from './helpers';
import { businessDate, evaluateLogic, fixedToday, setFixedToday } from '../../src/engine/index';

const DAY = '2031-01-31';

describe.each(BACKENDS)('a fixed today (%s)', (backend) => {
  let t: TestApp;
  let maria: string;
  let dist: string;
  beforeAll(async () => {
    setFixedToday(DAY);
    dist = mkdtempSync(join(tmpdir(), 'pp-dist-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head><title>x</title></head><body></body></html>');
    t = await createTestApp(backend, { distDir: dist });
    maria = await tokenFor(t.app, ...MARIA);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
    setFixedToday(process.env.PORTAL_TODAY || undefined);
  });

  it('the seed and the attendance range end on the fixed day', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Attendance/attendance', headers: { authorization: `Bearer ${maria}` } });
    const records = res.json().records as { attendanceDate: string; childName: string }[];
    expect(records[0].attendanceDate).toBe(DAY);
    expect(records.filter((r) => r.attendanceDate === DAY && r.childName.startsWith('Sofia')).length).toBe(4);
    expect(records.every((r) => r.attendanceDate >= '2031-01-04' && r.attendanceDate <= DAY)).toBe(true);
  });

  it('an absence may start on the fixed day but not the day before (the rules see the same today)', async () => {
    const kids = (await t.app.inject({ method: 'GET', url: '/api/Demographics/children', headers: { authorization: `Bearer ${maria}` } })).json() as { childID: number }[];
    const reasons = (await t.app.inject({ method: 'GET', url: '/api/Customer/program/absence-reason?ShowInParentPortal=true', headers: { authorization: `Bearer ${maria}` } })).json() as { absenceReasonID: number }[];
    const post = (startDate: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/Attendance/absence',
        headers: { authorization: `Bearer ${maria}` },
        payload: { childIDs: [kids[0].childID], reasonID: reasons[0].absenceReasonID, startDate, multiDay: false, timeOffered: 'afterschool', additionalInfo: 'Dentist.' },
      });
    const ok = await post('01/31/2031');
    expect(ok.statusCode, ok.body).toBe(200);
    const past = await post('01/30/2031');
    expect(past.statusCode).toBe(400);
    expect(past.json().errors).toContainEqual(expect.objectContaining({ path: '/startDate', key: 'errors.date.beforeToday' }));
    expect(evaluateLogic({ today: [] }, {})).toBe('01/31/2031');
  });

  it('the portal page names the day for the browser', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/parentportal/attendance' });
    expect(page.body).toContain(`<meta name="portal-today" content="${DAY}">`);
  });
});

describe('businessDate', () => {
  afterAll(() => setFixedToday(process.env.PORTAL_TODAY || undefined));
  it('keeps the time of day and moves onto the fixed day; refuses what is not a calendar day', () => {
    setFixedToday('2027-02-28');
    const d = businessDate(new Date(2026, 10, 23, 14, 5, 7));
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()]).toEqual([2027, 1, 28, 14, 5, 7]);
    expect(fixedToday()).toBe('2027-02-28');
    expect(() => setFixedToday('2027-02-29')).toThrow(/calendar day/);
    expect(() => setFixedToday('28/02/2027')).toThrow(/calendar day/);
    setFixedToday(undefined);
    const now = new Date(2026, 10, 23, 9, 0);
    expect(businessDate(now).getTime()).toBe(now.getTime());
  });
});
