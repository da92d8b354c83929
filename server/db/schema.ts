// Database schema (PostgreSQL dialect; runs on PGlite and on PostgreSQL). Every table holding a
// provider's data carries provider_id, and every query in server/services is scoped by it.
import {
  pgTable,
  serial,
  bigserial,
  integer,
  text,
  boolean,
  date,
  timestamp,
  jsonb,
  customType,
  uniqueIndex,
  index,
  check,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { ProviderTexts } from '../providerTexts';
import type { Confirmation, DraftData } from './draftData';
import type { LinkByLanguage, NativeApp, ProviderRecord } from '../providerRecord.gen';

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/** money: integer cents in every table (migration 0026), the column's name ending in _cents */
const cents = (name: `${string}_cents`) => integer(name);
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const day = (name: string) => date(name, { mode: 'string' });
/**
 * Provider-supplied texts in the other languages, beside the default-language text columns of the row
 * (server/providerTexts.ts): { field: { es, pt, vi } }.
 */
const translations = () => jsonb('translations').$type<ProviderTexts>().notNull().default({});

// The provider's JSON columns hold parts of its provider.json, typed by the record's schema
// (server/providerRecord.gen.ts).
export type ProgramOptions = ProviderRecord['programOptions'];
/** per OS: below minimumVersion the update is required (no skip); below latestVersion it is offered */
export type NativeAppVersion = NativeApp;
export type NativeApps = NonNullable<ProviderRecord['nativeApps']>;
/** an address per portal language; a language without one uses the provider's default language's */
export type { LinkByLanguage };
/** provider-supplied pages (spec 2.4 User Guide, 2.5 privacy policy) */
export type ProviderLinks = Pick<ProviderRecord, 'userGuideUrl' | 'privacyPolicyUrl'>;


/**
 * An enrolment in autopay asked with a payment on the gateway's page (spec 4 OTP variants): what the
 * agreement states, fixed when the parent accepted it; the registration is made once the payment is
 * approved and its method saved.
 */
export interface AutopayRequest {
  frequency: string;
  maxChargeCents: number | null;
  termsVersion: string;
  termsHtml: string;
  /** the first service period's start (yyyy-mm-dd) */
  startDate?: string;
  discountPercent?: number;
  payerName?: string;
  payerEmail?: string;
  /** the signed-in parent's e-mail: the agreement goes to her and to the payer */
  signerEmail?: string;
}
export const providers = pgTable('providers', {
  id: serial('id').primaryKey(),
  appName: text('app_name').notNull().unique(),
  customerID: integer('customer_id').notNull().unique(),
  programName: text('program_name').notNull(),
  logoUrl: text('logo_url').notNull(),
  organisation: text('organisation').notNull(),
  supportPhone: text('support_phone').notNull().default(''),
  supportEmail: text('support_email').notNull().default(''),
  countryCode: text('country_code').notNull().default('US'),
  city: text('city').notNull().default(''),
  stateCode: text('state_code').notNull().default(''),
  languages: jsonb('languages').$type<{ code: string; name: string }[]>().notNull(),
  isSchoolDistrict: boolean('is_school_district').notNull().default(false),
  hasSmsLicense: boolean('has_sms_license').notNull().default(false),
  attendanceAllowed: boolean('attendance_allowed').notNull().default(true),
  programOptions: jsonb('program_options').$type<ProgramOptions>().notNull(),
  features: jsonb('features').$type<Record<string, boolean>>().notNull(),
  /** field options of configurable fields (spec 5.1): M mandatory, R required, O optional, H hidden */
  fieldOptions: jsonb('field_options').$type<Record<string, 'M' | 'R' | 'O' | 'H'>>().notNull().default({}),
  /** native app versions per OS (spec 7.3 native version check; apps exist for country US only) */
  nativeApps: jsonb('native_apps').$type<NativeApps>().notNull().default({}),
  /** the provider's user guide and privacy policy pages (https, per language) */
  links: jsonb('links').$type<ProviderLinks>().notNull().default({}),
});

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountNo: text('account_no').notNull(),
    suspended: boolean('suspended').notNull().default(false),
    suspendedOn: day('suspended_on'),
    collection: boolean('collection').notNull().default(false),
    locked: boolean('locked').notNull().default(false),
    delinquent: boolean('delinquent').notNull().default(false),
    punchPass: boolean('punch_pass').notNull().default(false),
    lateFeeAfterDueDateCents: cents('late_fee_after_due_date_cents').notNull().default(0),
    applyLatePayment: boolean('apply_late_payment').notNull().default(false),
    doNotApplyLateFee: boolean('do_not_apply_late_fee').notNull().default(false),
    hideOtherAmount: boolean('hide_other_amount').notNull().default(false),
    showProjectedPayment: boolean('show_projected_payment').notNull().default(false),
    comEd: boolean('com_ed').notNull().default(false),
    ccOnetimePaymentGatewayID: integer('cc_onetime_payment_gateway_id').notNull().default(0),
    eCheckOnetimePaymentGatewayID: integer('echeck_onetime_payment_gateway_id').notNull().default(0),
  },
  (t) => [uniqueIndex('accounts_provider_no').on(t.providerId, t.accountNo)],
);

export const adults = pgTable(
  'adults',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** 1 primary, 2 secondary, 4 or 5 other contacts */
    accountHolder: integer('account_holder').notNull(),
    /** F full access, P payment only */
    accessType: text('access_type').notNull().default('F'),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    middleInitial: text('middle_initial').notNull().default(''),
    genderCode: text('gender_code').notNull().default('U'),
    streetAddress: text('street_address').notNull().default(''),
    apartmentNo: text('apartment_no').notNull().default(''),
    city: text('city').notNull().default(''),
    stateCode: text('state_code').notNull().default(''),
    zip: text('zip').notNull().default(''),
    workPhone: text('work_phone').notNull().default(''),
    workPhoneExt: text('work_phone_ext').notNull().default(''),
    workPhoneNone: boolean('work_phone_none').notNull().default(false),
    homePhone: text('home_phone').notNull().default(''),
    homePhoneExt: text('home_phone_ext').notNull().default(''),
    homePhoneNone: boolean('home_phone_none').notNull().default(false),
    cellPhone: text('cell_phone').notNull().default(''),
    cellPhoneExt: text('cell_phone_ext').notNull().default(''),
    cellPhoneNone: boolean('cell_phone_none').notNull().default(false),
    textMessageConsent: boolean('text_message_consent').notNull().default(false),
    emailOptedOut: boolean('email_opted_out').notNull().default(false),
    email: text('email').notNull().default(''),
    pin: text('pin'),
    employmentStatus: text('employment_status').notNull().default(''),
    employer: text('employer').notNull().default(''),
    primaryLanguage: text('primary_language').notNull().default('en'),
    annualIncome: text('annual_income').notNull().default(''),
    transportation: text('transportation').notNull().default(''),
    /** a code of the provider's marital-status list (master_items), '' when not given */
    maritalStatus: text('marital_status').notNull().default(''),
    householdSize: integer('household_size'),
    isDistrictEmployee: boolean('is_district_employee').notNull().default(false),
    photo: bytea('photo'),
    /** STATE$$NUMBER, or the number alone (spec 3, driver licence value) */
    driverLicense: text('driver_license').notNull().default(''),
    /** user-defined field values by fieldName */
    userDefinedFields: jsonb('user_defined_fields').$type<Record<string, string | boolean>>().notNull().default({}),
    deleted: boolean('deleted').notNull().default(false),
  },
  (t) => [index('adults_account').on(t.providerId, t.accountId)],
);

