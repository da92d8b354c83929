// A change of schedule's dates and cost (src/engine/changeSchedule.ts) on the repository's declared
// change and billing rules: the earliest effective date by notice and effective days, the change fee
// after the free changes, whether a change applies itself, and what a change costs for the rest of
// its service period, prorated by the billing rule.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet } from '../../../src/engine/index';
import { readBaseDeclarations } from '../../../src/engine/node';
import type { BillableEnrolment } from '../../../src/engine/billing';
import {
  changeAppliesItself,
  changeCost,
  changeFeeCents,
  DEFAULT_CHANGE_POLICY,
  earliestEffectiveDate,
  effectiveDateProblem,
  periodHolding,
  type ChangeCostInput,
  type ChangePolicy,
  type NewScheduleItem,
} from '../../../src/engine/changeSchedule';

const built = buildDeclarationSet(readBaseDeclarations(resolve(__dirname, '../../..')), []);
if (!built.ok) throw new Error(built.errors.map((e) => e.message).join('\n'));
const rules = built.set.rules;
const program = { start: '2026-08-20', end: '2027-06-10' };
const policy = (over: Partial<ChangePolicy> = {}): ChangePolicy => ({ ...DEFAULT_CHANGE_POLICY, ...over });

describe('the effective date', () => {
  // 2026-11-23 is a Monday
  it('any day, no notice: today', () => {
    expect(earliestEffectiveDate(rules, policy(), '2026-11-23', program)).toBe('2026-11-23');
  });
  it('three days of notice, then the next Monday', () => {
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 3, effectiveDates: 'nextMonday' }), '2026-11-23', program)).toBe('2026-11-30');
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 3, effectiveDates: 'nextMonday' }), '2026-11-28', program)).toBe('2026-12-07');
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 0, effectiveDates: 'nextMonday' }), '2026-11-23', program)).toBe('2026-11-23');
  });
  it('seven days of notice, then the first of a month', () => {
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 7, effectiveDates: 'firstOfMonth' }), '2026-11-23', program)).toBe('2026-12-01');
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 7, effectiveDates: 'firstOfMonth' }), '2026-11-25', program)).toBe('2027-01-01');
  });
  it('a program that has started later than today: its first day that fits', () => {
    expect(earliestEffectiveDate(rules, policy(), '2026-08-01', program)).toBe('2026-08-20');
  });
  it('none left before the program ends', () => {
    expect(earliestEffectiveDate(rules, policy({ minimumNoticeDays: 30 }), '2027-06-01', program)).toBeNull();
  });
  it('names why a date cannot be taken', () => {
    const p = policy({ minimumNoticeDays: 3, effectiveDates: 'nextMonday' });
    expect(effectiveDateProblem(rules, p, '2026-11-23', '2026-11-25', program)).toBe('notice');
    expect(effectiveDateProblem(rules, p, '2026-11-23', '2026-12-02', program)).toBe('day');
    expect(effectiveDateProblem(rules, p, '2026-11-23', '2026-11-30', program)).toBeNull();
    expect(effectiveDateProblem(rules, p, '2026-11-23', '2027-06-14', program)).toBe('program');
    expect(effectiveDateProblem(rules, p, '2026-11-23', '2027-02-30', program)).toBe('day');
    expect(effectiveDateProblem(rules, p, '2026-11-23', 'soon', program)).toBe('day');
  });
});

describe('the change fee and who applies a change', () => {
  it('is free for the free changes, then the fee', () => {
    const p = policy({ freeChanges: 1, changeFeeCents: 15_00 });
    expect(changeFeeCents(rules, p, 0)).toBe(0);
    expect(changeFeeCents(rules, p, 1)).toBe(15_00);
    expect(changeFeeCents(rules, p, 4)).toBe(15_00);
  });
  it('no free changes given: every change free; no fee: free', () => {
    expect(changeFeeCents(rules, policy({ freeChanges: null, changeFeeCents: 15_00 }), 9)).toBe(0);
    expect(changeFeeCents(rules, policy({ freeChanges: 0, changeFeeCents: 0 }), 9)).toBe(0);
    expect(changeFeeCents(rules, policy({ freeChanges: 0, changeFeeCents: 25_00 }), 0)).toBe(25_00);
  });
  it('applies itself only when parents may change enrolment', () => {
    expect(changeAppliesItself(rules, true)).toBe(true);
    expect(changeAppliesItself(rules, false)).toBe(false);
    expect(changeAppliesItself(rules, null)).toBe(false);
    expect(changeAppliesItself(rules, undefined)).toBe(false);
  });
});

