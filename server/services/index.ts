// Every service's handlers keyed by operation id; the registrar refuses to start when a contract
// operation has none.
import type { ServiceHandlers } from '../context';
import { attendance } from './attendance';
import { authentication } from './authentication';
import { billing } from './billing';
import { communication } from './communication';
import { customer } from './customer';
import { demographics } from './demographics';
import { location } from './location';
import { nativeVersion } from './nativeVersion';
import { parentApplication } from './parentApplication';
import { passwordFlows } from './passwordFlows';
import { socialSignIn } from './socialSignIn';
import { people } from './people';
import { registration } from './registration';

export const handlers: ServiceHandlers = {
  ...attendance,
  ...authentication,
  ...billing,
  ...communication,
  ...customer,
  ...demographics,
  ...location,
  ...nativeVersion,
  ...parentApplication,
  ...passwordFlows,
  ...socialSignIn,
  ...people,
  ...registration,
};
