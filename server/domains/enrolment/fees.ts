// The parent application's fees (spec 2.11, 3 Fee detail row and Payment model, 4 credit balance, 9),
// in integer cents with one rule for every amount (ARCHITECTURE.md "Seats and fees"):
// - registration fee by child order among the application's children that are not waitlisted (a
//   child whose every choice is full in a waitlist program pays none): 1st, 2nd, 3rd onward; a child's
//   fee is the highest of its chosen activities' fees for its place;
// - tuition per chosen activity: PER_SP is the fee per service period (a week of a weekly program),
//   PER_DAY is the fee times the days chosen (one day for a single-date activity); from the second
//   child on, an activity's sibling fee replaces its fee when it has one; a program the portal
//   invoices by service period (a billing cycle) charges no tuition here: its invoices do
//   (server/domains/billing/invoicing.ts), so no period is billed twice;
// - optional miscellaneous fees once per application; the credit applied is the smaller of the total
//   and the account's credit, and the applied flag clears when nothing is applied;
// - a choice whose seat is full now is listed but not charged (spec 4: no fee for a waitlisted
//   child's week), decided as the submit decides it (seats.ts): capacity check W waitlists the full
//   choice (enrolment option Y) or the child's every choice (option N), C refuses the child (SEATS
//   FULL, nothing charged); a child with nothing charged pays no registration fee and takes no place
//   in the child order. So the totals are what the submit bills while the seats stay as they are.
import type { programPeriods } from '../../db/schema';
import { dateInLanguage } from '../../../src/engine/formats';
import { moneyText } from '../../../src/engine/money';
import type { Translator } from '../../i18n';
import type { DraftData, Selection } from './applicationDraft';
import { ACTIVITY_TYPE } from '../../../src/engine/programCodes';

export interface FeeActivity {
  activityID: number;
  activity: string;
  activityTypeID: number;
  feeType: string;
  fee: number;
  firstChildRegFee: number;
  secondChildRegFee: number;
  thirdChildRegFee: number;
  siblingFee: number;
}

/** CHARGED: in the totals; WAITLIST: the choice goes on the waitlist, not charged; FULL: refused (capacity check C), not charged */
export type FeeRowStatus = 'CHARGED' | 'WAITLIST' | 'FULL';
type FeeRow = { prChildID: number; firstName: string; feeName: string; kind: 'registration' | 'tuition' | 'sibling' | 'misc'; regularFee: number; miscChargeID: number | null; isSelected: boolean; status: FeeRowStatus };



export function feesOf(o: {
  program: Pick<typeof programPeriods.$inferSelect, 'capacityCheck' | 'servicePeriodDefined' | 'discountsNeedReview' | 'billingCycle'>;
  lang: string;
  t: Translator;
  data: DraftData;
  activities: FeeActivity[];
  misc: { miscChargeID: number; feeName: string; amount: number }[];
  credit: number;
  /** a choice whose seat is full now (it would be waitlisted) */
  isFull: (s: Selection) => boolean;
}) {
  const rows: FeeRow[] = [];
  let order = 0;
  for (const child of o.data.children ?? []) {
    const firstName = child.childName.split(' ')[0] ?? child.childName;
    const chosen = child.selections.map((s) => ({ s, a: o.activities.find((a) => a.activityID === s.activityID) })).filter((x): x is { s: Selection; a: FeeActivity } => Boolean(x.a));
    if (!chosen.length) continue;
    const full = chosen.map((x) => o.isFull(x.s));
    const anyFull = full.some(Boolean);
    // what the submit does with each choice (seats.ts, submit_application)
    const statusOf = (i: number): FeeRowStatus => {
      if (!anyFull || o.program.capacityCheck === 'N') return 'CHARGED';
      if (o.program.capacityCheck === 'C') return 'FULL';
      if (o.data.enrollmentOption === 'N') return 'WAITLIST';
      return full[i] ? 'WAITLIST' : 'CHARGED';
    };
    const statuses = chosen.map((_, i) => statusOf(i));
    const charged = statuses.includes('CHARGED');
    if (charged) {
      const place = Math.min(order, 2);
      const reg = Math.max(...chosen.filter((_, i) => statuses[i] === 'CHARGED').map(({ a }) => [a.firstChildRegFee, a.secondChildRegFee, a.thirdChildRegFee][place]));
      if (reg > 0) rows.push({ prChildID: child.prChildID, firstName, feeName: o.t(o.lang, 'application.fee.rows.registration'), kind: 'registration', regularFee: reg, miscChargeID: null, isSelected: true, status: 'CHARGED' });
    }
    if (o.program.servicePeriodDefined && !o.program.billingCycle) {
      chosen.forEach(({ s, a }, i) => {
        const name = s.weekStart ? o.t(o.lang, 'application.fee.rows.week', { activity: a.activity, date: dateInLanguage(s.weekStart, o.lang) }) : a.activity;
        if (statuses[i] !== 'CHARGED') {
          rows.push({ prChildID: child.prChildID, firstName, feeName: name, kind: 'tuition', regularFee: 0, miscChargeID: null, isSelected: false, status: statuses[i] });
          return;
        }
        const sibling = order > 0 && a.siblingFee > 0;
        const unit = sibling ? a.siblingFee : a.fee;
        const days = a.activityTypeID === ACTIVITY_TYPE.singleDate ? 1 : s.daysOfWeek.length;
        const amount = a.feeType === 'PER_DAY' ? unit * days : unit;
        rows.push({ prChildID: child.prChildID, firstName, feeName: sibling ? o.t(o.lang, 'application.fee.rows.sibling', { fee: name }) : name, kind: sibling ? 'sibling' : 'tuition', regularFee: amount, miscChargeID: null, isSelected: true, status: 'CHARGED' });
      });
    }
    if (charged) order++;
  }
  const selectedMisc = new Set(o.data.miscCharges ?? []);
  for (const m of o.misc) {
    if (selectedMisc.has(m.miscChargeID)) rows.push({ prChildID: 0, firstName: '', feeName: m.feeName, kind: 'misc', regularFee: m.amount, miscChargeID: m.miscChargeID, isSelected: true, status: 'CHARGED' });
  }
  const totalCost = rows.reduce((n, r) => n + (r.status === 'CHARGED' ? r.regularFee : 0), 0);
  const applied = o.data.isCreditBalanceApplied ? Math.min(totalCost, o.credit) : 0;
  return {
    servicePeriodDefined: o.program.servicePeriodDefined,
    rows,
    // each optional fee with its price, for its check box
    miscOptions: o.misc.map((m) => ({ ...m, label: o.t(o.lang, 'application.fee.miscOption', { fee: m.feeName, amount: moneyText(m.amount, o.lang) }) })),
    totalCost,
    creditBalance: o.credit,
    creditBalanceApplied: applied,
    isCreditBalanceApplied: applied > 0,
    totalDue: totalCost - applied,
    feeWaived: o.data.isOptedFinancialAssistance === true,
  };
}
