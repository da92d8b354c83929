// The parent application (spec 2.11, 3, 4 enrolment and seats, 5.5, 7.5; amendments 4 and 8): a draft
// kept on the server under its key (one open draft per account and program), the children, each
// child's site and activities, optional fees, credit and financial assistance, then a submit that
// takes seats atomically (server/domains/enrolment/seats.ts) and answers each child's status with its place
// on the waitlist. Every id is checked against the signed-in account and provider.
import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../context';
import type { SessionInfo } from '../../auth';
import { accounts, applicationDrafts, assistanceAgencies, children, gradeLevels, miscCharges, programPeriods, providers, registrations, sites } from '../../db/schema';
import { isoDay } from '../../clock';
import { textIn } from '../../providerTexts';
import { photoUrl } from '../people/shared';
import { fail } from '../../errors';
import { activitiesOf, isOpenNow, isWeekly, weeksOf, type ChildChoice, type DraftData, type DraftRow, type ProgramRow, type Selection } from './applicationDraft';
import { feesOf, type FeeActivity } from './fees';
import { accountMoney } from '../billing/ledger';
import { payLater, paymentOf, releaseExpiredHolds, settleSubmitted } from './applicationPayment';
import { accountWaitlistPlaces, entryPositions, seatAvailability, submitApplication, type Confirmation, type SubmitActivity, type SubmitFacts } from './seats';
import { batchLoader, prepared } from '../../db/prepared';
import { chargesOf } from './applicationCharges';
import { eligibilityRules, eligibilityView, gradeListOf, ineligibility, reasonParams } from './eligibility';
import { ACTIVITY_TYPE, APPLICATION_TYPE } from '../../../src/engine/programCodes';
import type {
  ParentApplicationActivitiesResponse,
  ParentApplicationChildrenResponse,
  ParentApplicationConfirmationResponse,
  ParentApplicationDiscardResponse,
  ParentApplicationDraftResponse,
  ParentApplicationFeesQuery,
  ParentApplicationFeesResponse,
  ParentApplicationFinancialAssistanceResponse,
  ParentApplicationPayLaterResponse,
  ParentApplicationSaveEnrollmentBody,
  ParentApplicationSaveEnrollmentResponse,
  ParentApplicationSaveFeeBody,
  ParentApplicationSaveFeeResponse,
  ParentApplicationSetChildrenResponse,
  ParentApplicationStartResponse,
  ParentApplicationSubmitResponse,
} from '../../../src/engine/contract.gen';

// the draft's shapes and helpers live in applicationDraft.ts, below the seats, fees and charges that
// read them too; the other services take them from here
export { activitiesOf, daysOf, isOpenNow, isWeekly, mondayOf, seatWeek, weeksOf } from './applicationDraft';
export type { ChildChoice, DraftData, DraftRow, ProgramRow, Selection } from './applicationDraft';

const STEPS = ['children', 'enrollment', 'fee', 'review', 'submitted'] as const;
type Step = (typeof STEPS)[number];
/** a child in these states is in the program already: it cannot be added to another application */
const IN_PROGRAM = ['REGISTERED', 'WAITLISTED', 'PENDING', 'PROCESSED'];

export async function programOf(deps: AppDeps, s: SessionInfo, id: number, lang: string): Promise<ProgramRow> {
  const [pp] = await deps.db.select().from(programPeriods).where(and(eq(programPeriods.id, id), eq(programPeriods.providerId, s.providerId)));
  if (!pp) fail({ deps, lang }, 404, 'application.errors.notFound');
  return pp;
}

/** The account's draft under this key (any other account's or provider's key is not found). */
export async function draftOf(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<DraftRow> {
  const [d] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(
      and(
        eq(applicationDrafts.key, key),
        eq(applicationDrafts.providerId, s.providerId),
        eq(applicationDrafts.accountId, s.accountId),
        // a one-time enrolment's key names no application
        eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.application),
      ),
    );
  if (!d || d.status === 'discarded') fail({ deps, lang }, 404, 'application.errors.notFound');
  return d;
}

