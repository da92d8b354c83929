// A saved card's expiry notice (the methods.expiryNotices job, daily): 30 days before the card
// expires (MM/YY: the end of that month) its holder is e-mailed, in the account's language, once
// per expiry: a conditional UPDATE of expiry_notice_for claims it, in the transaction that queues
// the mail and writes it to the account's history, so a new expiry (the card updated) is told again.
import { and, eq, isNotNull, isNull, ne, or } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import { adults, logins, paymentMethods, providers } from '../../db/schema';
import { isoDay } from '../../clock';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { accountLanguage, primaryAddress } from './settlement';

/** Days before the end of its expiry month that a card's holder is told. */
export const EXPIRY_NOTICE_DAYS = 30;

/** The last day (yyyy-mm-dd) a card of expiry MM/YY can be used, or null when it is not MM/YY. */
export function lastDayOfExpiry(expiry: string): string | null {
  const m = /^(\d{2})\/(\d{2})$/.exec(expiry);
  if (!m) return null;
  const month = Number(m[1]);
  if (month < 1 || month > 12) return null;
  const year = 2000 + Number(m[2]);
  // day 0 of the next month is the month's last day
  const last = new Date(Date.UTC(year, month, 0));
  return last.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (yyyy-mm-dd). */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** One run: e-mails the holders of active saved cards that expire within 30 days and were not told for that expiry. Answers how many were told. */
export async function sendExpiryNotices(deps: AppDeps): Promise<number> {
  const today = isoDay(deps.today());
  const cards = await deps.db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.paymentMethodCode, 'CCR'),
        eq(paymentMethods.status, 'ACTIVE'),
        isNotNull(paymentMethods.expiry),
        or(isNull(paymentMethods.expiryNoticeFor), ne(paymentMethods.expiryNoticeFor, paymentMethods.expiry)),
      ),
    );
  let told = 0;
  for (const card of cards) {
    const last = lastDayOfExpiry(card.expiry ?? '');
    if (!last) continue;
    const days = daysBetween(today, last);
    // expired already (its page says so) or not yet within the notice's days
    if (days < 0 || days > EXPIRY_NOTICE_DAYS) continue;
    const sent = await deps.db.transaction(async (t) => {
      const [claimed] = await t
        .update(paymentMethods)
        .set({ expiryNoticeFor: card.expiry })
        .where(and(eq(paymentMethods.id, card.id), eq(paymentMethods.expiry, card.expiry ?? ''), or(isNull(paymentMethods.expiryNoticeFor), ne(paymentMethods.expiryNoticeFor, card.expiry ?? ''))))
        .returning();
      if (!claimed) return false;
      const [p] = await t.select().from(providers).where(eq(providers.id, card.providerId));
      const lang = await accountLanguage(t, p, card.accountId);
      const [holder] = await t
        .select({ login: logins.email, email: adults.email })
        .from(adults)
        .leftJoin(logins, eq(logins.adultId, adults.id))
        .where(eq(adults.id, card.adultId));
      const to = new Set<string>();
      const own = (holder?.login || holder?.email || '').toLowerCase();
      if (own) to.add(own);
      const primary = await primaryAddress(t, card.accountId);
      if (primary) to.add(primary);
      if (!to.size) return false;
      const params = { organisation: p.organisation, brand: card.type, last4: card.last4Digits, expiry: card.expiry ?? '', days };
      const k = (key: string) => deps.t(lang, `methods.mail.expiry.${key}`, params);
      const subject = k('subject');
      const text = [k('intro'), k('days'), '', k('next'), ...(card.usedForAutoPay ? ['', k('autopay')] : []), '', k('footer')].join('\n');
      const from = `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`;
      for (const address of to) await enqueueMail(t, deps.clock, { providerId: card.providerId, kind: 'card-expiry', to: address, from, subject, text });
      await recordInHistory(t, deps.today(), { providerId: card.providerId, accountId: card.accountId, subject, text, from: p.programName });
      return true;
    });
    if (sent) told++;
  }
  if (told) deps.mailQueued();
  return told;
}