describe('service periods of a change', () => {
  it('finds the period holding the effective date and the next', () => {
    expect(periodHolding(program, 'M', '2026-11-30')).toEqual({ period: { start: '2026-11-01', end: '2026-11-30' }, next: { start: '2026-12-01', end: '2026-12-31' } });
    expect(periodHolding(program, 'W', '2026-12-02')).toEqual({ period: { start: '2026-11-30', end: '2026-12-06' }, next: { start: '2026-12-07', end: '2026-12-13' } });
    expect(periodHolding(program, null, '2027-06-09')).toEqual({ period: { start: '2027-06-01', end: '2027-06-10' }, next: null });
    expect(periodHolding(program, 'M', '2027-07-01')).toBeNull();
  });
});

const activity = (over: Partial<BillableEnrolment['activity']> = {}): BillableEnrolment['activity'] => ({
  feeType: 'PER_SP',
  feeCents: 400_00,
  siblingFeeCents: 0,
  feesBySP: null,
  startDate: program.start,
  endDate: program.end,
  daysOfWeek: 'M,T,W,TH,F',
  ...over,
});
const current = (over: Partial<BillableEnrolment> = {}): BillableEnrolment => ({
  enrollmentId: 1,
  childId: 10,
  childOrder: 1,
  activityId: 100,
  enrollmentDate: '2026-08-20',
  deEnrollDate: null,
  daysOfWeek: 'M,T,W,TH,F',
  activity: activity(),
  ...over,
});
const next = (over: Partial<NewScheduleItem> = {}): NewScheduleItem => ({ enrollmentId: 0, childId: 10, childOrder: 1, activityId: 101, daysOfWeek: 'M,W,F', activity: activity({ feeCents: 300_00 }), ...over });

// December 2026: 23 weekdays, 14 of them from Monday the 14th; 13 Mondays, Wednesdays and Fridays, 8 of them from the 14th
const december = { start: '2026-12-01', end: '2026-12-31' };
const base = (over: Partial<ChangeCostInput> = {}): ChangeCostInput => ({
  effectiveDate: '2026-12-14',
  period: december,
  nextPeriod: { start: '2027-01-01', end: '2027-01-31' },
  current: [current()],
  next: [next()],
  holidays: new Set(),
  provider: { prorate: true },
  periodInvoiced: true,
  changeFeeCents: 0,
  creditCents: 0,
  ...over,
});