function openDraft(deps: AppDeps, lang: string, d: DraftRow): void {
  if (d.status !== 'open') fail({ deps, lang }, 409, 'application.errors.submitted');
}

export function summaryOf(deps: AppDeps, d: DraftRow, pp: ProgramRow, lang: string) {
  return {
    key: d.key,
    programPeriodID: pp.id,
    programPeriod: textIn(pp, 'programPeriod', lang),
    category: pp.category,
    isWeekly: isWeekly(pp),
    applicationTypeID: APPLICATION_TYPE.application,
    enrollmentOption: pp.enrollmentOption,
    capacityCheck: pp.capacityCheck,
    paymentOption: (pp.paymentOption === 'O' ? 'O' : 'N') as 'N' | 'O',
    registrationOpensAt: pp.registrationStartAt ? pp.registrationStartAt.toISOString() : null,
    isOpen: isOpenNow(deps, pp),
    // the moment isOpen was decided at, for a countdown to registrationOpensAt
    serverTime: deps.today().toISOString(),
    step: STEPS.find((x) => x === d.step) ?? 'children',
    status: d.status as 'open' | 'submitting' | 'submitted' | 'discarded',
  };
}

/** The account's credit: what its ledger owes it (a negative balance), in cents. */
export async function creditOf(deps: AppDeps, s: SessionInfo): Promise<number> {
  return (await accountMoney(deps.db, s.providerId, s.accountId, isoDay(deps.today()))).creditCents;
}

async function agencyIDs(deps: AppDeps, s: SessionInfo, ppId: number): Promise<number[]> {
  const rows = await deps.db.select({ id: assistanceAgencies.id }).from(assistanceAgencies).where(and(eq(assistanceAgencies.providerId, s.providerId), eq(assistanceAgencies.programPeriodId, ppId)));
  return rows.map((r) => r.id);
}

/** The draft's children with their choices checked against the program (unknown ids are refused). */
async function checkedChoices(deps: AppDeps, s: SessionInfo, d: DraftRow, pp: ProgramRow, rows: ChildChoice[], lang: string): Promise<ChildChoice[]> {
  const acts = await activitiesOf(deps, s, pp, lang);
  const allowed = new Set(d.data.childIDs ?? []);
  const kids = await deps.db
    .select({ id: children.id, firstName: children.firstName, lastName: children.lastName })
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  const siteIDs = new Set(acts.map((a) => a.siteID));
  return rows.map((row) => {
    const kid = kids.find((k) => k.id === row.prChildID);
    if (!kid || !allowed.has(row.prChildID)) fail({ deps, lang }, 404, 'application.errors.notFound');
    if (row.siteID && !siteIDs.has(row.siteID)) fail({ deps, lang }, 404, 'application.errors.notFound');
    const selections = (row.selections ?? []).map((sel) => {
      const a = acts.find((x) => x.activityID === sel.activityID && (!row.siteID || x.siteID === row.siteID));
      if (!a) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
      const weekStart = isWeekly(pp) ? (sel.weekStart ?? null) : null;
      if (isWeekly(pp)) {
        // a Monday of a week the activity meets
        if (!weekStart || !weeksOf(a.startDate, a.endDate).some((w) => w.weekStart === weekStart)) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
      }
      const days = [...new Set(sel.daysOfWeek ?? [])];
      if (days.some((day) => !a.daysOfWeek.includes(day))) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
      const date = a.activityTypeID === ACTIVITY_TYPE.singleDate ? (sel.date ?? null) : null;
      if (date && (date < a.startDate || date > a.endDate)) fail({ deps, lang }, 400, 'application.errors.unknownActivity');
      return { activityID: a.activityID, weekStart, daysOfWeek: a.activityTypeID === ACTIVITY_TYPE.selectableDays ? a.daysOfWeek.filter((x) => days.includes(x)) : a.daysOfWeek, date, daysPerWeek: a.daysPerWeek, activityTypeID: a.activityTypeID };
    });
    return { prChildID: row.prChildID, childName: `${kid.firstName} ${kid.lastName}`, siteID: row.siteID, selections };
  });
}

