// Communication texts the provider writes (spec 7.4): the contact-us subjects and the custom texts
// prepared for the screen (customtext/prepare-onscreen), both in the parent's language. A custom
// text's {{placeholders}} are filled with escaped values and the result is sanitised HTML.
import { and, asc, eq } from 'drizzle-orm';
import type { CommunicationCustomTextQuery, CommunicationCustomTextResponse, CommunicationSubjectsResponse } from '../../../src/engine/contract.gen';
import type { Ctx } from '../people/model';
import { accounts, customTexts, masterItems } from '../../db/schema';
import { httpError } from '../../errors';
import { inLanguage, textIn } from '../../providerTexts';
import { displayPhone } from '../../../src/engine/formats';
import { escapeHtml, providerOf, safeHtml } from '../provider/provider';
import { adultOf, fullName } from '../people/shared';

/** The provider's contact-us subjects in order, in the request's language. */
export async function contactSubjects({ deps, session: s, lang }: Ctx): Promise<CommunicationSubjectsResponse> {
  const rows = await deps.db
    .select()
    .from(masterItems)
    .where(and(eq(masterItems.providerId, s.providerId), eq(masterItems.list, 'contact-subject')))
    .orderBy(asc(masterItems.sortOrder), asc(masterItems.code));
  return inLanguage(rows, lang).map((r) => ({ subjectID: r.code, subject: r.text }));
}

/** A custom text prepared for the screen: its placeholders filled with escaped values, sanitised. */
export async function preparedCustomText(c: Ctx, query: CommunicationCustomTextQuery): Promise<CommunicationCustomTextResponse> {
  const { deps, session: s, lang } = c;
  // the adult the text is about (autopay terms: the payer) must be of the account; else the signed-in adult
  const adult = await adultOf(c, query.referenceId ?? s.adultId);
  const [row] = await deps.db.select().from(customTexts).where(and(eq(customTexts.providerId, s.providerId), eq(customTexts.contentType, query.contenttype)));
  if (!row) throw httpError({ deps, lang }, 404, 'server.errors.notFound');
  const p = await providerOf(deps.db, s);
  const [acc] = await deps.db.select({ accountNo: accounts.accountNo }).from(accounts).where(eq(accounts.id, s.accountId));
  const values: Record<string, string> = {
    ProgramName: p.programName,
    Organisation: p.organisation,
    SupportPhone: displayPhone(p.supportPhone),
    SupportEmail: p.supportEmail,
    AccountNo: acc.accountNo,
    AdultName: fullName(adult),
    ParentPortalUrl: query.parentPortalUrl ?? '',
  };
  const body = textIn(row, 'body', lang).replace(/\{\{(\w+)\}\}/g, (m, k: string) => (k in values ? escapeHtml(values[k]) : m));
  return { contentType: row.contentType, body: safeHtml(body) };
}