export const logins = pgTable(
  'logins',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    adultId: integer('adult_id').notNull().references(() => adults.id, { onDelete: 'cascade' }),
    /** lower-cased */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    failedCount: integer('failed_count').notNull().default(0),
    lockedAt: ts('locked_at'),
    isTemporaryPassword: boolean('is_temporary_password').notNull().default(false),
    active: boolean('active').notNull().default(true),
    lastLoginAt: ts('last_login_at'),
  },
  (t) => [uniqueIndex('logins_provider_email').on(t.providerId, t.email), index('logins_email').on(t.email)],
);

export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  loginId: integer('login_id').notNull().references(() => logins.id, { onDelete: 'cascade' }),
  adultId: integer('adult_id').notNull(),
  accountId: integer('account_id').notNull(),
  /** SHA-256 of the opaque token (hex); the token itself is never stored */
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: ts('created_at').notNull(),
  lastSeenAt: ts('last_seen_at').notNull(),
  idleExpiresAt: ts('idle_expires_at').notNull(),
  absoluteExpiresAt: ts('absolute_expires_at').notNull(),
  revokedAt: ts('revoked_at'),
  locale: text('locale').notNull().default('en'),
});

export const signinAudit = pgTable(
  'signin_audit',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id'),
    email: text('email').notNull(),
    loginId: integer('login_id'),
    ip: text('ip').notNull(),
    /** ok | bad_password | unknown | locked | inactive | rate_limited | unlocked (a new password) | pending (an attempt not answered yet) */
    outcome: text('outcome').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('signin_audit_email_at').on(t.email, t.at)],
);

/**
 * Single-use links of the password flows (spec 2.1): reset (forgot password, also unlocks), sign-up
 * (an existing parent creates the first password) and the temporary-password token. Only the SHA-256
 * of the random token is stored.
 */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    adultId: integer('adult_id').notNull().references(() => adults.id, { onDelete: 'cascade' }),
    /** null for sign-up: the login is created when the password is */
    loginId: integer('login_id').references(() => logins.id, { onDelete: 'cascade' }),
    /** reset | signup | temporary */
    purpose: text('purpose').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_tokens_login').on(t.loginId)],
);

/** Earlier password hashes of a login: a new password must not equal the current or an old one (5.2). */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: serial('id').primaryKey(),
    loginId: integer('login_id').notNull().references(() => logins.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('password_history_login').on(t.loginId)],
);

/** Requests of the password and sign-up flows, counted per address and per account for rate limits. */
export const authRequests = pgTable(
  'auth_requests',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull(),
    /** forgot | signup | register | reset */
    kind: text('kind').notNull(),
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    at: ts('at').notNull(),
  },
  (t) => [index('auth_requests_kind_at').on(t.kind, t.at)],
);

/** A social identity (OpenID Connect issuer + subject) linked to a parent login of one provider. */
export const socialIdentities = pgTable(
  'social_identities',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    loginId: integer('login_id').notNull().references(() => logins.id, { onDelete: 'cascade' }),
    /** the identity provider's key in provider.json (e.g. google, microsoft) */
    idp: text('idp').notNull(),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    email: text('email').notNull().default(''),
    linkedAt: ts('linked_at').notNull(),
  },
  (t) => [uniqueIndex('social_identities_subject').on(t.providerId, t.issuer, t.subject)],
);

/**
 * One social sign-in attempt: state, nonce and PKCE verifier of the authorization request; after the
 * callback an identity not yet linked waits here (linkTokenHash) for the parent's password sign-in.
 */
export const socialSignins = pgTable('social_signins', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  idp: text('idp').notNull(),
  stateHash: text('state_hash').notNull().unique(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  locale: text('locale').notNull().default('en'),
  createdAt: ts('created_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
  issuer: text('issuer'),
  subject: text('subject'),
  email: text('email'),
  linkTokenHash: text('link_token_hash').unique(),
  linkedAt: ts('linked_at'),
});

export const sites = pgTable('sites', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  siteName: text('site_name').notNull(),
  streetAddress: text('street_address').notNull().default(''),
  city: text('city').notNull().default(''),
  stateCode: text('state_code').notNull().default(''),
  zip: text('zip').notNull().default(''),
  phone: text('phone').notNull().default(''),
  /** site administrators receive absence notices (spec 6); comma-separated addresses */
  adminEmail: text('admin_email').notNull().default(''),
  /** siteName in the provider's other languages */
  translations: translations(),
});

export const gradeLevels = pgTable(
  'grade_levels',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    gradeLevelCode: text('grade_level_code').notNull(),
    gradeLevel: text('grade_level').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    translations: translations(),
  },
  (t) => [uniqueIndex('grade_levels_provider_code').on(t.providerId, t.gradeLevelCode)],
);

export const children = pgTable(
  'children',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    middleInitial: text('middle_initial').notNull().default(''),
    genderCode: text('gender_code').notNull().default('U'),
    dateOfBirth: day('date_of_birth').notNull(),
    gradeLevelCode: text('grade_level_code').notNull().default(''),
    school: text('school').notNull().default(''),
    homeSiteId: integer('home_site_id').references(() => sites.id),
    /** codes of the provider's meal-eligibility and tshirt-size lists (master_items), '' when not given */
    mealEligibility: text('meal_eligibility').notNull().default(''),
    tshirtSize: text('tshirt_size').notNull().default(''),
    /** split child: the other account and this account's share in percent */
    splitAccountId: integer('split_account_id'),
    splitPercentage: integer('split_percentage'),
    photo: bytea('photo'),
    medical: jsonb('medical').$type<Record<string, unknown>>().notNull().default({}),
    /** user-defined field values by fieldName */
    userDefinedFields: jsonb('user_defined_fields').$type<Record<string, string | boolean>>().notNull().default({}),
  },
  (t) => [index('children_account').on(t.providerId, t.accountId)],
);

export const childAdults = pgTable(
  'child_adults',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    adultId: integer('adult_id').notNull().references(() => adults.id, { onDelete: 'cascade' }),
    /** 99 = Other (free text in relationship) */
    relationshipId: integer('relationship_id').notNull(),
    relationship: text('relationship').notNull(),
    isAuthorizedToPickUp: boolean('is_authorized_to_pick_up').notNull().default(false),
    isEmergencyContact: boolean('is_emergency_contact').notNull().default(false),
    isLivesWith: boolean('is_lives_with').notNull().default(false),
    doNotRelease: boolean('do_not_release').notNull().default(false),
  },
  (t) => [uniqueIndex('child_adults_pair').on(t.childId, t.adultId)],
);

/** Master data: relationship of an adult to a child (99 = Other, spec 3). */
export const relationships = pgTable(
  'relationships',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    relationshipId: integer('relationship_id').notNull(),
    relationship: text('relationship').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    translations: translations(),
  },
  (t) => [uniqueIndex('relationships_provider_id').on(t.providerId, t.relationshipId)],
);

/** User-defined field definitions (spec 3): the type is the fieldName prefix; entity A adult, C child. */
export const userDefinedFieldDefs = pgTable(
  'user_defined_field_defs',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    entity: text('entity').notNull(),
    fieldName: text('field_name').notNull(),
    caption: text('caption').notNull(),
    isMandatory: boolean('is_mandatory').notNull().default(false),
    values: jsonb('values').$type<{ idValue: number | string; itemValue: string; displayOrder: number; translations?: ProviderTexts }[]>().notNull().default([]),
    displayOrder: integer('display_order').notNull().default(0),
    translations: translations(),
  },
  (t) => [uniqueIndex('udf_defs_provider_field').on(t.providerId, t.entity, t.fieldName)],
);

