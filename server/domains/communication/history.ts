// The parent's Emails/Texts history (spec 2.13, `communications`) keeps what the portal mailed her
// account: the registration's confirmation, receipts and refunds, an approval, the seat hold's
// warning and its end. A row is written when the mail is queued, in the same transaction, once per
// message (not per recipient), with the mail's subject and its text in HTML paragraphs.
import type { DbOrTx } from '../../db/index';
import { communications } from '../../db/schema';
import { escapeHtml } from '../provider/provider';

export interface HistoryEntry {
  providerId: number;
  accountId: number;
  subject: string;
  /** the mail's plain text: paragraphs split by a blank line */
  text: string;
  /** who it comes from (the program's name) */
  from: string;
}

/** The mail's text turned into the history's HTML description: one paragraph per block, its lines kept. */
export function historyHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** Records an automatic mail in the account's history (`at` on the business clock: the history's days are business days). */
export async function recordInHistory(db: DbOrTx, at: Date, entry: HistoryEntry): Promise<void> {
  await db.insert(communications).values({
    providerId: entry.providerId,
    accountId: entry.accountId,
    mode: 'EMAIL',
    subject: entry.subject,
    fromName: entry.from,
    description: historyHtml(entry.text),
    createdOn: at,
    isAutomatic: true,
  });
}
