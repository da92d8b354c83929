// The API over the demo data: provider configuration, home sections, tenant isolation, the
// special-character and form checks, the OpenAPI document, the portal and its validators.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, login, tokenFor, MARIA, ANA, KAREN, LINH, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { iso, mdy } from '../today';

describe.each(BACKENDS)('API on %s', (backend) => {
  let t: TestApp;
  let dist: string;
  let maria: string;
  let linh: string;
  const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'pp-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Parent portal</title><div id="root"></div>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log("portal")');
    t = await createTestApp(backend, { distDir: dist });
    maria = await tokenFor(t.app, ...MARIA);
    linh = await tokenFor(t.app, ...LINH);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('answers the provider configuration, and the spec message for an unknown appName', async () => {
    const res = await get('/api/Customer/program?appName=northridge');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      appName: 'northridge',
      programName: 'Northridge School District Extended Day',
      countryCode: 'CA',
      isSchoolDistrict: true,
      hasSmsLicense: false,
      programOptions: { canParentUploadPhotos: false, canParentChangeContact: true },
      attendanceAllowed: true,
    });
    expect(res.json().languages.map((l: { code: string }) => l.code)).toEqual(['en', 'es', 'vi']);
    const unknown = await get('/api/Customer/program?appName=sunnyvale');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ statusCode: 404, error: 'Not Found', message: 'no configuration data for sunnyvale' });
    expect((await get('/api/Customer/declarations?appName=sunnyvale')).json().message).toBe('no configuration data for sunnyvale');
  });

  it('serves the effective declaration set with its version', async () => {
    const res = await get('/api/Customer/declarations?appName=brightpath');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.version).toBe(t.app.declarations.get('brightpath')!.set.version);
    expect(body.schemas.signin.$id).toBe('signin');
    expect(Object.keys(body.rules).length).toBeGreaterThan(0);
    const again = await get('/api/Customer/declarations?appName=brightpath', undefined, { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('lists providers, and finds providers by e-mail without revealing more than their names', async () => {
    const list = (await get('/api/Customer/providers')).json();
    expect(list.map((p: { appName: string }) => p.appName).sort()).toEqual(['brightpath', 'northridge']);
    const found = await get('/api/Customer/application?parentemail=LINH.NGUYEN@example.ca');
    expect(found.json()).toEqual([{ appName: 'northridge', programName: 'Northridge School District Extended Day' }]);
    expect((await get('/api/Customer/application?parentemail=nobody@example.com')).json()).toEqual([]);
  });

  it('rate-limits the provider look-up by e-mail', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({ method: 'GET', url: `/api/Customer/application?parentemail=a${i}@example.com`, remoteAddress: '10.9.9.9' });
      codes.push(res.statusCode);
    }
    expect(codes.filter((c) => c === 429).length).toBeGreaterThan(0);
    expect(codes.slice(0, 10).every((c) => c === 200)).toBe(true);
  });

  it('answers the home sections for the signed-in account', async () => {
    const summary = (await get('/api/Billing/account-summary', maria)).json();
    expect(summary).toMatchObject({ accountNo: 'BP-10234', suspended: false, isCollection: false, punchPass: true, isAutoPay: true });
    expect(summary.currentBalance).toBeCloseTo(225, 2);
    expect(summary).toMatchObject({ pastDueAmount: 0, delinquent: false });
    // Northridge's account carries last month's unpaid rest: past due
    const nr = (await get('/api/Billing/account-summary', linh)).json();
    expect(nr).toMatchObject({ pastDueAmount: 125, delinquent: true, isAutoPay: false });
    expect(summary.lastPaymentAmount).toBe(400);

    const pps = (await get('/api/Registration/programperiods/list', maria)).json();
    const categories = new Set(pps.map((p: { category: string }) => p.category));
    expect([...categories].sort()).toEqual(['holidayCare', 'other', 'preschool', 'schoolYear', 'summerCamp']);
    // brightpath is not a school district: other-district programs only on request
    expect(pps.some((p: { isOtherDistrict: boolean }) => p.isOtherDistrict)).toBe(false);
    const withOther = (await get('/api/Registration/programperiods/list?otherDistrict=true', maria)).json();
    expect(withOther.length).toBe(pps.length + 1);
    const school = pps.find((p: { category: string }) => p.category === 'schoolYear');
    expect(school.isRegistered).toBe(true);
    expect(school.children.map((c: { childName: string }) => c.childName).sort()).toEqual(['Lucas Garcia', 'Sofia Garcia']);
    expect(school.programPeriod).toBe('School Year Before & After Care');
    const summer = pps.find((p: { programPeriod: string }) => p.programPeriod === 'Summer Adventure Camp');
    expect(summer).toMatchObject({ isPendingApproval: true, enrollmentOption: 'W', isProgramEnded: false });
    const holiday = pps.find((p: { category: string }) => p.category === 'holidayCare');
    expect(holiday).toMatchObject({ haveRegistrationStartDate: true, isAvailableToRegisterToday: false });
    const soccer = pps.find((p: { programPeriod: string }) => p.programPeriod === 'Fall Soccer Clinic');
    expect(soccer.isProgramEnded).toBe(true);

    const acts = (await get('/api/Registration/children/activities', maria)).json();
    const kinds = new Set(acts.map((a: { programKind: string }) => a.programKind));
    expect([...kinds].sort()).toEqual(['childcare', 'enrichment']);
    const sofiaSchool = acts.find((a: { childName: string; category: string }) => a.childName === 'Sofia Garcia' && a.category === 'schoolYear');
    expect(sofiaSchool.activities.map((a: { activity: string }) => a.activity).sort()).toEqual(['After Care', 'Before Care']);
    // ended programs and de-enrolled activities are not current
    expect(acts.some((a: { programPeriod: string }) => a.programPeriod === 'Fall Soccer Clinic')).toBe(false);
    const robotics = acts.find((a: { programPeriod: string }) => a.programPeriod === 'Robotics & Art Studio');
    expect(robotics.activities.map((a: { activity: string }) => a.activity)).toEqual(['Robotics Club']);
    expect(robotics.activities[0].daysOfWeek).toEqual(['T', 'TH']);

    const children = (await get('/api/Demographics/children', maria)).json();
    expect(children.map((c: { firstName: string }) => c.firstName)).toEqual(['Emma', 'Lucas', 'Sofia']);
    expect(children.find((c: { firstName: string }) => c.firstName === 'Sofia')).toMatchObject({ gradeLevel: '3rd Grade', school: 'Lincoln Elementary School' });

    const adults = (await get('/api/Demographics/adults', maria)).json();
    expect(adults.map((a: { firstName: string }) => a.firstName)).toEqual(['Maria', 'David', 'Ana', 'James', 'Paula', 'Rosa', 'Kevin']);
    expect(adults.at(-1)).toMatchObject({ firstName: 'Kevin', doNotRelease: 1 });

    const bulletins = (await get('/api/Communication/bulletin', maria)).json();
    expect(bulletins.map((b: { subject: string }) => b.subject)).not.toContain('Expired: summer photos');
    const withPdf = bulletins.find((b: { attachments: unknown[] }) => b.attachments.length === 1);
    const file = await get(`/api/Communication/bulletin/download/${withPdf.attachments[0].messageAttachmentID}`, maria);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const forms = (await get('/api/Communication/forms', maria)).json();
    expect(forms.length).toBe(3);
    const form = await get(`/api/Communication/forms/download/${forms[0].formID}`, maria);
    expect(form.headers['content-disposition']).toContain('attachment; filename=');

    expect((await get('/api/Communication/calendar-events/parent', maria)).json().length).toBeGreaterThanOrEqual(5);
    const home = (await get('/api/Communication/alerts/home', maria)).json();
    expect(home.length).toBe(2);
    const loginAlerts = (await get('/api/Communication/PARENT/alerts/login?appName=brightpath')).json();
    expect(loginAlerts[0].alertText).toContain('<strong>Winter Break Holiday Care</strong>');
  });

  it('filters the communication history by period and kind', async () => {
    const q = (days: number, auto: boolean, sent: boolean) =>
      get(`/api/Communication/history?StartDate=${iso(-days)}&EndDate=${iso(0)}&ShowAutoMail=${auto}&ShowEmailSentByAccount=${sent}`, maria);
    const all90 = (await q(90, true, true)).json();
    const all720 = (await q(720, true, true)).json();
    expect(all720.length).toBeGreaterThan(all90.length);
    expect(all90.some((c: { mode: string }) => c.mode === 'TEXT')).toBe(true);
    const autoOnly = (await q(90, true, false)).json();
    expect(autoOnly.length).toBeGreaterThan(0);
    expect(autoOnly.every((c: { isAutomatic: boolean }) => c.isAutomatic)).toBe(true);
    expect((await q(90, false, true)).json().every((c: { isAutomatic: boolean }) => !c.isAutomatic)).toBe(true);
  });

  it('answers attendance with absences', async () => {
    const res = (await get(`/api/Attendance/attendance?StartDate=${iso(-28)}&EndDate=${iso(0)}`, maria)).json();
    expect(res.attendanceAllowed).toBe(true);
    expect(res.records.length).toBeGreaterThan(40);
    const absent = res.records.filter((r: { absentReason: string | null }) => r.absentReason);
    expect(absent.length).toBeGreaterThan(0);
    expect(absent.every((r: { timeIn: unknown; timeOut: unknown }) => r.timeIn === null && r.timeOut === null)).toBe(true);
  });

  it('keeps every provider and account to its own data', async () => {
    const db = t.db.handle.db;
    const [nr] = await db.select().from(s.providers).where(eq(s.providers.appName, 'northridge'));
    const [nrForm] = await db.select().from(s.forms).where(eq(s.forms.providerId, nr.id));
    const [nrAtt] = await db.select().from(s.bulletinAttachments).where(eq(s.bulletinAttachments.providerId, nr.id));
    const [nrAccount] = await db.select().from(s.accounts).where(eq(s.accounts.providerId, nr.id));
    const [karen] = await db.select().from(s.adults).where(eq(s.adults.email, 'karen.johnson@example.com'));
    const [tyler] = await db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));

    expect((await get(`/api/Communication/forms/download/${nrForm.id}`, maria)).statusCode).toBe(404);
    expect((await get(`/api/Communication/bulletin/download/${nrAtt.id}`, maria)).statusCode).toBe(404);
    expect((await get(`/api/Communication/forms/download/${nrForm.id}`, linh)).statusCode).toBe(200);
    expect((await get(`/api/Registration/programperiods/list?AccountID=${nrAccount.id}`, maria)).statusCode).toBe(404);
    expect((await get(`/api/Registration/programperiods/list?AccountID=${karen.accountId}`, maria)).statusCode).toBe(404);
    expect((await get(`/api/Demographics/adults?AdultID=${karen.id}`, maria)).statusCode).toBe(404);
    // another account's child is not found (not an empty list)
    expect((await get(`/api/Registration/children/activities?childID=${tyler.id}`, maria)).statusCode).toBe(404);

    const mariaForms = (await get('/api/Communication/forms', maria)).json();
    expect(mariaForms.some((f: { formID: number }) => f.formID === nrForm.id)).toBe(false);
    const kids = (await get('/api/Demographics/children', maria)).json();
    expect(kids.some((c: { childID: number }) => c.childID === tyler.id)).toBe(false);
    const linhKids = (await get('/api/Demographics/children', linh)).json();
    expect(linhKids.map((c: { firstName: string }) => c.firstName)).toEqual(['An', 'Bao', 'Mai']);
    const linhPps = (await get('/api/Registration/programperiods/list', linh)).json();
    const [bpPp] = await db.select().from(s.programPeriods).where(eq(s.programPeriods.programPeriod, 'Summer Adventure Camp'));
    expect(linhPps.some((p: { programPeriodID: number }) => p.programPeriodID === bpPp.id)).toBe(false);
    expect((await get(`/api/Registration/programperiods/list?programPeriodID=${bpPp.id}`, linh)).statusCode).toBe(404);

    // another family of the same provider sees only its own child
    const karenToken = await tokenFor(t.app, ...KAREN);
    const karenKids = (await get('/api/Demographics/children', karenToken)).json();
    expect(karenKids.map((c: { childID: number }) => c.childID)).toEqual([tyler.id]);
    const karenHistory = (await get('/api/Communication/history?StartDate=2000-01-01&EndDate=2100-01-01', karenToken)).json();
    expect(karenHistory.map((c: { subject: string }) => c.subject)).toEqual(['Welcome to Bright Path']);
  });

  it('limits a payment-only login to payments', async () => {
    const ana = await tokenFor(t.app, ...ANA);
    expect((await get('/api/Billing/account-summary', ana)).statusCode).toBe(200);
    expect((await get('/api/Communication/alerts/home', ana)).statusCode).toBe(200);
    expect((await get('/api/Demographics/children', ana)).statusCode).toBe(403);
    expect((await get('/api/Registration/programperiods/list', ana)).statusCode).toBe(403);
  });

  it('refuses < > ^ in any string of a write with 422 naming the character', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/Authentication/login', payload: { appName: 'brightpath', email: 'maria^@example.com', password: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The character ^ is not supported.');
    const vi = await t.app.inject({ method: 'POST', url: '/api/Authentication/login', headers: { 'accept-language': 'vi' }, payload: { appName: 'brightpath', email: 'a@example.com', password: '<script>' } });
    expect(vi.statusCode).toBe(422);
    expect(vi.json().message).toBe('Ký tự < không được hỗ trợ.');
  });

  it('validates a write with the form schema and rules of the browser', async () => {
    const bad = await login(t.app, 'brightpath', 'not-an-email', 'Sunshine#2026');
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(body.message).toBe('Please correct the error(s) for the field(s) marked red.');
    expect(body.errors.map((e: { path: string }) => e.path)).toContain('/email');
    const missing = await login(t.app, 'brightpath', 'maria.garcia@example.com', '');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.map((e: { path: string }) => e.path)).toContain('/password');
    // the contract's own schema runs first: unknown fields are refused
    const extra = await t.app.inject({ method: 'POST', url: '/api/Authentication/login', payload: { appName: 'brightpath', email: 'a@example.com' } });
    expect(extra.statusCode).toBe(400);
  });

  it('takes an absence notice validated with the absence form and rules, and mails the site staff', async () => {
    const kids = (await get('/api/Demographics/children', maria)).json() as { childID: number; firstName: string }[];
    const reasons = (await get('/api/Customer/program/absence-reason?ShowInParentPortal=true', maria)).json() as { absenceReasonID: number; reason: string }[];
    expect(reasons.map((r) => r.reason)).not.toContain('Staff use only: no-show');
    const sick = reasons.find((r) => r.reason === 'Sick')!;
    const post = (payload: Record<string, unknown>, token = maria) =>
      t.app.inject({ method: 'POST', url: '/api/Attendance/absence', headers: { authorization: `Bearer ${token}` }, payload });
    const valid = {
      childIDs: [kids[0].childID, kids[1].childID],
      reasonID: sick.absenceReasonID,
      startDate: mdy(1),
      multiDay: false,
      endDate: mdy(3),
      timeOffered: 'afterschool',
      additionalInfo: 'Doctor visit in the afternoon.',
    };
    const ok = await post(valid);
    expect(ok.statusCode, ok.body).toBe(200);
    const [notice] = await t.db.handle.db.select().from(s.absenceNotices).where(eq(s.absenceNotices.id, ok.json().absenceNoticeID));
    // multi-day is off: the end date was hidden, so it is pruned (same as in the browser)
    expect(notice.endDate).toBeNull();
    expect(notice.reason).toBe('Sick');
    const mails = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'absence_notice'));
    // the site administrators of the children's sites receive it (spec 6)
    expect(mails.at(-1)!.toAddress).toMatch(/@brightpath\.example\.com$/);
    expect(mails.at(-1)!.textBody).toContain('Doctor visit in the afternoon.');

    // the start date is today at the earliest (rule absence.startNotPast)
    const past = await post({ ...valid, startDate: mdy(-2) });
    expect(past.statusCode).toBe(400);
    expect(past.json().errors).toContainEqual(expect.objectContaining({ path: '/startDate', key: 'errors.date.beforeToday' }));
    // with multi-day ticked the end date is required
    const noEnd = await post({ ...valid, multiDay: true, endDate: '' });
    expect(noEnd.statusCode).toBe(400);
    expect(noEnd.json().errors.map((e: { path: string }) => e.path)).toContain('/endDate');
    // another family's child is not this account's to report
    const [tyler] = await t.db.handle.db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    expect((await post({ ...valid, childIDs: [tyler.id] })).statusCode).toBe(404);
    // a reason of another provider is refused too
    const linhReasons = (await get('/api/Customer/program/absence-reason', linh)).json() as { absenceReasonID: number }[];
    expect((await post({ ...valid, reasonID: linhReasons[0].absenceReasonID })).statusCode).toBe(404);
  });

  it('stores an error log record, public or with a session', async () => {
    const record = { appName: 'brightpath', PageName: 'home', Url: '/parentportal/home', StackTrace: 'TypeError: x is undefined\n at <anonymous>', Source: 'PARENT PORTAL' };
    const res = await t.app.inject({ method: 'POST', url: '/api/Customer/errorlog', payload: record });
    expect(res.statusCode).toBe(200);
    const withSession = await t.app.inject({ method: 'POST', url: '/api/Customer/errorlog', headers: { authorization: `Bearer ${maria}` }, payload: { ...record, appName: undefined } });
    const [row] = await t.db.handle.db.select().from(s.errorLog).where(eq(s.errorLog.id, withSession.json().errorLogID));
    const [bp] = await t.db.handle.db.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    expect(row).toMatchObject({ providerId: bp.id, pageName: 'home', source: 'PARENT PORTAL' });
    expect(row.stackTrace).toContain('<anonymous>');
  });

  it('publishes the contract as OpenAPI', async () => {
    const doc = (await get('/api/openapi.json')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/Customer/program'].get.operationId).toBe('Customer.program');
    expect(doc.paths['/api/Authentication/login'].post.requestBody).toBeDefined();
  });

  it('serves the portal with history fallback, security headers and the root redirect', async () => {
    const deep = await get('/parentportal/home?x=1');
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('<div id="root">');
    expect((await get('/parentportal/changeschedule/children?key=ab12')).body).toContain('<div id="root">');
    expect((await get('/parentportal/')).body).toContain('<div id="root">');
    const asset = await get('/parentportal/assets/app-abc123.js');
    expect(asset.body).toBe('console.log("portal")');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await get('/parentportal/assets/missing.js')).statusCode).toBe(404);
    const csp = String(deep.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).not.toContain('unsafe-eval');
    expect(deep.headers['x-content-type-options']).toBe('nosniff');
    const root = await get('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/parentportal/');
    const api404 = await get('/api/Nope/nothing');
    expect(api404.statusCode).toBe(404);
    expect(api404.json()).toMatchObject({ statusCode: 404, error: 'Not Found' });
  });

  it("serves the provider's compiled validators as a module, by version", async () => {
    const version = t.app.declarations.get('northridge')!.set.version;
    const res = await get(`/parentportal/validators/northridge/${version}.js`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.body).toContain('export default');
    expect(res.body).toMatch(/"signin"/);
    // the module is importable without eval: load it as a data: URL module and validate with it
    const mod = await import(`data:text/javascript;base64,${Buffer.from(res.body).toString('base64')}`);
    expect(typeof mod.default.signin).toBe('function');
    expect((await get('/parentportal/validators/northridge/0000.js')).statusCode).toBe(404);
    expect((await get(`/parentportal/validators/sunnyvale/${version}.js`)).statusCode).toBe(404);
  });
});
