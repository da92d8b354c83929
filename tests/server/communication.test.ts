// Communication and attendance over the demo data: bulletin details, the history period, contact us
// (outbox + history), the attendance report PDF, absence notices to the site administrators, and
// provider HTML sanitised with a corpus of known XSS payloads (stored and served).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { BACKENDS, createTestApp, tokenFor, MARIA, LINH, type TestApp } from './helpers';
import * as s from '../../server/db/schema';
import { safeHtml } from '../../server/domains/provider/provider';
import { iso, mdy } from '../today';

const PAYLOADS = JSON.parse(readFileSync(resolve(__dirname, '../fixtures/xss/payloads.json'), 'utf8')) as string[];


/** Everything that could run or hide content, in sanitised HTML. */
function dangerous(html: string): string[] {
  const found: string[] = [];
  const tags = html.match(/<[a-z][^>]*>/gi) ?? [];
  for (const tag of tags) {
    const name = /^<([a-z0-9]+)/i.exec(tag)![1].toLowerCase();
    if (!['p', 'br', 'b', 'strong', 'i', 'em', 'u', 'ul', 'ol', 'li', 'a', 'h2', 'h3', 'h4', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'td', 'th'].includes(name)) found.push(`tag ${name}`);
    for (const m of tag.matchAll(/\s([a-z-:]+)\s*=/gi)) {
      const attr = m[1].toLowerCase();
      if (name !== 'a' || !['href', 'title', 'target', 'rel'].includes(attr)) found.push(`attribute ${attr} on ${name}`);
    }
    const href = /href="([^"]*)"/i.exec(tag)?.[1];
    if (href !== undefined && !/^(https?:|mailto:|tel:|#|\/[^/]|[^:]*$)/i.test(href.replace(/&amp;/g, '&').trim())) found.push(`href ${href}`);
    if (href !== undefined && href.trim().startsWith('//')) found.push(`protocol-relative href ${href}`);
  }
  return found;
}

describe('provider HTML sanitiser', () => {
  it(`has a corpus of at least 100 known XSS payloads (${PAYLOADS.length})`, () => {
    expect(PAYLOADS.length).toBeGreaterThanOrEqual(100);
  });
  it.each(PAYLOADS.map((p, i) => [i, p] as const))('payload %i is made inert: %s', (_i, payload) => {
    const out = safeHtml(payload);
    expect(dangerous(out), out).toEqual([]);
    expect(out).not.toMatch(/<\s*script/i);
    expect(out).not.toMatch(/style\s*=/i);
    // sanitising again changes nothing (stored sanitised, served sanitised)
    expect(safeHtml(out)).toBe(out);
  });
  it('keeps the formatting providers use', () => {
    expect(safeHtml('<p>Picture day is <strong>Thursday</strong>. <a href="https://example.org/x">Details</a></p><ul><li>One</li></ul>')).toBe(
      '<p>Picture day is <strong>Thursday</strong>. <a href="https://example.org/x" rel="noopener noreferrer" target="_blank">Details</a></p><ul><li>One</li></ul>',
    );
  });
});

