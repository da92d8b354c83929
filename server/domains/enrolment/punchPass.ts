// The punch pass product (/punchpass): passes a provider offers for a program (punch_passes: visits
// per child or per family, a price, an expiry date, a refund policy in its languages), bought through
// the checkout like a one-time enrolment (an application draft of type punchPass with its charge on
// the ledger, paid through Billing.startPayment with its key; a hold that ends unpaid, or a checkout
// the parent cancels, credits the charge back), and the passes an account holds (punch_holdings,
// valid once paid). A check-in recorded in attendance for a child in the covered program uses one
// punch of the oldest valid pass (the child's or the family's): once per attendance record (a unique
// use row) and never past the last visit (the conditional UPDATE ... WHERE used < visits). A punch
// that leaves two visits e-mails the parent once per pass. Which passes are offered, which child fits
// and which holding is valid are the declared rules punchPass.* (rules/punchPass.rules.json).
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/index';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { adults, applicationDrafts, attendance, children, ledgerEntries, logins, programPeriods, providers, punchHoldings, punchPasses, punchUses } from '../../db/schema';
import { isoDay, todayMdy } from '../../clock';
import { ruleContextOf } from '../provider/provider';
import { fail, httpError } from '../../errors';
import { textIn, type ProviderTexts } from '../../providerTexts';
import { isTrue, type RuleSet } from '../../../src/engine/logic';
import { APPLICATION_TYPE } from '../../../src/engine/programCodes';
import { enqueueMail } from '../../outbox';
import { recordInHistory } from '../communication/history';
import { moneyText } from '../../../src/engine/money';
import { dateInLanguage } from '../../../src/engine/formats';
import { paymentOf, postCharges, releaseExpiredHolds } from './applicationPayment';

type PassRow = typeof punchPasses.$inferSelect;
type HoldingRow = typeof punchHoldings.$inferSelect;
type DepsLite = Pick<AppDeps, 'db' | 'clock' | 'today' | 't'> & Partial<Pick<AppDeps, 'mailQueued' | 'declarations'>>;

/** Whole days from `from` to `to` (negative when `to` is before). */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

async function rulesOf(deps: Pick<AppDeps, 'db' | 'declarations' | 't'>, providerId: number, lang: string): Promise<RuleSet> {
  const [p] = await deps.db.select({ appName: providers.appName }).from(providers).where(eq(providers.id, providerId));
  const decl = p ? deps.declarations.get(p.appName) : undefined;
  if (!decl) return fail({ deps: deps as AppDeps, lang }, 503, 'server.errors.declarationsUnavailable');
  return decl.set.rules as RuleSet;
}

const passFacts = (p: PassRow, today: string) => ({ pass: { retired: p.retiredAt !== null, daysToExpiry: daysBetween(today, p.expiresOn), visits: p.visits, priceCents: p.priceCents, scope: p.scope } });

/** The account's children registered with the provider (a per-child pass is bought for one of them). */
async function registeredChildren(db: Db | Tx, s: Pick<SessionInfo, 'providerId' | 'accountId'>) {
  const rows = await db
    .select({ childID: children.id, firstName: children.firstName, lastName: children.lastName })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
  return rows.map((r) => ({ childID: r.childID, childName: `${r.firstName} ${r.lastName}` }));
}

function passView(p: PassRow, programName: string, lang: string, countryCode: string, offered: boolean) {
  return {
    passID: p.id,
    name: textIn(p as PassRow & Record<string, unknown>, 'name', lang),
    programPeriodID: p.programPeriodId,
    programPeriod: programName,
    priceCents: p.priceCents,
    priceText: moneyText(p.priceCents, lang, countryCode),
    visits: p.visits,
    scope: p.scope as 'child' | 'family',
    expiresOn: p.expiresOn,
    refundPolicy: textIn(p as PassRow & Record<string, unknown>, 'refundPolicy', lang),
    offered,
  };
}

