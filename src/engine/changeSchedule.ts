// A parent's change of schedule (spec 2.11 change-schedule request, 5.5, 9 application type 4): when
// it may take effect and what it costs, in integer cents. Pure: the server gathers the facts (the
// provider's policy, the child's enrolments, the service period, the account's credit), this file
// answers, and the declared rules (rules/changeSchedule.rules.json, overlayable per provider) decide
// the policy: the notice, the days a change may take effect on, when the change fee applies and
// whether the change applies itself or waits for the provider.
//
// What a change costs, written down:
//   - The effective date's service period (the program's, by its billing cycle; a calendar month for
//     a program without one) is cut in two: the old schedule bills up to the day before the effective
//     date, the new one from it. Each part is billed by the billing rule of src/engine/billing.ts
//     (scheduled days less holidays, PER_DAY per day, PER_SP prorated by enrolled over scheduled
//     days, half a cent up), so the difference for the rest of the period is what the new schedule
//     bills from the effective date to the period's end less what the old one billed for those days.
//   - The new schedule's fees per period from the effective date on: its lines for the period after
//     the effective date's (a whole period, no proration), or for the effective date's own period
//     when there is no later one.
//   - The change fee: the provider's fee when the account has used its free changes of the period
//     (changeSchedule.changeFeeCents).
//   - When the effective date's period is already invoiced, the difference is settled by the change
//     (charged, or credited when the new schedule costs less); otherwise the period's invoice bills
//     the two parts and only the change fee is due now.
//   - Due now: the change fee plus a settled difference; the account's credit is applied to it (the
//     smaller of the two); when the settled difference is a credit larger than the fee, nothing is
//     due and the rest is credited to the account.
import { addDays, dowOf, invoiceLines, servicePeriodsOf, type BillableEnrolment, type PeriodDates, type PeriodType } from './billing';
import { evaluateRule, isTrue, type RuleSet } from './logic';

/** The days a change may take effect on (provider.json changeSchedule.effectiveDates). */
export type EffectiveDates = 'anyDay' | 'nextMonday' | 'firstOfMonth';

/** A provider's change policy, defaults filled in (server/changeScheduleSettings.ts). */
export interface ChangePolicy {
  minimumNoticeDays: number;
  effectiveDates: EffectiveDates;
  /** null: every change is free */
  freeChanges: number | null;
  freeChangesPer: 'programPeriod' | 'servicePeriod';
  changeFeeCents: number;
}

export const DEFAULT_CHANGE_POLICY: ChangePolicy = { minimumNoticeDays: 0, effectiveDates: 'anyDay', freeChanges: null, freeChangesPer: 'programPeriod', changeFeeCents: 0 };