async function save(deps: AppDeps, d: DraftRow, data: DraftData, step: Step): Promise<DraftRow> {
  // a step already passed stays passed: going back and forward does not lose the furthest step
  const furthest = STEPS.indexOf(step) > STEPS.findIndex((x) => x === d.step) ? step : d.step;
  const [row] = await deps.db
    .update(applicationDrafts)
    .set({ data, step: furthest, updatedAt: deps.clock() })
    .where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')))
    .returning();
  return row ?? d;
}

/** The fee form's server facts: the account's credit, the program's agencies and optional fees. */
async function feeFacts(deps: AppDeps, s: SessionInfo, ppId: number) {
  const misc = await deps.db.select({ id: miscCharges.id }).from(miscCharges).where(and(eq(miscCharges.providerId, s.providerId), eq(miscCharges.programPeriodId, ppId)));
  return { creditBalance: await creditOf(deps, s), agencyCount: (await agencyIDs(deps, s, ppId)).length, miscCount: misc.length };
}

/** Starts an application of the program, or answers the account's open draft of it. */
export async function startApplication(deps: AppDeps, s: SessionInfo, programPeriodID: number, lang: string): Promise<ParentApplicationStartResponse> {
  const pp = await programOf(deps, s, programPeriodID, lang);
  const [acct] = await deps.db.select().from(accounts).where(and(eq(accounts.id, s.accountId), eq(accounts.providerId, s.providerId)));
  if (!acct || acct.suspended || acct.collection || acct.locked) fail({ deps, lang }, 403, 'application.errors.accountBlocked');
  if (!pp.canRegisterOnline || pp.endDate < isoDay(deps.today())) fail({ deps, lang }, 409, 'application.errors.closed');
  const [open] = await deps.db
    .select()
    .from(applicationDrafts)
    .where(
      and(
        eq(applicationDrafts.providerId, s.providerId),
        eq(applicationDrafts.accountId, s.accountId),
        eq(applicationDrafts.programPeriodId, pp.id),
        eq(applicationDrafts.applicationTypeId, APPLICATION_TYPE.application),
        eq(applicationDrafts.status, 'open'),
      ),
    )
    .orderBy(asc(applicationDrafts.id))
    .limit(1);
  if (open) return summaryOf(deps, open, pp, lang);
  const now = deps.clock();
  const [row] = await deps.db
    .insert(applicationDrafts)
    .values({ key: randomBytes(16).toString('hex'), providerId: s.providerId, accountId: s.accountId, programPeriodId: pp.id, step: 'children', data: {}, status: 'open', createdAt: now, updatedAt: now })
    .returning();
  return summaryOf(deps, row, pp, lang);
}

