// Communication service's data: program alerts, bulletins (+ attachments), forms (+ files), calendar
// events, the account's communication history and the contact-us message. Provider-authored HTML is
// sanitised on the way out.
import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { AppDeps, FileResult } from '../../context';
import type { SessionInfo } from '../../auth';
import type {
  CommunicationAlertsLoginResponse,
  CommunicationBulletinResponse,
  CommunicationBulletinsResponse,
  CommunicationCalendarEventsResponse,
  CommunicationFormsResponse,
  CommunicationHistoryQuery,
  CommunicationHistoryResponse,
  CommunicationSendMailResponse,
} from '../../../src/engine/contract.gen';
import { alerts, bulletins, bulletinAttachments, forms, calendarEvents, communications, adults, accounts, masterItems } from '../../db/schema';
import { enqueueMail } from '../../outbox';
import { httpError } from '../../errors';
import { isoDay, addDays } from '../../clock';
import { escapeHtml, providerByAppName, providerOf, safeHtml } from '../provider/provider';
import { singleLine } from '../../inputChecks';
import { checkMessageLimit } from '../../providerSettings';
import { inLanguage, textIn } from '../../providerTexts';

/** The alerts shown today at one place: 'L' the sign-in page, 'H' the home page. */
export async function activeAlerts(deps: AppDeps, providerId: number, location: 'L' | 'H', lang: string) {
  const today = isoDay(deps.today());
  const rows = await deps.db
    .select()
    .from(alerts)
    .where(
      and(
        eq(alerts.providerId, providerId),
        eq(alerts.location, location),
        lte(alerts.startDate, today),
        or(isNull(alerts.endDate), gte(alerts.endDate, today)),
      ),
    )
    .orderBy(asc(alerts.id));
  return inLanguage(rows, lang).map((r) => ({ alertID: r.id, alertText: safeHtml(r.alertText) }));
}

function notFound(deps: AppDeps, lang: string): never {
  throw httpError({ deps, lang }, 404, 'server.errors.notFound');
}

/** The sign-in page's alerts of the provider an app name names. */
export async function loginAlerts(deps: AppDeps, appName: string, lang: string): Promise<CommunicationAlertsLoginResponse> {
  return activeAlerts(deps, (await providerByAppName(deps.db, appName)).id, 'L', lang);
}

/** Today's bulletins, newest first, with their attachments' names. */
export async function currentBulletins(deps: AppDeps, providerId: number, lang: string): Promise<CommunicationBulletinsResponse> {
  const today = isoDay(deps.today());
  const rows = await deps.db
    .select()
    .from(bulletins)
    .where(and(eq(bulletins.providerId, providerId), lte(bulletins.startDate, today), or(isNull(bulletins.endDate), gte(bulletins.endDate, today))))
    .orderBy(desc(bulletins.startDate), desc(bulletins.id));
  const ids = rows.map((r) => r.id);
  const atts = ids.length
    ? await deps.db
        .select({ id: bulletinAttachments.id, bulletinId: bulletinAttachments.bulletinId, name: bulletinAttachments.name, documentType: bulletinAttachments.documentType })
        .from(bulletinAttachments)
        .where(and(eq(bulletinAttachments.providerId, providerId), inArray(bulletinAttachments.bulletinId, ids)))
        .orderBy(asc(bulletinAttachments.id))
    : [];
  return inLanguage(rows, lang).map((r) => ({
    bulletinID: r.id,
    subject: r.subject,
    message: safeHtml(r.message),
    startDate: r.startDate,
    attachments: atts
      .filter((a) => a.bulletinId === r.id)
      .map((a) => ({ messageAttachmentID: a.id, name: a.name, documentType: a.documentType })),
  }));
}

/** One of today's bulletins; 404 otherwise. */
export async function bulletinOf(deps: AppDeps, providerId: number, id: number, lang: string): Promise<CommunicationBulletinResponse> {
  const today = isoDay(deps.today());
  const [r] = await deps.db
    .select()
    .from(bulletins)
    .where(and(eq(bulletins.id, id), eq(bulletins.providerId, providerId), lte(bulletins.startDate, today), or(isNull(bulletins.endDate), gte(bulletins.endDate, today))));
  if (!r) notFound(deps, lang);
  const atts = await deps.db
    .select({ id: bulletinAttachments.id, name: bulletinAttachments.name, documentType: bulletinAttachments.documentType })
    .from(bulletinAttachments)
    .where(and(eq(bulletinAttachments.providerId, providerId), eq(bulletinAttachments.bulletinId, r.id)))
    .orderBy(asc(bulletinAttachments.id));
  return {
    bulletinID: r.id,
    subject: textIn(r, 'subject', lang),
    message: safeHtml(textIn(r, 'message', lang)),
    startDate: r.startDate,
    attachments: atts.map((a) => ({ messageAttachmentID: a.id, name: a.name, documentType: a.documentType })),
  };
}

/** A bulletin's attachment of the provider; 404 otherwise. */
export async function bulletinAttachment(deps: AppDeps, providerId: number, id: number, lang: string): Promise<FileResult> {
  const [a] = await deps.db
    .select()
    .from(bulletinAttachments)
    .where(and(eq(bulletinAttachments.id, id), eq(bulletinAttachments.providerId, providerId)));
  if (!a) notFound(deps, lang);
  return { file: a.content, fileName: a.name, contentType: a.mimeType };
}

