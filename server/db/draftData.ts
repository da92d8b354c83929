// What an application draft holds (applicationDrafts.data): the children, their activities and the
// choices of the later steps, as the application's steps saved them; and what its submit answered
// (applicationDrafts.result).
import type { RegistrationStatus } from '../../src/engine/programCodes';

export interface Selection {
  activityID: number;
  weekStart: string | null;
  daysOfWeek: string[];
  date: string | null;
  daysPerWeek?: number;
  activityTypeID?: number;
}
export interface ChildChoice {
  prChildID: number;
  childName: string;
  siteID: number;
  selections: Selection[];
}
export interface DraftData {
  childIDs?: number[];
  children?: ChildChoice[];
  enrollmentOption?: 'Y' | 'N' | null;
  miscCharges?: number[];
  isCreditBalanceApplied?: boolean;
  isOptedFinancialAssistance?: boolean;
  agencies?: number[];
}

/** The answer of a draft's submit, kept to answer a retried submit again. */
export interface Confirmation {
  key: string;
  programPeriodID: number;
  programPeriod: string;
  submittedOn: string | null;
  emailSent: boolean;
  parentName: string;
  children: {
    prChildID: number;
    fullName: string;
    status: RegistrationStatus;
    waitlistPosition?: number | null;
    /** a waitlisted choice names its entry by registration and seat (`entryId` in confirmations stored before) */
    activities: { activityID: number; activity: string; weekStart: string | null; state: 'A' | 'W' | 'FULL'; entryId?: number | null; seatId?: number; registrationId?: number; waitlistPosition?: number | null }[];
  }[];
}
