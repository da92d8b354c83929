// Demo data for the two demo providers, with dates relative to today so every screen shows current
// content. seedDemo() resets the demo providers' data (their rows cascade) and writes it again.
import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index';
import * as t from '../db/schema';
import type { Passwords } from '../auth';
import type { Clock } from '../clock';
import { addDays, businessClock, isoDay } from '../clock';
import { readProviderRecords, syncProviders } from '../providers';
import { settingsOf } from '../providerSettings';
import { duePeriods, ensureServicePeriods, invoicePeriod, type BillingContext } from '../domains/billing/invoicing';
import { buildDeclarationSet } from '../../src/engine/index';
import { readBaseDeclarations, readProviderOverlays } from '../../src/engine/node';
import { makePdf, text } from './files';
import { seedCommunication } from './communication';
import { seedAuth } from './auth';
import { seedPeople } from './people';
import { texts } from './texts';

export const DEMO_PROVIDERS = ['brightpath', 'northridge'] as const;

/** The demo sign-ins (README lists them the same way). */
export const DEMO_SIGNINS = [
  { appName: 'brightpath', email: 'maria.garcia@example.com', password: 'Sunshine#2026', role: 'primary holder (accountHolder 1, access F)' },
  { appName: 'brightpath', email: 'david.garcia@example.com', password: 'Sunshine#2026', role: 'secondary holder (2, F), same account' },
  { appName: 'brightpath', email: 'ana.silva@example.com', password: 'Sunshine#2026', role: 'payment-only secondary (2, access P), same account' },
  { appName: 'brightpath', email: 'priya.patel@example.com', password: 'Sunshine#2026', role: 'primary holder of a suspended account' },
  { appName: 'northridge', email: 'linh.nguyen@example.ca', password: 'Maple#Leaf2026', role: 'primary holder' },
] as const;

type Dow = 'S' | 'M' | 'T' | 'W' | 'TH' | 'F' | 'SA';

interface Ctx {
  db: Db;
  /** the project's root (provider records and declarations) */
  root: string;
  today: Date;
  /** yyyy-mm-dd, offset in days from today */
  d: (offset: number) => string;
  at: (offset: number, hh: number, mm?: number) => Date;
  hash: (pw: string) => Promise<string>;
}

async function one<T extends { id: number }>(p: Promise<T[]>): Promise<T> {
  const [row] = await p;
  return row;
}

export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const [r] = await db.select({ n: count() }).from(t.accounts);
  return Number(r.n) === 0;
}

/** The demo accounts' payments in their ledgers (the billing job posted their charges). */
async function ledgerFromPayments(db: Db, now: Date): Promise<void> {
  const ids = (await db.select({ id: t.providers.id }).from(t.providers).where(inArray(t.providers.appName, [...DEMO_PROVIDERS]))).map((p) => p.id);
  const paymentRows = await db.select().from(t.payments).where(inArray(t.payments.providerId, ids));
  const rows = paymentRows.map((p) => ({ providerId: p.providerId, accountId: p.accountId, kind: 'PAYMENT', amountCents: p.amountCents, entryDate: p.paymentDate, paymentId: p.id, createdAt: now }));
  if (rows.length) await db.insert(t.ledgerEntries).values(rows);
}

/**
 * The demo's bills, made by the billing job itself (server/domains/billing/invoicing.ts) with the
 * provider's own settings and rules: every service period of its billed programs that is due by
 * today, so the months before today look as the portal makes them. Answers the invoices, oldest first.
 */
async function billDemo(ctx: Ctx, appName: string, providerId: number) {
  const rec = readProviderRecords(ctx.root).find((r) => r.appName === appName);
  const billing = rec && settingsOf(rec).billing;
  if (!billing) throw new Error(`providers/${appName}/provider.json declares no billing`);
  const built = buildDeclarationSet(readBaseDeclarations(ctx.root), readProviderOverlays(ctx.root, appName), { appName });
  if (!built.ok) throw new Error(`${appName}: its declarations are refused`);
  const c: BillingContext = { db: ctx.db, providerId, billing, rules: built.set.rules, today: isoDay(ctx.today), now: ctx.at(0, 6) };
  await ensureServicePeriods(c);
  for (const period of await duePeriods(c)) await invoicePeriod(c, period);
  return ctx.db.select().from(t.invoices).where(eq(t.invoices.providerId, providerId)).orderBy(asc(t.invoices.invoiceDate), asc(t.invoices.id));
}

export async function seedDemo(db: Db, opts: { root: string; passwords: Passwords; clock: Clock }): Promise<void> {
  // dates relative to the business day, so PORTAL_TODAY gives the same demo data on any day
  const today = businessClock(opts.clock)();
  const hashes = new Map<string, Promise<string>>();
  const ctx: Ctx = {
    db,
    root: opts.root,
    today,
    d: (offset) => isoDay(addDays(today, offset)),
    at: (offset, hh, mm = 0) => {
      const x = addDays(today, offset);
      x.setHours(hh, mm, 0, 0);
      return x;
    },
    hash: (pw) => {
      let h = hashes.get(pw);
      if (!h) hashes.set(pw, (h = opts.passwords.hash(pw)));
      return h;
    },
  };
  const old = await db.select({ id: t.providers.id }).from(t.providers).where(inArray(t.providers.appName, [...DEMO_PROVIDERS]));
  if (old.length) {
    const ids = old.map((o) => o.id);
    await db.delete(t.signinAudit).where(inArray(t.signinAudit.providerId, ids));
    // provider rows cascade to every table holding their data
    await db.delete(t.providers).where(inArray(t.providers.id, ids));
  }
  await syncProviders(db, readProviderRecords(opts.root).filter((r) => DEMO_PROVIDERS.some((p) => p === r.appName)));
  await seedBrightpath(ctx);
  await seedNorthridge(ctx);
  await ledgerFromPayments(db, today);
  await seedCommunication(db, ctx);
  await seedAuth(db, ctx.hash);
  await seedPeople(db, ctx);
  await seatWeeklyEnrollments(db);
}

/** The demo's weekly enrolments hold their seats: each week's seat row counts the children enrolled in it. */
async function seatWeeklyEnrollments(db: Db): Promise<void> {
  const rows = await db
    .select({ providerId: t.enrollments.providerId, activityId: t.enrollments.activityId, date: t.enrollments.enrollmentDate, capacity: t.activities.capacity })
    .from(t.enrollments)
    .innerJoin(t.activities, eq(t.activities.id, t.enrollments.activityId))
    .innerJoin(t.programPeriods, eq(t.programPeriods.id, t.activities.programPeriodId))
    .where(and(eq(t.programPeriods.category, 'summerCamp'), eq(t.enrollments.status, 'A')));
  const counts = new Map<string, { providerId: number; activityId: number; week: string; capacity: number; n: number }>();
  for (const r of rows) {
    const week = mondayIso(r.date);
    const k = `${r.activityId}/${week}`;
    const c = counts.get(k) ?? { providerId: r.providerId, activityId: r.activityId, week, capacity: r.capacity, n: 0 };
    c.n++;
    counts.set(k, c);
  }
  for (const c of counts.values()) {
    await db
      .insert(t.seats)
      .values({ providerId: c.providerId, activityId: c.activityId, weekStart: c.week, total: c.capacity, taken: Math.min(c.n, c.capacity) })
      .onConflictDoUpdate({ target: [t.seats.activityId, t.seats.weekStart], set: { taken: sql`least(${t.seats.total}, ${t.seats.taken} + ${c.n})` } });
  }
}

async function providerId(db: Db, appName: string): Promise<number> {
  const [p] = await db.select({ id: t.providers.id }).from(t.providers).where(eq(t.providers.appName, appName));
  if (!p) throw new Error(`providers/${appName}/provider.json is missing`);
  return p.id;
}

/** The earlier of two yyyy-mm-dd days. */
function earliest(a: string, b: string): string {
  return a < b ? a : b;
}

/** Monday of this week (+ weeks): its offset in days from today. */
function mondayOffset(today: Date, weeks = 0): number {
  const dow = today.getDay(); // 0 Sunday
  return (dow === 0 ? -6 : 1 - dow) + weeks * 7;
}

async function grades(ctx: Ctx, providerId: number, list: [string, string][]) {
  await ctx.db.insert(t.gradeLevels).values(list.map(([code, label], i) => ({ providerId, gradeLevelCode: code, gradeLevel: label, sortOrder: i, translations: texts({ gradeLevel: label }) })));
}

async function attendanceWeeks(
  ctx: Ctx,
  providerId: number,
  kids: { childId: number; siteId: number; offerings: ('BEFORE SCHOOL' | 'AFTER SCHOOL' | 'FULL DAY')[] }[],
  absences: { childIndex: number; daysAgo: number; reason: string }[],
  staff: string[],
) {
  const rows: (typeof t.attendance.$inferInsert)[] = [];
  for (let back = 28; back >= 1; back--) {
    const day = addDays(ctx.today, -back);
    if (day.getDay() === 0 || day.getDay() === 6) continue;
    kids.forEach((k, ki) => {
      const absent = absences.find((a) => a.childIndex === ki && a.daysAgo === back);
      for (const offering of k.offerings) {
        const base = { providerId, childId: k.childId, siteId: k.siteId, attendanceDate: ctx.d(-back), timeOffered: offering };
        if (absent) {
          rows.push({ ...base, absentReason: absent.reason });
          continue;
        }
        const by = (n: number) => staff[(back + ki + n) % staff.length];
        const mins = (n: number) => String((back * 7 + ki * 11 + n) % 50).padStart(2, '0');
        if (offering === 'BEFORE SCHOOL') rows.push({ ...base, timeIn: `07:${mins(1)} AM`, timeOut: '08:10 AM', inBy: by(0), outBy: by(1) });
        else if (offering === 'AFTER SCHOOL') rows.push({ ...base, timeIn: '03:05 PM', timeOut: `05:${mins(2)} PM`, inBy: by(2), outBy: by(3) });
        else rows.push({ ...base, timeIn: `08:${mins(3)} AM`, timeOut: `04:${mins(4)} PM`, inBy: by(4), outBy: by(5) });
      }
    });
  }
  await ctx.db.insert(t.attendance).values(rows);
}

