// What a service period bills (the bills of spec 2.12, 3 service period and invoice detail, 9), in
// integer cents (amendment 8). Pure: the billing job (server/domains/billing/invoicing.ts) gathers
// the facts, this file computes the lines, and the declared rules (rules/billing.rules.json,
// overlayable per provider) decide the policy: which fee a child pays, whether a part period is
// prorated, whether a late fee or the autopay discount applies. The change-schedule flow shows its
// costs with the same functions.
//
// The proration rule, written down:
//   - A service period's scheduled days for an enrolment are the days of the period that fall on the
//     enrolment's days of the week (the activity's when the enrolment names none), less the
//     provider's declared holidays.
//   - The enrolled days are those of them inside the activity's dates and the enrolment's dates
//     (enrolment date to de-enrolment date, both included).
//   - PER_DAY: the fee times the enrolled days.
//   - PER_SP: the whole fee when the enrolled days are all the scheduled days, or when the rule
//     billing.prorates says not to prorate; otherwise fee × enrolled days ÷ scheduled days, rounded
//     to the nearest cent (a half cent up). An enrolment changed inside the period is two
//     enrolments (one ending, one starting): each is prorated on its own days.
//   - No enrolled day: no line.
import { evaluateRule, isTrue, type RuleSet } from './logic';

/** A service period's frequency (spec 4, 9): W weekly, T twice a month, M monthly. */
export type PeriodType = 'W' | 'T' | 'M';

export interface PeriodDates {
  start: string;
  end: string;
}

const DOW_CODES = ['S', 'M', 'T', 'W', 'TH', 'F', 'SA'] as const;

function utc(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}
function iso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
/** `day` moved by `n` calendar days (yyyy-mm-dd, no time zone involved). */
export function addDays(day: string, n: number): string {
  const d = utc(day);
  d.setUTCDate(d.getUTCDate() + n);
  return iso(d);
}
/** The weekday code (S, M, T, W, TH, F, SA) of a yyyy-mm-dd day. */
export function dowOf(day: string): string {
  return DOW_CODES[utc(day).getUTCDay()];
}
function lastOfMonth(y: number, m0: number): string {
  return iso(new Date(Date.UTC(y, m0 + 1, 0)));
}

/**
 * The service periods of a program from its start to its end date: weeks Monday to Sunday, halves of
 * a month (1st to 15th, 16th to its end) or calendar months, the first and last cut at the program's
 * dates. Each period's `start` identifies it.
 */
export function servicePeriodsOf(programStart: string, programEnd: string, type: PeriodType): PeriodDates[] {
  const out: PeriodDates[] = [];
  if (programEnd < programStart) return out;
  let cursor = programStart;
  while (cursor <= programEnd) {
    const d = utc(cursor);
    let end: string;
    if (type === 'W') {
      const toSunday = (7 - d.getUTCDay()) % 7;
      end = addDays(cursor, toSunday);
    } else if (type === 'T') {
      end = d.getUTCDate() <= 15 ? iso(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 15))) : lastOfMonth(d.getUTCFullYear(), d.getUTCMonth());
    } else {
      end = lastOfMonth(d.getUTCFullYear(), d.getUTCMonth());
    }
    if (end > programEnd) end = programEnd;
    out.push({ start: cursor, end });
    cursor = addDays(end, 1);
  }
  return out;
}

/** The days from `from` to `to` (both included) on `daysOfWeek`, less `holidays`. */
export function scheduledDays(from: string, to: string, daysOfWeek: readonly string[], holidays: ReadonlySet<string>): string[] {
  const days: string[] = [];
  const wanted = new Set(daysOfWeek);
  for (let d = from; d <= to; d = addDays(d, 1)) if (wanted.has(dowOf(d)) && !holidays.has(d)) days.push(d);
  return days;
}

export interface BillableEnrolment {
  enrollmentId: number;
  childId: number;
  /** the child's place among the account's children enrolled in this activity in the period (1 = first) */
  childOrder: number;
  activityId: number;
  activity: {
    feeType: 'PER_SP' | 'PER_DAY' | string;
    feeCents: number;
    siblingFeeCents: number;
    /** isDifferentFeePerSP: the fee of a service period by its start date, where it differs */
    feesBySP: Record<string, number> | null;
    startDate: string;
    endDate: string;
    daysOfWeek: string;
  };
  enrollmentDate: string;
  deEnrollDate: string | null;
  /** the child's days of the week (comma-separated codes); empty: the activity's */
  daysOfWeek: string;
}

export type InvoiceLineKind = 'TUITION' | 'SIBLING';

export interface InvoiceLine {
  enrollmentId: number;
  childId: number;
  activityId: number;
  kind: InvoiceLineKind;
  feeType: string;
  /** the fee this line counts from: per period (PER_SP) or per day (PER_DAY) */
  rateCents: number;
  /** the enrolled days in the period, and all its scheduled days */
  days: number;
  scheduledDays: number;
  prorated: boolean;
  amountCents: number;
}

function codes(list: string): string[] {
  return list
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);
}

/** fee × part ÷ whole in cents, half a cent up (all non-negative integers). */
export function prorate(feeCents: number, part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.floor((2 * feeCents * part + whole) / (2 * whole));
}

