// Demo data of account and people: relationship, user-defined and medical field definitions (master
// data), a split child, stored user-defined values and medical answers, and an other contact who pays
// by autopay with a card on file (the drop-adult confirmation needs one).
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index';
import * as t from '../db/schema';
import { texts } from './texts';

const RELATIONSHIPS: [number, string][] = [
  [1, 'Mother'],
  [2, 'Father'],
  [3, 'Stepmother'],
  [4, 'Stepfather'],
  [5, 'Grandmother'],
  [6, 'Grandfather'],
  [7, 'Aunt'],
  [8, 'Uncle'],
  [9, 'Sibling'],
  [10, 'Guardian'],
  [11, 'Family friend'],
  [99, 'Other'],
];

/**
 * One field of every kind (spec 3: the fieldName prefix is the kind). The volunteer T-shirt is the
 * adult's own, asked on the contact form; a child's T-shirt size is the master list's (tshirt-size,
 * on the child form), so no form asks for a T-shirt twice.
 */
const ADULT_UDFS = [
  { fieldName: 'UDTexEmergencyWord', caption: 'Pickup password', values: [] },
  { fieldName: 'UDDroShirtSize', caption: 'Volunteer T-shirt size', values: [{ idValue: 1, itemValue: 'Small', displayOrder: 1 }, { idValue: 2, itemValue: 'Medium', displayOrder: 2 }, { idValue: 3, itemValue: 'Large', displayOrder: 3 }] },
  { fieldName: 'UDRadVolunteer', caption: 'Would you like to volunteer?', values: [] },
];
const CHILD_UDFS = [
  { fieldName: 'UDDatLastPhysical', caption: 'Date of last physical', isMandatory: false, values: [] },
  { fieldName: 'UDBitPhotoRelease', caption: 'Photos may be used in the newsletter', isMandatory: false, values: [] },
  { fieldName: 'UDMulNotes', caption: 'Anything we should know', isMandatory: false, values: [] },
  { fieldName: 'UDTexNickname', caption: 'Preferred name', isMandatory: true, values: [] },
];

/** fieldNo 1 allergies, 2 disabilities, 3 medical conditions, 4 special needs, 5 medication (spec 3). */
const MEDICAL = [
  { fieldNo: 1, fieldCaption: 'Does your child have any allergies?', isMandatory: true, hasStandardValues: 'M', isOtherStandardEnabled: true, explanationType: 'M', displayMessage: 'Tell us about every allergy, including reactions to foods served at snack time.', values: ['Peanuts', 'Tree nuts', 'Milk', 'Eggs', 'Bee stings'] },
  { fieldNo: 2, fieldCaption: 'Does your child have a disability?', isMandatory: true, hasStandardValues: 'O', isOtherStandardEnabled: false, explanationType: 'O', values: ['Hearing', 'Vision', 'Mobility', 'Learning'] },
  { fieldNo: 3, fieldCaption: 'Does your child have a medical condition?', isMandatory: true, hasStandardValues: 'O', isOtherStandardEnabled: false, explanationType: 'M', values: ['Asthma', 'Diabetes', 'Epilepsy', 'Heart condition'] },
  { fieldNo: 4, fieldCaption: 'Does your child have special needs?', isMandatory: false, hasStandardValues: 'N', isOtherStandardEnabled: false, explanationType: 'M', values: [] },
  { fieldNo: 5, fieldCaption: 'Does your child take any medication?', isMandatory: false, hasStandardValues: 'O', isOtherStandardEnabled: false, explanationType: 'N', values: ['Inhaler', 'EpiPen', 'Insulin', 'Antihistamine'] },
];