/** The provider's forms by name in the request's language. */
export async function formList(deps: AppDeps, providerId: number, lang: string): Promise<CommunicationFormsResponse> {
  const rows = await deps.db
    .select({ id: forms.id, formName: forms.formName, documentType: forms.documentType, translations: forms.translations })
    .from(forms)
    .where(eq(forms.providerId, providerId));
  // in the order of the names the parent reads
  return inLanguage(rows, lang)
    .map((r) => ({ formID: r.id, formName: r.formName, documentType: r.documentType }))
    .sort((a, b) => a.formName.localeCompare(b.formName, lang) || a.formID - b.formID);
}

/** A form's file of the provider; 404 otherwise. */
export async function formFile(deps: AppDeps, providerId: number, id: number, lang: string): Promise<FileResult> {
  const [f] = await deps.db
    .select()
    .from(forms)
    .where(and(eq(forms.id, id), eq(forms.providerId, providerId)));
  if (!f) notFound(deps, lang);
  return { file: f.content, fileName: f.fileName, contentType: f.mimeType };
}

/** The provider's calendar events in order. */
export async function calendarEventList(deps: AppDeps, providerId: number, lang: string): Promise<CommunicationCalendarEventsResponse> {
  const rows = await deps.db
    .select()
    .from(calendarEvents)
    .where(eq(calendarEvents.providerId, providerId))
    .orderBy(asc(calendarEvents.start));
  return inLanguage(rows, lang).map((r) => ({ eventID: r.id, title: r.title, start: r.start, end: r.end, allDay: r.allDay, description: r.description }));
}

/** The account's e-mails and texts of a period, newest first. */
export async function accountHistory(deps: AppDeps, s: SessionInfo, query: CommunicationHistoryQuery): Promise<CommunicationHistoryResponse> {
  // the period choice of spec 2.13 (the last 90, 360 or 720 days), or an explicit range
  const today = new Date(`${isoDay(deps.today())}T00:00:00`);
  const start = query.StartDate ? new Date(`${query.StartDate}T00:00:00`) : addDays(today, -(query.Days ?? 90));
  const endExclusive = addDays(query.EndDate ? new Date(`${query.EndDate}T00:00:00`) : today, 1);
  const showAuto = query.ShowAutoMail !== false;
  const showSent = query.ShowEmailSentByAccount !== false;
  if (!showAuto && !showSent) return [];
  const where = [
    eq(communications.providerId, s.providerId),
    eq(communications.accountId, s.accountId),
    gte(communications.createdOn, start),
    lt(communications.createdOn, endExclusive),
  ];
  if (showAuto !== showSent) where.push(eq(communications.isAutomatic, showAuto));
  const rows = await deps.db
    .select()
    .from(communications)
    .where(and(...where))
    .orderBy(desc(communications.createdOn));
  return rows.map((r) => ({
    communicationID: r.id,
    mode: r.mode as 'EMAIL' | 'TEXT',
    subject: r.subject,
    from: r.fromName,
    description: safeHtml(r.description),
    createdOn: r.createdOn.toISOString(),
    isAutomatic: r.isAutomatic,
  }));
}

/** The contact-us message: mailed to the provider's support address and kept in the account's history. */
export async function sendContactMail(deps: AppDeps, s: SessionInfo, lang: string, data: { subjectID: string; message: string }): Promise<CommunicationSendMailResponse> {
  // the subject is one of this provider's contact-us subjects, never another provider's or a free text
  const [subject] = await deps.db
    .select()
    .from(masterItems)
    .where(and(eq(masterItems.providerId, s.providerId), eq(masterItems.list, 'contact-subject'), eq(masterItems.code, data.subjectID)));
  if (!subject) {
    throw httpError({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: [{ path: '/subjectID', key: 'errors.enum' }] });
  }
  await checkMessageLimit(deps, lang, s);
  const provider = await providerOf(deps.db, s);
  // the staff read the subject in the provider's language, the parent's history keeps it in hers;
  // it goes into a mail header: one line, stored and sent the same
  const staffLang = provider.languages[0]?.code ?? 'en';
  const v = { message: data.message, subject: singleLine(textIn(subject, 'text', lang)), staffSubject: singleLine(textIn(subject, 'text', staffLang)) };
  const [parent] = await deps.db
    .select({ firstName: adults.firstName, lastName: adults.lastName, email: adults.email, accountNo: accounts.accountNo })
    .from(adults)
    .innerJoin(accounts, eq(accounts.id, adults.accountId))
    .where(and(eq(adults.id, s.adultId), eq(adults.providerId, s.providerId)));
  const name = `${parent.firstName} ${parent.lastName}`;
  const params = { parent: name, accountNo: parent.accountNo, email: parent.email || '-' };
  if (provider.supportEmail) {
    await enqueueMail(deps.db, deps.clock, {
      providerId: s.providerId,
      kind: 'contact_us',
      to: provider.supportEmail,
      from: `"${provider.programName}" <${provider.supportEmail}>`,
      subject: deps.t(staffLang, 'communication.mail.contactUs.subject', { ...params, subject: v.staffSubject }),
      text: [deps.t(staffLang, 'communication.mail.contactUs.body', params), '', v.message].join('\n'),
    });
    deps.mailQueued();
  }
  // the message the account sent (not automatic), stored sanitised
  const [row] = await deps.db
    .insert(communications)
    .values({
      providerId: s.providerId,
      accountId: s.accountId,
      mode: 'EMAIL',
      subject: v.subject,
      fromName: name,
      description: safeHtml(`<p>${escapeHtml(v.message).replace(/\r?\n/g, '<br>')}</p>`),
      createdOn: deps.today(),
      isAutomatic: false,
    })
    .returning({ id: communications.id });
  return { communicationID: row.id };
}
