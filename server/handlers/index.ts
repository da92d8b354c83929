// Every service's handlers keyed by operation id. The table is typed from the contract: a contract
// operation without a handler is a type error here (and the registrar refuses to start).
import type { Handlers } from '../context';
import { attendanceHandlers } from './Attendance';
import { authenticationHandlers } from './Authentication';
import { communicationHandlers } from './Communication';
import { customerHandlers } from './Customer';
import { demographicsHandlers } from './Demographics';
import { locationHandlers } from './Location';
import { registrationHandlers } from './Registration';
import { billingHandlers } from './Billing';
import { parentApplicationHandlers } from './ParentApplication';

export const handlers: Handlers = {
  ...attendanceHandlers,
  ...authenticationHandlers,
  ...billingHandlers,
  ...communicationHandlers,
  ...customerHandlers,
  ...locationHandlers,
  ...parentApplicationHandlers,
  ...demographicsHandlers,
  ...registrationHandlers,
};