/** The short master-data lists (spec 7.2) and the contact-us subjects (7.4): [code, text] per list. */
const LISTS: Record<string, [string, string][]> = {
  gender: [['F', 'Female'], ['M', 'Male'], ['U', 'Prefer not to say']],
  'marital-status': [['S', 'Single'], ['M', 'Married'], ['P', 'Domestic partnership'], ['E', 'Separated'], ['D', 'Divorced'], ['W', 'Widowed']],
  'primary-language': [['en', 'English'], ['es', 'Spanish'], ['pt', 'Portuguese'], ['vi', 'Vietnamese'], ['fr', 'French'], ['zh', 'Chinese'], ['other', 'Other']],
  'meal-eligibility': [['F', 'Free meals'], ['R', 'Reduced-price meals'], ['P', 'Full-price meals'], ['N', 'Not applying']],
  'tshirt-size': [['YS', 'Youth Small'], ['YM', 'Youth Medium'], ['YL', 'Youth Large'], ['AS', 'Adult Small'], ['AM', 'Adult Medium'], ['AL', 'Adult Large']],
  'transportation-mode': [['P', 'Parent drop-off and pick-up'], ['B', 'School bus'], ['W', 'Walks'], ['C', 'Bicycle'], ['T', 'Public transit']],
  'contact-subject': [['1', 'Billing question'], ['2', 'Schedule change'], ['3', 'Absence or late pick-up'], ['4', 'Update my information'], ['5', 'Registration question'], ['6', 'School district transportation'], ['9', 'Something else']],
};
/**
 * Northridge, a school district, takes no meal or T-shirt choices and has no bus of its own; the
 * district's transportation subject is its own.
 */
const NOT_AT: Record<string, (list: string, code: string) => boolean> = {
  brightpath: (list, code) => list === 'contact-subject' && code === '6',
  northridge: (list, code) => list === 'meal-eligibility' || list === 'tshirt-size' || (list === 'transportation-mode' && code === 'B'),
};

/** Custom texts with {{placeholders}} (filled by customtext/prepare-onscreen). */
const CUSTOM_TEXTS: Record<string, string> = {
  AUTOMATIC_PAYMENT_TERMSANDCONDITIONS:
    '<p>I, {{AdultName}}, authorize {{ProgramName}} to charge the payment method on file for the fees of account {{AccountNo}} on each due date, until I cancel in the parent portal.</p><p>Questions: {{SupportPhone}}.</p>',
  REFUND_POLICY: '<p>Payments are refundable within 10 days when the care was not used. Registration fees are not refundable. Refunds go back to the card or bank account that paid and start within one business day.</p>',
  CONTACT_US: '<p>Write to us about anything: we answer within two business days. For an absence today, call {{SupportPhone}}.</p>',
};

/** A user-defined field's caption and option texts in every language. */
function udfTexts<U extends { caption: string; values: { idValue: number | string; itemValue: string; displayOrder: number }[] }>(u: U) {
  return { ...u, translations: texts({ caption: u.caption }), values: u.values.map((v) => ({ ...v, translations: texts({ itemValue: v.itemValue }) })) };
}

async function providerIdOf(db: Db, appName: string): Promise<number | null> {
  const [p] = await db.select({ id: t.providers.id }).from(t.providers).where(eq(t.providers.appName, appName));
  return p?.id ?? null;
}

async function masterData(db: Db, providerId: number, appName: string) {
  const skip = NOT_AT[appName] ?? (() => false);
  await db.insert(t.masterItems).values(
    Object.entries(LISTS).flatMap(([list, items]) =>
      items.filter(([code]) => !skip(list, code)).map(([code, text], i) => ({ providerId, list, code, text, sortOrder: i, translations: texts({ text }) })),
    ),
  );
  // Northridge has no autopay terms and no refund policy of its own
  const custom = appName === 'northridge' ? { CONTACT_US: CUSTOM_TEXTS.CONTACT_US } : CUSTOM_TEXTS;
  await db.insert(t.customTexts).values(Object.entries(custom).map(([contentType, body]) => ({ providerId, contentType, body, translations: texts({ body }) })));
  await db.insert(t.relationships).values(RELATIONSHIPS.map(([relationshipId, relationship], i) => ({ providerId, relationshipId, relationship, sortOrder: i, translations: texts({ relationship }) })));
  await db.insert(t.userDefinedFieldDefs).values([
    ...ADULT_UDFS.map((u, i) => ({ providerId, entity: 'A', isMandatory: false, displayOrder: i, ...udfTexts(u) })),
    ...CHILD_UDFS.map((u, i) => ({ providerId, entity: 'C', displayOrder: i, ...udfTexts(u) })),
  ]);
  await db.insert(t.medicalFieldDefs).values(
    MEDICAL.map(({ values, ...m }) => ({
      providerId,
      ...m,
      translations: texts({ fieldCaption: m.fieldCaption, ...(m.displayMessage ? { displayMessage: m.displayMessage } : {}) }),
      values: values.map((value, i) => ({ id: m.fieldNo * 100 + i + 1, value, translations: texts({ value }) })),
    })),
  );
}

