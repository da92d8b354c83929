// The bills' arithmetic (src/engine/billing.ts) on the repository's declared billing rules: service
// periods, scheduled days less holidays, PER_DAY and PER_SP with proration, sibling rates, a
// different fee per period and an enrolment changed inside a period.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet } from '../../../src/engine/index';
import { readBaseDeclarations } from '../../../src/engine/node';
import { autopayDiscountCents, invoiceLines, prorate, scheduledDays, servicePeriodsOf, withChildOrder, type BillableEnrolment } from '../../../src/engine/billing';

const built = buildDeclarationSet(readBaseDeclarations(resolve(__dirname, '../../..')), []);
if (!built.ok) throw new Error(built.errors.map((e) => e.message).join('\n'));
const rules = built.set.rules;
const noHolidays = new Set<string>();
const november = { start: '2026-11-01', end: '2026-11-30' };

function enrolment(over: Partial<Omit<BillableEnrolment, 'activity'>> & { activity?: Partial<BillableEnrolment['activity']> } = {}): BillableEnrolment {
  const { activity, ...rest } = over;
  return {
    enrollmentId: 1,
    childId: 10,
    childOrder: 1,
    activityId: 100,
    enrollmentDate: '2026-08-20',
    deEnrollDate: null,
    daysOfWeek: 'M,T,W,TH,F',
    ...rest,
    activity: { feeType: 'PER_SP', feeCents: 245_00, siblingFeeCents: 0, feesBySP: null, startDate: '2026-08-20', endDate: '2027-06-10', daysOfWeek: 'M,T,W,TH,F', ...activity },
  };
}

describe('service periods', () => {
  it('monthly: calendar months, the first and last cut at the program dates', () => {
    expect(servicePeriodsOf('2026-08-20', '2026-11-10', 'M')).toEqual([
      { start: '2026-08-20', end: '2026-08-31' },
      { start: '2026-09-01', end: '2026-09-30' },
      { start: '2026-10-01', end: '2026-10-31' },
      { start: '2026-11-01', end: '2026-11-10' },
    ]);
  });
  it('twice a month: the 1st to the 15th and the 16th to the end (February of a leap year)', () => {
    expect(servicePeriodsOf('2028-02-01', '2028-03-15', 'T')).toEqual([
      { start: '2028-02-01', end: '2028-02-15' },
      { start: '2028-02-16', end: '2028-02-29' },
      { start: '2028-03-01', end: '2028-03-15' },
    ]);
  });
  it('weekly: Monday to Sunday, a program starting on a Wednesday', () => {
    expect(servicePeriodsOf('2026-11-25', '2026-12-13', 'W')).toEqual([
      { start: '2026-11-25', end: '2026-11-29' },
      { start: '2026-11-30', end: '2026-12-06' },
      { start: '2026-12-07', end: '2026-12-13' },
    ]);
  });
  it('an end before the start has none', () => {
    expect(servicePeriodsOf('2026-12-01', '2026-11-30', 'M')).toEqual([]);
  });
});

describe('scheduled days', () => {
  it('counts the days of the week in the range less the holidays', () => {
    expect(scheduledDays(november.start, november.end, ['M', 'T', 'W', 'TH', 'F'], noHolidays)).toHaveLength(21);
    expect(scheduledDays(november.start, november.end, ['M', 'T', 'W', 'TH', 'F'], new Set(['2026-11-26', '2026-11-27']))).toHaveLength(19);
    expect(scheduledDays(november.start, november.end, ['S', 'SA'], noHolidays)).toHaveLength(9);
  });
});