const BP_ALL: Dow[] = ['M', 'T', 'W', 'TH', 'F'];

async function seedBrightpath(ctx: Ctx) {
  const { db, d } = ctx;
  const pid = await providerId(db, 'brightpath');
  const org = 'Bright Path Kids Club, Inc.';
  await grades(ctx, pid, [
    ['PK', 'Pre-Kindergarten'], ['K', 'Kindergarten'], ['01', '1st Grade'], ['02', '2nd Grade'], ['03', '3rd Grade'],
    ['04', '4th Grade'], ['05', '5th Grade'], ['06', '6th Grade'],
  ]);
  const [lincoln, washington, downtown] = await db
    .insert(t.sites)
    .values([
      { providerId: pid, siteName: 'Lincoln Elementary', translations: texts({ siteName: 'Lincoln Elementary' }), streetAddress: '300 S Eleventh St', city: 'Springfield', stateCode: 'IL', zip: '62703', phone: '2175550110' },
      { providerId: pid, siteName: 'Washington Elementary', translations: texts({ siteName: 'Washington Elementary' }), streetAddress: '2300 E Jackson St', city: 'Springfield', stateCode: 'IL', zip: '62703', phone: '2175550120' },
      { providerId: pid, siteName: 'Bright Path Center - Downtown', translations: texts({ siteName: 'Bright Path Center - Downtown' }), streetAddress: '125 N Fifth St', city: 'Springfield', stateCode: 'IL', zip: '62701', phone: '2175550142' },
    ])
    .returning();
  await db.insert(t.absenceReasons).values([
    { providerId: pid, reason: 'Sick', translations: texts({ reason: 'Sick' }), sortOrder: 1 },
    { providerId: pid, reason: 'Medical appointment', translations: texts({ reason: 'Medical appointment' }), sortOrder: 2 },
    { providerId: pid, reason: 'Family vacation', translations: texts({ reason: 'Family vacation' }), sortOrder: 3 },
    { providerId: pid, reason: 'Picked up early by parent', translations: texts({ reason: 'Picked up early by parent' }), sortOrder: 4 },
    { providerId: pid, reason: 'Staff use only: no-show', translations: texts({ reason: 'Staff use only: no-show' }), showInParentPortal: false, sortOrder: 5 },
    { providerId: pid, reason: 'Other', translations: texts({ reason: 'Other' }), sortOrder: 9 },
  ]);

  // --- the Garcia account (three sign-ins) ---
  const garcia = await one(db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10234', punchPass: true, showProjectedPayment: true, lateFeeAfterDueDateCents: 15_00, applyLatePayment: true, ccOnetimePaymentGatewayID: 1, eCheckOnetimePaymentGatewayID: 2 }).returning());
  const address = { streetAddress: '1842 Walnut Street', apartmentNo: '', city: 'Springfield', stateCode: 'IL', zip: '62704' };
  const [maria, david, ana, rosa, james, kevin] = await db
    .insert(t.adults)
    .values([
      { providerId: pid, accountId: garcia.id, accountHolder: 1, accessType: 'F', firstName: 'Maria', lastName: 'Garcia', middleInitial: 'L', genderCode: 'F', ...address, cellPhone: '2175550198', workPhone: '2175550301', workPhoneExt: '214', textMessageConsent: true, email: 'maria.garcia@example.com', pin: '4826', employmentStatus: 'Employed full time', employer: 'Memorial Medical Center', primaryLanguage: 'es', maritalStatus: 'M', annualIncome: '$75,000 - $99,999', householdSize: 5 },
      { providerId: pid, accountId: garcia.id, accountHolder: 2, accessType: 'F', firstName: 'David', lastName: 'Garcia', genderCode: 'M', ...address, cellPhone: '2175550176', email: 'david.garcia@example.com', pin: '7391', employmentStatus: 'Employed full time', employer: 'Springfield Public Works', primaryLanguage: 'en', maritalStatus: 'M' },
      { providerId: pid, accountId: garcia.id, accountHolder: 2, accessType: 'P', firstName: 'Ana', lastName: 'Silva', genderCode: 'F', streetAddress: '77 Cherry Lane', city: 'Chatham', stateCode: 'IL', zip: '62629', cellPhone: '2175550133', email: 'ana.silva@example.com', emailOptedOut: true, primaryLanguage: 'pt' },
      { providerId: pid, accountId: garcia.id, accountHolder: 4, firstName: 'Rosa', lastName: 'Martinez', genderCode: 'F', streetAddress: '415 Elm Court', city: 'Springfield', stateCode: 'IL', zip: '62702', homePhone: '2175550155', cellPhone: '2175550156', primaryLanguage: 'es' },
      { providerId: pid, accountId: garcia.id, accountHolder: 5, firstName: 'James', lastName: 'Carter', genderCode: 'M', streetAddress: '1840 Walnut Street', city: 'Springfield', stateCode: 'IL', zip: '62704', cellPhone: '2175550162' },
      { providerId: pid, accountId: garcia.id, accountHolder: 4, firstName: 'Kevin', lastName: 'Brooks', genderCode: 'M', cellPhone: '2175550189' },
    ])
    .returning();
  const pw = await ctx.hash('Sunshine#2026');
  await db.insert(t.logins).values([
    { providerId: pid, adultId: maria.id, email: 'maria.garcia@example.com', passwordHash: pw },
    { providerId: pid, adultId: david.id, email: 'david.garcia@example.com', passwordHash: pw },
    { providerId: pid, adultId: ana.id, email: 'ana.silva@example.com', passwordHash: pw },
  ]);
  const [sofia, lucas, emma] = await db
    .insert(t.children)
    .values([
      { providerId: pid, accountId: garcia.id, firstName: 'Sofia', lastName: 'Garcia', middleInitial: 'R', genderCode: 'F', dateOfBirth: d(-365 * 8 - 40), gradeLevelCode: '03', school: 'Lincoln Elementary School', homeSiteId: lincoln.id, mealEligibility: 'R', tshirtSize: 'YM', medical: { doctorName: 'Dr. Helen Park', doctorPhone: '2175550400', preferredHospital: "St. John's Hospital", allergies: ['Peanuts'] } },
      { providerId: pid, accountId: garcia.id, firstName: 'Lucas', lastName: 'Garcia', genderCode: 'M', dateOfBirth: d(-365 * 5 - 100), gradeLevelCode: 'K', school: 'Lincoln Elementary School', homeSiteId: lincoln.id, mealEligibility: 'R', tshirtSize: 'YS' },
      { providerId: pid, accountId: garcia.id, firstName: 'Emma', lastName: 'Garcia', genderCode: 'F', dateOfBirth: d(-365 * 3 - 200), gradeLevelCode: 'PK', school: '', homeSiteId: downtown.id },
    ])
    .returning();
  const rel = (childId: number, adultId: number, relationshipId: number, relationship: string, f: Partial<typeof t.childAdults.$inferInsert> = {}) => ({ providerId: pid, childId, adultId, relationshipId, relationship, ...f });
  const parentFlags = { isAuthorizedToPickUp: true, isEmergencyContact: true, isLivesWith: true };
  await db.insert(t.childAdults).values([
    ...[sofia, lucas, emma].flatMap((c) => [
      rel(c.id, maria.id, 1, 'Mother', parentFlags),
      rel(c.id, david.id, 2, 'Father', parentFlags),
      rel(c.id, ana.id, 7, 'Aunt', { isAuthorizedToPickUp: true }),
      rel(c.id, rosa.id, 5, 'Grandmother', { isAuthorizedToPickUp: true, isEmergencyContact: true }),
      rel(c.id, kevin.id, 99, 'Former caregiver', { doNotRelease: true }),
    ]),
    rel(sofia.id, james.id, 99, 'Neighbor', { isAuthorizedToPickUp: true }),
    rel(lucas.id, james.id, 99, 'Neighbor', { isAuthorizedToPickUp: true }),
  ]);

  // --- another family of the same provider (tenant isolation inside one provider) ---
  const johnson = await one(db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10422' }).returning());
  const karen = await one(db.insert(t.adults).values({ providerId: pid, accountId: johnson.id, accountHolder: 1, firstName: 'Karen', lastName: 'Johnson', genderCode: 'F', streetAddress: '9 Oak Ridge Dr', city: 'Springfield', stateCode: 'IL', zip: '62711', cellPhone: '2175550177', email: 'karen.johnson@example.com' }).returning());
  await db.insert(t.logins).values({ providerId: pid, adultId: karen.id, email: 'karen.johnson@example.com', passwordHash: pw });
  const tyler = await one(db.insert(t.children).values({ providerId: pid, accountId: johnson.id, firstName: 'Tyler', lastName: 'Johnson', genderCode: 'M', dateOfBirth: d(-365 * 9), gradeLevelCode: '04', school: 'Washington Elementary School', homeSiteId: washington.id }).returning());
  await db.insert(t.childAdults).values(rel(tyler.id, karen.id, 1, 'Mother', parentFlags));

  // --- program periods: one of every category ---
  const schoolStart = -75;
  const pp = await db
    .insert(t.programPeriods)
    .values([
      { providerId: pid, programPeriod: 'School Year Before & After Care', description: 'Safe, fun mornings and afternoons at your school: homework help, outdoor play and healthy snacks.', translations: texts({ programPeriod: 'School Year Before & After Care', description: 'Safe, fun mornings and afternoons at your school: homework help, outdoor play and healthy snacks.' }), category: 'schoolYear', programKind: 'childcare', enrollmentOption: 'T', capacityCheck: 'C', startDate: d(schoolStart), endDate: d(schoolStart + 280), registrationFeeCents: 50_00, showSeatsLeft: true, billingCycle: 'M' },
      { providerId: pid, programPeriod: 'Summer Adventure Camp', description: 'Ten weeks of field trips, swimming, science and art. Choose the weeks that fit your family.', translations: texts({ programPeriod: 'Summer Adventure Camp', description: 'Ten weeks of field trips, swimming, science and art. Choose the weeks that fit your family.' }), category: 'summerCamp', programKind: 'childcare', enrollmentOption: 'W', capacityCheck: 'W', startDate: d(200), endDate: d(270), registrationStartAt: ctx.at(-10, 8), registrationFeeCents: 75_00, paymentOption: 'N', discountsNeedReview: true, showSeatsLeft: true },
      { providerId: pid, programPeriod: 'Little Sprouts Preschool', description: 'Play-based preschool for ages 3 to 5 at our downtown center.', translations: texts({ programPeriod: 'Little Sprouts Preschool', description: 'Play-based preschool for ages 3 to 5 at our downtown center.' }), category: 'preschool', programKind: 'childcare', enrollmentOption: 'D', capacityCheck: 'N', startDate: d(schoolStart), endDate: d(schoolStart + 280), registrationFeeCents: 40_00, paymentOption: 'O', eligibility: { by: 'age', minAge: 3, maxAge: 5 } },
      { providerId: pid, programPeriod: 'Winter Break Holiday Care', description: 'Full-day care while schools are closed for winter break.', translations: texts({ programPeriod: 'Winter Break Holiday Care', description: 'Full-day care while schools are closed for winter break.' }), category: 'holidayCare', programKind: 'childcare', enrollmentOption: 'T', startDate: d(30), endDate: d(41), registrationStartAt: ctx.at(5, 9), registrationEndDate: d(25) },
      { providerId: pid, programPeriod: 'Robotics & Art Studio', description: 'After-school enrichment: build robots on Tuesdays, paint and sculpt on Thursdays.', translations: texts({ programPeriod: 'Robotics & Art Studio', description: 'After-school enrichment: build robots on Tuesdays, paint and sculpt on Thursdays.' }), category: 'other', programKind: 'enrichment', enrollmentOption: 'C', calendarProgramPeriodID: 501, enableWeekendScheduling: true, startDate: d(-40), endDate: d(120), eligibility: { by: 'grade', minGrade: '01', maxGrade: '05' }, showSeatsLeft: true },
      { providerId: pid, programPeriod: 'Fall Soccer Clinic', description: 'Six-week soccer skills clinic.', translations: texts({ programPeriod: 'Fall Soccer Clinic', description: 'Six-week soccer skills clinic.' }), category: 'other', programKind: 'enrichment', enrollmentOption: 'T', startDate: d(-80), endDate: d(-20) },
      { providerId: pid, programPeriod: 'Drop-in Punch Pass', description: 'Buy a 10-visit pass and drop in on the days you need.', translations: texts({ programPeriod: 'Drop-in Punch Pass', description: 'Buy a 10-visit pass and drop in on the days you need.' }), category: 'other', programKind: 'childcare', enrollmentOption: 'D', isPunchPass: true, startDate: d(schoolStart), endDate: d(schoolStart + 280) },
      { providerId: pid, programPeriod: 'Riverside District Summer Academy', description: 'Summer academy run with the neighbouring Riverside district.', translations: texts({ programPeriod: 'Riverside District Summer Academy', description: 'Summer academy run with the neighbouring Riverside district.' }), category: 'summerCamp', programKind: 'enrichment', enrollmentOption: 'W', isOtherDistrict: true, startDate: d(210), endDate: d(250) },
    ])
    .returning();
  const [schoolYear, summer, preschool, holiday, robotics, soccer, punch] = pp;
  const act = (programPeriodId: number, siteId: number, activity: string, f: Partial<typeof t.activities.$inferInsert>) => ({
    providerId: pid, programPeriodId, siteId, activity, translations: texts({ activity }), startDate: d(schoolStart), endDate: d(schoolStart + 280), ...f,
  });
  const acts = await db
    .insert(t.activities)
    .values([
      act(schoolYear.id, lincoln.id, 'Before Care', { timing: '6:30 AM - 8:15 AM', timeOfferedCode: 'B', feeCents: 160_00, firstChildRegFeeCents: 50_00, secondChildRegFeeCents: 40_00, thirdChildRegFeeCents: 30_00, siblingFeeCents: 145_00 }),
      act(schoolYear.id, lincoln.id, 'After Care', { timing: '3:00 PM - 6:00 PM', timeOfferedCode: 'A', feeCents: 245_00, firstChildRegFeeCents: 50_00, secondChildRegFeeCents: 40_00, thirdChildRegFeeCents: 30_00, siblingFeeCents: 220_00 }),
      act(schoolYear.id, washington.id, 'After Care', { timing: '3:00 PM - 6:00 PM', timeOfferedCode: 'A', feeCents: 245_00 }),
      act(summer.id, downtown.id, 'Adventure Week', { startDate: d(200), endDate: d(270), timing: '7:30 AM - 5:30 PM', timeOfferedCode: 'F', feeCents: 210_00, feeType: 'PER_SP', firstChildRegFeeCents: 75_00, secondChildRegFeeCents: 60_00, thirdChildRegFeeCents: 50_00, siblingFeeCents: 190_00, capacity: 20 }),
      act(preschool.id, downtown.id, 'Preschool Full Day', { timing: '8:00 AM - 4:30 PM', timeOfferedCode: 'F', feeCents: 690_00, firstChildRegFeeCents: 40_00, secondChildRegFeeCents: 40_00, thirdChildRegFeeCents: 40_00 }),
      act(holiday.id, downtown.id, 'Holiday Full Day', { startDate: d(30), endDate: d(41), timing: '7:30 AM - 5:30 PM', timeOfferedCode: 'F', feeCents: 48_00, feeType: 'PER_DAY', isOneTime: true }),
      act(robotics.id, lincoln.id, 'Robotics Club', { startDate: d(-40), endDate: d(120), activityTypeID: 2, daysPerWeek: 2, daysOfWeek: 'T,TH', timing: '3:15 PM - 4:30 PM', timeOfferedCode: 'A', feeCents: 95_00 }),
      act(robotics.id, lincoln.id, 'Art Studio', { startDate: d(-40), endDate: d(120), activityTypeID: 2, daysPerWeek: 1, daysOfWeek: 'W', timing: '3:15 PM - 4:30 PM', timeOfferedCode: 'A', feeCents: 60_00 }),
      act(soccer.id, washington.id, 'Soccer Skills', { startDate: d(-80), endDate: d(-20), daysPerWeek: 2, daysOfWeek: 'M,W', timing: '4:00 PM - 5:00 PM', timeOfferedCode: 'A', feeCents: 120_00 }),
      act(punch.id, downtown.id, 'Drop-in Day', { activityTypeID: 4, timing: '7:30 AM - 5:30 PM', timeOfferedCode: 'F', feeCents: 45_00, feeType: 'PER_DAY' }),
      act(schoolYear.id, lincoln.id, 'Early Release Day', { activityTypeID: 4, timing: '12:30 PM - 6:00 PM', timeOfferedCode: 'A', feeCents: 30_00, feeType: 'PER_DAY' }),
      act(schoolYear.id, downtown.id, 'No-School Day Camp', { activityTypeID: 4, isOneTime: true, timing: '7:30 AM - 5:30 PM', timeOfferedCode: 'F', feeCents: 48_00, feeType: 'PER_DAY' }),
      act(summer.id, downtown.id, 'Swim & Splash', { startDate: d(200), endDate: d(270), activityTypeID: 2, daysPerWeek: 2, daysOfWeek: 'T,TH', timing: '1:00 PM - 3:00 PM, 3:30 PM - 4:30 PM', timeOfferedCode: 'A', feeCents: 40_00 }),
      // the calendar program's per-day activity: the flex dates a parent adds in the calendar product
      act(robotics.id, lincoln.id, 'Maker Lab Flex Day', { startDate: d(-40), endDate: d(120), activityTypeID: 2, daysOfWeek: 'M,W,F', timing: '3:15 PM - 6:00 PM', timeOfferedCode: 'A', feeCents: 65_00, feeType: 'PER_DAY', capacity: 8 }),
    ])
    .returning();
  const [beforeCare, afterCare, , adventure, preschoolDay, , roboticsClub, artStudio, soccerSkills, , earlyRelease, noSchoolCamp, swim, makerLab] = acts;
  await db.insert(t.registrations).values([
    { providerId: pid, accountId: garcia.id, programPeriodId: schoolYear.id, childId: sofia.id, status: 'REGISTERED', registrationDate: d(schoolStart - 40), submittedOn: d(schoolStart - 40) },
    { providerId: pid, accountId: garcia.id, programPeriodId: schoolYear.id, childId: lucas.id, status: 'REGISTERED', registrationDate: d(schoolStart - 40), submittedOn: d(schoolStart - 40) },
    { providerId: pid, accountId: garcia.id, programPeriodId: preschool.id, childId: emma.id, status: 'REGISTERED', registrationDate: d(schoolStart - 30), submittedOn: d(schoolStart - 30) },
    { providerId: pid, accountId: garcia.id, programPeriodId: robotics.id, childId: sofia.id, status: 'REGISTERED', registrationDate: d(-45), submittedOn: d(-45) },
    { providerId: pid, accountId: garcia.id, programPeriodId: soccer.id, childId: lucas.id, status: 'REGISTERED', registrationDate: d(-90), submittedOn: d(-90) },
    { providerId: pid, accountId: garcia.id, programPeriodId: summer.id, childId: sofia.id, status: 'PENDING', registrationDate: d(-3), submittedOn: d(-3), isPendingApproval: true },
    { providerId: pid, accountId: garcia.id, programPeriodId: summer.id, childId: lucas.id, status: 'REGISTERED', registrationDate: d(-20), submittedOn: d(-20) },
    { providerId: pid, accountId: johnson.id, programPeriodId: schoolYear.id, childId: tyler.id, status: 'REGISTERED', registrationDate: d(schoolStart - 20), submittedOn: d(schoolStart - 20) },
  ]);
  await db.insert(t.enrollments).values([
    { providerId: pid, accountId: garcia.id, childId: sofia.id, activityId: beforeCare.id, enrollmentDate: d(schoolStart), daysOfWeek: BP_ALL.join(',') },
    { providerId: pid, accountId: garcia.id, childId: sofia.id, activityId: afterCare.id, enrollmentDate: d(schoolStart), daysOfWeek: BP_ALL.join(',') },
    { providerId: pid, accountId: garcia.id, childId: lucas.id, activityId: afterCare.id, enrollmentDate: d(schoolStart + 14), daysOfWeek: 'M,T,W,TH' },
    { providerId: pid, accountId: garcia.id, childId: emma.id, activityId: preschoolDay.id, enrollmentDate: d(schoolStart), daysOfWeek: BP_ALL.join(',') },
    { providerId: pid, accountId: garcia.id, childId: sofia.id, activityId: roboticsClub.id, enrollmentDate: d(-35), daysOfWeek: 'T,TH' },
    { providerId: pid, accountId: garcia.id, childId: sofia.id, activityId: artStudio.id, enrollmentDate: d(-35), deEnrollDate: d(-7), daysOfWeek: 'W' },
    { providerId: pid, accountId: garcia.id, childId: lucas.id, activityId: soccerSkills.id, enrollmentDate: d(-80), daysOfWeek: 'M,W' },
    { providerId: pid, accountId: johnson.id, childId: tyler.id, activityId: afterCare.id, enrollmentDate: d(schoolStart), daysOfWeek: BP_ALL.join(',') },
  ]);

  // --- the weekly summer camp: Lucas for three weeks (one enrolment per week, Monday to Friday) ---
  const week = (n: number) => mondayOffset(ctx.today, 30 + n);
  const weekly = (activityId: number, n: number, days: Dow[]) => ({
    providerId: pid, accountId: garcia.id, childId: lucas.id, activityId, enrollmentDate: d(week(n)), deEnrollDate: d(week(n) + 4), daysOfWeek: days.join(','),
  });
  await db.insert(t.enrollments).values([
    weekly(adventure.id, 0, BP_ALL),
    weekly(adventure.id, 1, BP_ALL),
    weekly(swim.id, 1, ['T', 'TH']),
    weekly(adventure.id, 3, BP_ALL),
    weekly(swim.id, 3, ['T']),
  ]);

  // --- the school year's dated plan, before and after today (Monday of this week +- whole weeks) ---
  const thisMon = mondayOffset(ctx.today);
  await db.insert(t.enrollments).values({ providerId: pid, accountId: garcia.id, childId: lucas.id, activityId: earlyRelease.id, enrollmentDate: d(thisMon - 14 + 2), daysOfWeek: 'W' });
  const dated = (childId: number, activityId: number, kind: 'enrolled' | 'oneTime' | 'scheduled' | 'flex', offset: number) => ({ providerId: pid, accountId: garcia.id, childId, activityId, kind, date: d(offset) });
  await db.insert(t.enrollmentDates).values([
    dated(lucas.id, earlyRelease.id, 'enrolled', thisMon - 14 + 2),
    dated(lucas.id, earlyRelease.id, 'enrolled', thisMon + 7 + 2),
    dated(lucas.id, earlyRelease.id, 'enrolled', thisMon + 21 + 2),
    dated(sofia.id, noSchoolCamp.id, 'oneTime', thisMon - 7 + 4),
    dated(sofia.id, noSchoolCamp.id, 'oneTime', thisMon + 14 + 4),
    dated(sofia.id, afterCare.id, 'scheduled', thisMon - 7 + 1),
    dated(sofia.id, afterCare.id, 'scheduled', thisMon + 7 + 3),
    dated(lucas.id, afterCare.id, 'flex', thisMon - 7 + 4),
    dated(lucas.id, afterCare.id, 'flex', thisMon + 7 + 4),
  ]);
  // --- one-time enrolment: the No-School Day Camp's dates (Fridays ahead; a Saturday the weekend rule
  // does not offer, the school year having no weekend scheduling; a date with one seat left) ---
  const oneTimeDay = (offset: number, capacity?: number) => ({ providerId: pid, activityId: noSchoolCamp.id, date: d(offset), ...(capacity ? { capacity } : {}) });
  await db.insert(t.onetimeDates).values([
    oneTimeDay(thisMon + 7 + 4),
    oneTimeDay(thisMon + 7 + 5),
    oneTimeDay(thisMon + 14 + 4),
    oneTimeDay(thisMon + 21 + 4),
    oneTimeDay(thisMon + 28 + 4, 1),
  ]);
  await seedFlexCalendarDemo(ctx, { pid, garcia: garcia.id, sofia: sofia.id, robotics: robotics.id, makerLab: makerLab.id });
  await seedPunchPassDemo(ctx, { pid, garcia: garcia.id, kids: [sofia.id, lucas.id], punch: punch.id, siteId: downtown.id });
  await seedApplicationDemo(ctx, { pid, pw, summer: summer.id, adventure: adventure.id, swim: swim.id, downtown: downtown.id });
  await seedProgramListDemo(ctx, { pid, pw, garcia: garcia.id, emma: emma.id, schoolYear: schoolYear.id, washington: washington.id, afterCareWashington: acts[2].id });

  const autopay = await one(db.insert(t.autopayRegistrations).values({ providerId: pid, accountId: garcia.id, adultId: david.id, paymentMethodCode: 'CCD', frequency: 'M', startDate: d(-120) }).returning());
  // the card on file of the autopay: a gateway token is made only by paying on the gateway's page, so
  // the demo's has none: Pay now shows it as kept for the autopay only (ON_FILE_ONLY), not offered to
  // pay on the spot; a method saved for later comes from the page
  await db.insert(t.paymentMethods).values([
    { providerId: pid, accountId: garcia.id, adultId: david.id, automaticPaymentRegistrationId: autopay.id, paymentMethodCode: 'CCR', type: 'VISA', last4Digits: '4242', firstName: 'David', lastName: 'Garcia', expiry: '08/29', savedOn: d(-120), usedForAutoPay: true },
  ]);
  // --- billing: the school year is billed monthly by the billing job (provider.json billing); the
  // Garcias' autopay card paid every month but this one, of which Ana paid 400.00 two days ago, so
  // 225.00 is open and not yet due; Tyler's and Arjun's accounts have paid nothing ---
  const bills = await billDemo(ctx, 'brightpath', pid);
  const current = (i: { invoiceDate: string; paymentDueDate: string }) => i.invoiceDate === bills.filter((b) => b.accountId === garcia.id).at(-1)?.invoiceDate;
  const paidByCard = new Map<string, number>();
  for (const b of bills) if (b.accountId === garcia.id && !current(b)) paidByCard.set(b.invoiceDate, (paidByCard.get(b.invoiceDate) ?? 0) + b.amountCents);
  await db.insert(t.payments).values([
    ...[...paidByCard].map(([invoiceDate, amountCents]) => ({ providerId: pid, accountId: garcia.id, adultId: david.id, paymentDate: earliest(isoDay(addDays(new Date(`${invoiceDate}T12:00:00`), 8)), d(-1)), amountCents, paymentMethodCode: 'CCR', last4Digits: '4242', payerName: 'David Garcia' })),
    { providerId: pid, accountId: garcia.id, adultId: ana.id, paymentDate: d(-2), amountCents: 400_00, paymentMethodCode: 'CCD', last4Digits: '1881', payerName: 'Ana Silva' },
  ]);

  // --- bulletins, forms, events, alerts, communication ---
  const winterPdf = await makePdf('Winter Break Schedule', org, [
    'Our centers close at 3:00 PM on the last school day before winter break and reopen on the first school day of January.',
    'Winter Break Holiday Care runs at the Downtown center from 7:30 AM to 5:30 PM. Register online from the parent portal.',
    'Please pack a lunch, two snacks, a water bottle and outdoor clothing every day.',
  ]);
  const [b1, b2] = await db
    .insert(t.bulletins)
    .values([
      { providerId: pid, subject: 'Winter Break Holiday Care registration', message: '<p>Registration for <strong>Winter Break Holiday Care</strong> opens soon. Spaces are limited, so register early.</p><p>See the attached schedule for details.</p>', translations: texts({ subject: 'Winter Break Holiday Care registration', message: '<p>Registration for <strong>Winter Break Holiday Care</strong> opens soon. Spaces are limited, so register early.</p><p>See the attached schedule for details.</p>' }), startDate: d(-2) },
      { providerId: pid, subject: 'Spirit Week and supply list', message: '<p>Next week is <em>Spirit Week</em>! Monday is pajama day, Wednesday is crazy hair day and Friday is team colors day.</p><ul><li>Label all clothing</li><li>Bring a refillable water bottle</li></ul>', translations: texts({ subject: 'Spirit Week and supply list', message: '<p>Next week is <em>Spirit Week</em>! Monday is pajama day, Wednesday is crazy hair day and Friday is team colors day.</p><ul><li>Label all clothing</li><li>Bring a refillable water bottle</li></ul>' }), startDate: d(-9) },
      { providerId: pid, subject: 'Welcome to the new school year', message: '<p>Welcome back, families! Our staff are excited for a great year at every site.</p>', translations: texts({ subject: 'Welcome to the new school year', message: '<p>Welcome back, families! Our staff are excited for a great year at every site.</p>' }), startDate: d(schoolStart) },
      { providerId: pid, subject: 'Expired: summer photos', message: '<p>Summer photos were available until last month.</p>', translations: texts({ subject: 'Expired: summer photos', message: '<p>Summer photos were available until last month.</p>' }), startDate: d(-120), endDate: d(-30) },
    ])
    .returning();
  await db.insert(t.bulletinAttachments).values([
    { providerId: pid, bulletinId: b1.id, name: 'Winter-Break-Schedule.pdf', documentType: 'pdf', mimeType: 'application/pdf', content: winterPdf },
    { providerId: pid, bulletinId: b2.id, name: 'Supply-List.csv', documentType: 'csv', mimeType: 'text/csv', content: text('Item,Quantity,Notes\nRefillable water bottle,1,Labelled with name\nChange of clothes,1,Kept in cubby\nSunscreen,1,Unopened\nIndoor shoes,1 pair,\n') },
    { providerId: pid, bulletinId: b2.id, name: 'Spirit-Week.txt', documentType: 'txt', mimeType: 'text/plain', content: text('Spirit Week\n\nMonday: Pajama day\nTuesday: Favorite book character\nWednesday: Crazy hair day\nThursday: Sports day\nFriday: Team colors day\n') },
  ]);
  await db.insert(t.forms).values([
    { providerId: pid, formName: 'Medication Authorization Form', translations: texts({ formName: 'Medication Authorization Form' }), documentType: 'pdf', mimeType: 'application/pdf', fileName: 'Medication-Authorization.pdf', content: await makePdf('Medication Authorization Form', org, ['Staff may give medication only with this signed form and the medication in its original, labelled container.', 'Child name: ______________________   Medication: ______________________', 'Dosage: __________   Time(s): __________   From date: ________  To date: ________']) },
    { providerId: pid, formName: 'Field Trip Permission Slip', translations: texts({ formName: 'Field Trip Permission Slip' }), documentType: 'pdf', mimeType: 'application/pdf', fileName: 'Field-Trip-Permission.pdf', content: await makePdf('Field Trip Permission Slip', org, ['I give permission for my child to take part in off-site field trips organised by Bright Path Kids Club during the current program period.', 'Child name: ______________________   Site: ______________________']) },
    { providerId: pid, formName: 'Parent Handbook Summary', translations: texts({ formName: 'Parent Handbook Summary' }), documentType: 'txt', mimeType: 'text/plain', fileName: 'Parent-Handbook-Summary.txt', content: text('Bright Path Kids Club - Parent Handbook Summary\n\n1. Sign your child in and out every day.\n2. Late pick-up after 6:00 PM is charged $1 per minute.\n3. Notify us of absences through the parent portal.\n4. Keep contact and pickup lists current.\n') },
  ]);
  const mon = mondayOffset(ctx.today);
  await db.insert(t.calendarEvents).values([
    { providerId: pid, title: 'Family Game Night', start: `${d(mon + 3)}T18:00:00`, end: `${d(mon + 3)}T19:30:00`, description: 'Board games and pizza at Lincoln Elementary gym.', translations: texts({ title: 'Family Game Night', description: 'Board games and pizza at Lincoln Elementary gym.' }) },
    { providerId: pid, title: 'Spirit Week', start: d(mon + 7), end: d(mon + 12), allDay: true, description: 'Dress-up days all week (see the bulletin).', translations: texts({ title: 'Spirit Week', description: 'Dress-up days all week (see the bulletin).' }) },
    { providerId: pid, title: 'No school - Staff development day (full-day care available)', start: d(mon + 14), end: d(mon + 15), allDay: true, description: 'Full-day care at the Downtown center; register for the day.', translations: texts({ title: 'No school - Staff development day (full-day care available)', description: 'Full-day care at the Downtown center; register for the day.' }) },
    { providerId: pid, title: 'Science Fair Showcase', start: `${d(mon + 18)}T16:00:00`, end: `${d(mon + 18)}T17:30:00`, description: 'Robotics Club projects on display.', translations: texts({ title: 'Science Fair Showcase', description: 'Robotics Club projects on display.' }) },
    { providerId: pid, title: 'Winter Break Holiday Care', start: d(30), end: d(42), allDay: true, description: 'Holiday care at the Downtown center.', translations: texts({ title: 'Winter Break Holiday Care', description: 'Holiday care at the Downtown center.' }) },
    { providerId: pid, title: 'Parent conferences', start: `${d(mon - 5)}T15:30:00`, end: `${d(mon - 5)}T18:00:00`, description: 'Meet your site director.', translations: texts({ title: 'Parent conferences', description: 'Meet your site director.' }) },
  ]);
  await db.insert(t.alerts).values([
    { providerId: pid, location: 'L', alertText: '<p><strong>Winter Break Holiday Care</strong> registration opens soon. Sign in to reserve your days.</p>', translations: texts({ alertText: '<p><strong>Winter Break Holiday Care</strong> registration opens soon. Sign in to reserve your days.</p>' }), startDate: d(-5), endDate: d(25) },
    { providerId: pid, location: 'H', alertText: '<p>Picture day is <strong>next Thursday</strong> at all school sites.</p>', translations: texts({ alertText: '<p>Picture day is <strong>next Thursday</strong> at all school sites.</p>' }), startDate: d(-3), endDate: d(10) },
    { providerId: pid, location: 'H', alertText: '<p>Reminder: late pick-up after 6:00 PM is charged per minute. Thank you for picking up on time!</p>', translations: texts({ alertText: '<p>Reminder: late pick-up after 6:00 PM is charged per minute. Thank you for picking up on time!</p>' }), startDate: d(-30) },
    { providerId: pid, location: 'H', alertText: '<p>Old alert that has ended.</p>', translations: texts({ alertText: '<p>Old alert that has ended.</p>' }), startDate: d(-60), endDate: d(-31) },
  ]);
  await db.insert(t.communications).values([
    { providerId: pid, accountId: garcia.id, mode: 'EMAIL', subject: 'Payment receipt', fromName: 'Automatic Email', description: '<p>Thank you! We received your payment of <strong>$400.00</strong>.</p>', createdOn: ctx.at(-2, 10, 12), isAutomatic: true },
    { providerId: pid, accountId: garcia.id, mode: 'TEXT', subject: 'Early closing', fromName: 'Bright Path Kids Club', description: '<p>Lincoln Elementary site closes at 5:00 PM today because of the storm.</p>', createdOn: ctx.at(-6, 13, 40) },
    { providerId: pid, accountId: garcia.id, mode: 'EMAIL', subject: 'Question about Robotics Club', fromName: 'Maria Garcia', description: '<p>Hello, can Sofia switch her art day to Thursday? Thanks, Maria</p>', createdOn: ctx.at(-12, 20, 5) },
    { providerId: pid, accountId: garcia.id, mode: 'EMAIL', subject: 'Invoice available', fromName: 'Automatic Email', description: '<p>Your invoice for this month is available in the parent portal.</p>', createdOn: ctx.at(-(ctx.today.getDate() - 1), 6, 0), isAutomatic: true },
    { providerId: pid, accountId: garcia.id, mode: 'TEXT', subject: 'Absence recorded', fromName: 'Automatic Email', description: '<p>Lucas was marked absent today: Sick.</p>', createdOn: ctx.at(-15, 9, 30), isAutomatic: true },
    { providerId: pid, accountId: garcia.id, mode: 'EMAIL', subject: 'Registration confirmed', fromName: 'Automatic Email', description: '<p>Registration for <strong>School Year Before &amp; After Care</strong> is confirmed.</p>', createdOn: ctx.at(schoolStart - 40, 11, 0), isAutomatic: true },
    { providerId: pid, accountId: garcia.id, mode: 'EMAIL', subject: 'Summer camp photos', fromName: 'Bright Path Kids Club', description: '<p>Photos from last summer are ready to view.</p>', createdOn: ctx.at(-400, 15, 0) },
    { providerId: pid, accountId: johnson.id, mode: 'EMAIL', subject: 'Welcome to Bright Path', fromName: 'Automatic Email', description: '<p>Welcome, Karen!</p>', createdOn: ctx.at(-20, 9, 0), isAutomatic: true },
  ]);
  await attendanceWeeks(
    ctx,
    pid,
    [
      { childId: sofia.id, siteId: lincoln.id, offerings: ['BEFORE SCHOOL', 'AFTER SCHOOL'] },
      { childId: lucas.id, siteId: lincoln.id, offerings: ['AFTER SCHOOL'] },
      { childId: emma.id, siteId: downtown.id, offerings: ['FULL DAY'] },
    ],
    [
      { childIndex: 1, daysAgo: 15, reason: 'Sick' },
      { childIndex: 0, daysAgo: 9, reason: 'Medical appointment' },
      { childIndex: 2, daysAgo: 3, reason: 'Family vacation' },
      { childIndex: 2, daysAgo: 4, reason: 'Family vacation' },
    ],
    ['Ms. Jenkins', 'Mr. Okafor', 'Maria Garcia', 'David Garcia', 'Ms. Patel', 'Rosa Martinez'],
  );
}

async function seedNorthridge(ctx: Ctx) {
  const { db, d } = ctx;
  const pid = await providerId(db, 'northridge');
  const org = 'Northridge School District';
  await grades(ctx, pid, [['K', 'Kindergarten'], ['01', 'Grade 1'], ['02', 'Grade 2'], ['03', 'Grade 3'], ['04', 'Grade 4'], ['05', 'Grade 5'], ['06', 'Grade 6']]);
  const [northSchool, maple] = await db
    .insert(t.sites)
    .values([
      { providerId: pid, siteName: 'Northridge Elementary', translations: texts({ siteName: 'Northridge Elementary' }), streetAddress: '4120 Northland Dr NW', city: 'Calgary', stateCode: 'AB', zip: 'T2L 2J7', phone: '4035550111' },
      { providerId: pid, siteName: 'Maple Grove School', translations: texts({ siteName: 'Maple Grove School' }), streetAddress: '880 Maple Grove Rd SW', city: 'Calgary', stateCode: 'AB', zip: 'T2V 3K8', phone: '4035550122' },
    ])
    .returning();
  await db.insert(t.absenceReasons).values([
    { providerId: pid, reason: 'Illness', translations: texts({ reason: 'Illness' }), sortOrder: 1 },
    { providerId: pid, reason: 'Appointment', translations: texts({ reason: 'Appointment' }), sortOrder: 2 },
    { providerId: pid, reason: 'Family travel', translations: texts({ reason: 'Family travel' }), sortOrder: 3 },
    { providerId: pid, reason: 'Other', translations: texts({ reason: 'Other' }), sortOrder: 9 },
  ]);
  const nguyen = await one(db.insert(t.accounts).values({ providerId: pid, accountNo: 'NR-5521', ccOnetimePaymentGatewayID: 3 }).returning());
  const address = { streetAddress: '27 Hidden Creek Way NW', apartmentNo: '', city: 'Calgary', stateCode: 'AB', zip: 'T3A 6K2' };
  const [linh, minh, thi, paul] = await db
    .insert(t.adults)
    .values([
      { providerId: pid, accountId: nguyen.id, accountHolder: 1, firstName: 'Linh', lastName: 'Nguyen', genderCode: 'F', ...address, cellPhone: '4035550163', email: 'linh.nguyen@example.ca', pin: '2580', employmentStatus: 'Employed part time', employer: 'Alberta Health Services', primaryLanguage: 'vi', isDistrictEmployee: false },
      { providerId: pid, accountId: nguyen.id, accountHolder: 2, firstName: 'Minh', lastName: 'Nguyen', genderCode: 'M', ...address, cellPhone: '4035550164', workPhone: '4035550900', email: 'minh.nguyen@example.ca', primaryLanguage: 'vi', isDistrictEmployee: true },
      { providerId: pid, accountId: nguyen.id, accountHolder: 4, firstName: 'Thi', lastName: 'Tran', genderCode: 'F', city: 'Calgary', stateCode: 'AB', zip: 'T3A 1B2', homePhone: '4035550170', primaryLanguage: 'vi' },
      { providerId: pid, accountId: nguyen.id, accountHolder: 4, firstName: 'Paul', lastName: 'Becker', genderCode: 'M', cellPhone: '4035550199' },
    ])
    .returning();
  await db.insert(t.logins).values({ providerId: pid, adultId: linh.id, email: 'linh.nguyen@example.ca', passwordHash: await ctx.hash('Maple#Leaf2026') });
  const [an, bao, mai] = await db
    .insert(t.children)
    .values([
      { providerId: pid, accountId: nguyen.id, firstName: 'An', lastName: 'Nguyen', genderCode: 'F', dateOfBirth: d(-365 * 7 - 20), gradeLevelCode: '02', school: 'Northridge Elementary School', homeSiteId: northSchool.id },
      { providerId: pid, accountId: nguyen.id, firstName: 'Bao', lastName: 'Nguyen', genderCode: 'M', dateOfBirth: d(-365 * 10 - 70), gradeLevelCode: '05', school: 'Northridge Elementary School', homeSiteId: northSchool.id },
      { providerId: pid, accountId: nguyen.id, firstName: 'Mai', lastName: 'Nguyen', genderCode: 'F', dateOfBirth: d(-365 * 5 - 10), gradeLevelCode: 'K', school: 'Maple Grove School', homeSiteId: maple.id },
    ])
    .returning();
  const parent = { isAuthorizedToPickUp: true, isEmergencyContact: true, isLivesWith: true };
  await db.insert(t.childAdults).values(
    [an, bao, mai].flatMap((c) => [
      { providerId: pid, childId: c.id, adultId: linh.id, relationshipId: 1, relationship: 'Mother', ...parent },
      { providerId: pid, childId: c.id, adultId: minh.id, relationshipId: 2, relationship: 'Father', ...parent },
      { providerId: pid, childId: c.id, adultId: thi.id, relationshipId: 5, relationship: 'Grandmother', isAuthorizedToPickUp: true, isEmergencyContact: true },
      { providerId: pid, childId: c.id, adultId: paul.id, relationshipId: 99, relationship: 'Not permitted', doNotRelease: true },
    ]),
  );
  const start = -70;
  // registration that opens later today, by the server's clock (spec 4: before it the button says when)
  const laterToday = () => {
    const now = new Date();
    const at = new Date(ctx.today);
    const h = now.getHours() + 3;
    at.setHours(Math.min(h, 23), h > 23 ? 59 : now.getMinutes(), 0, 0);
    return at;
  };
  const [extended, camp, readiness, springBreak, chess] = await db
    .insert(t.programPeriods)
    .values([
      { providerId: pid, programPeriod: 'Extended Day Before & After School', description: 'Before and after school care at district schools.', translations: texts({ programPeriod: 'Extended Day Before & After School', description: 'Before and after school care at district schools.' }), category: 'schoolYear', programKind: 'childcare', enrollmentOption: 'T', startDate: d(start), endDate: d(start + 290), billingCycle: 'M' },
      { providerId: pid, programPeriod: 'Summer Day Camp', description: 'Weekly summer day camp at Maple Grove School.', translations: texts({ programPeriod: 'Summer Day Camp', description: 'Weekly summer day camp at Maple Grove School.' }), category: 'summerCamp', programKind: 'childcare', enrollmentOption: 'W', capacityCheck: 'W', startDate: d(215), endDate: d(270), registrationStartAt: ctx.at(60, 0) },
      { providerId: pid, programPeriod: 'Kindergarten Readiness', description: 'Half-day preschool program for four-year-olds.', translations: texts({ programPeriod: 'Kindergarten Readiness', description: 'Half-day preschool program for four-year-olds.' }), category: 'preschool', programKind: 'childcare', enrollmentOption: 'D', startDate: d(start), endDate: d(start + 290) },
      { providerId: pid, programPeriod: 'Spring Break Care', description: 'Full-day care during spring break.', translations: texts({ programPeriod: 'Spring Break Care', description: 'Full-day care during spring break.' }), category: 'holidayCare', programKind: 'childcare', enrollmentOption: 'T', startDate: d(130), endDate: d(136) },
      { providerId: pid, programPeriod: 'Chess & Coding Club', description: 'Lunchtime and after-school enrichment club.', translations: texts({ programPeriod: 'Chess & Coding Club', description: 'Lunchtime and after-school enrichment club.' }), category: 'other', programKind: 'enrichment', enrollmentOption: 'C', calendarProgramPeriodID: 701, startDate: d(-30), endDate: d(90), registrationStartAt: laterToday() },
    ])
    .returning();
  const a = (programPeriodId: number, siteId: number, activity: string, f: Partial<typeof t.activities.$inferInsert>) => ({ providerId: pid, programPeriodId, siteId, activity, translations: texts({ activity }), startDate: d(start), endDate: d(start + 290), ...f });
  const [before, after, , , kready, chessClub] = await db
    .insert(t.activities)
    .values([
      a(extended.id, northSchool.id, 'Before School', { timing: '7:00 AM - 8:20 AM', timeOfferedCode: 'B', feeCents: 180_00 }),
      a(extended.id, northSchool.id, 'After School', { timing: '3:10 PM - 6:00 PM', timeOfferedCode: 'A', feeCents: 260_00 }),
      a(camp.id, maple.id, 'Camp Week', { startDate: d(215), endDate: d(270), timing: '8:00 AM - 5:00 PM', timeOfferedCode: 'F', feeCents: 225_00 }),
      a(springBreak.id, maple.id, 'Spring Break Day', { startDate: d(130), endDate: d(136), timing: '8:00 AM - 5:00 PM', timeOfferedCode: 'F', feeCents: 52_00, feeType: 'PER_DAY', isOneTime: true }),
      a(readiness.id, maple.id, 'Morning Readiness', { timing: '8:30 AM - 11:30 AM', timeOfferedCode: 'B', feeCents: 310_00 }),
      a(chess.id, northSchool.id, 'Chess & Coding', { startDate: d(-30), endDate: d(90), activityTypeID: 2, daysPerWeek: 1, daysOfWeek: 'W', timing: '3:15 PM - 4:15 PM', timeOfferedCode: 'A', feeCents: 55_00 }),
    ])
    .returning();
  await db.insert(t.registrations).values([
    { providerId: pid, accountId: nguyen.id, programPeriodId: extended.id, childId: an.id, status: 'REGISTERED', registrationDate: d(start - 30), submittedOn: d(start - 30) },
    { providerId: pid, accountId: nguyen.id, programPeriodId: extended.id, childId: bao.id, status: 'REGISTERED', registrationDate: d(start - 30), submittedOn: d(start - 30) },
    { providerId: pid, accountId: nguyen.id, programPeriodId: readiness.id, childId: mai.id, status: 'REGISTERED', registrationDate: d(start - 25), submittedOn: d(start - 25) },
    { providerId: pid, accountId: nguyen.id, programPeriodId: chess.id, childId: bao.id, status: 'REGISTERED', registrationDate: d(-32), submittedOn: d(-32) },
    { providerId: pid, accountId: nguyen.id, programPeriodId: springBreak.id, childId: an.id, status: 'WAITLISTED', registrationDate: d(-1), submittedOn: d(-1) },
  ]);
  await db.insert(t.enrollments).values([
    { providerId: pid, accountId: nguyen.id, childId: an.id, activityId: before.id, enrollmentDate: d(start), daysOfWeek: 'M,T,W,TH,F' },
    { providerId: pid, accountId: nguyen.id, childId: an.id, activityId: after.id, enrollmentDate: d(start), daysOfWeek: 'M,T,W,TH,F' },
    { providerId: pid, accountId: nguyen.id, childId: bao.id, activityId: after.id, enrollmentDate: d(start), daysOfWeek: 'M,W,F' },
    { providerId: pid, accountId: nguyen.id, childId: mai.id, activityId: kready.id, enrollmentDate: d(start), daysOfWeek: 'M,T,W,TH,F' },
    { providerId: pid, accountId: nguyen.id, childId: bao.id, activityId: chessClub.id, enrollmentDate: d(-28), daysOfWeek: 'W' },
  ]);
  // Extended Day is billed monthly by the billing job; every invoice due before today is paid but
  // 125.00 of the first, which is past due
  const bills = await billDemo(ctx, 'northridge', pid);
  const due = bills.filter((b) => b.accountId === nguyen.id && b.paymentDueDate < d(0));
  const byDate = new Map<string, number>();
  for (const b of due) byDate.set(b.invoiceDate, (byDate.get(b.invoiceDate) ?? 0) + b.amountCents);
  await db.insert(t.payments).values(
    [...byDate].map(([invoiceDate, amountCents], i) => ({
      providerId: pid,
      accountId: nguyen.id,
      adultId: linh.id,
      paymentDate: earliest(isoDay(addDays(new Date(`${invoiceDate}T12:00:00`), 13)), d(-1)),
      amountCents: i === 0 ? amountCents - 125_00 : amountCents,
      paymentMethodCode: i % 2 ? 'CCD' : 'ECH',
      last4Digits: i % 2 ? '5100' : '3021',
      payerName: 'Linh Nguyen',
    })),
  );
  const [nb1] = await db
    .insert(t.bulletins)
    .values([
      { providerId: pid, subject: 'Cold weather reminder', message: '<p>Outdoor play continues down to <strong>-20 °C</strong> with wind chill. Please send warm layers, mitts and a toque.</p>', translations: texts({ subject: 'Cold weather reminder', message: '<p>Outdoor play continues down to <strong>-20 °C</strong> with wind chill. Please send warm layers, mitts and a toque.</p>' }), startDate: d(-4) },
      { providerId: pid, subject: 'Professional development day', message: '<p>Extended Day is open all day on the upcoming PD day at Maple Grove School.</p>', translations: texts({ subject: 'Professional development day', message: '<p>Extended Day is open all day on the upcoming PD day at Maple Grove School.</p>' }), startDate: d(-11) },
    ])
    .returning();
  await db.insert(t.bulletinAttachments).values({ providerId: pid, bulletinId: nb1.id, name: 'Winter-Clothing-Checklist.txt', documentType: 'txt', mimeType: 'text/plain', content: text('Winter clothing checklist\n\n- Insulated jacket\n- Snow pants\n- Waterproof boots\n- Mitts (2 pairs)\n- Toque and neck warmer\n') });
  await db.insert(t.forms).values([
    { providerId: pid, formName: 'Extended Day Registration Package', translations: texts({ formName: 'Extended Day Registration Package' }), documentType: 'pdf', mimeType: 'application/pdf', fileName: 'Extended-Day-Registration.pdf', content: await makePdf('Extended Day Registration Package', org, ['Complete one package per child and return it to the school office.', 'Include a copy of the Alberta Health Care card and immunization record.']) },
    { providerId: pid, formName: 'Anaphylaxis Emergency Plan', translations: texts({ formName: 'Anaphylaxis Emergency Plan' }), documentType: 'pdf', mimeType: 'application/pdf', fileName: 'Anaphylaxis-Emergency-Plan.pdf', content: await makePdf('Anaphylaxis Emergency Plan', org, ['Allergen(s): ______________________', 'Epinephrine auto-injector location: ______________________', 'Emergency contact: ______________________   Phone: ______________']) },
  ]);
  const mon = mondayOffset(ctx.today);
  await db.insert(t.calendarEvents).values([
    { providerId: pid, title: 'Professional development day - full-day care', start: d(mon + 9), end: d(mon + 10), allDay: true, description: 'Full-day care at Maple Grove School.', translations: texts({ title: 'Professional development day - full-day care', description: 'Full-day care at Maple Grove School.' }) },
    { providerId: pid, title: 'Family skate night', start: `${d(mon + 4)}T18:30:00`, end: `${d(mon + 4)}T20:00:00`, description: 'Community rink beside Northridge Elementary.', translations: texts({ title: 'Family skate night', description: 'Community rink beside Northridge Elementary.' }) },
    { providerId: pid, title: 'Spring Break Care', start: d(130), end: d(137), allDay: true, description: 'Registration required.', translations: texts({ title: 'Spring Break Care', description: 'Registration required.' }) },
  ]);
  await db.insert(t.alerts).values([
    { providerId: pid, location: 'L', alertText: '<p>Spring Break Care registration is open. Spaces are limited.</p>', translations: texts({ alertText: '<p>Spring Break Care registration is open. Spaces are limited.</p>' }), startDate: d(-7), endDate: d(60) },
    { providerId: pid, location: 'H', alertText: '<p><strong>Extreme cold:</strong> outdoor play may be replaced by gym time this week.</p>', translations: texts({ alertText: '<p><strong>Extreme cold:</strong> outdoor play may be replaced by gym time this week.</p>' }), startDate: d(-2), endDate: d(5) },
  ]);
  await db.insert(t.communications).values([
    { providerId: pid, accountId: nguyen.id, mode: 'EMAIL', subject: 'Statement available', fromName: 'Automatic Email', description: '<p>Your monthly statement is available.</p>', createdOn: ctx.at(-3, 7, 0), isAutomatic: true },
    { providerId: pid, accountId: nguyen.id, mode: 'EMAIL', subject: 'Pick-up change for Bao', fromName: 'Linh Nguyen', description: '<p>Grandmother Thi Tran will pick up Bao on Friday.</p>', createdOn: ctx.at(-8, 12, 15) },
    { providerId: pid, accountId: nguyen.id, mode: 'EMAIL', subject: 'Waitlist confirmation', fromName: 'Automatic Email', description: '<p>An is on the waitlist for Spring Break Care.</p>', createdOn: ctx.at(-1, 16, 45), isAutomatic: true },
  ]);
  await attendanceWeeks(
    ctx,
    pid,
    [
      { childId: an.id, siteId: northSchool.id, offerings: ['BEFORE SCHOOL', 'AFTER SCHOOL'] },
      { childId: bao.id, siteId: northSchool.id, offerings: ['AFTER SCHOOL'] },
      { childId: mai.id, siteId: maple.id, offerings: ['BEFORE SCHOOL'] },
    ],
    [
      { childIndex: 0, daysAgo: 6, reason: 'Illness' },
      { childIndex: 1, daysAgo: 6, reason: 'Illness' },
      { childIndex: 2, daysAgo: 13, reason: 'Appointment' },
    ],
    ['Mme Tremblay', 'Mr. Singh', 'Linh Nguyen', 'Ms. Chen'],
  );
}

/**
 * The programs list's demo cases (spec 2.8): a program whose registration opens later at 12:00 AM
 * (the date only; Winter Break opens at 9:00 AM), an ended program a child is registered in without an
 * enrolment date (hidden), and a suspended account (its notices and buttons).
 */
async function seedProgramListDemo(
  ctx: Ctx,
  ids: { pid: number; pw: string; garcia: number; emma: number; schoolYear: number; washington: number; afterCareWashington: number },
) {
  const { db, d } = ctx;
  const { pid } = ids;
  const midnight = new Date(`${d(12)}T00:00:00.000Z`);
  const [springBreak, artWorkshop] = await db
    .insert(t.programPeriods)
    .values([
      { providerId: pid, programPeriod: 'Spring Break Adventure', description: 'A week of day trips and games while schools are closed for spring break.', translations: texts({ programPeriod: 'Spring Break Adventure', description: 'A week of day trips and games while schools are closed for spring break.' }), category: 'holidayCare', programKind: 'childcare', enrollmentOption: 'T', startDate: d(120), endDate: d(126), registrationStartAt: midnight },
      { providerId: pid, programPeriod: 'Fall Art Workshop', description: 'Four Saturday mornings of painting and clay.', translations: texts({ programPeriod: 'Fall Art Workshop', description: 'Four Saturday mornings of painting and clay.' }), category: 'other', programKind: 'enrichment', enrollmentOption: 'T', startDate: d(-60), endDate: d(-30) },
    ])
    .returning();
  void springBreak;
  // registered but never enrolled: the ended program's card stays hidden
  await db.insert(t.registrations).values({ providerId: pid, accountId: ids.garcia, programPeriodId: artWorkshop.id, childId: ids.emma, status: 'REGISTERED', registrationDate: d(-70), submittedOn: d(-70) });

  // a suspended account: registering is blocked, View or enrol carries the pending flag
  const patel = await one(db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10517', suspended: true, suspendedOn: d(-14) }).returning());
  const priya = await one(
    db.insert(t.adults).values({ providerId: pid, accountId: patel.id, accountHolder: 1, accessType: 'F', firstName: 'Priya', lastName: 'Patel', genderCode: 'F', streetAddress: '220 Cedar Street', city: 'Springfield', stateCode: 'IL', zip: '62703', cellPhone: '2175550121', email: 'priya.patel@example.com', primaryLanguage: 'en' }).returning(),
  );
  await db.insert(t.logins).values({ providerId: pid, adultId: priya.id, email: 'priya.patel@example.com', passwordHash: ids.pw });
  const arjun = await one(db.insert(t.children).values({ providerId: pid, accountId: patel.id, firstName: 'Arjun', lastName: 'Patel', genderCode: 'M', dateOfBirth: d(-365 * 8 - 10), gradeLevelCode: '03', school: 'Washington Elementary School', homeSiteId: ids.washington }).returning());
  await db.insert(t.registrations).values({ providerId: pid, accountId: patel.id, programPeriodId: ids.schoolYear, childId: arjun.id, status: 'REGISTERED', registrationDate: d(-100), submittedOn: d(-100) });
  await db.insert(t.enrollments).values({ providerId: pid, accountId: patel.id, childId: arjun.id, activityId: ids.afterCareWashington, enrollmentDate: d(-75), daysOfWeek: 'M,T,W,TH,F' });
}

/**
 * The parent application's demo (spec 2.11, 4): the summer camp's optional fees and financial
 * assistance agencies, its first Adventure Week already full (a new choice there is waitlisted), and
 * the Mensah family: two preschool-age children (Little Sprouts takes ages 3 to 5) who are in no
 * program yet and a credit on the account.
 */
async function seedApplicationDemo(ctx: Ctx, ids: { pid: number; pw: string; summer: number; adventure: number; swim: number; downtown: number }) {
  const { db, d } = ctx;
  const { pid } = ids;
  await db.insert(t.miscCharges).values([
    { providerId: pid, programPeriodId: ids.summer, feeName: 'Camp T-shirt', translations: texts({ feeName: 'Camp T-shirt' }), amountCents: 1500 },
    { providerId: pid, programPeriodId: ids.summer, feeName: 'Field trip fund', translations: texts({ feeName: 'Field trip fund' }), amountCents: 2500 },
  ]);
  await db.insert(t.assistanceAgencies).values([
    { providerId: pid, programPeriodId: ids.summer, agency: 'City Child Care Assistance', translations: texts({ agency: 'City Child Care Assistance' }) },
    { providerId: pid, programPeriodId: ids.summer, agency: 'Community Foundation Scholarship', translations: texts({ agency: 'Community Foundation Scholarship' }) },
  ]);
  // the camp's first week of Adventure Week is sold out
  const [first] = await db.select().from(t.activities).where(eq(t.activities.id, ids.adventure));
  await db.insert(t.seats).values({ providerId: pid, activityId: ids.adventure, weekStart: mondayIso(first.startDate), total: first.capacity, taken: first.capacity });
  // Sofia's application claimed financial assistance: it holds a seat in the second week and waits
  // for the provider's approval (npm run provider -- applications list)
  const [pending] = await db.select().from(t.registrations).where(and(eq(t.registrations.programPeriodId, ids.summer), eq(t.registrations.status, 'PENDING')));
  if (pending) {
    const week = addIsoDays(mondayIso(first.startDate), 7);
    const [sofia] = await db.select().from(t.children).where(eq(t.children.id, pending.childId));
    const draft = await one(
      db
        .insert(t.applicationDrafts)
        .values({
          key: 'b5e1d0c3a7f94e2b8c6d4a1f0e9b7c53',
          providerId: pid,
          accountId: pending.accountId,
          programPeriodId: ids.summer,
          step: 'submitted',
          status: 'submitted',
          createdAt: ctx.at(-3, 9),
          updatedAt: ctx.at(-3, 9),
          submittedAt: ctx.at(-3, 9),
          data: {
            childIDs: [sofia.id],
            enrollmentOption: 'Y',
            isOptedFinancialAssistance: true,
            children: [{ prChildID: sofia.id, childName: `${sofia.firstName} ${sofia.lastName}`, siteID: ids.downtown, selections: [{ activityID: ids.adventure, weekStart: week, daysOfWeek: ['M', 'T', 'W', 'TH', 'F'], date: null, daysPerWeek: 5, activityTypeID: 1 }] }],
          },
        })
        .returning(),
    );
    const seat = await one(db.insert(t.seats).values({ providerId: pid, activityId: ids.adventure, weekStart: week, total: first.capacity, taken: 1 }).returning());
    await db.insert(t.seatTakes).values({ providerId: pid, seatId: seat.id, registrationId: pending.id, status: 'held' });
    await db.update(t.registrations).set({ claimsDiscount: true, draftId: draft.id }).where(eq(t.registrations.id, pending.id));
  }

  const mensah = await one(db.insert(t.accounts).values({ providerId: pid, accountNo: 'BP-10511' }).returning());
  const amara = await one(
    db.insert(t.adults).values({ providerId: pid, accountId: mensah.id, accountHolder: 1, firstName: 'Amara', lastName: 'Mensah', genderCode: 'F', streetAddress: '41 Willow Ln', city: 'Springfield', stateCode: 'IL', zip: '62704', cellPhone: '2175550188', email: 'amara.mensah@example.com' }).returning(),
  );
  await db.insert(t.logins).values({ providerId: pid, adultId: amara.id, email: 'amara.mensah@example.com', passwordHash: ids.pw });
  const kids = await db
    .insert(t.children)
    .values([
      { providerId: pid, accountId: mensah.id, firstName: 'Ada', lastName: 'Mensah', genderCode: 'F', dateOfBirth: d(-365 * 5 - 30), gradeLevelCode: 'K', school: 'Lincoln Elementary School', homeSiteId: ids.downtown },
      { providerId: pid, accountId: mensah.id, firstName: 'Ben', lastName: 'Mensah', genderCode: 'M', dateOfBirth: d(-365 * 4 - 100), gradeLevelCode: 'PK', school: '', homeSiteId: ids.downtown },
    ])
    .returning();
  await db.insert(t.childAdults).values(kids.map((k) => ({ providerId: pid, childId: k.id, adultId: amara.id, relationshipId: 1, relationship: 'Mother', isAuthorizedToPickUp: true, isEmergencyContact: true, isLivesWith: true })));
  // a refund left on the account: a credit of $40.00 the application may apply
  await db.insert(t.ledgerEntries).values({ providerId: pid, accountId: mensah.id, kind: 'CREDIT', amountCents: 4000, entryDate: d(-20), description: 'Credit', createdAt: ctx.today });
}

const addIsoDays = (iso: string, n: number) => {
  const x = new Date(`${iso}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() + n);
  return x.toISOString().slice(0, 10);
};

/** The Monday of an ISO date's week. */
function mondayIso(iso: string): string {
  const x = new Date(`${iso}T00:00:00Z`);
  x.setUTCDate(x.getUTCDate() - ((x.getUTCDay() + 6) % 7));
  return x.toISOString().slice(0, 10);
}

/**
 * The calendar product's demo (Bright Path's Robotics & Art Studio, enrolment option C): the Maker Lab
 * Flex Day on Mondays, Wednesdays and Fridays (weekend days too, by the weekend rule: a type 2
 * activity of a program with weekend scheduling), a staff training day the provider closes, a day
 * with a single seat, and Sofia's flex dates: one last week (shown when older dates are asked for)
 * and one within the next two days, inside Bright Path's 2-day cancellation window (not removable).
 */
async function seedFlexCalendarDemo(ctx: Ctx, ids: { pid: number; garcia: number; sofia: number; robotics: number; makerLab: number }) {
  const { db, d } = ctx;
  const { pid, garcia, sofia, robotics, makerLab } = ids;
  const weekday = (offset: number) => new Date(`${d(offset)}T00:00:00Z`).getUTCDay();
  // the first Monday, Wednesday or Friday from an offset on, by step (1 ahead, -1 back)
  const meets = (from: number, step: number) => {
    let o = from;
    while (![1, 3, 5].includes(weekday(o))) o += step;
    return o;
  };
  const holiday = meets(9, 1);
  const singleSeat = meets(holiday + 1, 1);
  const past = meets(-3, -1);
  // tomorrow, or the day after when tomorrow is a Tuesday or Thursday
  const inside = [2, 4].includes(weekday(1)) ? 2 : 1;
  await db.insert(t.calendarHolidays).values({ providerId: pid, programPeriodId: robotics, date: d(holiday), name: 'Staff training day (no Maker Lab)', translations: texts({ name: 'Staff training day (no Maker Lab)' }) });
  // the last seat of a date: one seat in all
  await db.insert(t.seats).values({ providerId: pid, activityId: makerLab, weekStart: d(singleSeat), total: 1, taken: 0 });
  const now = ctx.at(past - 2, 9);
  const draft = await one(
    db
      .insert(t.applicationDrafts)
      .values({ key: randomBytes(16).toString('hex'), providerId: pid, accountId: garcia, programPeriodId: robotics, applicationTypeId: 6, status: 'submitted', step: 'submitted', data: {}, createdAt: now, updatedAt: now, submittedAt: now, paymentStatus: 'PAID', chargedCents: 2 * 65_00 })
      .returning(),
  );
  for (const offset of [past, inside]) {
    const seat = await one(db.insert(t.seats).values({ providerId: pid, activityId: makerLab, weekStart: d(offset), total: 8, taken: 1 }).returning());
    await db.insert(t.onetimeTakes).values({ providerId: pid, accountId: garcia, draftId: draft.id, childId: sofia, activityId: makerLab, seatId: seat.id, date: d(offset), feeCents: 65_00, kind: 'flex' });
    await db.insert(t.enrollmentDates).values({ providerId: pid, accountId: garcia, childId: sofia, activityId: makerLab, date: d(offset), kind: 'flex' });
  }
}

/**
 * The punch pass product's demo (Bright Path's Drop-in Punch Pass program): a 10-visit family pass and
 * a 5-visit per-child pass, and the Garcia family's family pass with 3 visits left, the 7 visits it
 * used checked in at the downtown center five to seven weeks ago.
 */
async function seedPunchPassDemo(ctx: Ctx, ids: { pid: number; garcia: number; kids: number[]; punch: number; siteId: number }) {
  const { db, d } = ctx;
  const { pid, garcia, kids, punch, siteId } = ids;
  const refund = 'Unused visits are refunded within 30 days of purchase; after that the pass is not refundable.';
  const passes = await db
    .insert(t.punchPasses)
    .values([
      {
        providerId: pid, programPeriodId: punch, name: '10-visit family pass', refundPolicy: refund, priceCents: 400_00, visits: 10, scope: 'family', expiresOn: d(180),
        translations: {
          name: { es: 'Pase familiar de 10 visitas', pt: 'Passe familiar de 10 visitas', vi: 'Thẻ gia đình 10 lượt' },
          refundPolicy: {
            es: 'Las visitas no usadas se reembolsan dentro de los 30 días posteriores a la compra; después, el pase no es reembolsable.',
            pt: 'As visitas não usadas são reembolsadas em até 30 dias após a compra; depois disso, o passe não é reembolsável.',
            vi: 'Các lượt chưa dùng được hoàn tiền trong vòng 30 ngày kể từ ngày mua; sau đó thẻ không được hoàn tiền.',
          },
        },
      },
      {
        providerId: pid, programPeriodId: punch, name: '5-visit child pass', refundPolicy: 'This pass is not refundable.', priceCents: 212_50, visits: 5, scope: 'child', expiresOn: d(90),
        translations: {
          name: { es: 'Pase infantil de 5 visitas', pt: 'Passe infantil de 5 visitas', vi: 'Thẻ trẻ em 5 lượt' },
          refundPolicy: { es: 'Este pase no es reembolsable.', pt: 'Este passe não é reembolsável.', vi: 'Thẻ này không được hoàn tiền.' },
        },
      },
    ])
    .returning();
  const held = await one(db.insert(t.punchHoldings).values({ providerId: pid, accountId: garcia, passId: passes[0].id, visits: 10, used: 7, expiresOn: d(180), createdAt: ctx.at(-60, 9) }).returning());
  for (let i = 0; i < 7; i++) {
    const offset = -49 + i * 2;
    const childId = kids[i % kids.length];
    const a = await one(db.insert(t.attendance).values({ providerId: pid, childId, siteId, attendanceDate: d(offset), timeOffered: 'FULL DAY', timeIn: '08:10 AM', timeOut: '05:05 PM', inBy: 'Maria Garcia', outBy: 'Maria Garcia', programPeriodId: punch }).returning());
    await db.insert(t.punchUses).values({ holdingId: held.id, attendanceId: a.id, childId, date: d(offset) });
  }
}