/** The passes the provider offers today (punchPass.offered), each with the children it may be bought for. */
export async function punchPassOffers(deps: AppDeps, s: SessionInfo, lang: string) {
  const rules = await rulesOf(deps, s.providerId, lang);
  const today = isoDay(deps.today());
  const [p] = await deps.db.select({ countryCode: providers.countryCode }).from(providers).where(eq(providers.id, s.providerId));
  const rows = await deps.db
    .select({ pass: punchPasses, pp: programPeriods })
    .from(punchPasses)
    .innerJoin(programPeriods, eq(programPeriods.id, punchPasses.programPeriodId))
    .where(eq(punchPasses.providerId, s.providerId))
    .orderBy(asc(punchPasses.id));
  const out = [];
  for (const { pass, pp } of rows) {
    if (!isTrue(rules, 'punchPass.offered', passFacts(pass, today))) continue;
    const kids = pass.scope === 'child' ? await registeredChildren(deps.db, s) : [];
    out.push({ ...passView(pass, textIn(pp, 'programPeriod', lang), lang, p?.countryCode ?? 'US', true), children: kids });
  }
  return out;
}

/** A purchase of the account by its key (another account's, or another kind of draft's key, is not found). */
async function purchaseOf(deps: AppDeps, s: Pick<SessionInfo, 'providerId' | 'accountId'>, key: string, lang: string) {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(and(eq(applicationDrafts.key, key), eq(applicationDrafts.providerId, s.providerId), eq(applicationDrafts.accountId, s.accountId), eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.punchPass)));
  if (!d) throw httpError({ deps, lang }, 404, 'server.errors.notFound');
  return d;
}

/** A purchase as the product shows it: the pass, the child, the amount and its payment. */
export async function punchPassPurchase(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const found = await purchaseOf(deps, s, key, lang);
  // a hold that ended unpaid is released (its charge credited) before it is read
  await releaseExpiredHolds(deps, { draftId: found.id });
  const [d] = await deps.db.select().from(applicationDrafts).where(eq(applicationDrafts.id, found.id));
  const [h] = await deps.db.select().from(punchHoldings).where(eq(punchHoldings.draftId, d.id));
  const [pass] = await deps.db.select().from(punchPasses).where(eq(punchPasses.id, h.passId));
  const [pp] = await deps.db.select().from(programPeriods).where(eq(programPeriods.id, pass.programPeriodId));
  const [p] = await deps.db.select({ countryCode: providers.countryCode }).from(providers).where(eq(providers.id, s.providerId));
  const [kid] = h.childId ? await deps.db.select().from(children).where(eq(children.id, h.childId)) : [];
  return {
    key: d.key,
    pass: passView(pass, textIn(pp, 'programPeriod', lang), lang, p?.countryCode ?? 'US', false),
    childName: kid ? `${kid.firstName} ${kid.lastName}` : null,
    amountCents: d.chargedCents,
    payment: paymentOf(d, deps.clock()),
  };
}

/**
 * Buys a pass: an explicit request with the parent's confirmation (never a re-charge on its own).
 * One transaction records the purchase (a draft of type punchPass, paid through the checkout with its
 * key), the pass held (valid once paid) and its charge on the ledger.
 */