/** The draft with the fee form's facts. */
export async function draftWithFacts(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationDraftResponse> {
  const d = await draftOf(deps, s, key, lang);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const data = d.data;
  return {
    ...summaryOf(deps, d, pp, lang),
    data,
    // the fee form's facts travel with the draft, so its show rules hold before the first save
    ...(await feeFacts(deps, s, pp.id)),
  };
}

/** Discards an open draft. */
export async function discardDraft(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationDiscardResponse> {
  const d = await draftOf(deps, s, key, lang);
  openDraft(deps, lang, d);
  await deps.db.update(applicationDrafts).set({ status: 'discarded', updatedAt: deps.clock() }).where(and(eq(applicationDrafts.id, d.id), eq(applicationDrafts.status, 'open')));
  return { discarded: true };
}

/** The children step: the children of the account in the application, each in the program and eligible. */
export async function setChildren(deps: AppDeps, s: SessionInfo, key: string, childIDs: number[] | undefined, lang: string): Promise<ParentApplicationSetChildrenResponse> {
  const d = await draftOf(deps, s, key, lang);
  openDraft(deps, lang, d);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const ids = [...new Set(childIDs ?? [])];
  if (!ids.length) fail({ deps, lang }, 400, 'application.errors.noChildren');
  const kids = await deps.db
    .select()
    .from(children)
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId), inArray(children.id, ids)));
  if (kids.length !== ids.length) fail({ deps, lang }, 404, 'application.errors.notFound');
  // each id is one of the account's children (all were found above)
  const kid = (id: number) => kids.find((c) => c.id === id) ?? fail({ deps, lang }, 404, 'application.errors.notFound');
  const regs = await deps.db
    .select()
    .from(registrations)
    .where(and(eq(registrations.providerId, s.providerId), eq(registrations.programPeriodId, pp.id), inArray(registrations.childId, ids)));
  const already = regs.find((r) => IN_PROGRAM.includes(r.status));
  if (already) {
    fail({ deps, lang }, 409, 'application.errors.alreadyIn', { name: kid(already.childId).firstName });
  }
  // a child outside the program's ages or grades (rules/eligibility.rules.json) is refused with the reason
  if (pp.eligibility) {
    const rules = await eligibilityRules(deps, s.providerId, lang);
    const grades = await gradeListOf(deps, s.providerId);
    for (const id of ids) {
      const k = kid(id);
      const reason = ineligibility(rules, pp, k, grades);
      if (reason) fail({ deps, lang }, 409, reason === 'age' ? 'application.errors.notEligibleAge' : 'application.errors.notEligibleGrade', { name: k.firstName, ...reasonParams(eligibilityView(pp, grades, lang)) });
    }
  }
  const acts = await activitiesOf(deps, s, pp, lang);
  const programSites = [...new Set(acts.map((a) => a.siteID))];
  const data = d.data;
  const rows: ChildChoice[] = ids.map((id) => {
    const kept = data.children?.find((c) => c.prChildID === id);
    if (kept) return kept;
    const k = kid(id);
    // the child's registered (home) site when the program is offered there
    const site = k.homeSiteId && programSites.includes(k.homeSiteId) ? k.homeSiteId : (programSites[0] ?? 0);
    return { prChildID: id, childName: `${k.firstName} ${k.lastName}`, siteID: site, selections: [] };
  });
  const saved = await save(deps, d, { ...data, childIDs: ids, children: rows }, 'enrollment');
  return summaryOf(deps, saved, pp, lang);
}

/** The enrolment form's facts: the server's activity facts (days per week, type) are what the rules check, whatever was sent. */
export async function enrollmentFacts(deps: AppDeps, s: SessionInfo, key: string, body: ParentApplicationSaveEnrollmentBody | undefined, lang: string): Promise<Record<string, unknown>> {
  const d = await draftOf(deps, s, key, lang);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const rows = (body?.children ?? []) as ChildChoice[];
  return { children: await checkedChoices(deps, s, d, pp, rows, lang) };
}

/** The enrolment step: each child's site and activities (checked by enrollmentFacts). */
export async function saveEnrollment(deps: AppDeps, s: SessionInfo, key: string, checked: ParentApplicationSaveEnrollmentBody, lang: string): Promise<ParentApplicationSaveEnrollmentResponse> {
  const d = await draftOf(deps, s, key, lang);
  openDraft(deps, lang, d);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const values = checked as { children?: ChildChoice[]; enrollmentOption?: 'Y' | 'N' };
  const data = d.data;
  const saved = await save(deps, d, { ...data, children: values.children ?? [], enrollmentOption: values.enrollmentOption ?? null }, 'fee');
  return summaryOf(deps, saved, pp, lang);
}