/** Medical field definitions (spec 3): fieldNo 1 allergies, 2 disabilities, 3 medical conditions, 4 special needs, 5 medication. */
export const medicalFieldDefs = pgTable(
  'medical_field_defs',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    fieldNo: integer('field_no').notNull(),
    fieldCaption: text('field_caption').notNull(),
    displayMessage: text('display_message').notNull().default(''),
    isMandatory: boolean('is_mandatory').notNull().default(false),
    /** M mandatory, O optional, N none */
    hasStandardValues: text('has_standard_values').notNull().default('N'),
    isOtherStandardEnabled: boolean('is_other_standard_enabled').notNull().default(false),
    /** M mandatory, N none, O optional */
    explanationType: text('explanation_type').notNull().default('O'),
    values: jsonb('values').$type<{ id: number; value: string; translations?: ProviderTexts }[]>().notNull().default([]),
    translations: translations(),
  },
  (t) => [uniqueIndex('medical_field_defs_provider_no').on(t.providerId, t.fieldNo)],
);

/**
 * The provider's short master-data lists (spec 7.2, 7.4), one row per choice: list is gender,
 * marital-status, primary-language, meal-eligibility, tshirt-size, transportation-mode or
 * contact-subject; code is what a record stores, text what the parent reads.
 */
export const masterItems = pgTable(
  'master_items',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    list: text('list').notNull(),
    code: text('code').notNull(),
    text: text('text').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
    translations: translations(),
  },
  (t) => [uniqueIndex('master_items_provider_list_code').on(t.providerId, t.list, t.code)],
);

/** Provider custom texts shown on screen (spec 7.1, 7.4 customtext/prepare-onscreen): HTML with {{placeholders}}. */
export const customTexts = pgTable(
  'custom_texts',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    contentType: text('content_type').notNull(),
    body: text('body').notNull(),
    translations: translations(),
  },
  (t) => [uniqueIndex('custom_texts_provider_type').on(t.providerId, t.contentType)],
);

export const programPeriods = pgTable('program_periods', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  programPeriod: text('program_period').notNull(),
  description: text('description').notNull().default(''),
  /** programPeriod (the title) and description in the other languages (spec 2.8: en, es, pt, vi) */
  translations: translations(),
  /** schoolYear | summerCamp | preschool | holidayCare | other */
  category: text('category').notNull(),
  /** childcare | enrichment */
  programKind: text('program_kind').notNull(),
  programPeriodType: integer('program_period_type').notNull().default(1),
  /** W waitlist/application workflow, T, D, C calendar */
  enrollmentOption: text('enrollment_option').notNull(),
  /** C capacity only, W waitlisting, N disabled */
  capacityCheck: text('capacity_check').notNull().default('C'),
  canRegisterOnline: boolean('can_register_online').notNull().default(true),
  canEnrollOnline: boolean('can_enroll_online').notNull().default(true),
  enableEnrollmentInParentForm: boolean('enable_enrollment_in_parent_form').notNull().default(true),
  enableAutomaticRegistration: boolean('enable_automatic_registration').notNull().default(false),
  /** spec 4: autopay is mandatory for this program's families: only the provider discontinues it, a parent's cancel is refused */
  autopayMandatory: boolean('autopay_mandatory').notNull().default(false),
  calendarProgramPeriodID: integer('calendar_program_period_id').notNull().default(0),
  startDate: day('start_date').notNull(),
  endDate: day('end_date').notNull(),
  registrationStartAt: ts('registration_start_at'),
  registrationEndDate: day('registration_end_date'),
  isPunchPass: boolean('is_punch_pass').notNull().default(false),
  isOtherDistrict: boolean('is_other_district').notNull().default(false),
  registrationFeeCents: cents('registration_fee_cents').notNull().default(0),
  /** weekend days (S, SA) may be scheduled (spec 2.11) */
  enableWeekendScheduling: boolean('enable_weekend_scheduling').notNull().default(false),
  /** the parent application's payment option (spec 9): N fee shown, nothing to pay now; O pay later offered */
  paymentOption: text('payment_option').notNull().default('N'),
  /** discounts claimed in an application (financial assistance) wait for the provider's review */
  discountsNeedReview: boolean('discounts_need_review').notNull().default(false),
  /** the service period tuition is charged by is defined (spec 8.2 'Service period not defined') */
  servicePeriodDefined: boolean('service_period_defined').notNull().default(true),
  /**
   * who the program is for (rules/eligibility.rules.json decides a child): ages minAge to maxAge on
   * ageOn (the program's start date when not given), or grades minGrade to maxGrade (grade level
   * codes, ordered by the provider's grade list); null: every child
   */
  eligibility: jsonb('eligibility').$type<ProgramEligibility>(),
  /** the programs list shows the seats left (or Full / Waitlist only) on the program's card */
  showSeatsLeft: boolean('show_seats_left').notNull().default(false),
  /**
   * the service periods the portal invoices the program's tuition by (W weekly, T twice a month, M
   * monthly; spec 4, 9), when the provider bills through the portal (provider.json billing); null:
   * tuition is charged by the application only (a camp paid by the week)
   */
  billingCycle: text('billing_cycle'),
});

export type ProgramEligibility = { by: 'age'; minAge: number; maxAge: number; ageOn?: string } | { by: 'grade'; minGrade: string; maxGrade: string };

export const activities = pgTable('activities', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
  siteId: integer('site_id').notNull().references(() => sites.id),
  activity: text('activity').notNull(),
  /** activity (the name) in the provider's other languages */
  translations: translations(),
  /** 2 = selectable days of week, 4 = single date */
  activityTypeID: integer('activity_type_id').notNull().default(1),
  startDate: day('start_date').notNull(),
  endDate: day('end_date').notNull(),
  timing: text('timing').notNull().default(''),
  daysPerWeek: integer('days_per_week').notNull().default(5),
  /** comma-separated weekday codes S,M,T,W,TH,F,SA */
  daysOfWeek: text('days_of_week').notNull().default('M,T,W,TH,F'),
  /** A = PM, B = AM, D = during school, F = full day */
  timeOfferedCode: text('time_offered_code').notNull().default('A'),
  isOneTime: boolean('is_one_time').notNull().default(false),
  firstChildRegFeeCents: cents('first_child_reg_fee_cents').notNull().default(0),
  secondChildRegFeeCents: cents('second_child_reg_fee_cents').notNull().default(0),
  thirdChildRegFeeCents: cents('third_child_reg_fee_cents').notNull().default(0),
  feeCents: cents('fee_cents').notNull().default(0),
  /** PER_SP per service period, PER_DAY per day */
  feeType: text('fee_type').notNull().default('PER_SP'),
  siblingFeeCents: cents('sibling_fee_cents').notNull().default(0),
  /** isDifferentFeePerSP: the fee of a service period (by its start date) where it differs from feeCents */
  feesBySP: jsonb('fees_by_sp').$type<Record<string, number>>(),
  capacity: integer('capacity').notNull().default(30),
  /** false: not care (a field trip, a T-shirt): left out of the year-end tax documents' care amounts */
  isCare: boolean('is_care').notNull().default(true),
});

/** A child's registration in a program period (the application). */
export const registrations = pgTable(
  'registrations',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    /** PROCESSED | REGISTERED | WAITLISTED | SEATS FULL | REMOVED | PENDING */
    status: text('status').notNull(),
    registrationDate: day('registration_date'),
    submittedOn: day('submitted_on'),
    isPendingApproval: boolean('is_pending_approval').notNull().default(false),
    isEnrollmentPending: boolean('is_enrollment_pending').notNull().default(false),
    /** the application claimed a discount that needs the provider's review (financial assistance) */
    claimsDiscount: boolean('claims_discount').notNull().default(false),
    /** the application (draft) it came from */
    draftId: integer('draft_id'),
  },
  (t) => [uniqueIndex('registrations_child_pp').on(t.programPeriodId, t.childId)],
);

export const enrollments = pgTable(
  'enrollments',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    enrollmentDate: day('enrollment_date').notNull(),
    deEnrollDate: day('de_enroll_date'),
    daysOfWeek: text('days_of_week').notNull().default(''),
    weekRange: text('week_range'),
    status: text('status').notNull().default('A'),
  },
  (t) => [index('enrollments_account').on(t.providerId, t.accountId)],
);