describe('invoice lines', () => {
  it('PER_SP for the whole period is the fee', () => {
    const [line] = invoiceLines(rules, november, [enrolment()], noHolidays, { prorate: true });
    expect(line).toMatchObject({ kind: 'TUITION', amountCents: 245_00, prorated: false, days: 21, scheduledDays: 21 });
  });
  it('PER_DAY is the fee times the enrolled days, a holiday not charged', () => {
    const e = enrolment({ daysOfWeek: 'T,TH', activity: { feeType: 'PER_DAY', feeCents: 18_00 } });
    // Tuesdays and Thursdays of November 2026: 8 days; Thanksgiving (Thursday the 26th) is a holiday
    expect(invoiceLines(rules, november, [e], noHolidays, { prorate: true })[0]).toMatchObject({ amountCents: 8 * 18_00, days: 8 });
    expect(invoiceLines(rules, november, [e], new Set(['2026-11-26']), { prorate: true })[0]).toMatchObject({ amountCents: 7 * 18_00, days: 7 });
  });
  it('PER_SP starting inside the period is prorated by enrolled days, half a cent up', () => {
    // from Monday the 16th: 11 of November's 21 weekdays; 245.00 × 11 / 21 = 128.3333 → 128.33
    const [line] = invoiceLines(rules, november, [enrolment({ enrollmentDate: '2026-11-16' })], noHolidays, { prorate: true });
    expect(line).toMatchObject({ prorated: true, days: 11, scheduledDays: 21, amountCents: 128_33 });
    expect(prorate(100, 1, 8)).toBe(13); // 12.5 → 13
    expect(prorate(100, 1, 3)).toBe(33);
  });
  it('a provider billing whole periods does not prorate', () => {
    const [line] = invoiceLines(rules, november, [enrolment({ enrollmentDate: '2026-11-16' })], noHolidays, { prorate: false });
    expect(line).toMatchObject({ prorated: false, amountCents: 245_00 });
  });
  it('an enrolment changed inside the period: each part on its own days', () => {
    // five days a week until Friday the 13th (10 days), then Monday, Wednesday, Friday at 160.00 (8 days of 13)
    const lines = invoiceLines(
      rules,
      november,
      [
        enrolment({ enrollmentId: 1, deEnrollDate: '2026-11-13' }),
        enrolment({ enrollmentId: 2, enrollmentDate: '2026-11-16', daysOfWeek: 'M,W,F', activityId: 101, activity: { feeCents: 160_00 } }),
      ],
      noHolidays,
      { prorate: true },
    );
    expect(lines.map((l) => [l.enrollmentId, l.days, l.scheduledDays, l.amountCents])).toEqual([
      [1, 10, 21, 116_67],
      [2, 7, 13, 86_15],
    ]);
  });
  it('an enrolment ended before the period bills nothing', () => {
    expect(invoiceLines(rules, november, [enrolment({ deEnrollDate: '2026-10-30' })], noHolidays, { prorate: true })).toEqual([]);
  });
  it('the second child pays the sibling fee; a period with its own fee uses it', () => {
    const two = withChildOrder(
      [enrolment({ enrollmentId: 1, childId: 11 }), enrolment({ enrollmentId: 2, childId: 10 })].map(({ childOrder: _, ...e }) => ({ ...e, activity: { ...e.activity, siblingFeeCents: 200_00 } })),
      new Map([
        [10, '2017-05-01'],
        [11, '2019-02-03'],
      ]),
    );
    const lines = invoiceLines(rules, november, two, noHolidays, { prorate: true });
    expect(lines.map((l) => [l.childId, l.kind, l.amountCents])).toEqual([
      [11, 'SIBLING', 200_00],
      [10, 'TUITION', 245_00],
    ]);
    const different = enrolment({ activity: { feesBySP: { '2026-11-01': 199_00 } } });
    expect(invoiceLines(rules, november, [different], noHolidays, { prorate: true })[0].amountCents).toBe(199_00);
    expect(invoiceLines(rules, { start: '2026-12-01', end: '2026-12-31' }, [different], noHolidays, { prorate: true })[0].amountCents).toBe(245_00);
  });
  it('the autopay discount: the frequency percent of the tuition, never more than it', () => {
    const provider = { autopayDiscountPercent: { M: 2, W: 1.5 } };
    expect(autopayDiscountCents(rules, { account: { isAutoPay: true, frequency: 'M' }, invoice: { tuitionCents: 657_50 }, provider })).toBe(13_15);
    expect(autopayDiscountCents(rules, { account: { isAutoPay: true, frequency: 'W' }, invoice: { tuitionCents: 101 }, provider })).toBe(2);
    expect(autopayDiscountCents(rules, { account: { isAutoPay: false, frequency: 'M' }, invoice: { tuitionCents: 657_50 }, provider })).toBe(0);
  });
});