export async function seedPeople(db: Db, opts: { d: (offset: number) => string }): Promise<void> {
  for (const appName of ['brightpath', 'northridge']) {
    const pid = await providerIdOf(db, appName);
    if (pid !== null) await masterData(db, pid, appName);
  }
  const pid = await providerIdOf(db, 'brightpath');
  if (pid === null) return;
  const [garcia] = await db.select().from(t.accounts).where(and(eq(t.accounts.providerId, pid), eq(t.accounts.accountNo, 'BP-10234')));
  const [johnson] = await db.select().from(t.accounts).where(and(eq(t.accounts.providerId, pid), eq(t.accounts.accountNo, 'BP-10422')));
  if (!garcia) return;
  const kids = await db.select().from(t.children).where(eq(t.children.accountId, garcia.id));
  const byName = (n: string) => kids.find((k) => k.firstName === n);
  // Emma's care is split with another account, which is her primary account (40/60 here)
  const emma = byName('Emma');
  if (emma && johnson) await db.update(t.children).set({ splitAccountId: johnson.id, splitPercentage: 40 }).where(eq(t.children.id, emma.id));
  const sofia = byName('Sofia');
  if (sofia) {
    await db
      .update(t.children)
      .set({
        userDefinedFields: { UDTexNickname: 'Sofi', UDBitPhotoRelease: true },
        medical: {
          doctorName: 'Dr. Helen Park',
          doctorPhone: '2175550400',
          preferredHospital: "St. John's Hospital",
          answers: { '1': { answer: true, standardValues: [101], explanation: 'Carries an EpiPen in her backpack' }, '2': { answer: false }, '3': { answer: false } },
        },
      })
      .where(eq(t.children.id, sofia.id));
  }
  const [maria] = await db.select().from(t.adults).where(and(eq(t.adults.accountId, garcia.id), eq(t.adults.accountHolder, 1)));
  if (maria) await db.update(t.adults).set({ driverLicense: 'IL$$G65512345678', userDefinedFields: { UDTexEmergencyWord: 'sunflower', UDDroShirtSize: '2', UDRadVolunteer: true } }).where(eq(t.adults.id, maria.id));

  // an aunt who pays part of the fees by autopay with a saved card
  const [paula] = await db
    .insert(t.adults)
    .values({ providerId: pid, accountId: garcia.id, accountHolder: 4, firstName: 'Paula', lastName: 'Reyes', genderCode: 'F', city: 'Springfield', stateCode: 'IL', zip: '62702', cellPhone: '2175550144' })
    .returning();
  if (sofia) await db.insert(t.childAdults).values({ providerId: pid, childId: sofia.id, adultId: paula.id, relationshipId: 7, relationship: 'Aunt', isEmergencyContact: true });
  const [reg] = await db
    .insert(t.autopayRegistrations)
    .values({ providerId: pid, accountId: garcia.id, adultId: paula.id, paymentMethodCode: 'CCD', frequency: 'M', startDate: opts.d(-30) })
    .returning();
  await db.insert(t.paymentMethods).values({
    providerId: pid,
    accountId: garcia.id,
    adultId: paula.id,
    automaticPaymentRegistrationId: reg.id,
    paymentMethodCode: 'CCR',
    type: 'MASTERCARD',
    last4Digits: '5100',
    firstName: 'Paula',
    lastName: 'Reyes',
    expiry: '11/28',
    savedOn: opts.d(-30),
    usedForAutoPay: true,
  });
}
