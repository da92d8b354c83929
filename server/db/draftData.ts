// What an application draft holds (applicationDrafts.data): the children, their activities and the
// choices of the later steps, the way the application's steps saved them (the contract's draft
// data, ParentApplication.draft); and what its submit answered (applicationDrafts.result).
import type { RegistrationStatus } from '../../src/engine/programCodes';
import type { ParentApplicationDraftResponse } from '../../src/engine/contract.gen';

type ContractDraftData = ParentApplicationDraftResponse['data'];
export type ChildChoice = NonNullable<ContractDraftData['children']>[number];
export type Selection = ChildChoice['selections'][number];
/** the contract's, with the two answers the enrolment step stores for enrollmentOption */
export type DraftData = Omit<ContractDraftData, 'enrollmentOption'> & { enrollmentOption?: 'Y' | 'N' | null; oneTime?: OneTimeChoice[]; punchPass?: { passID: number; childID: number | null } };

/** A child's choice in a one-time enrolment (application type 5): dates of the one-time activities, or skipped. */
export interface OneTimeChoice {
  childID: number;
  status: 'enrol' | 'skip';
  picks: { activityID: number; date: string }[];
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
