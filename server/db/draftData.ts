// What an application draft holds (applicationDrafts.data): the children, their activities and the
// choices of the later steps, as the application's steps saved them.
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
