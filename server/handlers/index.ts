// Every service's handlers keyed by operation id. The table is typed from the contract: a contract
// operation without a handler is a type error here (and the registrar refuses to start).
import type { Handlers } from '../context';
import { customerHandlers } from './Customer';
import { locationHandlers } from './Location';
import { registrationHandlers } from './Registration';
import { attendance } from '../domains/attendance/attendance';
import { authentication } from '../domains/access/authentication';
import { billing } from '../domains/billing/billing';
import { communication } from '../domains/communication/communication';
import { customTextHandlers } from '../domains/communication/customTexts';
import { parentApplication } from '../domains/enrolment/parentApplication';
import { passwordFlows } from '../domains/access/passwordFlows';
import { socialSignIn } from '../domains/access/socialSignIn';
import { people } from '../domains/people/index';
import { gradeRollup } from '../domains/enrolment/gradeRollup';
import { application } from '../domains/enrolment/application';
import { payments_ } from '../domains/payments/payments';
import { billingReports } from '../domains/payments/billingReports';

export const handlers: Handlers = {
  ...attendance,
  ...authentication,
  ...billing,
  ...payments_,
  ...billingReports,
  ...communication,
  ...customerHandlers,
  ...customTextHandlers,
  ...locationHandlers,
  ...parentApplication,
  ...passwordFlows,
  ...socialSignIn,
  ...people,
  ...registrationHandlers,
  ...gradeRollup,
  ...application,
};
