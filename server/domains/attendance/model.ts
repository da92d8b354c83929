// The attendance domain's model.

/** The part of the day a record is for (the recorded text). */
export type TimeOffered = 'BEFORE SCHOOL' | 'AFTER SCHOOL' | 'FULL DAY';

/** An absence notice from the form (the engine's data: hidden values pruned, no end date unless multi-day). */
export interface AbsenceNotice {
  childIDs: number[];
  reasonID?: number;
  otherReason?: string;
  startDate: string;
  endDate?: string;
  timeOffered: string;
  additionalInfo: string;
}
