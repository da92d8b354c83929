// The numeric codes of programs and applications the API carries (spec 7), named once for the
// server and the browser.
import type { ParentApplicationStatusResponse } from './contract.gen';

/** Activity.activityTypeID: how a parent picks an activity's days. */
export const ACTIVITY_TYPE = {
  /** the parent chooses days of the week */
  selectableDays: 2,
  /** one date, chosen by the parent */
  singleDate: 4,
} as const;

/** applicationTypeID of an application. */
export const APPLICATION_TYPE = {
  /** a new application for a program period */
  application: 1,
  /** a change of schedule of an enrolled child */
  changeSchedule: 4,
  /** one-time enrolment: single-date activities' dates */
  oneTime: 5,
  /** a calendar's flex dates added at once (enrolment option C; kept by this portal, not an API code) */
  calendar: 6,
  /** a punch pass bought through the checkout (kept by this portal, not an API code) */
  punchPass: 7,
} as const;

/** A child's registration status in a program period (the contract's enum). */
export type RegistrationStatus = ParentApplicationStatusResponse[number]['status'];
