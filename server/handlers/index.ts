// Every service's handlers keyed by operation id. The table is typed from the contract: a contract
// operation without a handler is a type error here (and the registrar refuses to start).
import type { Handlers } from '../context';
import { authenticationHandlers } from './Authentication';
import { customerHandlers } from './Customer';
import { demographicsHandlers } from './Demographics';
import { locationHandlers } from './Location';
import { registrationHandlers } from './Registration';
import { attendance } from '../domains/attendance/attendance';
import { billing } from '../domains/billing/billing';
import { communication } from '../domains/communication/communication';
import { customTextHandlers } from '../domains/communication/customTexts';
import { parentApplication } from '../domains/enrolment/parentApplication';
import { application } from '../domains/enrolment/application';
import { payments_ } from '../domains/payments/payments';
import { billingReports } from '../domains/payments/billingReports';

export const handlers: Handlers = {
  ...attendance,
  ...authenticationHandlers,
  ...billing,
  ...payments_,
  ...billingReports,
  ...communication,
  ...customerHandlers,
  ...customTextHandlers,
  ...locationHandlers,
  ...parentApplication,
  ...demographicsHandlers,
  ...registrationHandlers,
  ...application,
};