/**
 * A child's dated attendance plan in a program (spec 2.11): enrolled dates (single-date and
 * date-based enrolments), one-time activity dates, and dates the provider scheduled or the parent
 * flex-scheduled.
 */
export const enrollmentDates = pgTable(
  'enrollment_dates',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    date: day('date').notNull(),
    /** enrolled | oneTime | scheduled | flex */
    kind: text('kind').notNull(),
  },
  (t) => [index('enrollment_dates_account').on(t.providerId, t.accountId), uniqueIndex('enrollment_dates_child_activity_day_kind').on(t.childId, t.activityId, t.date, t.kind)],
);

/**
 * A program's service period (spec 3 servicePeriodDetailID): the dates its tuition is invoiced for,
 * made from the program's dates and billing cycle (src/engine/billing.ts servicePeriodsOf) with the
 * invoice and due dates of the provider's billing settings.
 */
export const servicePeriods = pgTable(
  'service_periods',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    /** W weekly, T twice a month, M monthly */
    periodType: text('period_type').notNull(),
    startDate: day('start_date').notNull(),
    endDate: day('end_date').notNull(),
    invoiceDate: day('invoice_date').notNull(),
    dueDate: day('due_date').notNull(),
    /** when the billing job last invoiced the period in full (the daily run takes the periods without) */
    invoicedAt: ts('invoiced_at'),
  },
  (t) => [uniqueIndex('service_periods_program_start').on(t.programPeriodId, t.startDate), index('service_periods_invoice_date').on(t.providerId, t.invoiceDate)],
);

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** the service period (service_periods.id for an invoice the billing job made) */
    servicePeriodDetailID: integer('service_period_detail_id').notNull(),
    servicePeriod: text('service_period').notNull(),
    invoiceDate: day('invoice_date').notNull(),
    paymentDueDate: day('payment_due_date').notNull(),
    /** what the invoice billed; what is left of it is derived from the ledger (server/domains/billing/ledger.ts) */
    amountCents: cents('amount_cents').notNull(),
    autoPayDiscountValueCents: cents('auto_pay_discount_value_cents').notNull().default(0),
  },
  // one invoice per account and service period: the billing job run twice posts once
  (t) => [uniqueIndex('invoices_account_period').on(t.providerId, t.accountId, t.servicePeriodDetailID)],
);

/**
 * A child whose charges two accounts share (spec 3 split-child record): each charge of the child is
 * posted to both accounts when it is posted, the primary account's share `splitPercentage` percent
 * (shown as X/(100-X)), the split account the rest; fixed then, whatever either account pays later.
 */
export const splitChildren = pgTable(
  'split_children',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    /** the child's own account (children.account_id) */
    primaryAccountId: integer('primary_account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    splitAccountId: integer('split_account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** the primary account's share, 1 to 99 */
    splitPercentage: integer('split_percentage').notNull(),
  },
  (t) => [uniqueIndex('split_children_child').on(t.childId), check('split_children_percentage', sql`${t.splitPercentage} between 1 and 99 and ${t.primaryAccountId} <> ${t.splitAccountId}`)],
);

/** One charge of an invoice: an enrolment's tuition for the period, posted to the ledger as one CHARGE. */
export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    enrollmentId: integer('enrollment_id').notNull().references(() => enrollments.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    /** TUITION | SIBLING (the sibling fee) */
    kind: text('kind').notNull(),
    feeType: text('fee_type').notNull(),
    rateCents: cents('rate_cents').notNull(),
    days: integer('days').notNull(),
    scheduledDays: integer('scheduled_days').notNull(),
    prorated: boolean('prorated').notNull(),
    /** this account's share of the line in percent (100; a split child's: the split record's) */
    sharePercent: integer('share_percent').notNull().default(100),
    /** this account's part of the line (the whole line's amount times its share, the primary's rounded, the other the rest) */
    amountCents: cents('amount_cents').notNull(),
  },
  // an enrolment is billed once per invoice (so once per account, child and period)
  (t) => [uniqueIndex('invoice_lines_invoice_enrollment').on(t.invoiceId, t.enrollmentId)],
);

export const payments = pgTable('payments', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  adultId: integer('adult_id').references(() => adults.id),
  paymentDate: day('payment_date').notNull(),
  amountCents: cents('amount_cents').notNull(),
  /** CCD, ECH, CCR, ECR */
  paymentMethodCode: text('payment_method_code').notNull(),
  last4Digits: text('last4_digits').notNull().default(''),
  payerName: text('payer_name').notNull().default(''),
  status: text('status').notNull().default('APPROVED'),
  /** the processing fee paid on top of the amount (not part of the account's balance) */
  processingFeeCents: cents('processing_fee_cents').notNull().default(0),
  /** the checkout attempt this payment fulfils: at most one payment per attempt */
  attemptId: integer('attempt_id').unique(),
  gatewayTransactionId: text('gateway_transaction_id'),
  authCode: text('auth_code').notNull().default(''),
  /** VISA, MASTERCARD... or CHECKING, SAVINGS */
  brand: text('brand').notNull().default(''),
  payerEmail: text('payer_email').notNull().default(''),
  /** the outbox rows of its receipt e-mails (spec 8.2: 'could not be sent' when they failed) */
  receiptMails: jsonb('receipt_mails').$type<number[]>().notNull().default([]),
  /** PENDING (a bank debit on its way through the banks) | SETTLED | RETURNED */
  settlement: text('settlement').notNull().default('SETTLED'),
  /** the bank's return code (R01...) when RETURNED */
  returnCode: text('return_code').notNull().default(''),
  /** the saved method it was paid with or saved from */
  paymentMethodId: integer('payment_method_id').references((): AnyPgColumn => paymentMethods.id, { onDelete: 'set null' }),
});

export const autopayRegistrations = pgTable('autopay_registrations', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  adultId: integer('adult_id').notNull().references(() => adults.id),
  paymentMethodCode: text('payment_method_code').notNull(),
  /** W weekly, T twice a month, M monthly */
  frequency: text('frequency').notNull(),
  isAutoPay: boolean('is_auto_pay').notNull().default(true),
  isPaymentOnFile: boolean('is_payment_on_file').notNull().default(true),
  active: boolean('active').notNull().default(true),
  startDate: day('start_date').notNull(),
  /** the parent's maximum per autopay charge (null: none); what is above it stays due and she is told */
  maxChargeCents: cents('max_charge_cents'),
  /** when the parent (or the drop of its payer) cancelled it (spec 4 lifecycle: cancelled) */
  cancelledAt: ts('cancelled_at'),
});

/**
 * The automatic payment agreement a parent signed (spec 4, 7.1 /report/automatic-payment-agreement):
 * one row per enrolment or change, kept after a cancel. It records who pays with what, when it was
 * accepted, the terms' version and text as shown, how the amount is set and how to cancel.
 */
export const autopayAgreements = pgTable(
  'autopay_agreements',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    automaticPaymentRegistrationId: integer('automatic_payment_registration_id').notNull().references(() => autopayRegistrations.id, { onDelete: 'cascade' }),
    /** ENROL | CHANGE */
    kind: text('kind').notNull(),
    /** the payer (the method's adult) and the adult signed in who accepted */
    payerAdultId: integer('payer_adult_id').notNull().references(() => adults.id),
    signedByAdultId: integer('signed_by_adult_id').notNull().references(() => adults.id),
    payerName: text('payer_name').notNull(),
    payerEmail: text('payer_email').notNull().default(''),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** CCR | ECR, its brand or kind and last four digits as shown */
    paymentMethodCode: text('payment_method_code').notNull(),
    methodType: text('method_type').notNull(),
    last4Digits: text('last4_digits').notNull(),
    frequency: text('frequency').notNull(),
    /** the first service period the frequency starts with */
    startDate: day('start_date').notNull(),
    maxChargeCents: cents('max_charge_cents'),
    discountPercent: text('discount_percent').notNull().default('0'),
    /** sha256 of the terms' sanitised text as shown, its first 16 hex digits */
    termsVersion: text('terms_version').notNull(),
    termsHtml: text('terms_html').notNull(),
    locale: text('locale').notNull(),
    signedAt: ts('signed_at').notNull(),
    /** the outbox row of the e-mail that carried the PDF */
    mailId: integer('mail_id'),
  },
  (t) => [index('autopay_agreements_account').on(t.providerId, t.accountId)],
);

