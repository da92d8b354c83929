// The persisted session state of spec section 3: everything the portal remembers client side.
import type { AuthenticationLoginResponse } from '../engine/contract.gen';
export type FontSize = 'small' | 'default' | 'medium' | 'large';

export interface LocaleOption {
  code: string;
  name: string;
}

/** In-progress application data kept under the `key` query parameter of a flow. */
export interface FlowApplication {
  prAccountID: number;
  programPeriodID: number;
  applicationTypeID: number;
  data: Record<string, unknown>;
}

export interface SessionState {
  locale: string;
  locales: LocaleOption[];
  token: string | null;
  /** F full access, P payment only */
  accessType: string;
  /** 1 primary, 2 secondary */
  accountHolder: number | null;
  countryCode: string;
  customerID: number | null;
  programName: string;
  logo: string;
  organisation: string;
  supportPhone: string;
  supportEmail: string;
  isMultiLanguageSupport: boolean;
  hasSmsLicense: boolean;
  accountID: number | null;
  adultID: number | null;
  accountNo: string;
  userName: string;
  firstName: string;
  lastName: string;
  email: string;
  /** signed in with a temporary password: only the password change is open */
  isTemporaryPassword: boolean;
  applicationName: string;
  /** the provider chosen by /<appName>/parent */
  appName: string;
  releaseVersion: string;
  applicationVersion: string;
  isSchoolDistrict: boolean;
  theme: string;
  accessibilityTheme: boolean;
  fontSize: FontSize;
  sessionExpired: boolean;
  loaderInfo: { type: 'common' | 'payment'; referrer?: string };
  error: { statusCode: number; message: string; show: boolean };
  applications: Record<string, FlowApplication>;
}

// The signed-in fields are the login answer of the API contract; the session must hold every one of
// them with a compatible type, so a contract change the session cannot hold fails the type check.
type LoginSession = AuthenticationLoginResponse['session'];
export const loginFitsSession = (s: LoginSession): Partial<SessionState> => s;
const everyLoginFieldKept: Exclude<keyof LoginSession, keyof SessionState> extends never ? true : never = true;
void everyLoginFieldKept;

export const defaultSession: SessionState = {
  locale: 'en',
  locales: [
    { code: 'en', name: 'English' },
    { code: 'es', name: 'Español' },
    { code: 'pt', name: 'Português' },
    { code: 'vi', name: 'Tiếng Việt' },
  ],
  token: null,
  accessType: 'F',
  accountHolder: null,
  countryCode: 'US',
  customerID: null,
  programName: '',
  logo: '',
  organisation: '',
  supportPhone: '',
  supportEmail: '',
  isMultiLanguageSupport: true,
  hasSmsLicense: false,
  accountID: null,
  adultID: null,
  accountNo: '',
  userName: '',
  firstName: '',
  lastName: '',
  email: '',
  isTemporaryPassword: false,
  applicationName: 'parentportal',
  appName: '',
  releaseVersion: '',
  applicationVersion: '',
  isSchoolDistrict: false,
  theme: 'default',
  accessibilityTheme: false,
  fontSize: 'default',
  sessionExpired: false,
  loaderInfo: { type: 'common' },
  error: { statusCode: 0, message: '', show: false },
  applications: {},
};

/**
 * Merges a stored (possibly older or partial) session over the defaults, so a field added to the
 * state later never reads as undefined after an upgrade.
 */
export function reviveSession(stored: unknown): SessionState {
  if (!stored || typeof stored !== 'object') return { ...defaultSession };
  // a session stored by an earlier release may hold the loading counter, which is no longer stored
  const { loading: _loading, ...s } = stored as Partial<SessionState> & { loading?: unknown };
  return {
    ...defaultSession,
    ...s,
    // a reload never resumes a loader (the payment loader belongs to the page that left)
    loaderInfo: { ...defaultSession.loaderInfo },
    error: { ...defaultSession.error, ...(s.error ?? {}) },
    applications: { ...(s.applications ?? {}) },
  };
}

/** Sign out: the token and everything about the account go; language and provider stay (spec 2.4). */
export function signedOutSession(s: SessionState): SessionState {
  return {
    ...defaultSession,
    locale: s.locale,
    locales: s.locales,
    appName: s.appName,
    applicationName: s.applicationName,
    countryCode: s.countryCode,
    customerID: s.customerID,
    programName: s.programName,
    logo: s.logo,
    organisation: s.organisation,
    supportPhone: s.supportPhone,
    supportEmail: s.supportEmail,
    isMultiLanguageSupport: s.isMultiLanguageSupport,
    hasSmsLicense: s.hasSmsLicense,
    isSchoolDistrict: s.isSchoolDistrict,
    releaseVersion: s.releaseVersion,
    applicationVersion: s.applicationVersion,
    theme: s.theme,
    accessibilityTheme: s.accessibilityTheme,
    fontSize: s.fontSize,
  };
}