/** The facts the billing rules see for one enrolment in one period. */
export function lineFacts(e: BillableEnrolment, period: PeriodDates, enrolled: number, scheduled: number) {
  const periodFee = e.activity.feesBySP?.[period.start];
  return {
    child: { order: e.childOrder },
    activity: { feeType: e.activity.feeType, feeCents: e.activity.feeCents, siblingFeeCents: e.activity.siblingFeeCents, periodFeeCents: typeof periodFee === 'number' ? periodFee : null },
    period: { start: period.start, end: period.end },
    days: { enrolled, scheduled },
  };
}

/** The lines one service period bills for an account's enrolments, by the declared rules. */
export function invoiceLines(rules: RuleSet, period: PeriodDates, enrolments: readonly BillableEnrolment[], holidays: ReadonlySet<string>, provider: { prorate: boolean }): InvoiceLine[] {
  const lines: InvoiceLine[] = [];
  for (const e of enrolments) {
    const dows = codes(e.daysOfWeek).length ? codes(e.daysOfWeek) : codes(e.activity.daysOfWeek);
    const all = scheduledDays(period.start, period.end, dows, holidays);
    const from = [period.start, e.activity.startDate, e.enrollmentDate].reduce((a, b) => (a > b ? a : b));
    const to = [period.end, e.activity.endDate, e.deEnrollDate ?? period.end].reduce((a, b) => (a < b ? a : b));
    const enrolled = all.filter((d) => d >= from && d <= to).length;
    if (enrolled === 0) continue;
    const facts = { ...lineFacts(e, period, enrolled, all.length), provider };
    const rate = Number(evaluateRule(rules, 'billing.unitFeeCents', facts));
    if (!Number.isInteger(rate) || rate < 0) throw new Error(`billing.unitFeeCents gave ${String(rate)} for enrolment ${e.enrollmentId}`);
    const sibling = isTrue(rules, 'billing.siblingRate', facts);
    const perDay = e.activity.feeType === 'PER_DAY';
    const prorated = !perDay && isTrue(rules, 'billing.prorates', facts);
    const amountCents = perDay ? rate * enrolled : prorated ? prorate(rate, enrolled, all.length) : rate;
    if (amountCents <= 0) continue;
    lines.push({ enrollmentId: e.enrollmentId, childId: e.childId, activityId: e.activityId, kind: sibling ? 'SIBLING' : 'TUITION', feeType: e.activity.feeType, rateCents: rate, days: enrolled, scheduledDays: all.length, prorated, amountCents });
  }
  return lines;
}

/**
 * Each enrolment's child order: per activity, the account's children enrolled in it, oldest first
 * (by date of birth, then id), the first is 1. Enrolments of one child count once.
 */
export function withChildOrder<T extends Omit<BillableEnrolment, 'childOrder'>>(enrolments: readonly T[], birth: ReadonlyMap<number, string | null>): (T & { childOrder: number })[] {
  const byActivity = new Map<number, number[]>();
  for (const e of enrolments) {
    const kids = byActivity.get(e.activityId) ?? [];
    if (!kids.includes(e.childId)) kids.push(e.childId);
    byActivity.set(e.activityId, kids);
  }
  for (const kids of byActivity.values()) {
    kids.sort((a, b) => {
      const da = birth.get(a) ?? '9999-12-31';
      const db = birth.get(b) ?? '9999-12-31';
      return da < db ? -1 : da > db ? 1 : a - b;
    });
  }
  return enrolments.map((e) => ({ ...e, childOrder: (byActivity.get(e.activityId) ?? []).indexOf(e.childId) + 1 }));
}

/** The autopay discount of an invoice (billing.autopayDiscountCents): what the autopay run takes off. */
export function autopayDiscountCents(rules: RuleSet, facts: { account: { isAutoPay: boolean; frequency: string | null }; invoice: { tuitionCents: number }; provider: { autopayDiscountPercent: Record<string, number> | null } }): number {
  const v = Number(evaluateRule(rules, 'billing.autopayDiscountCents', facts));
  return Number.isFinite(v) && v > 0 ? Math.min(Math.round(v), facts.invoice.tuitionCents) : 0;
}

/** Whether `day` (yyyy-mm-dd) is a business day: neither a Saturday nor a Sunday, nor one of the provider's holidays. */
export function isBusinessDay(day: string, holidays: ReadonlySet<string>): boolean {
  const dow = dowOf(day);
  return dow !== 'SA' && dow !== 'S' && !holidays.has(day);
}

/**
 * The day `n` business days before `day`: with n = 0 `day` itself when it is a business day, else
 * the last business day before it (the autopay run's charge day for a due date).
 */
export function businessDaysBefore(day: string, n: number, holidays: ReadonlySet<string>): string {
  let d = day;
  while (!isBusinessDay(d, holidays)) d = addDays(d, -1);
  for (let left = n; left > 0; left--) {
    d = addDays(d, -1);
    while (!isBusinessDay(d, holidays)) d = addDays(d, -1);
  }
  return d;
}

/** The first business day after `day`. */
export function nextBusinessDay(day: string, holidays: ReadonlySet<string>): string {
  let d = addDays(day, 1);
  while (!isBusinessDay(d, holidays)) d = addDays(d, 1);
  return d;
}