/**
 * One charge of the autopay run (server/domains/payments/autopay.ts): an account's invoice of a
 * service period presented to its autopay method, one row per try. (account, service period, attempt)
 * is unique, so a rerun of the run, or two instances running it at once, insert the row once and only
 * the one that inserted it opens its payment attempt; the charge goes through that attempt (its key
 * is the gateway's idempotency key), so the payment is posted once. A failed try carries the retry
 * schedule: the day of the next try (next_try_date) or final (no more tries; the provider is told).
 */
export const autopayCharges = pgTable(
  'autopay_charges',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    automaticPaymentRegistrationId: integer('automatic_payment_registration_id').notNull().references(() => autopayRegistrations.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    servicePeriodDetailID: integer('service_period_detail_id').notNull(),
    /** 1 the first presentation, then each retry of a soft decline or re-presentation of a bank return */
    attempt: integer('attempt').notNull(),
    /** the day this try is made */
    chargeDate: day('charge_date').notNull(),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** CCR saved card, ECR saved bank account */
    paymentMethodCode: text('payment_method_code').notNull(),
    /** what was due on the day, the autopay discount taken off */
    amountDueCents: cents('amount_due_cents').notNull(),
    /** the invoice's autopay discount, credited when the charge is approved */
    discountCents: cents('discount_cents').notNull().default(0),
    /** what is charged: the amount due, at most the parent's maximum */
    amountCents: cents('amount_cents').notNull(),
    paymentAttemptId: integer('payment_attempt_id').unique().references(() => paymentAttempts.id, { onDelete: 'set null' }),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** PENDING (asked, no answer yet) | APPROVED | DECLINED | RETURNED (a bank debit the bank returned) */
    status: text('status').notNull().default('PENDING'),
    /** the gateway's reason (INSUFFICIENT_FUNDS, STOLEN...) or the bank's return code (R01...) */
    reasonCode: text('reason_code').notNull().default(''),
    /** SOFT | HARD (card declines, rules autopay.declineClass) | RETURN (bank returns) */
    declineClass: text('decline_class').notNull().default(''),
    /** the retry schedule: the day of the next try of a failed charge (null: none) */
    nextTryDate: day('next_try_date'),
    /** no more tries of this invoice: the parent and the provider were told */
    final: boolean('final').notNull().default(false),
    /** the parent was told of this try's failure (or, approved, of what above her maximum stays due) */
    parentToldAt: ts('parent_told_at'),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    uniqueIndex('autopay_charges_account_period_attempt').on(t.providerId, t.accountId, t.servicePeriodDetailID, t.attempt),
    index('autopay_charges_retry').on(t.providerId, t.nextTryDate).where(sql`${t.nextTryDate} IS NOT NULL`),
    index('autopay_charges_open').on(t.providerId, t.status),
  ],
);

/** The e-mail telling the parent of an autopay charge ahead (amount, date, method): one per account and service period. */
export const autopayNotices = pgTable(
  'autopay_notices',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    invoiceId: integer('invoice_id').notNull().references(() => invoices.id, { onDelete: 'cascade' }),
    servicePeriodDetailID: integer('service_period_detail_id').notNull(),
    /** the day the charge will be made */
    chargeDate: day('charge_date').notNull(),
    amountCents: cents('amount_cents').notNull(),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    paymentMethodCode: text('payment_method_code').notNull(),
    /** how many days ahead it was due (the provider's notice days, or the bank's when the amount changed) */
    daysAhead: integer('days_ahead').notNull(),
    outboxId: integer('outbox_id'),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [uniqueIndex('autopay_notices_account_period').on(t.providerId, t.accountId, t.servicePeriodDetailID)],
);

/**
 * Spec 3 autopay errors: an autopay charge that failed (transactionStatusCode PAYMENT FAILED, or
 * SCHEDULING FAILED when it could not be made at all), shown as spec 2.12's alert on Home and /paynow
 * until what was paid since (amount) reaches what failed (paymentAmount). One per failed try.
 */
export const autopayErrors = pgTable(
  'autopay_errors',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    autopayChargeId: integer('autopay_charge_id').notNull().unique().references(() => autopayCharges.id, { onDelete: 'cascade' }),
    /** PAYMENT FAILED | SCHEDULING FAILED */
    transactionStatusCode: text('transaction_status_code').notNull(),
    /** what failed to be charged */
    paymentAmountCents: cents('payment_amount_cents').notNull(),
    transactionDate: day('transaction_date').notNull(),
    /** CCR | ECR */
    paymentMethodCode: text('payment_method_code').notNull(),
    /** the card's brand or the bank account's kind */
    paymentMethod: text('payment_method').notNull().default(''),
    /** the last four digits of the card or bank account */
    bankAccountDetails: text('bank_account_details').notNull().default(''),
    reasonCode: text('reason_code').notNull().default(''),
    /** a later try of the same invoice was approved */
    resolvedAt: ts('resolved_at'),
  },
  (t) => [index('autopay_errors_account').on(t.providerId, t.accountId)],
);

/**
 * A payment method the gateway keeps for later payments (spec 2.12, 4): the portal holds its token and
 * what it shows, never a card or account number. A row without a token cannot be charged.
 */
export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    adultId: integer('adult_id').notNull().references(() => adults.id),
    automaticPaymentRegistrationId: integer('automatic_payment_registration_id').references(() => autopayRegistrations.id),
    /** CCR saved card, ECR saved bank account */
    paymentMethodCode: text('payment_method_code').notNull(),
    /** the card's brand or the bank account's kind */
    type: text('type').notNull(),
    last4Digits: text('last4_digits').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** MM/YY for cards, null for bank accounts */
    expiry: text('expiry'),
    savedOn: day('saved_on').notNull(),
    usedForAutoPay: boolean('used_for_auto_pay').notNull().default(false),
    /** the gateway's token (merchant-scoped) */
    token: text('token'),
    /** the gateway provider code that keeps the token */
    gatewayCode: integer('gateway_code'),
    /** ACTIVE | INVALID (closed or unknown account) | BLOCKED (the payer revoked the authorisation) */
    status: text('status').notNull().default('ACTIVE'),
    /** the bank's return code that set the status */
    statusReason: text('status_reason').notNull().default(''),
    /** the expiry (MM/YY) whose 30-day notice was sent */
    expiryNoticeFor: text('expiry_notice_for'),
    /** a bank account the gateway accepted on its first debit */
    validated: boolean('validated').notNull().default(false),
  },
  (t) => [uniqueIndex('payment_methods_token').on(t.providerId, t.gatewayCode, t.token).where(sql`token IS NOT NULL`)],
);

export const bulletins = pgTable('bulletins', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  subject: text('subject').notNull(),
  message: text('message').notNull(),
  startDate: day('start_date').notNull(),
  endDate: day('end_date'),
  translations: translations(),
});

export const bulletinAttachments = pgTable('bulletin_attachments', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  bulletinId: integer('bulletin_id').notNull().references(() => bulletins.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  documentType: text('document_type').notNull(),
  mimeType: text('mime_type').notNull(),
  content: bytea('content').notNull(),
});