/** The fee form's facts of the draft's program. */
export async function feeFactsOfDraft(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<Record<string, unknown>> {
  const d = await draftOf(deps, s, key, lang);
  return feeFacts(deps, s, d.programPeriodId);
}

/** The fee step: optional fees, the account's credit and financial assistance. */
export async function saveFee(deps: AppDeps, s: SessionInfo, key: string, v: ParentApplicationSaveFeeBody, lang: string): Promise<ParentApplicationSaveFeeResponse> {
  const d = await draftOf(deps, s, key, lang);
  openDraft(deps, lang, d);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const misc = (await deps.db.select({ id: miscCharges.id }).from(miscCharges).where(and(eq(miscCharges.providerId, s.providerId), eq(miscCharges.programPeriodId, pp.id)))).map((r) => r.id);
  if ((v.miscCharges ?? []).some((id) => !misc.includes(id))) fail({ deps, lang }, 404, 'application.errors.notFound');
  const agencies = await agencyIDs(deps, s, pp.id);
  const opted = v.isOptedFinancialAssistance === true;
  if (opted && (v.agencies ?? []).some((id) => !agencies.includes(id))) fail({ deps, lang }, 400, 'application.errors.unknownAgency');
  const data = d.data;
  const saved = await save(
    deps,
    d,
    {
      ...data,
      miscCharges: [...new Set(v.miscCharges ?? [])],
      isCreditBalanceApplied: v.isCreditBalanceApplied === true,
      isOptedFinancialAssistance: opted,
      // spec 4: opting out clears the agencies
      agencies: opted ? [...new Set(v.agencies ?? [])] : [],
    },
    'review',
  );
  return summaryOf(deps, saved, pp, lang);
}

/** The account's children offered by the children step, with their state in the program. */
export async function childrenOfDraft(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationChildrenResponse> {
  const d = await draftOf(deps, s, key, lang);
  const kids = await deps.db
    .select({ c: children, grade: gradeLevels.gradeLevel, site: sites })
    .from(children)
    .leftJoin(gradeLevels, and(eq(gradeLevels.providerId, children.providerId), eq(gradeLevels.gradeLevelCode, children.gradeLevelCode)))
    .leftJoin(sites, eq(sites.id, children.homeSiteId))
    .where(and(eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)))
    .orderBy(asc(children.firstName), asc(children.id));
  const regs = await deps.db.select().from(registrations).where(and(eq(registrations.providerId, s.providerId), eq(registrations.programPeriodId, d.programPeriodId)));
  const places = await accountWaitlistPlaces(deps, s);
  const chosen = new Set(d.data.childIDs ?? []);
  // who the program is for: a child outside its ages or grades is shown with the reason, not offered
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const grades = await gradeListOf(deps, s.providerId);
  const rules = pp.eligibility ? await eligibilityRules(deps, s.providerId, lang) : {};
  const eligibility = eligibilityView(pp, grades, lang);
  return kids.map(({ c, grade, site }) => {
    const r = regs.find((x) => x.childId === c.id);
    const alreadyIn = regs.some((x) => x.childId === c.id && IN_PROGRAM.includes(x.status));
    const notEligible = ineligibility(rules, pp, c, grades);
    return {
      prChildID: c.id,
      firstName: c.firstName,
      lastName: c.lastName,
      fullName: `${c.firstName} ${c.lastName}`,
      gradeLevel: grade ?? '',
      school: c.school ?? '',
      siteID: site?.id ?? null,
      siteName: site ? textIn(site, 'siteName', lang) : '',
      photoUrl: photoUrl(c.photo, c.genderCode === 'M' ? 'boy' : 'girl'),
      inApplication: chosen.has(c.id),
      status: r?.status ?? null,
      // registered, waitlisted or pending here already: the step offers it, disabled (setChildren refuses it)
      alreadyIn,
      // outside the program's ages or grades: the step shows why and does not offer it (setChildren refuses it)
      notEligible,
      eligibility,
      unavailable: alreadyIn || notEligible !== null,
      waitlistPosition: places.get(`${d.programPeriodId}/${c.id}`) ?? null,
    };
  });
}

/** The program's sites, weeks, activities and seats for a child of the draft (0: any). */
export async function activitiesOfDraft(deps: AppDeps, s: SessionInfo, key: string, prChildID: number, lang: string): Promise<ParentApplicationActivitiesResponse> {
  const d = await draftOf(deps, s, key, lang);
  if (prChildID !== 0 && !(d.data.childIDs ?? []).includes(prChildID)) fail({ deps, lang }, 404, 'application.errors.notFound');
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const acts = await activitiesOf(deps, s, pp, lang);
  const weeks = isWeekly(pp)
    ? [...new Map(acts.flatMap((a) => weeksOf(a.startDate, a.endDate)).map((w) => [w.weekStart, w])).values()].sort((a, b) => a.weekStart.localeCompare(b.weekStart))
    : [];
  const seatRows = await seatAvailability(deps, s, pp, acts, weeks.map((w) => w.weekStart));
  const siteList = [...new Map(acts.map((a) => [a.siteID, { siteID: a.siteID, siteName: a.siteName }])).values()];
  return {
    sites: siteList,
    weeks,
    activities: acts.map(({ capacity: _c, ...a }) => a),
    seats: seatRows,
  };
}

/** The draft's fees and totals, with the fee form's current choices when given. */
export async function feesOfDraft(deps: AppDeps, s: SessionInfo, query: ParentApplicationFeesQuery, lang: string): Promise<ParentApplicationFeesResponse> {
  const d = await draftOf(deps, s, query.key, lang);
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  const data = { ...d.data };
  // the fee form's current choices, to show the total before it is saved
  if (query.miscCharges) data.miscCharges = query.miscCharges;
  if (typeof query.isCreditBalanceApplied === 'boolean') data.isCreditBalanceApplied = query.isCreditBalanceApplied;
  const acts: FeeActivity[] = await activitiesOf(deps, s, pp, lang);
  const misc = await deps.db.select().from(miscCharges).where(and(eq(miscCharges.providerId, s.providerId), eq(miscCharges.programPeriodId, pp.id))).orderBy(asc(miscCharges.id));
  const seatRows = await seatAvailability(deps, s, pp, acts, [...new Set((data.children ?? []).flatMap((c) => c.selections.map((x) => x.weekStart ?? '')).filter(Boolean))]);
  const full = (sel: Selection) => pp.capacityCheck !== 'N' && Boolean(seatRows.find((r) => r.activityID === sel.activityID && (r.weekStart ?? null) === (isWeekly(pp) ? sel.weekStart : null))?.isFull);
  const chosen = data.isOptedFinancialAssistance ? (data.agencies ?? []) : [];
  const agencies = chosen.length
    ? (await deps.db.select().from(assistanceAgencies).where(and(eq(assistanceAgencies.providerId, s.providerId), eq(assistanceAgencies.programPeriodId, pp.id), inArray(assistanceAgencies.id, chosen))).orderBy(asc(assistanceAgencies.id))).map((r) => textIn(r, 'agency', lang))
    : [];
  return {
    ...feesOf({
      program: pp,
      lang,
      t: deps.t,
      data,
      activities: acts,
      misc: misc.map((m) => ({ miscChargeID: m.id, feeName: textIn(m, 'feeName', lang), amount: m.amountCents })),
      credit: await creditOf(deps, s),
      isFull: full,
    }),
    // the financial assistance asked for (the review shows it): the agencies named, in the reader's language
    assistance: new Intl.ListFormat(lang, { type: 'conjunction' }).format(agencies),
  };
}

/** The program's financial assistance agencies. */
export async function financialAssistance(deps: AppDeps, s: SessionInfo, programPeriodID: number, lang: string): Promise<ParentApplicationFinancialAssistanceResponse> {
  await programOf(deps, s, programPeriodID, lang);
  const rows = await deps.db
    .select()
    .from(assistanceAgencies)
    .where(and(eq(assistanceAgencies.providerId, s.providerId), eq(assistanceAgencies.programPeriodId, programPeriodID)))
    .orderBy(asc(assistanceAgencies.id));
  return rows.map((r) => ({ agencyID: r.id, agency: textIn(r, 'agency', lang) }));
}

/** Submits the draft: takes its seats and answers each child's status. */
export async function submitDraft(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationSubmitResponse> {
  // one read (the draft, its program and activities, the parent) and one write: a rush's hot path
  const ctx = await submitContext(deps, s, key);
  if (!ctx || ctx.draft.status === 'discarded') fail({ deps, lang }, 404, 'application.errors.notFound');
  const { draft: d, program: pp } = ctx;
  const result = await submitApplication(deps, s, d, pp, ctx.activities, lang, d.status === 'open' ? submitFacts(s) : undefined);
  // paying now (option O) needs the hold in the answer; otherwise the charges go on the ledger
  // when the confirmation is read or by the sweeper, off a registration rush's hot path
  const settled = pp.paymentOption === 'O' ? await settleSubmitted(deps, s, await draftOf(deps, s, key, lang), pp, lang) : { ...d, paymentStatus: d.paymentStatus ?? 'NONE' };
  // the places are counted when the confirmation is read (the page after this one), not in a rush's hot path
  const answer = publicConfirmation(await withPositions(deps, result.confirmation, false));
  // the confirmation e-mail goes to her address with the charges (settleSubmitted), itemised
  return { ...answer, emailSent: answer.emailSent || Boolean(s.email), charged: await chargesOf(deps, s, settled, pp, lang), payment: paymentOf(settled, deps.clock()) };
}

/** Pays a submitted application later: its seats stay, its charges on the balance. */
export async function payLaterDraft(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationPayLaterResponse> {
  const d = await draftOf(deps, s, key, lang);
  if (d.status !== 'submitted' || !d.result) fail({ deps, lang }, 404, 'application.errors.notFound');
  await releaseExpiredHolds(deps, { draftId: d.id });
  const later = await payLater(deps, await draftOf(deps, s, key, lang));
  return { ...publicConfirmation(await withPositions(deps, d.result)), charged: await chargesOf(deps, s, later, await programOf(deps, s, d.programPeriodId, lang), lang), payment: paymentOf(later, deps.clock()) };
}

/** A submitted application's confirmation, settled on reading. */
export async function confirmationOf(deps: AppDeps, s: SessionInfo, key: string, lang: string): Promise<ParentApplicationConfirmationResponse> {
  const d = await draftOf(deps, s, key, lang);
  if (d.status !== 'submitted' || !d.result) fail({ deps, lang }, 404, 'application.errors.notFound');
  // charges a submit did not get to put on the ledger, and a hold that ended, are settled on reading
  const pp = await programOf(deps, s, d.programPeriodId, lang);
  await settleSubmitted(deps, s, d, pp, lang);
  await releaseExpiredHolds(deps, { draftId: d.id });
  // still submitted: a submitted draft keeps its result
  const now = await draftOf(deps, s, key, lang);
  if (!now.result) fail({ deps, lang }, 404, 'application.errors.notFound');
  return { ...publicConfirmation(await withPositions(deps, now.result)), charged: await chargesOf(deps, s, now, pp, lang), payment: paymentOf(now, deps.clock()) };
}

/** Current waitlist places (they move up as others leave the list); without `count`, none (null). */
async function withPositions(deps: AppDeps, c: Confirmation, count = true): Promise<Confirmation> {
  const acts = c.children.flatMap((ch) => ch.activities);
  const { byId, byRegSeat } = !count
    ? { byId: new Map<number, number>(), byRegSeat: new Map<string, number>() }
    : await entryPositions(
        deps,
        acts.map((a) => a.entryId).filter((id): id is number => typeof id === 'number'),
        [...new Set(acts.map((a) => a.registrationId).filter((id): id is number => typeof id === 'number'))],
      );
  const placeOf = (a: Confirmation['children'][number]['activities'][number]) =>
    a.entryId ? (byId.get(a.entryId) ?? null) : a.state === 'W' && a.registrationId && a.seatId ? (byRegSeat.get(`${a.registrationId}/${a.seatId}`) ?? null) : null;
  return {
    ...c,
    children: c.children.map((ch) => {
      const withPlace = ch.activities.map((a) => ({ ...a, waitlistPosition: placeOf(a) }));
      const places = withPlace.map((a) => a.waitlistPosition).filter((p): p is number => typeof p === 'number');
      return { ...ch, activities: withPlace, waitlistPosition: places.length ? Math.min(...places) : null };
    }),
  };
}

/** Spec 4's display state of a child: A enrolled, W waitlisted, AW some of each. */
function displayState(acts: { state: 'A' | 'W' | 'FULL' }[]): 'A' | 'W' | 'AW' | null {
  const a = acts.some((x) => x.state === 'A');
  const w = acts.some((x) => x.state === 'W');
  return a && w ? 'AW' : a ? 'A' : w ? 'W' : null;
}

/** The confirmation without the internal waitlist entry ids. */
function publicConfirmation(c: Confirmation) {
  return {
    key: c.key,
    programPeriodID: c.programPeriodID,
    programPeriod: c.programPeriod,
    submittedOn: c.submittedOn,
    emailSent: c.emailSent,
    children: c.children.map((ch) => ({
      prChildID: ch.prChildID,
      fullName: ch.fullName,
      status: ch.status,
      waitlistPosition: ch.waitlistPosition ?? null,
      displayState: displayState(ch.activities),
      activities: ch.activities.map((a) => ({ activityID: a.activityID, activity: a.activity, weekStart: a.weekStart, state: a.state, waitlistPosition: a.waitlistPosition ?? null })),
    })),
  };
}

/** The confirmation e-mail to the signed-in parent (spec 2.11; 8.2 when it cannot be sent). */
/** The parent's name and the confirmation e-mail to the signed-in parent's address (one read). */
/**
 * The submit's one read: the draft under the key, its program and activities and the provider's
 * sender, in one prepared query. The submits of one moment are read together (a key is unique); a
 * draft of another account or provider is not found.
 */
async function submitContext(deps: AppDeps, s: SessionInfo, key: string) {
  const load = prepared(deps.db, 'submit_context', (db) => {
    const query = db
      .select({
        draft: applicationDrafts,
        program: programPeriods,
        programName: providers.programName,
        supportEmail: providers.supportEmail,
        activities: sql<SubmitActivity[]>`(select coalesce(json_agg(json_build_object('id', a.id, 'activity', a.activity, 'translations', a.translations, 'activityTypeID', a.activity_type_id, 'startDate', a.start_date, 'capacity', a.capacity) order by a.id), '[]'::json) from activities a where a.program_period_id = ${programPeriods.id} and a.provider_id = ${programPeriods.providerId})`,
      })
      .from(applicationDrafts)
      .innerJoin(programPeriods, and(eq(programPeriods.id, applicationDrafts.programPeriodId), eq(programPeriods.providerId, applicationDrafts.providerId)))
      .innerJoin(providers, eq(providers.id, applicationDrafts.providerId))
      .where(sql`${applicationDrafts.key} = any(${sql.placeholder('keys')})`)
      .prepare('submit_context');
    return batchLoader(async (keys: string[]) => new Map((await query.execute({ keys })).map((r) => [r.draft.key, r])));
  });
  const row = await load(key);
  return row && row.draft.providerId === s.providerId && row.draft.accountId === s.accountId && row.draft.applicationTypeId === APPLICATION_TYPE.application ? row : undefined;
}

function submitFacts(s: SessionInfo): SubmitFacts {
  // the confirmation e-mail is written when the charges go on the ledger (settleSubmitted): it lists
  // what was charged and each waitlisted week with its place, which the submit does not decide
  return { parentName: `${s.firstName} ${s.lastName}`, mail: null };
}
