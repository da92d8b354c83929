// What a submitted application was charged and what went on the waitlist (spec 4: no fee for a
// waitlisted child's week), for the confirmation page and the confirmation e-mail. The charges are
// the fees of the choices that got a seat (`applicationFees`, what settleSubmitted posts to the
// ledger); the waitlisted choices are listed with each week's own place, counted when read. The
// confirmation e-mail is written when the charges are posted (settleSubmitted, in its transaction):
// the submit itself decides the seats but neither the amounts nor the places.
import { and, eq } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { Tx } from '../../db/index';
import { adults, logins, miscCharges, programPeriods, providers } from '../../db/schema';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { textIn } from '../../providerTexts';
import { isoDay } from '../../clock';
import { activitiesOf, type DraftData, type DraftRow } from './applicationDraft';
import { feesOf } from './fees';
import { accountMoney } from '../billing/ledger';
import { moneyText } from '../../../src/engine/money';
import { dateInLanguage } from '../../../src/engine/formats';
import { entryPositions } from './seats';

type ProgramRow = typeof programPeriods.$inferSelect;
type Owner = { providerId: number; accountId: number };

/** A submitted draft's choices (`data`) that got a seat in its result (the others are waitlisted or refused: not charged). */
export function seatedData(data: DraftData, conf: NonNullable<DraftRow['result']>): DraftData {
  const got = (childId: number, activityID: number, weekStart: string | null) =>
    conf.children.find((c) => c.prChildID === childId)?.activities.some((a) => a.activityID === activityID && (a.weekStart ?? null) === (weekStart ?? null) && a.state === 'A') ?? false;
  return {
    ...data,
    children: (data.children ?? []).map((c) => ({ ...c, selections: c.selections.filter((x) => got(c.prChildID, x.activityID, x.weekStart ?? null)) })).filter((c) => c.selections.length > 0),
  };
}

/** An application waiting for the provider's review is charged when approved, not at submit. */
export const isPending = (d: DraftRow) => (d.result?.children ?? []).some((c) => c.status === 'PENDING');

/**
 * The fees of an application's choices that hold a seat (`seated`), in `lang`: what its submit
 * charges, and what the provider's approval charges for a child that waited as Approval Pending
 * (server/domains/enrolment/approvals.ts). Without a seated child, no optional fee either.
 */
export async function applicationFees(deps: Pick<AppDeps, 'db' | 't' | 'today'>, s: { providerId: number; accountId: number }, seated: DraftData, pp: ProgramRow, lang: string) {
  const acts = await activitiesOf(deps, s, pp, lang);
  const misc = await deps.db.select().from(miscCharges).where(and(eq(miscCharges.providerId, s.providerId), eq(miscCharges.programPeriodId, pp.id)));
  const money = await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()));
  return feesOf({
    program: pp,
    lang,
    t: deps.t,
    data: seated.children?.length ? seated : { ...seated, miscCharges: [] },
    activities: acts,
    misc: misc.map((m) => ({ miscChargeID: m.id, feeName: textIn(m, 'feeName', lang), amount: m.amountCents })),
    credit: money.creditCents,
    isFull: () => false,
  });
}

/** The charges of a submitted application, as posted to the ledger (none while pending, or once its seats were released). */
export async function chargesOf(deps: Pick<AppDeps, 'db' | 't' | 'today'>, s: Owner, d: DraftRow, pp: ProgramRow, lang: string) {
  if (!d.result || isPending(d) || d.paymentStatus === 'EXPIRED' || d.paymentStatus === 'REFUNDED') return { rows: [], total: 0 };
  const fees = await applicationFees(deps, s, seatedData(d.data, d.result), pp, lang);
  const rows = fees.rows.filter((r) => r.status === 'CHARGED' && r.regularFee > 0).map((r) => ({ prChildID: r.prChildID, firstName: r.firstName, feeName: r.feeName, amount: r.regularFee }));
  return { rows, total: rows.reduce((n, r) => n + r.amount, 0) };
}

export interface ConfirmationMail {
  providerId: number;
  accountId: number;
  kind: string;
  to: string;
  from: string;
  programName: string;
  subject: string;
  text: string;
}

/**
 * The confirmation e-mail of a submitted application, itemised: per child its status, what was
 * charged (with amounts) and each waitlisted week with its own place, then the optional fees and
 * the total charged. To the parent who submitted (`to`, her language), or without one (the sweeper
 * settling an application whose confirmation was not read) to the primary holder in her language.
 * Null when there is no address.
 */