export const forms = pgTable('forms', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  formName: text('form_name').notNull(),
  translations: translations(),
  documentType: text('document_type').notNull(),
  mimeType: text('mime_type').notNull(),
  fileName: text('file_name').notNull(),
  content: bytea('content').notNull(),
});

export const calendarEvents = pgTable('calendar_events', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  start: text('start').notNull(),
  end: text('end').notNull(),
  allDay: boolean('all_day').notNull().default(false),
  description: text('description').notNull().default(''),
  translations: translations(),
});

export const communications = pgTable(
  'communications',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** EMAIL | TEXT */
    mode: text('mode').notNull(),
    subject: text('subject').notNull(),
    fromName: text('from_name').notNull(),
    description: text('description').notNull(),
    createdOn: ts('created_on').notNull(),
    isAutomatic: boolean('is_automatic').notNull().default(false),
  },
  (t) => [index('communications_account').on(t.providerId, t.accountId, t.createdOn)],
);

export const alerts = pgTable('alerts', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  /** L = login page, H = home */
  location: text('location').notNull(),
  alertText: text('alert_text').notNull(),
  startDate: day('start_date').notNull(),
  endDate: day('end_date'),
  translations: translations(),
});

export const absenceReasons = pgTable('absence_reasons', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  reason: text('reason').notNull(),
  showInParentPortal: boolean('show_in_parent_portal').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
  translations: translations(),
});

export const attendance = pgTable(
  'attendance',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    siteId: integer('site_id').notNull().references(() => sites.id),
    attendanceDate: day('attendance_date').notNull(),
    /** BEFORE SCHOOL | AFTER SCHOOL | FULL DAY */
    timeOffered: text('time_offered').notNull(),
    timeIn: text('time_in'),
    timeOut: text('time_out'),
    inBy: text('in_by'),
    outBy: text('out_by'),
    absentReason: text('absent_reason'),
    /** the program the check-in is for (a punch pass covers one program); null on older records */
    programPeriodId: integer('program_period_id'),
  },
  (t) => [index('attendance_child_date').on(t.providerId, t.childId, t.attendanceDate)],
);

export const absenceNotices = pgTable('absence_notices', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
  adultId: integer('adult_id').notNull().references(() => adults.id),
  childIds: jsonb('child_ids').$type<number[]>().notNull(),
  reason: text('reason').notNull(),
  otherReason: text('other_reason').notNull().default(''),
  startDate: day('start_date').notNull(),
  endDate: day('end_date'),
  timeOffered: text('time_offered').notNull(),
  additionalInfo: text('additional_info').notNull(),
  createdAt: ts('created_at').notNull(),
});

export const outbox = pgTable('outbox', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').references(() => providers.id, { onDelete: 'cascade' }),
  /** what the mail is about, e.g. account_locked */
  kind: text('kind').notNull(),
  toAddress: text('to_address').notNull(),
  fromAddress: text('from_address').notNull(),
  subject: text('subject').notNull(),
  textBody: text('text_body').notNull(),
  htmlBody: text('html_body'),
  /** files sent with the mail: name, content type and the bytes in base64 (an agreement's PDF) */
  attachments: jsonb('attachments').$type<{ filename: string; contentType: string; base64: string }[]>(),
  createdAt: ts('created_at').notNull(),
  sentAt: ts('sent_at'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  /** the sender (instance) sending it now; no other sends it until lease_until (server/outbox.ts) */
  claimedBy: text('claimed_by'),
  /** while claimed, the claim's end; after a failure, when it may be tried again */
  leaseUntil: ts('lease_until'),
});

/**
 * Background work (server/jobs): one row per run of a job, claimed by one instance at a time under a
 * lease. (name, key) is unique, so enqueuing a run twice, or ten instances scheduling a recurring one,
 * leaves one row.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    name: text('name').notNull(),
    key: text('key').notNull(),
    payload: jsonb('payload').$type<unknown>().notNull().default({}),
    /** pending, running (claimed: locked_by until lease_until), done, dead (attempts used up) */
    state: text('state').$type<'pending' | 'running' | 'done' | 'dead'>().notNull().default('pending'),
    runAt: ts('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    leaseUntil: ts('lease_until'),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_name_key').on(t.name, t.key),
    index('jobs_due').on(t.runAt).where(sql`${t.state} = 'pending'`),
    index('jobs_leased').on(t.leaseUntil).where(sql`${t.state} = 'running'`),
    check('jobs_state', sql`${t.state} in ('pending', 'running', 'done', 'dead')`),
  ],
);

export const errorLog = pgTable('error_log', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').references(() => providers.id, { onDelete: 'cascade' }),
  adultId: integer('adult_id'),
  device: text('device').notNull().default(''),
  pageName: text('page_name').notNull(),
  url: text('url').notNull(),
  previousUrl: text('previous_url').notNull().default(''),
  userName: text('user_name').notNull().default(''),
  browser: text('browser').notNull().default(''),
  eventDateTime: text('event_date_time').notNull().default(''),
  apiErrorLogId: text('api_error_log_id').notNull().default(''),
  stackTrace: text('stack_trace').notNull().default(''),
  message: text('message').notNull().default(''),
  source: text('source').notNull(),
  ip: text('ip').notNull().default(''),
  createdAt: ts('created_at').notNull(),
});

/**
 * One-time hand-off tokens to the provider's other products (spec 4 redirect flows, 7.3; amendment 4):
 * the keyelement the portal puts in the product's address. Only its SHA-256 is stored; it expires
 * within a minute and is redeemed once, by the same provider.
 */
export const applicationTokens = pgTable(
  'application_tokens',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    adultId: integer('adult_id').notNull(),
    loginId: integer('login_id').notNull(),
    /** the portal session the hand-off started from */
    sessionId: integer('session_id').notNull(),
    /** parentapplication | calendar | onetimeenrollment | punchpass */
    product: text('product').notNull(),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** the ApplicationTokenString fields (7.3) the product receives when it redeems the keyelement */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('application_tokens_account').on(t.providerId, t.accountId)],
);

/**
 * The year-end grade roll-up an account confirmed (programs list): once per season (the year the
 * provider's window opened), so the question is not asked again after the grades were saved.
 */
export const gradeRollups = pgTable(
  'grade_rollups',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    season: integer('season').notNull(),
    adultId: integer('adult_id').notNull(),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    confirmedAt: ts('confirmed_at').notNull(),
  },
  (t) => [uniqueIndex('grade_rollups_account_season').on(t.providerId, t.accountId, t.season)],
);

/**
 * The parent application in progress (spec 2.1 `key`, amendment 4): one open draft per account and
 * program period, kept on the server so the parent continues on any device. The key names the draft;
 * it is never a credential (every call also needs the account's session).
 */