export async function buyPunchPass(deps: AppDeps, s: SessionInfo, body: { passID: number; childID?: number | null; confirmed: boolean }, lang: string) {
  const rules = await rulesOf(deps, s.providerId, lang);
  const [provider] = await deps.db.select().from(providers).where(eq(providers.id, s.providerId));
  // the product's own form, checked here with the browser's schema and rules
  const decl = deps.declarations.get(provider.appName);
  if (!decl) fail({ deps, lang }, 503, 'server.errors.declarationsUnavailable');
  const rc = await ruleContextOf(deps.db, s, deps.releaseVersion);
  const checked = decl.engine.validate('punchPassBuy', { passID: String(body.passID), childID: body.childID ? String(body.childID) : '', confirmed: body.confirmed }, { session: rc.session, provider: rc.provider, today: todayMdy(deps.today) });
  if (!checked.valid) fail({ deps, lang }, 400, 'server.errors.validation', undefined, { errors: checked.errors.map((e) => ({ path: e.path, key: e.key, params: e.params })) });
  const today = isoDay(deps.today());
  const [pass] = await deps.db.select().from(punchPasses).where(and(eq(punchPasses.id, body.passID), eq(punchPasses.providerId, s.providerId)));
  if (!pass) fail({ deps, lang }, 404, 'server.errors.notFound');
  if (!isTrue(rules, 'punchPass.offered', passFacts(pass, today))) fail({ deps, lang }, 409, 'punchpass.errors.notOffered');
  const childID = body.childID ?? null;
  if (childID !== null) {
    // a child of another account or provider is not found, whatever the pass
    const [mine] = await deps.db.select({ id: children.id }).from(children).where(and(eq(children.id, childID), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
    if (!mine) fail({ deps, lang }, 404, 'server.errors.notFound');
  }
  const registered = childID !== null && (await registeredChildren(deps.db, s)).some((c) => c.childID === childID);
  if (!isTrue(rules, 'punchPass.childFits', { ...passFacts(pass, today), child: { chosen: childID !== null, registered } })) fail({ deps, lang }, 400, 'punchpass.errors.childNotFit');
  const holdMinutes = deps.settings(provider.appName).payments.seatHoldMinutes;
  const now = deps.clock();
  const key = randomBytes(16).toString('hex');
  const [kid] = childID ? await deps.db.select().from(children).where(eq(children.id, childID)) : [];
  await deps.db.transaction(async (tx) => {
    const [d] = await tx
      .insert(applicationDrafts)
      .values({
        key,
        providerId: s.providerId,
        accountId: s.accountId,
        programPeriodId: pass.programPeriodId,
        applicationTypeId: APPLICATION_TYPE.punchPass,
        step: 'submitted',
        data: { punchPass: { passID: pass.id, childID } },
        status: 'submitted',
        submittedAt: now,
        createdAt: now,
        updatedAt: now,
        paymentStatus: 'AWAITING',
        holdUntil: new Date(now.getTime() + holdMinutes * 60_000),
        amountDueCents: pass.priceCents,
        chargedCents: pass.priceCents,
        noticeEmail: s.email || null,
        noticeLocale: lang,
      })
      .returning({ id: applicationDrafts.id });
    await tx.insert(punchHoldings).values({ providerId: s.providerId, accountId: s.accountId, passId: pass.id, childId: childID, draftId: d.id, visits: pass.visits, expiresOn: pass.expiresOn, createdAt: now });
    await postCharges(tx, deps, s, [{ firstName: kid?.firstName ?? '', feeName: pass.name, regularFee: pass.priceCents }]);
  });
  return punchPassPurchase(deps, s, key, lang);
}

/** A checkout the parent cancelled: the purchase not paid is withdrawn and its charge credited (nothing owed). */
export async function cancelPunchPass(deps: AppDeps, s: SessionInfo, key: string, lang: string) {
  const d = await purchaseOf(deps, s, key, lang);
  await deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(applicationDrafts)
      .set({ paymentStatus: 'EXPIRED', holdUntil: null, updatedAt: deps.clock() })
      .where(and(eq(applicationDrafts.id, d.id), inArray(applicationDrafts.paymentStatus, ['AWAITING', 'LATER'])))
      .returning({ id: applicationDrafts.id });
    if (moved && d.chargedCents > 0) {
      await tx.insert(ledgerEntries).values({ providerId: d.providerId, accountId: d.accountId, kind: 'CREDIT', amountCents: d.chargedCents, entryDate: isoDay(deps.today()), description: 'Punch pass not bought: payment cancelled', createdAt: deps.clock() });
    }
  });
  return punchPassPurchase(deps, s, key, lang);
}

/** Whether a holding counts: given (no purchase) or its purchase paid. */
function paidOf(h: HoldingRow, status: string | null | undefined): boolean {
  return h.draftId === null || status === 'PAID';
}

