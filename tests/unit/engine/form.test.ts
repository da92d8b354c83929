// The form engine on the repository's real declarations (schemas/*.json, rules/*.rules.json).
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet, createFormEngine, type DeclarationSet } from '../../../src/engine/index';
import { readBaseDeclarations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const built = buildDeclarationSet(readBaseDeclarations(root), []);
if (!built.ok) throw new Error(JSON.stringify(built.errors));
const set: DeclarationSet = built.set;
const us = createFormEngine(set, { country: 'US' });
const ca = createFormEngine(set, { country: 'CA' });
const keys = (r: { errors: { path: string; key: string }[] }) => r.errors.map((e) => `${e.path} ${e.key}`);

const holder = {
  adultID: 7,
  accountHolder: 1,
  firstName: 'Maria',
  lastName: 'Lopez',
  genderCode: 'F',
  streetAddress: '12 Elm St',
  city: 'Springfield',
  stateCode: 'IL',
  zip: '62701',
  email: 'maria@example.com',
  cellPhone: '(217)555-0101',
};

describe('contact', () => {
  it('a complete holder is valid; phones and zips come out in stored form', () => {
    const r = us.validate('contact', { ...holder, zip: '62701-', homePhone: '217 555 0102' }, {});
    expect(r.errors).toEqual([]);
    expect(r.valid).toBe(true);
    expect(r.data.cellPhone).toBe('2175550101');
    expect(r.data.homePhone).toBe('2175550102');
    expect(r.data.zip).toBe('62701');
    expect(r.pageError).toBeUndefined();
  });

  it('required comes only from x-required, with the field title as param and the page-level message', () => {
    const r = us.validate('contact', { accountHolder: 1, cellPhone: '2175550101' }, {});
    expect(r.valid).toBe(false);
    expect(r.pageError).toBe('errors.pageLevel');
    expect(keys(r)).toEqual([
      '/firstName errors.required',
      '/lastName errors.required',
      '/genderCode errors.required',
      '/streetAddress errors.required',
      '/city errors.required',
      '/stateCode errors.required',
      '/zip errors.required',
      '/email errors.required',
    ]);
    expect(r.errors[0]).toEqual({ path: '/firstName', field: 'firstName', key: 'errors.required', params: { field: 'fields.contact.firstName' } });
  });

  it('other contacts (4) do not need address or e-mail, but need a child role', () => {
    const r = us.validate('contact', { accountHolder: 4, firstName: 'Ann', lastName: 'Lee', cellPhone: '2175550101', relationships: [{ childID: 3, relationshipId: 2 }] }, {});
    expect(keys(r)).toEqual(['/relationships errors.contact.childRole']);
    const ok = us.validate('contact', { accountHolder: 4, firstName: 'Ann', lastName: 'Lee', cellPhone: '2175550101', relationships: [{ childID: 3, relationshipId: 2, isEmergencyContact: true }] }, {});
    expect(ok.valid).toBe(true);
  });

  it('a home or cell phone is required; 0000000000 counts as empty', () => {
    const r = us.validate('contact', { ...holder, cellPhone: '0000000000' }, {});
    expect(keys(r)).toEqual(['/homePhone errors.required', '/cellPhone errors.required']);
    expect(r.data.cellPhone).toBe('');
  });

  it('no-phone checkboxes (when the provider allows them) hide, clear and skip the phone', () => {
    const ctx = { provider: { features: { allowNoPhone: true } } };
    const states = us.fieldStates('contact', { ...ctx, form: { noCellPhone: true } });
    expect(states['/noCellPhone']).toMatchObject({ shown: true });
    expect(states['/cellPhone']).toMatchObject({ shown: false, required: false });
    expect(states['/cellPhoneExt'].shown).toBe(false);
    expect(states['/homePhone']).toMatchObject({ shown: true, required: true });
    const r = us.validate('contact', { ...holder, noCellPhone: true, cellPhone: '2175550101', cellPhoneExt: '12', homePhone: '2175550102' }, ctx);
    expect(r.valid).toBe(true);
    expect(r.data).not.toHaveProperty('cellPhone');
    expect(r.data).not.toHaveProperty('cellPhoneExt');
    expect(us.fieldStates('contact', { form: {} })['/noCellPhone'].shown).toBe(false);
  });

  it('phones must differ (masked and stored forms compare equal)', () => {
    const r = us.validate('contact', { ...holder, homePhone: '217-555-0101', workPhone: '2175550199' }, {});
    expect(keys(r)).toEqual(['/homePhone errors.contact.phonesDiffer', '/cellPhone errors.contact.phonesDiffer']);
    expect(r.errors[0].params).toEqual({ field: 'fields.contact.homePhone' });
  });

  it('format errors map to per-format keys; extension and lengths too', () => {
    const r = us.validate('contact', { ...holder, cellPhone: '217555010', cellPhoneExt: '1234567', zip: '6270', email: 'maria@', firstName: 'M<aria', middleInitial: 'AB' }, {});
    expect(keys(r)).toEqual([
      '/firstName errors.format.safeText',
      '/middleInitial errors.maxLength',
      '/zip errors.format.zip',
      '/cellPhone errors.format.phone',
      '/cellPhoneExt errors.maxLength',
      '/cellPhoneExt errors.format.phoneExt',
      '/email errors.format.email',
    ]);
    expect(r.errors.find((e) => e.path === '/middleInitial')?.params).toEqual({ field: 'fields.contact.middleInitial', limit: 1 });
  });

  it('zip follows the provider country', () => {
    expect(ca.validate('contact', { ...holder, zip: 'k2w 1a1' }, {}).data.zip).toBe('K2W1A1');
    expect(ca.validate('contact', { ...holder, zip: 'k2w 1a1' }, {}).valid).toBe(true);
    // Canada in its own words: 'Postal code is not a valid postal code', the province in the same place
    const wrong = ca.validate('contact', { ...holder, zip: '62701' }, {});
    expect(keys(wrong)).toEqual(['/zip errors.format.postalCode']);
    expect(wrong.errors[0].params).toEqual({ field: 'fields.address.postalCode' });
    expect(ca.validate('contact', { ...holder, stateCode: undefined }, {}).errors.find((e) => e.path === '/stateCode')?.params).toEqual({ field: 'fields.address.province' });
    expect(us.validate('contact', { ...holder, stateCode: undefined }, {}).errors.find((e) => e.path === '/stateCode')?.params).toEqual({ field: 'fields.contact.state' });
    expect(keys(us.validate('contact', { ...holder, zip: 'K2W 1A1' }, {}))).toEqual(['/zip errors.format.zip']);
  });

  it('per-child relationship rows: Other (99) asks for the relationship; do-not-release cannot be authorised', () => {
    const values = {
      ...holder,
      doNotRelease: 1,
      relationships: [
        { childID: 3, childName: 'Leo', relationshipId: 99, otherRelationship: '', isAuthorizedToPickUp: true },
        { childID: 4, childName: 'Mia', relationshipId: 2, otherRelationship: 'stale', isLivesWith: true },
        { childID: 5, childName: 'Ava', relationshipId: 0 },
      ],
    };
    const states = us.fieldStates('contact', { form: values });
    expect(states['/relationships/0/otherRelationship']).toMatchObject({ shown: true, required: true });
    expect(states['/relationships/1/otherRelationship']).toMatchObject({ shown: false, required: false });
    const r = us.validate('contact', values, {});
    expect(keys(r)).toEqual([
      '/relationships/0/otherRelationship errors.required',
      '/relationships/0/isAuthorizedToPickUp errors.contact.doNotRelease',
      '/relationships/2/relationshipId errors.required',
    ]);
    expect(r.errors[0].field).toBe('relationships.0.otherRelationship');
    expect(r.errors[0].params.field).toBe('fields.contact.otherRelationship');
    expect((r.data.relationships as Record<string, unknown>[])[1]).not.toHaveProperty('otherRelationship');
  });

  it('other relationship: max 50, no special characters', () => {
    const r = us.validate('contact', { ...holder, relationships: [{ childID: 3, relationshipId: 99, otherRelationship: `${'x'.repeat(50)}^` }] }, {});
    expect(keys(r)).toEqual(['/relationships/0/otherRelationship errors.maxLength', '/relationships/0/otherRelationship errors.format.safeText']);
  });

  it('SMS consent shows only with licence, subscription and a number', () => {
    const ctx = { session: { hasSmsLicense: true }, provider: { features: { smsSubscription: true } } };
    expect(us.fieldStates('contact', { ...ctx, form: { cellPhone: '2175550101' } })['/smsConsent'].shown).toBe(true);
    expect(us.fieldStates('contact', { ...ctx, form: { cellPhone: '' } })['/smsConsent'].shown).toBe(false);
    const r = us.validate('contact', { ...holder, cellPhone: '', homePhone: '2175550102', smsConsent: true }, ctx);
    expect(r.valid).toBe(true);
    expect(r.data).not.toHaveProperty('smsConsent');
  });

  it('driver licence by field option: M requires it, H hides it', () => {
    const req = us.validate('contact', holder, { provider: { fieldOptions: { driverLicense: 'M' } } });
    expect(keys(req)).toEqual(['/driverLicenseNumber errors.required']);
    const hidden = us.validate('contact', { ...holder, driverLicenseNumber: 'X123' }, { provider: { fieldOptions: { driverLicense: 'H' } } });
    expect(hidden.valid).toBe(true);
    expect(hidden.data).not.toHaveProperty('driverLicenseNumber');
    const long = us.validate('contact', { ...holder, driverLicenseNumber: 'X'.repeat(22) }, { provider: { fieldOptions: { driverLicense: 'O' } } });
    expect(keys(long)).toEqual(['/driverLicenseNumber errors.maxLength']);
  });
});

describe('password (spec 5.2)', () => {
  const session = { userName: 'maria@example.com' };
  it('change: current, rules, differs from current, retype', () => {
    expect(us.validate('password', { currentPassword: 'Old#Pass123', newPassword: 'Sunshine#42', retypePassword: 'Sunshine#42' }, { session }).valid).toBe(true);
    expect(keys(us.validate('password', { newPassword: 'Sunshine#42', retypePassword: 'Sunshine#43' }, { session }))).toEqual([
      '/currentPassword errors.required',
      '/retypePassword errors.password.mismatch',
    ]);
    expect(keys(us.validate('password', { currentPassword: 'Sunshine#42', newPassword: 'Sunshine#42', retypePassword: 'Sunshine#42' }, { session }))).toEqual([
      '/newPassword errors.password.rules',
    ]);
    expect(keys(us.validate('password', { currentPassword: 'x', newPassword: 'sunshine42', retypePassword: 'sunshine42' }, { session }))).toEqual([
      '/newPassword errors.password.rules',
    ]);
  });
  it('temporary and reset: no current password asked (and none sent)', () => {
    const r = us.validate('password', { mode: 'reset', currentPassword: 'leftover', newPassword: 'Sunshine#42', retypePassword: 'Sunshine#42' }, { session });
    expect(r.valid).toBe(true);
    expect(r.data).not.toHaveProperty('currentPassword');
  });
});

describe('absence (spec 4, 5.7)', () => {
  const ctx = { today: '03/10/2026' };
  const ok = { childIDs: [3], startDate: '03/10/2026', timeOffered: 'fullday', additionalInfo: 'Dentist' };
  it('valid single day; the end date is pruned while multi-day is unticked', () => {
    const r = us.validate('absence', { ...ok, endDate: '03/01/2026' }, ctx);
    expect(r.valid).toBe(true);
    expect(r.data).not.toHaveProperty('endDate');
  });
  it('at least one child, start not before today, info required', () => {
    expect(keys(us.validate('absence', { childIDs: [], startDate: '03/09/2026', timeOffered: 'fullday' }, ctx))).toEqual([
      '/childIDs errors.required',
      '/startDate errors.date.beforeToday',
      '/additionalInfo errors.required',
    ]);
  });
  it('multi-day: end date required, not before today, not before start', () => {
    expect(keys(us.validate('absence', { ...ok, multiDay: true }, ctx))).toEqual(['/endDate errors.required']);
    expect(keys(us.validate('absence', { ...ok, startDate: '03/12/2026', multiDay: true, endDate: '03/11/2026' }, ctx))).toEqual(['/endDate errors.date.endBeforeStart']);
    expect(keys(us.validate('absence', { ...ok, multiDay: true, endDate: '03/09/2026' }, ctx))).toEqual(['/endDate errors.date.beforeToday']);
    expect(keys(us.validate('absence', { ...ok, multiDay: true, endDate: '02/30/2026' }, ctx))).toEqual(['/endDate errors.format.dateMdy']);
    expect(us.validate('absence', { ...ok, multiDay: true, endDate: '03/11/2026' }, ctx).valid).toBe(true);
  });
});

describe('attendance report: End should be greater than start', () => {
  it('end before start is refused', () => {
    const r = us.validate('attendanceReport', { startDate: '01/02/2026', endDate: '12/31/2025' }, {});
    expect(keys(r)).toEqual(['/endDate errors.date.endBeforeStart']);
    expect(us.validate('attendanceReport', { startDate: '12/31/2025', endDate: '01/02/2026' }, {}).valid).toBe(true);
  });
});

describe('payer and autopay (spec 2.12, 4, 5.6)', () => {
  const payer = { paidByFamilyMemberID: 7, firstName: 'Maria', lastName: 'Lopez', streetAddress: '12 Elm', city: 'Springfield', stateCode: 'IL' };
  it('paid-by 0 counts as empty; zip, phone and e-mail follow the payment options', () => {
    const data = { paymentOptions: { zipCodeRequiredForPayment: true, telephoneRequiredForPayment: 1, emailRequiredForPayment: false } };
    expect(keys(us.validate('payer', { ...payer, paidByFamilyMemberID: 0 }, { data }))).toEqual([
      '/paidByFamilyMemberID errors.required',
      '/zip errors.required',
      '/homecellphone errors.required',
    ]);
    const states = us.fieldStates('payer', { data: {}, form: payer });
    expect(states['/homecellphone'].shown).toBe(false);
    expect(states['/email'].required).toBe(false);
    expect(states['/firstName'].enabled).toBe(false);
    expect(us.fieldStates('payer', { form: { paidByFamilyMemberID: 0 } })['/firstName'].enabled).toBe(true);
  });
  it('frequency variant: autopay needs terms and a frequency (own message), except from change-autopay', () => {
    const data = { autopayForm: { formCustomID: 'APEA' }, paymentOptions: { autoPaymentForCCEnabled: true } };
    const flow = { data: { paymentMethodCode: 'CCD' } };
    expect(keys(us.validate('payer', { ...payer, autopay: true }, { data, flow }))).toEqual([
      '/frequency errors.payment.frequency',
      '/termsAccepted errors.payment.terms',
    ]);
    expect(keys(us.validate('payer', { ...payer, autopay: true, termsAccepted: true }, { data, flow, query: { fromPage: 'changeautopay' } }))).toEqual([]);
    const off = us.validate('payer', { ...payer, autopay: false, frequency: 'W' }, { data, flow });
    expect(off.valid).toBe(true);
    expect(off.data).not.toHaveProperty('frequency');
    // the provider takes no card autopay: no checkbox, nothing asked, the values dropped
    const noCard = us.validate('payer', { ...payer, autopay: true, frequency: 'W' }, { data: { ...data, paymentOptions: { autoPaymentForCCEnabled: false } }, flow });
    expect(noCard.valid).toBe(true);
    expect(noCard.data).not.toHaveProperty('autopay');
    expect(noCard.data).not.toHaveProperty('frequency');
  });
  it('save-card shows for new methods in SPM variants and hides when autopay is chosen', () => {
    const ctx = { data: { autopayForm: { formCustomID: 'OTP_APE_SPM' }, paymentOptions: { autoPaymentForCCEnabled: true } }, flow: { data: { paymentMethodCode: 'CCD' } } };
    expect(us.fieldStates('payer', { ...ctx, form: {} })['/saveCard'].shown).toBe(true);
    expect(us.fieldStates('payer', { ...ctx, form: { autopay: true } })['/saveCard'].shown).toBe(false);
    expect(us.fieldStates('payer', { ...ctx, flow: { data: { paymentMethodCode: 'CCR' } }, form: {} })['/saveCard'].shown).toBe(false);
  });
  it('pay now: other amount must be a valid amount', () => {
    expect(keys(us.validate('payNow', { amountChoice: 'other', otherAmount: '12.345' }, {}))).toEqual(['/otherAmount errors.payment.amount']);
    expect(keys(us.validate('payNow', { amountChoice: 'other' }, {}))).toEqual(['/otherAmount errors.required']);
    expect(us.validate('payNow', { amountChoice: 'balance', otherAmount: 'junk' }, {}).valid).toBe(true);
    expect(us.validate('payNow', { amountChoice: 'other', otherAmount: '12.34' }, {}).valid).toBe(true);
  });
});

describe('medical: nested objects and per-question rows', () => {
  it('insurance objects are fields with nested paths; question rows follow their own flags', () => {
    const values = {
      doctorPhone: '2175550100',
      primaryInsurance: { provider: 'Acme<', memberID: 'M1' },
      questions: [
        { fieldID: 1, isMandatory: true, hasStandardValues: 'M', explanationType: 'M' },
        { fieldID: 2, isMandatory: true, hasStandardValues: 'M', explanationType: 'M', answer: true, standardValues: [], explanation: '' },
        { fieldID: 3, isMandatory: false, hasStandardValues: 'O', explanationType: 'N', answer: true, explanation: 'dropped' },
      ],
    };
    const r = us.validate('medical', values, {});
    expect(keys(r)).toEqual([
      '/primaryInsurance/provider errors.format.safeText',
      '/questions/0/answer errors.required',
      '/questions/1/standardValues errors.required',
      '/questions/1/explanation errors.required',
    ]);
    expect(r.errors[0].params.field).toBe('fields.medical.insuranceProvider');
    expect((r.data.questions as Record<string, unknown>[])[2]).not.toHaveProperty('explanation');
  });
  it('explanation max 1000 characters', () => {
    const r = us.validate('medical', { questions: [{ fieldID: 1, explanationType: 'O', answer: true, explanation: 'x'.repeat(1001) }] }, {});
    expect(keys(r)).toEqual(['/questions/0/explanation errors.maxLength']);
  });
});

describe('pin (spec 5.3)', () => {
  it('generate needs at least one adult; change needs the PIN', () => {
    expect(keys(us.validate('pin', { mode: 'generate', adultIDs: [] }, {}))).toEqual(['/adultIDs errors.pin.selectAdult']);
    expect(us.validate('pin', { mode: 'generate', adultIDs: [7], pin: 'ignored' }, {}).data).toEqual({ mode: 'generate', adultIDs: [7] });
    expect(keys(us.validate('pin', { mode: 'change' }, {}))).toEqual(['/pin errors.required']);
    expect(keys(us.validate('pin', { mode: 'change', pin: '12a4' }, {}))).toEqual(['/pin errors.pattern']);
  });
});

describe('user-defined fields (spec 3, 5.4, 5.7)', () => {
  const udfs = [
    { fieldName: 'UDTex1', caption: 'Favourite snack', isMandatory: false, value: 'Apples <3' },
    { fieldName: 'UDDat2', caption: 'Last check-up', isMandatory: true, value: '02/30/2026' },
    { fieldName: 'UDDro3', caption: 'T-shirt size', isMandatory: true, values: [{ idValue: 1, itemValue: 'S' }, { idValue: 2, itemValue: 'M' }], value: 5 },
    { fieldName: 'UDMul4', caption: 'Notes', isMandatory: false, value: 'x'.repeat(1001) },
    { fieldName: 'UDRad5', caption: 'Walks home alone', isMandatory: true },
    { fieldName: 'UDBit6', caption: 'Photo consent', isMandatory: false },
  ];
  const child = { firstName: 'Leo', lastName: 'Lopez', genderCode: 'M', dateofBirth: '05/04/2019' };

  it('each row is checked by its type; the message names the caption', () => {
    const r = us.validate('child', { ...child, userDefinedFields: udfs }, { today: '03/01/2026' });
    expect(r.errors.map((e) => `${e.path} ${e.key} ${e.params.field}`)).toEqual([
      '/userDefinedFields/0/value errors.format.safeText Favourite snack',
      '/userDefinedFields/1/value errors.format.dateMdy Last check-up',
      '/userDefinedFields/2/value errors.enum T-shirt size',
      '/userDefinedFields/3/value errors.udf.tooLong Notes',
      '/userDefinedFields/4/value errors.required Walks home alone',
    ]);
  });
  it('optional rows may stay empty for a child, but every row is mandatory for an adult', () => {
    const rows = [{ fieldName: 'UDTex1', caption: 'Employer phone', isMandatory: false }];
    expect(us.validate('child', { ...child, userDefinedFields: rows }, {}).valid).toBe(true);
    expect(keys(us.validate('contact', { ...holder, userDefinedFields: rows }, {}))).toEqual(['/userDefinedFields/0/value errors.required']);
    expect(us.validate('contact', { ...holder, userDefinedFields: [{ ...rows[0], value: 'Acme' }] }, {}).valid).toBe(true);
  });
});

describe('sign in and rule errors', () => {
  it('sign-in requires e-mail and password', () => {
    expect(keys(us.validate('signin', { email: 'bad' }, {}))).toEqual(['/email errors.format.email', '/password errors.required']);
  });
  it('a rule that throws is an error, not a silent false', () => {
    const broken: DeclarationSet = { ...set, rules: { ...set.rules, 'contact.showHomePhone': { logic: { nope: [] } } } };
    const engine = createFormEngine(broken, { country: 'US' });
    expect(() => engine.validate('contact', holder, {})).toThrow(/rule contact\.showHomePhone/);
  });
  it('unknown schema', () => {
    expect(() => us.validate('nope', {}, {})).toThrow(/unknown schema/);
  });
});

describe('payer', () => {
  const payer = { paidByFamilyMemberID: -1, firstName: 'Ana', lastName: 'Silva', streetAddress: '9 Pine St', city: 'Springfield', stateCode: 'IL', zip: '62704', email: 'ana@example.com' };
  const options = { paymentOptions: { zipCodeRequiredForPayment: true, telephoneRequiredForPayment: false, emailRequiredForPayment: true } };

  it('the name fields say "as on the card" when paying by card (x-titleWhen), in the labels and the messages', () => {
    const card = { flow: { data: { paymentMethodCode: 'CCD' } }, data: options };
    const states = us.fieldStates('payer', { ...card, form: payer });
    expect(states['/firstName'].title).toBe('fields.payer.cardFirstName');
    expect(states['/lastName'].title).toBe('fields.payer.cardLastName');
    expect(us.fieldStates('payer', { flow: { data: { paymentMethodCode: 'ECH' } }, data: options, form: payer })['/firstName'].title).toBeUndefined();
    const r = us.validate('payer', { ...payer, firstName: '' }, card);
    expect(r.errors.find((e) => e.path === '/firstName')?.params.field).toBe('fields.payer.cardFirstName');
  });

  it('zip, phone and e-mail follow the provider\'s payment options; a Canadian payer needs a Canadian postal code', () => {
    expect(keys(us.validate('payer', { ...payer, zip: '' }, { data: options }))).toEqual(['/zip errors.required']);
    expect(keys(us.validate('payer', { ...payer, zip: '' }, { data: { paymentOptions: { ...options.paymentOptions, zipCodeRequiredForPayment: false } } }))).toEqual([]);
    expect(keys(us.validate('payer', { ...payer, homecellphone: '' }, { data: { paymentOptions: { ...options.paymentOptions, telephoneRequiredForPayment: true } } }))).toEqual(['/homecellphone errors.required']);
    expect(ca.validate('payer', { ...payer, stateCode: 'AB', zip: 'D1A 1A1' }, { data: options }).valid).toBe(false);
    expect(ca.validate('payer', { ...payer, stateCode: 'AB', zip: 'T2Z 1A1' }, { data: options }).valid).toBe(true);
  });
});
