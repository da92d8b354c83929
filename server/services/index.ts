// Every service's handlers keyed by operation id. The table is typed from the contract: a contract
// operation without a handler is a type error here (and the registrar refuses to start).
import type { Handlers } from '../context';
import { attendance } from './attendance';
import { authentication } from './authentication';
import { billing } from './billing';
import { communication } from './communication';
import { customer } from './customer';
import { customTextHandlers } from './customTexts';
import { enrollmentView } from './enrollmentView';
import { location } from './location';
import { nativeVersion } from './nativeVersion';
import { parentApplication } from './parentApplication';
import { passwordFlows } from './passwordFlows';
import { socialSignIn } from './socialSignIn';
import { people } from './people/index';
import { registration } from './registration';
import { handoff } from './handoff';
import { programReport } from './programReport';
import { gradeRollup } from './gradeRollup';
import { application } from './application';
import { payments_ } from './payments';
import { billingReports } from './billingReports';

export const handlers: Handlers = {
  ...attendance,
  ...authentication,
  ...billing,
  ...payments_,
  ...billingReports,
  ...communication,
  ...customer,
  ...customTextHandlers,
  ...enrollmentView,
  ...location,
  ...nativeVersion,
  ...parentApplication,
  ...passwordFlows,
  ...socialSignIn,
  ...people,
  ...registration,
  ...handoff,
  ...programReport,
  ...gradeRollup,
  ...application,
};