/** The account's passes: visits left, expiry, whether valid, and the check-ins that used them. */
export async function myPunchPasses(deps: AppDeps, s: SessionInfo, lang: string) {
  const rules = await rulesOf(deps, s.providerId, lang);
  const today = isoDay(deps.today());
  const rows = await deps.db
    .select({ h: punchHoldings, pass: punchPasses, paymentStatus: applicationDrafts.paymentStatus, key: applicationDrafts.key })
    .from(punchHoldings)
    .innerJoin(punchPasses, eq(punchPasses.id, punchHoldings.passId))
    .leftJoin(applicationDrafts, eq(applicationDrafts.id, punchHoldings.draftId))
    .where(and(eq(punchHoldings.providerId, s.providerId), eq(punchHoldings.accountId, s.accountId)))
    .orderBy(asc(punchHoldings.id));
  const live = rows.filter((r) => r.h.draftId === null || ['PAID', 'AWAITING', 'LATER'].includes(r.paymentStatus ?? ''));
  const ids = live.map((r) => r.h.id);
  const uses = ids.length
    ? await deps.db
        .select({ u: punchUses, firstName: children.firstName, lastName: children.lastName })
        .from(punchUses)
        .innerJoin(children, eq(children.id, punchUses.childId))
        .where(inArray(punchUses.holdingId, ids))
        .orderBy(asc(punchUses.date), asc(punchUses.id))
    : [];
  const kids = await deps.db.select().from(children).where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  return live.map(({ h, pass, paymentStatus, key }) => {
    const paid = paidOf(h, paymentStatus);
    const visitsLeft = h.visits - h.used;
    const daysToExpiry = daysBetween(today, h.expiresOn);
    const valid = isTrue(rules, 'punchPass.valid', { holding: { paid, visitsLeft, daysToExpiry } });
    const kid = kids.find((k) => k.id === h.childId);
    return {
      holdingID: h.id,
      name: textIn(pass as PassRow & Record<string, unknown>, 'name', lang),
      scope: pass.scope as 'child' | 'family',
      childName: kid ? `${kid.firstName} ${kid.lastName}` : null,
      visits: h.visits,
      used: h.used,
      visitsLeft,
      expiresOn: h.expiresOn,
      status: (!paid ? 'awaitingPayment' : valid ? 'valid' : visitsLeft <= 0 ? 'usedUp' : 'expired') as 'awaitingPayment' | 'valid' | 'usedUp' | 'expired',
      key: paid ? null : key,
      uses: uses.filter((u) => u.u.holdingId === h.id).map((u) => ({ date: u.u.date, childName: `${u.firstName} ${u.lastName}` })),
    };
  });
}

/**
 * Uses one punch for an attendance record (a check-in): the oldest valid pass of the child or her
 * family for the record's program. Once per record (a second call answers the first use), never past
 * a pass's last visit; a check-in no valid pass covers answers null and keeps no punch.
 */
export async function punchForCheckIn(deps: DepsLite & Pick<AppDeps, 'declarations'>, attendanceId: number): Promise<{ holdingId: number; visitsLeft: number } | null> {
  const [rec] = await deps.db
    .select({ a: attendance, accountId: children.accountId })
    .from(attendance)
    .innerJoin(children, eq(children.id, attendance.childId))
    .where(eq(attendance.id, attendanceId));
  if (!rec || !rec.a.timeIn || rec.a.programPeriodId === null) return null;
  const [done] = await deps.db.select().from(punchUses).where(eq(punchUses.attendanceId, attendanceId));
  if (done) {
    const [h] = await deps.db.select().from(punchHoldings).where(eq(punchHoldings.id, done.holdingId));
    return { holdingId: h.id, visitsLeft: h.visits - h.used };
  }
  const rules = await rulesOf(deps as AppDeps, rec.a.providerId, 'en');
  const day = rec.a.attendanceDate;
  const candidates = await deps.db
    .select({ h: punchHoldings, paymentStatus: applicationDrafts.paymentStatus })
    .from(punchHoldings)
    .innerJoin(punchPasses, eq(punchPasses.id, punchHoldings.passId))
    .leftJoin(applicationDrafts, eq(applicationDrafts.id, punchHoldings.draftId))
    .where(
      and(
        eq(punchHoldings.providerId, rec.a.providerId),
        eq(punchHoldings.accountId, rec.accountId),
        eq(punchPasses.programPeriodId, rec.a.programPeriodId),
        or(isNull(punchHoldings.childId), eq(punchHoldings.childId, rec.a.childId)),
        lt(punchHoldings.used, punchHoldings.visits),
      ),
    )
    // the oldest pass first
    .orderBy(asc(punchHoldings.createdAt), asc(punchHoldings.id));
  let mail = false;
  for (const { h, paymentStatus } of candidates) {
    if (!isTrue(rules, 'punchPass.valid', { holding: { paid: paidOf(h, paymentStatus), visitsLeft: h.visits - h.used, daysToExpiry: daysBetween(day, h.expiresOn) } })) continue;
    try {
      const used = await deps.db.transaction(async (tx) => {
        // the conditional update: two check-ins at once never take the last punch twice
        const [u] = await tx
          .update(punchHoldings)
          .set({ used: sql`${punchHoldings.used} + 1` })
          .where(and(eq(punchHoldings.id, h.id), lt(punchHoldings.used, punchHoldings.visits)))
          .returning();
        if (!u) return null;
        // the same check-in twice: its unique use row refuses the second, which rolls back
        await tx.insert(punchUses).values({ holdingId: h.id, attendanceId, childId: rec.a.childId, date: day });
        if (isTrue(rules, 'punchPass.twoLeftNotice', { holding: { visitsLeft: u.visits - u.used, twoLeftSent: u.twoLeftSent } })) {
          const [claimed] = await tx.update(punchHoldings).set({ twoLeftSent: true }).where(and(eq(punchHoldings.id, h.id), eq(punchHoldings.twoLeftSent, false))).returning({ id: punchHoldings.id });
          if (claimed) mail = await twoLeftMail(deps, tx, u);
        }
        return u;
      });
      if (!used) continue;
      if (mail) deps.mailQueued?.();
      return { holdingId: used.id, visitsLeft: used.visits - used.used };
    } catch (e) {
      const [again] = await deps.db.select().from(punchUses).where(eq(punchUses.attendanceId, attendanceId));
      if (!again) throw e;
      const [h2] = await deps.db.select().from(punchHoldings).where(eq(punchHoldings.id, again.holdingId));
      return { holdingId: h2.id, visitsLeft: h2.visits - h2.used };
    }
  }
  return null;
}