export const applicationDrafts = pgTable(
  'application_drafts',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull().unique(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    /** children | enrollment | fee | review | submitted */
    step: text('step').notNull().default('children'),
    data: jsonb('data').$type<DraftData>().notNull().default({}),
    /** open | submitting | submitted | discarded */
    status: text('status').notNull().default('open'),
    /** applicationTypeID (spec 9): 1 an application for the program, 5 a one-time enrolment */
    applicationTypeId: integer('application_type_id').notNull().default(1),
    /** the confirmation of a submitted draft (a retried submit answers it again) */
    result: jsonb('result').$type<Confirmation>(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    submittedAt: ts('submitted_at'),
    /**
     * Paying the fees of a submitted application (amendment 7): null until its charges are on the
     * ledger; NONE nothing to pay now; AWAITING its seats held until hold_until; PAID; LATER (pay
     * later); EXPIRED the hold ended unpaid and the seats went back; REFUNDED paid after that
     */
    paymentStatus: text('payment_status'),
    holdUntil: ts('hold_until'),
    /** what the parent pays now (the charges less the credit applied) */
    amountDueCents: integer('amount_due_cents').notNull().default(0),
    /** the charges the submit put on the ledger */
    chargedCents: integer('charged_cents').notNull().default(0),
    /** the parent told of the hold (the submitter's address and language): warned before it ends, told when it ended */
    noticeEmail: text('notice_email'),
    noticeLocale: text('notice_locale'),
    /** when the warning that the hold is about to end was queued (once: a conditional UPDATE claims it) */
    holdWarnedAt: ts('hold_warned_at'),
  },
  (t) => [index('application_drafts_account').on(t.providerId, t.accountId, t.programPeriodId), index('application_drafts_hold').on(t.paymentStatus, t.holdUntil)],
);

/**
 * Seats (spec 4 enrolment and seats): an activity at its site for its time offered, per week for
 * weekly (summer) programs and once for the others (week_start 1900-01-01). A seat is taken with one
 * conditional UPDATE ... WHERE taken < total, so no program is ever overbooked.
 */
export const seats = pgTable(
  'seats',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    weekStart: day('week_start').notNull(),
    total: integer('total').notNull(),
    taken: integer('taken').notNull().default(0),
  },
  (t) => [uniqueIndex('seats_activity_week').on(t.activityId, t.weekStart)],
);

/**
 * A date a single-date activity (type 4) is offered on for one-time enrolment (spec 2.11, 4). Its
 * seats are the seats row of the activity with week_start the date; capacity null: the activity's.
 */
export const onetimeDates = pgTable(
  'onetime_dates',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    date: day('date').notNull(),
    capacity: integer('capacity'),
  },
  (t) => [uniqueIndex('onetime_dates_activity_date').on(t.activityId, t.date)],
);

/**
 * A date a one-time enrolment (application type 5) took for a child: its seat, held with the
 * enrolment (released, with its date, when the hold ends unpaid), and the fee it charged.
 */
export const onetimeTakes = pgTable(
  'onetime_takes',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    draftId: integer('draft_id').notNull().references(() => applicationDrafts.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    activityId: integer('activity_id').notNull().references(() => activities.id, { onDelete: 'cascade' }),
    seatId: integer('seat_id').notNull().references(() => seats.id, { onDelete: 'cascade' }),
    date: day('date').notNull(),
    feeCents: integer('fee_cents').notNull(),
    /** held | released (a calendar's flex date removed by the parent: removed) */
    status: text('status').notNull().default('held'),
    /** the kind of the child's plan date it made: oneTime, or flex for the calendar's */
    kind: text('kind').notNull().default('oneTime'),
  },
  (t) => [index('onetime_takes_draft').on(t.draftId), uniqueIndex('onetime_takes_child_date_held').on(t.childId, t.activityId, t.date).where(sql`${t.status} = 'held'`)],
);

/** The waitlist of a seat: the id is the monotonic order (two requests never share a place). */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    seatId: integer('seat_id').notNull().references(() => seats.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull().references(() => children.id, { onDelete: 'cascade' }),
    registrationId: integer('registration_id').notNull().references(() => registrations.id, { onDelete: 'cascade' }),
    /** active | promoted | removed */
    status: text('status').notNull().default('active'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('waitlist_entries_seat').on(t.seatId, t.status), index('waitlist_entries_registration').on(t.registrationId)],
);

/** A seat a submitted registration holds (released when the provider rejects the application). */
export const seatTakes = pgTable(
  'seat_takes',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    seatId: integer('seat_id').notNull().references(() => seats.id, { onDelete: 'cascade' }),
    registrationId: integer('registration_id').notNull().references(() => registrations.id, { onDelete: 'cascade' }),
    /** held | released */
    status: text('status').notNull().default('held'),
    /** the change of schedule that took it (null: the application) */
    changeRequestId: integer('change_request_id'),
  },
  (t) => [index('seat_takes_registration').on(t.registrationId)],
);

/**
 * A parent's change of schedule (spec 2.1 /changeschedule, 2.11, 9 application type 4): a draft kept
 * on the server under its random hex key (the parent continues on any device), then a request that
 * took the new schedule's seats and waits for the provider (waiting) or for its effective date
 * (scheduled), and is applied on that date (applied) or rejected by the provider (rejected). The
 * key names the request; it is never a credential (every call also needs the account's session).
 */
export const changeRequests = pgTable(
  'change_requests',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull().unique(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    /** open | waiting | scheduled | applied | rejected | discarded */
    status: text('status').notNull().default('open'),
    data: jsonb('data').$type<ChangeData>().notNull().default({}),
    effectiveDate: day('effective_date'),
    /** what the change cost when submitted (src/engine/changeSchedule.ts ChangeCost, per child and together) */
    cost: jsonb('cost').$type<Record<string, unknown>>(),
    changeFeeCents: integer('change_fee_cents').notNull().default(0),
    /** what the submit put on the ledger: charges, and credits (a cheaper schedule in an invoiced period) */
    chargedCents: integer('charged_cents').notNull().default(0),
    creditedCents: integer('credited_cents').notNull().default(0),
    /** what the parent pays now (the charges less the account's credit) */
    amountDueCents: integer('amount_due_cents').notNull().default(0),
    /** the change applies itself on its effective date (canParentChangeEnrollment) or waited for the provider */
    appliesItself: boolean('applies_itself').notNull().default(true),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
    submittedAt: ts('submitted_at'),
    decidedAt: ts('decided_at'),
    appliedAt: ts('applied_at'),
  },
  (t) => [index('change_requests_account').on(t.providerId, t.accountId, t.programPeriodId), index('change_requests_due').on(t.status, t.effectiveDate)],
);

/** What a change request holds: per child a new schedule (at a site) or no change, and the effective date. */
export interface ChangeData {
  children?: { prChildID: number; noChange: boolean; siteID: number | null; selections: { activityID: number; daysOfWeek: string[] }[] }[];
  effectiveDate?: string | null;
  /** an add-weeks request of a weekly program (server/domains/enrolment/addWeeks.ts): the weeks chosen per child, no schedule change */
  addWeeks?: { weeks: { childID: number; activityID: number; weekStart: string; daysOfWeek: string[] }[] };
}

/** Optional miscellaneous fees of a program the parent may add to an application (spec 2.11). */
export const miscCharges = pgTable('misc_charges', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
  feeName: text('fee_name').notNull(),
  translations: translations(),
  /** integer cents */
  amountCents: integer('amount_cents').notNull(),
  /** false: not care (a field trip, a T-shirt): left out of the year-end tax documents' care amounts */
  isCare: boolean('is_care').notNull().default(true),
});

/** The financial assistance agencies a program accepts (spec 3 Financial assistance). */
export const assistanceAgencies = pgTable('assistance_agencies', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
  agency: text('agency').notNull(),
  translations: translations(),
});

/**
 * The account's ledger (spec 3 Account summary, amendment 8): charges, late fees and refunds raise
 * what the account owes, payments and credits lower it, all in integer cents. Balances, past due and
 * invoice balances are derived from it, never stored.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** CHARGE | LATE_FEE | REFUND | RETURN (a payment the bank returned) raise the balance; PAYMENT | CREDIT lower it */
    kind: text('kind').notNull(),
    /** positive integer cents */
    amountCents: integer('amount_cents').notNull(),
    entryDate: day('entry_date').notNull(),
    /** when a charge falls due (past due after it) */
    dueDate: day('due_date'),
    invoiceId: integer('invoice_id').references(() => invoices.id, { onDelete: 'set null' }),
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** the refund of a payment attempt (one refund entry per gateway refund) */
    refundId: text('refund_id').unique(),
    description: text('description').notNull().default(''),
    /** the child a charge is for (an invoice line's), for statements and year-end documents */
    childId: integer('child_id').references(() => children.id, { onDelete: 'set null' }),
    /** the invoice line a CHARGE posts */
    invoiceLineId: integer('invoice_line_id').references(() => invoiceLines.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    index('ledger_entries_account').on(t.providerId, t.accountId),
    uniqueIndex('ledger_entries_payment_kind').on(t.paymentId, t.kind),
    // an invoice gets one late fee at most, an invoice line one charge
    uniqueIndex('ledger_entries_invoice_late_fee').on(t.invoiceId).where(sql`${t.kind} = 'LATE_FEE'`),
    uniqueIndex('ledger_entries_invoice_line').on(t.invoiceLineId),
  ],
);