export async function confirmationMail(
  deps: Pick<AppDeps, 'db' | 't' | 'today'>,
  d: DraftRow,
  pp: ProgramRow,
  fees: { rows: { prChildID: number; feeName: string; regularFee: number; status?: string; kind: string }[]; totalCost: number },
  who: { email?: string; firstName?: string; lastName?: string; lang: string },
): Promise<ConfirmationMail | null> {
  const conf = d.result;
  if (!conf) return null;
  const [p] = await deps.db.select().from(providers).where(eq(providers.id, d.providerId));
  if (!p) return null;
  let to = who.email ?? '';
  let name = `${who.firstName ?? ''} ${who.lastName ?? ''}`.trim();
  let lang = who.lang;
  if (!to) {
    const [primary] = await deps.db
      .select({ email: logins.email, firstName: adults.firstName, lastName: adults.lastName, language: adults.primaryLanguage })
      .from(adults)
      .innerJoin(logins, eq(logins.adultId, adults.id))
      .where(and(eq(adults.accountId, d.accountId), eq(adults.providerId, d.providerId), eq(adults.accountHolder, 1)));
    if (!primary?.email) return null;
    to = primary.email;
    name = `${primary.firstName} ${primary.lastName}`;
    // her language when the provider offers it (as the approval's e-mail chooses it)
    if (primary.language && p.languages.some((l) => l.code === primary.language)) lang = primary.language;
  }
  const t = (key: string, params?: Record<string, unknown>) => deps.t(lang, `application.${key}`, params);
  const money = (cents: number) => moneyText(cents, lang, p.countryCode);
  const program = textIn(pp, 'programPeriod', lang);
  const acts = conf.children.flatMap((c) => c.activities);
  const { byId, byRegSeat } = await entryPositions(
    deps,
    acts.map((a) => a.entryId).filter((id): id is number => typeof id === 'number'),
    [...new Set(acts.map((a) => a.registrationId).filter((id): id is number => typeof id === 'number'))],
  );
  const placeOf = (a: (typeof acts)[number]) => (a.entryId ? byId.get(a.entryId) : a.registrationId && a.seatId ? byRegSeat.get(`${a.registrationId}/${a.seatId}`) : undefined);
  const pending = conf.children.some((c) => c.status === 'PENDING');
  const charged = pending ? [] : fees.rows.filter((r) => (r.status ?? 'CHARGED') === 'CHARGED' && r.regularFee > 0);
  const lines: string[] = [];
  for (const child of conf.children) {
    lines.push(t('email.line', { child: child.fullName, status: t(`confirmation.status.${child.status}`) }));
    for (const r of charged.filter((x) => x.prChildID === child.prChildID)) lines.push(`  ${t('email.charged', { fee: r.feeName, amount: money(r.regularFee) })}`);
    for (const a of child.activities) {
      const activity = a.weekStart ? t('fee.rows.week', { activity: a.activity, date: dateInLanguage(a.weekStart, lang) }) : a.activity;
      if (a.state === 'W') {
        const place = placeOf(a);
        lines.push(`  ${place ? t('email.waitlisted', { activity, position: place }) : t('email.waitlistedNoPlace', { activity })}`);
      } else if (a.state === 'FULL') lines.push(`  ${t('email.full', { activity })}`);
      else if (pending) lines.push(`  ${t('email.held', { activity })}`);
    }
  }
  const misc = charged.filter((r) => r.kind === 'misc');
  if (misc.length) lines.push('', t('email.optionalFees'), ...misc.map((r) => `  ${t('email.charged', { fee: r.feeName, amount: money(r.regularFee) })}`));
  const total = charged.reduce((n, r) => n + r.regularFee, 0);
  lines.push('', pending ? t('email.pending') : t('email.total', { amount: money(total) }));
  return {
    providerId: d.providerId,
    accountId: d.accountId,
    kind: 'application-confirmation',
    to,
    from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`,
    programName: p.programName,
    subject: t('email.subject', { program }),
    text: [t('email.intro', { name }), '', t('email.body', { program }), '', ...lines, '', t('email.footer')].join('\n'),
  };
}

/** Queues the confirmation e-mail inside the caller's transaction, with its row in the account's Emails/Texts history. */
export async function queueConfirmationMail(tx: Tx, deps: Pick<AppDeps, 'clock' | 'today'>, mail: ConfirmationMail): Promise<void> {
  await enqueueMail(tx, deps.clock, { providerId: mail.providerId, kind: mail.kind, to: mail.to, from: mail.from, subject: mail.subject, text: mail.text });
  await recordInHistory(tx, deps.today(), { providerId: mail.providerId, accountId: mail.accountId, subject: mail.subject, text: mail.text, from: mail.programName });
}