/** The e-mail "two visits left" to the account holder, in her language, with its row in the Emails/Texts history. */
async function twoLeftMail(deps: DepsLite, tx: Tx, h: HoldingRow): Promise<boolean> {
  const [holder] = await tx
    .select({ firstName: adults.firstName, lastName: adults.lastName, language: adults.primaryLanguage, email: logins.email, adultEmail: adults.email })
    .from(adults)
    .leftJoin(logins, eq(logins.adultId, adults.id))
    .where(and(eq(adults.accountId, h.accountId), eq(adults.accountHolder, 1)));
  const to = holder?.email || holder?.adultEmail;
  if (!to) return false;
  const [p] = await tx.select().from(providers).where(eq(providers.id, h.providerId));
  const [pass] = await tx.select().from(punchPasses).where(eq(punchPasses.id, h.passId));
  const langs = (p.languages ?? []).map((l) => l.code);
  const lang = holder.language && ['en', 'es', 'pt', 'vi'].includes(holder.language) && (!langs.length || langs.includes(holder.language)) ? holder.language : (langs[0] ?? 'en');
  const params = { name: `${holder.firstName} ${holder.lastName}`, pass: textIn(pass as PassRow & Record<string, unknown>, 'name', lang), expires: dateInLanguage(h.expiresOn, lang), program: p.programName };
  const t = (k: string) => deps.t(lang, `punchpass.email.twoLeft.${k}`, params);
  const subject = t('subject');
  const text = [t('intro'), '', t('body'), '', t('next'), '', t('footer')].join('\n');
  await enqueueMail(tx, deps.clock, { providerId: h.providerId, kind: 'punchpass-two-left', to, from: `"${p.programName}" <${p.supportEmail || 'no-reply@parentportal.example'}>`, subject, text });
  await recordInHistory(tx, deps.today(), { providerId: h.providerId, accountId: h.accountId, subject, text, from: p.programName });
  return true;
}

/** A provider's punch pass operations refused (an unknown program, a bad price). */
export class PunchPassError extends Error {}