/**
 * One try to pay (pay now, or an application's fees) through a gateway's hosted page. The parent's
 * browser carries `publicId` and the idempotency key; the status moves once, by a conditional
 * update, from CREATED to APPROVED, DECLINED, ERROR, CANCELLED or EXPIRED, or from CANCELLED or
 * EXPIRED to APPROVED when the gateway took a payment all the same (then refunded). The database
 * holds two rules: an account has at most one live (CREATED) attempt, so two tabs or two methods
 * never have two payable pages; and an APPROVED attempt always has its posted payment.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    /** the login that started it */
    adultId: integer('adult_id').notNull().references(() => adults.id),
    /** random, the gateway's reference */
    publicId: text('public_id').notNull().unique(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** BALANCE (pay now) | APPLICATION (a parent application's fees) */
    purpose: text('purpose').notNull(),
    draftId: integer('draft_id').references(() => applicationDrafts.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    feeCents: integer('fee_cents').notNull().default(0),
    /** CCD new card | ECH new bank account | CCR saved card | ECR saved bank account */
    paymentMethodCode: text('payment_method_code').notNull(),
    /** the saved method charged server to server (no page): its attempt has no checkout */
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, { onDelete: 'set null' }),
    /** the parent was offered to save the method on the hosted page */
    saveMethod: boolean('save_method').notNull().default(false),
    /** spec 4 OTP variants: pay now and enrol in autopay with the method saved on the hosted page (the agreement accepted on the payer page) */
    autopayRequest: jsonb('autopay_request').$type<AutopayRequest>(),
    gatewayCode: integer('gateway_code').notNull(),
    checkoutId: text('checkout_id').unique(),
    checkoutUrl: text('checkout_url'),
    /** the payer details of spec 3 (never a card or bank number) */
    payer: jsonb('payer').$type<Record<string, unknown>>().notNull(),
    /** CREATED | APPROVED | DECLINED | ERROR | CANCELLED | EXPIRED */
    status: text('status').notNull().default('CREATED'),
    reasonCode: text('reason_code').notNull().default(''),
    transactionId: text('transaction_id').unique(),
    paymentId: integer('payment_id').references(() => payments.id),
    /** where a retry goes back to (spec 2.12 payment error pages) */
    referrer: text('referrer').notNull().default('/paynow'),
    locale: text('locale').notNull().default('en'),
    /** seats of the application are held until then */
    holdUntil: ts('hold_until'),
    /** cents refunded automatically (see refund_reason) */
    refundedCents: integer('refunded_cents').notNull().default(0),
    /**
     * Why an approved payment is refunded in full, '' when it is not: SEATS_RELEASED (the hold ended
     * first), ALREADY_PAID (its application was paid by another payment), CLOSED (the attempt had been
     * cancelled or had expired when the gateway took it). Set with the posting; the refund follows
     * after the commit and the reconciler retries it until refunded_cents says it is done.
     */
    refundReason: text('refund_reason').notNull().default(''),
    createdAt: ts('created_at').notNull(),
    completedAt: ts('completed_at'),
  },
  (t) => [
    uniqueIndex('payment_attempts_idempotency').on(t.providerId, t.accountId, t.idempotencyKey),
    uniqueIndex('payment_attempts_one_live').on(t.providerId, t.accountId).where(sql`status = 'CREATED'`),
    index('payment_attempts_open').on(t.status, t.createdAt),
    check('payment_attempts_approved_posted', sql`status <> 'APPROVED' OR payment_id IS NOT NULL`),
  ],
);

/** Gateway notifications already handled: a repeated event id changes nothing (primary key). */
export const gatewayEvents = pgTable(
  'gateway_events',
  {
    gatewayCode: integer('gateway_code').notNull(),
    eventId: text('event_id').notNull(),
    transactionId: text('transaction_id').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [uniqueIndex('gateway_events_pk').on(t.gatewayCode, t.eventId)],
);

/**
 * Requests counted against the per-address limits (@fastify/rate-limit's store, server/rateLimitStore.ts):
 * one row per route and key (the client address) with its window, shared by every instance on the
 * database; rows whose window ended are purged.
 */
export const requestCounts = pgTable(
  'request_counts',
  {
    /** the route's method and path (POST/api/Authentication/login) */
    route: text('route').notNull(),
    key: text('key').notNull(),
    windowStart: ts('window_start').notNull(),
    windowEnds: ts('window_ends').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [uniqueIndex('request_counts_route_key').on(t.route, t.key), index('request_counts_window_ends').on(t.windowEnds)],
);

/** A scheduled holiday of a calendar program (spec 2.11): no flex date is taken on it. */
export const calendarHolidays = pgTable(
  'calendar_holidays',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
    date: day('date').notNull(),
    name: text('name').notNull(),
    translations: translations(),
  },
  (t) => [uniqueIndex('calendar_holidays_program_date').on(t.programPeriodId, t.date)],
);

/** An account's iCal feed: its secret address kept only as a SHA-256; revoked, it answers no more. */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('calendar_feeds_token_hash').on(t.tokenHash), uniqueIndex('calendar_feeds_account_live').on(t.accountId).where(sql`${t.revokedAt} IS NULL`)],
);

/** A punch pass a provider offers for a program: visits per child or per family, a price, an expiry date, a refund policy (in its languages). */
export const punchPasses = pgTable('punch_passes', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
  programPeriodId: integer('program_period_id').notNull().references(() => programPeriods.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  refundPolicy: text('refund_policy').notNull().default(''),
  translations: translations(),
  priceCents: integer('price_cents').notNull(),
  visits: integer('visits').notNull(),
  /** child | family */
  scope: text('scope').notNull(),
  expiresOn: day('expires_on').notNull(),
  retiredAt: timestamp('retired_at', { withTimezone: true }),
});

/** A pass an account holds: bought through the checkout (its draft, valid once paid) or given (no draft). */
export const punchHoldings = pgTable(
  'punch_holdings',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull().references(() => providers.id, { onDelete: 'cascade' }),
    accountId: integer('account_id').notNull().references(() => accounts.id, { onDelete: 'cascade' }),
    passId: integer('pass_id').notNull().references(() => punchPasses.id, { onDelete: 'cascade' }),
    /** the child of a per-child pass; null for a family's */
    childId: integer('child_id').references(() => children.id, { onDelete: 'cascade' }),
    draftId: integer('draft_id').references(() => applicationDrafts.id, { onDelete: 'cascade' }),
    visits: integer('visits').notNull(),
    used: integer('used').notNull().default(0),
    expiresOn: day('expires_on').notNull(),
    twoLeftSent: boolean('two_left_sent').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('punch_holdings_draft').on(t.draftId), check('punch_holdings_used_within', sql`"used" >= 0 AND "used" <= "visits"`)],
);

/** A check-in that used a punch: one per attendance record. */
export const punchUses = pgTable(
  'punch_uses',
  {
    id: serial('id').primaryKey(),
    holdingId: integer('holding_id').notNull().references(() => punchHoldings.id, { onDelete: 'cascade' }),
    attendanceId: integer('attendance_id').notNull().references(() => attendance.id, { onDelete: 'cascade' }),
    childId: integer('child_id').notNull(),
    date: day('date').notNull(),
  },
  (t) => [uniqueIndex('punch_uses_attendance').on(t.attendanceId)],
);