describe.each(BACKENDS)('communication and attendance on %s', (backend) => {
  let t: TestApp;
  let maria: string;
  let linh: string;
  const get = (url: string, token?: string) => t.app.inject({ method: 'GET', url, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const post = (url: string, payload: unknown, token = maria) => t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: payload as Record<string, unknown> });

  beforeAll(async () => {
    t = await createTestApp(backend);
    maria = await tokenFor(t.app, ...MARIA);
    linh = await tokenFor(t.app, ...LINH);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers one bulletin with its attachments, and 404 for another provider or an unpublished one', async () => {
    const list = (await get('/api/Communication/bulletin', maria)).json() as { bulletinID: number; subject: string; attachments: unknown[] }[];
    const winter = list.find((b) => b.subject.startsWith('Winter Break'))!;
    const one = await get(`/api/Communication/bulletin/${winter.bulletinID}`, maria);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ bulletinID: winter.bulletinID, subject: winter.subject, attachments: [{ name: 'Winter-Break-Schedule.pdf', documentType: 'pdf' }] });
    expect((await get(`/api/Communication/bulletin/${winter.bulletinID}`, linh)).statusCode).toBe(404);
    const [expired] = await t.db.handle.db.select().from(s.bulletins).where(eq(s.bulletins.subject, 'Expired: summer photos'));
    expect((await get(`/api/Communication/bulletin/${expired.id}`, maria)).statusCode).toBe(404);
    // the attachment streams the stored file with its type and name
    const att = await get(`/api/Communication/bulletin/download/${(one.json().attachments[0] as { messageAttachmentID: number }).messageAttachmentID}`, maria);
    expect(att.headers['content-type']).toBe('application/pdf');
    expect(att.headers['content-disposition']).toContain('Winter-Break-Schedule.pdf');
    expect(att.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('takes the history period in days (90 by default, 360, 720) with both filters on by default', async () => {
    const d90 = (await get('/api/Communication/history', maria)).json() as { isAutomatic: boolean }[];
    const d90explicit = (await get('/api/Communication/history?Days=90&ShowAutoMail=true&ShowEmailSentByAccount=true', maria)).json();
    expect(d90explicit).toEqual(d90);
    const d720 = (await get('/api/Communication/history?Days=720', maria)).json() as unknown[];
    expect(d720.length).toBeGreaterThan(d90.length);
    expect(d90.some((c) => c.isAutomatic) && d90.some((c) => !c.isAutomatic)).toBe(true);
    expect((await get('/api/Communication/history?Days=45', maria)).statusCode).toBe(400);
    expect((await get('/api/Communication/history?ShowAutoMail=false&ShowEmailSentByAccount=false', maria)).json()).toEqual([]);
  });

  it('sends a contact-us message to the support e-mail through the outbox and lists it in the history', async () => {
    const ok = await post('/api/Communication/sendmail', { subjectID: '3', message: 'Grandma Rosa picks up Sofia on Friday.\nThank you!' });
    expect(ok.statusCode, ok.body).toBe(200);
    const [mail] = await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'contact_us'));
    expect(mail.toAddress).toBe('help@brightpathkids.example');
    expect(mail.subject).toContain('Absence or late pick-up');
    expect(mail.textBody).toContain('Grandma Rosa picks up Sofia on Friday.');
    expect(mail.textBody).toContain('Maria Garcia');
    const history = (await get('/api/Communication/history', maria)).json() as { communicationID: number; subject: string; description: string; isAutomatic: boolean; from: string }[];
    const mine = history.find((h) => h.communicationID === ok.json().communicationID)!;
    expect(mine).toMatchObject({ subject: 'Absence or late pick-up', isAutomatic: false, from: 'Maria Garcia' });
    expect(mine.description).toBe('<p>Grandma Rosa picks up Sofia on Friday.<br />Thank you!</p>');
    // the same form rules as the browser: both fields required; < > ^ refused
    const empty = await post('/api/Communication/sendmail', { subjectID: '', message: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['/message', '/subjectID']);
    expect((await post('/api/Communication/sendmail', { subjectID: '1', message: '<script>alert(1)</script>' })).statusCode).toBe(422);
    // the subject is one of the provider's: not a free text, not another provider's (6 is Northridge's own)
    for (const subjectID of ['Pick-up on Friday', '7', '6']) {
      const refused = await post('/api/Communication/sendmail', { subjectID, message: 'x' });
      expect(refused.statusCode, subjectID).toBe(400);
      expect(refused.json().errors).toEqual([{ path: '/subjectID', key: 'errors.enum' }]);
    }
    // another provider's parent reaches only their own provider, under its own subjects
    const other = await post('/api/Communication/sendmail', { subjectID: '6', message: 'From Linh' }, linh);
    expect(other.statusCode, other.body).toBe(200);
    const linhMail = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'contact_us'))).at(-1)!;
    expect(linhMail.subject).toContain('School district transportation');
    // a parent writing in Spanish keeps the Spanish subject in her history; the staff read it in the provider's language
    const es = await t.app.inject({ method: 'POST', url: '/api/Communication/sendmail', headers: { authorization: `Bearer ${maria}`, 'accept-language': 'es' }, payload: { subjectID: '2', message: 'Cambio' } });
    expect(es.statusCode, es.body).toBe(200);
    const [esRow] = await t.db.handle.db.select().from(s.communications).where(eq(s.communications.id, es.json().communicationID));
    expect(esRow.subject).toBe('Cambio de horario');
    const esMail = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'contact_us'))).at(-1)!;
    expect(esMail.subject).toContain('Schedule change');
    const [northridge] = await t.db.handle.db.select().from(s.providers).where(eq(s.providers.appName, 'northridge'));
    expect(linhMail.toAddress).toBe(northridge.supportEmail);
    expect(linhMail.toAddress).not.toBe('help@brightpathkids.example');
  });

  it('answers the last four weeks of attendance by default, with the seeded collapse cases of today', async () => {
    const res = (await get('/api/Attendance/attendance', maria)).json() as { startDate: string; endDate: string; records: { attendanceDate: string; childName: string; timeOffered: string; absentReason: string | null }[] };
    expect(res.records.every((r) => r.attendanceDate >= iso(-27) && r.attendanceDate <= iso(0))).toBe(true);
    expect(res.records.some((r) => r.attendanceDate < iso(-13))).toBe(true);
    expect({ startDate: res.startDate, endDate: res.endDate }).toEqual({ startDate: mdy(-27), endDate: mdy(0) });
    const today = res.records.filter((r) => r.attendanceDate === iso(0));
    const sofia = today.filter((r) => r.childName.startsWith('Sofia'));
    expect(sofia.length).toBe(4);
    expect(sofia.some((r) => r.timeOffered === 'FULL DAY')).toBe(true);
    const lucas = today.filter((r) => r.childName.startsWith('Lucas'));
    expect(lucas.map((r) => r.timeOffered)).toEqual(['AFTER SCHOOL', 'AFTER SCHOOL']);
    // newest day first
    expect(res.records[0].attendanceDate).toBe(iso(0));
  });

  it('answers attendance between two chosen dates (mm/dd/yyyy or yyyy-mm-dd), refusing an end before the start and more than a year', async () => {
    type Answer = { startDate: string; endDate: string; records: { attendanceDate: string }[] };
    const chosen = await get(`/api/Attendance/attendance?StartDate=${encodeURIComponent(mdy(-20))}&EndDate=${encodeURIComponent(mdy(-10))}`, maria);
    expect(chosen.statusCode, chosen.body).toBe(200);
    const a = chosen.json() as Answer;
    expect(a.records.length).toBeGreaterThan(0);
    expect(a.records.every((r) => r.attendanceDate >= iso(-20) && r.attendanceDate <= iso(-10))).toBe(true);
    expect({ startDate: a.startDate, endDate: a.endDate }).toEqual({ startDate: mdy(-20), endDate: mdy(-10) });
    const isoForm = (await get(`/api/Attendance/attendance?StartDate=${iso(-20)}&EndDate=${iso(-10)}`, maria)).json() as Answer;
    expect(isoForm.records.length).toBe(a.records.length);
    // an end alone: the four weeks before it
    const endOnly = (await get(`/api/Attendance/attendance?EndDate=${encodeURIComponent(mdy(-10))}`, maria)).json() as Answer;
    expect(endOnly.startDate).toBe(mdy(-37));
    const backwards = await get(`/api/Attendance/attendance?StartDate=${encodeURIComponent(mdy(0))}&EndDate=${encodeURIComponent(mdy(-3))}`, maria);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toEqual([{ path: '/endDate', key: 'errors.date.endBeforeStart', params: {} }]);
    const long = await get(`/api/Attendance/attendance?StartDate=${encodeURIComponent(mdy(-400))}&EndDate=${encodeURIComponent(mdy(0))}`, maria);
    expect(long.statusCode).toBe(400);
    expect(long.json().errors[0].key).toBe('errors.date.rangeTooLong');
    expect((await get('/api/Attendance/attendance?StartDate=13/45/2026', maria)).statusCode).toBe(400);
  });

  it('makes the attendance report as a real PDF, validated with the attendanceReport form', async () => {
    const ok = await get(`/api/Attendance/attendance/report?StartDate=${encodeURIComponent(mdy(-14))}&EndDate=${encodeURIComponent(mdy(0))}`, maria);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.headers['content-disposition']).toContain(`Attendance-${iso(-14)}-to-${iso(0)}.pdf`);
    expect(ok.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(ok.rawPayload.length).toBeGreaterThan(2000);
    const backwards = await get(`/api/Attendance/attendance/report?StartDate=${encodeURIComponent(mdy(0))}&EndDate=${encodeURIComponent(mdy(-3))}`, maria);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toContainEqual(expect.objectContaining({ path: '/endDate', key: 'errors.date.endBeforeStart' }));
    expect((await get('/api/Attendance/attendance/report?StartDate=13/45/2026&EndDate=01/01/2027', maria)).statusCode).toBe(400);
    expect((await get(`/api/Attendance/attendance/report?StartDate=${encodeURIComponent(mdy(-3))}&EndDate=${encodeURIComponent(mdy(0))}`)).statusCode).toBe(401);
  });

  it('mails a multi-day absence notice to every administrator of the children’s sites', async () => {
    const kids = (await get('/api/Demographics/children', maria)).json() as { childID: number; firstName: string }[];
    const emma = kids.find((k) => k.firstName === 'Emma')!;
    const before = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'absence_notice'))).length;
    const ok = await post('/api/Attendance/absence', {
      childIDs: [emma.childID],
      reasonID: 0,
      otherReason: 'Grandparents visiting',
      startDate: mdy(2),
      multiDay: true,
      endDate: mdy(4),
      timeOffered: 'fullday',
      additionalInfo: 'Back on Monday.',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const [notice] = await t.db.handle.db.select().from(s.absenceNotices).where(eq(s.absenceNotices.id, ok.json().absenceNoticeID));
    expect(notice).toMatchObject({ startDate: iso(2), endDate: iso(4), timeOffered: 'fullday', otherReason: 'Grandparents visiting' });
    const mails = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'absence_notice'))).slice(before);
    // Emma's site (Downtown) has two administrators
    expect(mails.map((m) => m.toAddress).sort()).toEqual(['downtown.director@brightpath.example.com', 'downtown.office@brightpath.example.com']);
    expect(mails[0].textBody).toContain(`${mdy(2)} - ${mdy(4)}`);
    expect(mails[0].textBody).toContain('Grandparents visiting');
  });

  it('writes an absence notice\'s dates as each reader does: the staff\'s English mail mm/dd/yyyy, the Spanish parent\'s history dd/mm/yyyy', async () => {
    const kids = (await get('/api/Demographics/children', maria)).json() as { childID: number; firstName: string }[];
    const emma = kids.find((k) => k.firstName === 'Emma')!;
    const before = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'absence_notice'))).length;
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/Attendance/absence',
      headers: { authorization: `Bearer ${maria}`, 'accept-language': 'es' },
      payload: { childIDs: [emma.childID], reasonID: 0, otherReason: 'Visita', startDate: mdy(6), multiDay: true, endDate: mdy(8), timeOffered: 'fullday', additionalInfo: 'Vuelve el lunes.' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const dmy = (d: string) => `${d.slice(3, 5)}/${d.slice(0, 2)}/${d.slice(6)}`;
    const mails = (await t.db.handle.db.select().from(s.outbox).where(eq(s.outbox.kind, 'absence_notice'))).slice(before);
    expect(mails[0].textBody).toContain(`${mdy(6)} - ${mdy(8)}`);
    // the parent's copy in her Emails/Texts history, in Spanish
    const history = await t.db.handle.db.select().from(s.communications).where(eq(s.communications.subject, t.app.deps.t('es', 'mail.absenceNotice.historySubject')));
    expect(history.map((h) => h.description).join('\n')).toContain(`${dmy(mdy(6))} - ${dmy(mdy(8))}`);
  });

  it('answers attendance as not allowed, and refuses its report, when the provider does not permit it', async () => {
    const db = t.db.handle.db;
    await db.update(s.providers).set({ attendanceAllowed: false }).where(eq(s.providers.appName, 'brightpath'));
    try {
      expect((await get('/api/Attendance/attendance', maria)).json()).toEqual({ attendanceAllowed: false, startDate: '', endDate: '', records: [] });
      expect((await get(`/api/Attendance/attendance/report?StartDate=${encodeURIComponent(mdy(-3))}&EndDate=${encodeURIComponent(mdy(0))}`, maria)).statusCode).toBe(403);
    } finally {
      await db.update(s.providers).set({ attendanceAllowed: true }).where(eq(s.providers.appName, 'brightpath'));
    }
  });

  it('keeps files and attendance to their own provider and account (404 otherwise)', async () => {
    const db = t.db.handle.db;
    const [att] = await db.select().from(s.bulletinAttachments).where(eq(s.bulletinAttachments.name, 'Supply-List.csv'));
    expect((await get(`/api/Communication/bulletin/download/${att.id}`, maria)).statusCode).toBe(200);
    expect((await get(`/api/Communication/bulletin/download/${att.id}`, linh)).statusCode).toBe(404);
    const [form] = await db.select().from(s.forms).where(eq(s.forms.formName, 'Field Trip Permission Slip'));
    const ok = await get(`/api/Communication/forms/download/${form.id}`, maria);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.headers['content-disposition']).toContain('Field-Trip-Permission.pdf');
    expect((await get(`/api/Communication/forms/download/${form.id}`, linh)).statusCode).toBe(404);
    const [tyler] = await db.select().from(s.children).where(eq(s.children.firstName, 'Tyler'));
    expect((await get(`/api/Attendance/attendance?ChildID=${tyler.id}`, maria)).statusCode).toBe(404);
    const kids = (await get('/api/Demographics/children', maria)).json() as { childID: number; firstName: string }[];
    const sofia = kids.find((k) => k.firstName === 'Sofia')!;
    const mine = (await get(`/api/Attendance/attendance?ChildID=${sofia.childID}`, maria)).json() as { records: { childID: number }[] };
    expect(mine.records.length).toBeGreaterThan(0);
    expect(mine.records.every((r) => r.childID === sofia.childID)).toBe(true);
  });

  it('sanitises provider HTML when it is served, even if it was stored unsafe', async () => {
    const db = t.db.handle.db;
    const [p] = await db.select().from(s.providers).where(eq(s.providers.appName, 'brightpath'));
    // rows written around the application (an import, an old version) hold raw payloads
    await db.insert(s.alerts).values(PAYLOADS.filter((x) => !x.includes('\u0000')).map((alertText) => ({ providerId: p.id, location: 'H', alertText, startDate: iso(-1) })));
    const served = (await get('/api/Communication/alerts/home', maria)).json() as { alertText: string }[];
    expect(served.length).toBeGreaterThan(100);
    for (const a of served) expect(dangerous(a.alertText), a.alertText).toEqual([]);
    // the demo data itself was stored sanitised
    for (const b of await db.select().from(s.bulletins).where(eq(s.bulletins.providerId, p.id))) expect(safeHtml(b.message)).toBe(b.message);
  });
});