/** Records a check-in in attendance for a child in a program, and uses a punch when a valid pass covers it. */
export async function recordCheckIn(
  deps: DepsLite & Pick<AppDeps, 'declarations'>,
  appName: string,
  childID: number,
  programPeriodID: number,
  date: string,
  opts: { timeIn?: string; inBy?: string } = {},
): Promise<{ attendanceID: number; punch: { holdingId: number; visitsLeft: number } | null }> {
  const [row] = await deps.db
    .select({ kid: children, providerId: providers.id })
    .from(children)
    .innerJoin(providers, eq(providers.id, children.providerId))
    .where(and(eq(children.id, childID), eq(providers.appName, appName)));
  if (!row) throw new PunchPassError(`Child ${childID} is not a child of ${appName}.`);
  const [pp] = await deps.db.select().from(programPeriods).where(and(eq(programPeriods.id, programPeriodID), eq(programPeriods.providerId, row.providerId)));
  if (!pp) throw new PunchPassError(`Program ${programPeriodID} is not a program of ${appName}.`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new PunchPassError(`${date} is not a date (YYYY-MM-DD).`);
  const siteId = row.kid.homeSiteId ?? (await deps.db.select({ siteId: sql<number>`min(site_id)` }).from(sql`activities`).where(sql`program_period_id = ${programPeriodID}`))[0]?.siteId;
  if (!siteId) throw new PunchPassError(`Program ${programPeriodID} has no site.`);
  const [a] = await deps.db
    .insert(attendance)
    .values({ providerId: row.providerId, childId: childID, siteId, attendanceDate: date, timeOffered: 'FULL DAY', timeIn: opts.timeIn ?? '08:00 AM', inBy: opts.inBy ?? 'Front desk', programPeriodId: programPeriodID })
    .returning({ id: attendance.id });
  return { attendanceID: a.id, punch: await punchForCheckIn(deps, a.id) };
}

/** The provider's passes (all, or one provider's), with how many are held. */
export async function punchPassList(db: Db, appName?: string) {
  const rows = await db
    .select({ provider: providers.appName, pass: punchPasses, program: programPeriods.programPeriod, held: sql<number>`(select count(*) from punch_holdings h where h.pass_id = ${punchPasses.id})`.mapWith(Number) })
    .from(punchPasses)
    .innerJoin(providers, eq(providers.id, punchPasses.providerId))
    .innerJoin(programPeriods, eq(programPeriods.id, punchPasses.programPeriodId))
    .where(appName ? eq(providers.appName, appName) : undefined)
    .orderBy(asc(providers.appName), asc(punchPasses.id));
  return rows.map((r) => ({ provider: r.provider, passID: r.pass.id, name: r.pass.name, program: r.program, priceCents: r.pass.priceCents, visits: r.pass.visits, scope: r.pass.scope, expiresOn: r.pass.expiresOn, retired: r.pass.retiredAt !== null, held: r.held }));
}

export interface NewPass {
  programPeriodID: number;
  name: string;
  priceCents: number;
  visits: number;
  scope: 'child' | 'family';
  expiresOn: string;
  refundPolicy: string;
  translations?: ProviderTexts;
}

/** Offers a new pass for a program of the provider. */
export async function addPunchPass(db: Db, appName: string, p: NewPass): Promise<number> {
  const [row] = await db
    .select({ providerId: providers.id })
    .from(programPeriods)
    .innerJoin(providers, eq(providers.id, programPeriods.providerId))
    .where(and(eq(programPeriods.id, p.programPeriodID), eq(providers.appName, appName)));
  if (!row) throw new PunchPassError(`Program ${p.programPeriodID} is not a program of ${appName}.`);
  if (!p.name.trim()) throw new PunchPassError('A pass needs a name.');
  if (!Number.isInteger(p.priceCents) || p.priceCents < 1) throw new PunchPassError('The price must be a whole number of cents, at least 1.');
  if (!Number.isInteger(p.visits) || p.visits < 1) throw new PunchPassError('The number of visits must be a whole number of at least 1.');
  if (p.scope !== 'child' && p.scope !== 'family') throw new PunchPassError('The pass is per child or per family (child|family).');
  if (!/^\d{4}-\d{2}-\d{2}$/.test(p.expiresOn) || Number.isNaN(Date.parse(`${p.expiresOn}T00:00:00Z`))) throw new PunchPassError(`${p.expiresOn} is not a date (YYYY-MM-DD).`);
  const [ins] = await db
    .insert(punchPasses)
    .values({ providerId: row.providerId, programPeriodId: p.programPeriodID, name: p.name, refundPolicy: p.refundPolicy, translations: p.translations ?? {}, priceCents: p.priceCents, visits: p.visits, scope: p.scope, expiresOn: p.expiresOn })
    .returning({ id: punchPasses.id });
  return ins.id;
}

/** Retires a pass: no longer offered; the passes already held stay valid. */
export async function retirePunchPass(db: Db, appName: string, passID: number, at: Date): Promise<void> {
  const [row] = await db
    .select({ id: punchPasses.id })
    .from(punchPasses)
    .innerJoin(providers, eq(providers.id, punchPasses.providerId))
    .where(and(eq(punchPasses.id, passID), eq(providers.appName, appName)));
  if (!row) throw new PunchPassError(`Pass ${passID} is not a pass of ${appName}.`);
  await db.update(punchPasses).set({ retiredAt: at }).where(and(eq(punchPasses.id, passID), isNull(punchPasses.retiredAt)));
}