describe('what a change costs', () => {
  it('the rest of an invoiced period: the new schedule prorated from the effective date less the old one for those days', () => {
    const c = changeCost(rules, base());
    // old: 23 weekdays in December, 14 from the 14th: 400 × 23/23 − 400 × 9/23 = 400 − 156.52 = 243.48
    expect(c.restOldCents).toBe(400_00 - 156_52);
    // new: M, W, F: 13 days in December, 8 from the 14th: 300 × 8/13 = 184.62
    expect(c.restNewCents).toBe(184_62);
    expect(c.differenceCents).toBe(184_62 - 243_48);
    expect(c.differenceSettledNow).toBe(true);
    // January 2027 on M, W, F, a whole period
    expect(c.newPeriodCents).toBe(300_00);
    // the new schedule costs less: nothing due, the difference credited
    expect(c.totalCents).toBe(184_62 - 243_48);
    expect(c.amountDueCents).toBe(0);
    expect(c.creditBackCents).toBe(243_48 - 184_62);
  });
  it('a dearer schedule with a change fee and the account credit applied', () => {
    const c = changeCost(rules, base({ next: [next({ activity: activity({ feeCents: 600_00 }), daysOfWeek: 'M,T,W,TH,F' })], changeFeeCents: 15_00, creditCents: 40_00 }));
    // new: 600 × 14/23 = 365.22; old rest 243.48
    expect(c.restNewCents).toBe(365_22);
    expect(c.differenceCents).toBe(365_22 - 243_48);
    expect(c.totalCents).toBe(365_22 - 243_48 + 15_00);
    expect(c.creditAppliedCents).toBe(40_00);
    expect(c.amountDueCents).toBe(365_22 - 243_48 + 15_00 - 40_00);
    expect(c.creditBackCents).toBe(0);
  });
  it('a period not invoiced yet: its invoice bills the two parts, only the fee is due now', () => {
    const c = changeCost(rules, base({ periodInvoiced: false, changeFeeCents: 15_00, creditCents: 100_00 }));
    expect(c.differenceCents).toBe(184_62 - 243_48);
    expect(c.differenceSettledNow).toBe(false);
    expect(c.totalCents).toBe(15_00);
    expect(c.creditAppliedCents).toBe(15_00);
    expect(c.amountDueCents).toBe(0);
    expect(c.creditBackCents).toBe(0);
  });
  it('holidays count in neither part, and the provider that bills whole periods', () => {
    const holidays = new Set(['2026-12-24', '2026-12-25']);
    const c = changeCost(rules, base({ holidays }));
    // old: 21 scheduled days, 9 before the 14th: 400 − 400 × 9/21 = 228.57; new: M, W, F: 12 days, 7 from the 14th (not Friday the 25th): 300 × 7/12 = 175.00
    expect(c.restOldCents).toBe(400_00 - 171_43);
    expect(c.restNewCents).toBe(175_00);
    const whole = changeCost(rules, base({ provider: { prorate: false } }));
    // not prorated: the old schedule bills its whole fee either way (no rest), the new one its whole fee
    expect(whole.restOldCents).toBe(0);
    expect(whole.restNewCents).toBe(300_00);
  });
  it('per day: the days from the effective date', () => {
    const c = changeCost(rules, base({ current: [current({ activity: activity({ feeType: 'PER_DAY', feeCents: 20_00 }) })], next: [next({ activity: activity({ feeType: 'PER_DAY', feeCents: 25_00 }) })] }));
    expect(c.restOldCents).toBe(14 * 20_00);
    expect(c.restNewCents).toBe(8 * 25_00);
    expect(c.newPeriodCents).toBe(13 * 25_00);
  });
  it('no change of cost: the same schedule again, only the fee', () => {
    const c = changeCost(rules, base({ next: [next({ activityId: 100, daysOfWeek: 'M,T,W,TH,F', activity: activity() })], changeFeeCents: 15_00 }));
    expect(c.differenceCents).toBe(0);
    expect(c.amountDueCents).toBe(15_00);
  });
  it('the last period: the new schedule per period is that period', () => {
    const c = changeCost(rules, base({ effectiveDate: '2027-06-07', period: { start: '2027-06-01', end: '2027-06-10' }, nextPeriod: null }));
    expect(c.newPeriodCents).toBe(300_00);
  });
  it('refuses an effective date outside its period', () => {
    expect(() => changeCost(rules, base({ effectiveDate: '2027-01-04' }))).toThrow(/outside/);
  });
});

describe("the provider's declared policy", () => {
  it('fills the defaults in and reads the demo providers', async () => {
    const { changePolicyOf } = await import('../../../server/changeScheduleSettings');
    const { readFileSync } = await import('node:fs');
    expect(changePolicyOf(undefined)).toEqual(DEFAULT_CHANGE_POLICY);
    expect(changePolicyOf({ changeFeeCents: 500 })).toEqual({ ...DEFAULT_CHANGE_POLICY, changeFeeCents: 500 });
    const brightpath = JSON.parse(readFileSync(resolve(__dirname, '../../../providers/brightpath/provider.json'), 'utf8'));
    expect(changePolicyOf(brightpath.changeSchedule)).toEqual({ minimumNoticeDays: 3, effectiveDates: 'nextMonday', freeChanges: 1, freeChangesPer: 'programPeriod', changeFeeCents: 15_00 });
  });
});