function daysFrom(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A real yyyy-mm-dd day (not 2027-02-30). */
export function isDay(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
  const t = Date.parse(`${v}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === v;
}

/** The facts the change rules see for an effective date asked on `today`. */
export function changeFacts(
  policy: ChangePolicy,
  today: string,
  effectiveDate: string | null,
  more: { changesInPeriod?: number; canParentChangeEnrollment?: boolean } = {},
) {
  return {
    policy: {
      minimumNoticeDays: policy.minimumNoticeDays,
      effectiveDates: policy.effectiveDates,
      freeChanges: policy.freeChanges,
      changeFeeCents: policy.changeFeeCents,
    },
    change: effectiveDate
      ? { effectiveDate, noticeDays: daysFrom(today, effectiveDate), effectiveDow: dowOf(effectiveDate), effectiveDayOfMonth: Number(effectiveDate.slice(8, 10)) }
      : { effectiveDate: null, noticeDays: null, effectiveDow: null, effectiveDayOfMonth: null },
    account: { changesInPeriod: more.changesInPeriod ?? 0 },
    provider: { programOptions: { canParentChangeEnrollment: more.canParentChangeEnrollment ?? false } },
  };
}

export type EffectiveDateProblem = 'notice' | 'day' | 'program';

/**
 * Why an effective date cannot be taken (null: it can): before the provider's notice
 * (changeSchedule.noticeMet), not a day changes take effect on (changeSchedule.effectiveDateAllowed),
 * or outside the program's dates.
 */
export function effectiveDateProblem(rules: RuleSet, policy: ChangePolicy, today: string, effectiveDate: string, program: PeriodDates): EffectiveDateProblem | null {
  if (!isDay(effectiveDate)) return 'day';
  const facts = changeFacts(policy, today, effectiveDate);
  if (!isTrue(rules, 'changeSchedule.noticeMet', facts)) return 'notice';
  if (!isTrue(rules, 'changeSchedule.effectiveDateAllowed', facts)) return 'day';
  if (effectiveDate < program.start || effectiveDate > program.end) return 'program';
  return null;
}

/** The earliest day a change asked on `today` may take effect by the policy, within the program; null when none is left. */
export function earliestEffectiveDate(rules: RuleSet, policy: ChangePolicy, today: string, program: PeriodDates): string | null {
  let day = today > program.start ? today : program.start;
  // the notice is at most 90 days and a first of a month comes within 31 more
  for (let i = 0; i < 130 && day <= program.end; i++, day = addDays(day, 1)) {
    if (effectiveDateProblem(rules, policy, today, day, program) === null) return day;
  }
  return null;
}

/** The change fee of a change by the account's changes already made in the period (changeSchedule.changeFeeCents). */
export function changeFeeCents(rules: RuleSet, policy: ChangePolicy, changesInPeriod: number): number {
  const v = Number(evaluateRule(rules, 'changeSchedule.changeFeeCents', changeFacts(policy, '1970-01-01', null, { changesInPeriod })));
  if (!Number.isInteger(v) || v < 0) throw new Error(`changeSchedule.changeFeeCents gave ${String(v)}`);
  return v;
}

/**
 * The effective dates a parent may choose now (the effective-date picker), from the earliest, at most
 * `count` of them and none after the program's end.
 */
export function allowedEffectiveDates(rules: RuleSet, policy: ChangePolicy, today: string, program: PeriodDates, count: number): string[] {
  const first = earliestEffectiveDate(rules, policy, today, program);
  const out: string[] = [];
  // a first of a month at most every 31 days: count months' worth of days is enough
  for (let day = first, i = 0; day !== null && day <= program.end && out.length < count && i < count * 31; i++, day = addDays(day, 1)) {
    if (effectiveDateProblem(rules, policy, today, day, program) === null) out.push(day);
  }
  return out;
}

/** Whether a change applies itself on its effective date (true) or waits for the provider (changeSchedule.appliesItself). */
export function changeAppliesItself(rules: RuleSet, canParentChangeEnrollment: boolean | null | undefined): boolean {
  return isTrue(rules, 'changeSchedule.appliesItself', { provider: { programOptions: { canParentChangeEnrollment } } });
}

/** The service periods of a program (its billing cycle; calendar months without one) and the one holding `day`. */
export function periodHolding(program: PeriodDates, cycle: string | null, day: string): { period: PeriodDates; next: PeriodDates | null } | null {
  const type: PeriodType = cycle === 'W' || cycle === 'T' || cycle === 'M' ? cycle : 'M';
  const all = servicePeriodsOf(program.start, program.end, type);
  const i = all.findIndex((p) => p.start <= day && day <= p.end);
  return i < 0 ? null : { period: all[i], next: all[i + 1] ?? null };
}

/** One activity of the new schedule: an enrolment without its dates (they come from the effective date). */
export type NewScheduleItem = Omit<BillableEnrolment, 'enrollmentDate' | 'deEnrollDate'>;

export interface ChangeCostInput {
  effectiveDate: string;
  /** the effective date's service period, and the one after it (null: none) */
  period: PeriodDates;
  nextPeriod: PeriodDates | null;
  /** the child's enrolments in force, as they are */
  current: readonly BillableEnrolment[];
  /** the new schedule */
  next: readonly NewScheduleItem[];
  holidays: ReadonlySet<string>;
  provider: { prorate: boolean };
  /** the effective date's period is invoiced for the account already: the change settles the difference */
  periodInvoiced: boolean;
  changeFeeCents: number;
  /** the account's credit balance (a positive number of cents; 0 without credit) */
  creditCents: number;
}

export interface ChangeCost {
  /** what the new schedule bills per period from the effective date on */
  newPeriodCents: number;
  /** what the old and the new schedule bill from the effective date to the period's end */
  restOldCents: number;
  restNewCents: number;
  /** restNew − restOld (negative: the new schedule costs less) */
  differenceCents: number;
  /** the difference is settled by the change now (the period is invoiced); otherwise by the period's invoice */
  differenceSettledNow: boolean;
  changeFeeCents: number;
  /** the change fee plus a settled difference */
  totalCents: number;
  creditAppliedCents: number;
  /** what the parent pays now */
  amountDueCents: number;
  /** what the change credits to the account (a settled difference below zero, beyond the fee) */
  creditBackCents: number;
}

function sum(lines: { amountCents: number }[]): number {
  return lines.reduce((n, l) => n + l.amountCents, 0);
}

/** What a change costs (the rule written at the top of this file), by the declared billing rules. */
export function changeCost(rules: RuleSet, input: ChangeCostInput): ChangeCost {
  const { effectiveDate, period, holidays, provider } = input;
  if (effectiveDate < period.start || effectiveDate > period.end) throw new Error(`the effective date ${effectiveDate} is outside its period ${period.start} to ${period.end}`);
  const before = addDays(effectiveDate, -1);
  // the old schedule's part from the effective date: the whole period's lines less those cut the day before
  const oldWhole = sum(invoiceLines(rules, period, input.current, holidays, provider));
  const oldCut = sum(
    invoiceLines(
      rules,
      period,
      input.current.map((e) => ({ ...e, deEnrollDate: e.deEnrollDate && e.deEnrollDate < before ? e.deEnrollDate : before })),
      holidays,
      provider,
    ),
  );
  const restOldCents = oldWhole - oldCut;
  const newFrom = input.next.map((e) => ({ ...e, enrollmentDate: effectiveDate, deEnrollDate: null }));
  const restNewCents = sum(invoiceLines(rules, period, newFrom, holidays, provider));
  const perPeriod = input.nextPeriod ?? period;
  const newPeriodCents = sum(invoiceLines(rules, perPeriod, newFrom.map((e) => ({ ...e, enrollmentDate: perPeriod.start })), holidays, provider));
  const differenceCents = restNewCents - restOldCents;
  const settled = input.periodInvoiced ? differenceCents : 0;
  const fee = Math.max(0, input.changeFeeCents);
  const totalCents = fee + settled;
  const creditAppliedCents = totalCents > 0 ? Math.min(totalCents, Math.max(0, input.creditCents)) : 0;
  return {
    newPeriodCents,
    restOldCents,
    restNewCents,
    differenceCents,
    differenceSettledNow: input.periodInvoiced,
    changeFeeCents: fee,
    totalCents,
    creditAppliedCents,
    amountDueCents: Math.max(0, totalCents - creditAppliedCents),
    creditBackCents: totalCents < 0 ? -totalCents : 0,
  };
}
