// Type-level tests of the contract's typing, checked by `tsc --noEmit` (npm run check), not run.
// Every `@ts-expect-error` below must meet an error: if the typing ever lets one of these through,
// the directive itself becomes the error and the check fails.
import type { Handlers, HandlerDef, HandlerContext } from '../../server/context';
import { handlers } from '../../server/handlers/index';
import type { ApiClient } from '../../src/api/client';

// A handler table with a missing operation is not a handler table.
const { 'Billing.accountSummary': _dropped, ...withoutOne } = handlers;
// @ts-expect-error Billing.accountSummary has no handler
export const missing: Handlers = withoutOne;

// An answer of the wrong shape does not compile.
export const wrongAnswer: HandlerDef<'Customer.version'> = {
  // @ts-expect-error the contract's answer has version, releaseVersion and serverTime as strings
  handler: async () => ({ version: 7 }),
};

// A download answers a file, not JSON.
export const wrongFile: HandlerDef<'Communication.formDownload'> = {
  // @ts-expect-error a file operation answers { file, fileName, contentType }
  handler: async () => ({ formID: 1 }),
};

// Query, params and body are the contract's types.
export function readsTheContract(c: HandlerContext<'Demographics.adultSave'>, q: HandlerContext<'Communication.history'>) {
  const id: number = c.params.adultID;
  const first: string | undefined = c.body.firstName;
  // @ts-expect-error the contact body has no such field
  void c.body.notAField;
  // @ts-expect-error Days is one of 90, 360 and 720
  const days: string = q.query.Days;
  return [id, first, days];
}

// The session is there for operations that require one, and may be missing for public ones.
export function sessions(signedIn: HandlerContext<'Demographics.pin'>, temporary: HandlerContext<'Demographics.changePassword'>, open: HandlerContext<'Customer.program'>) {
  const a: number = signedIn.session.accountId;
  const b: number = temporary.session.adultId;
  // @ts-expect-error a public operation may be called without a session
  const c: number = open.session.accountId;
  return [a, b, c];
}

// A form operation's handler sees the validation result; any other has none.
export function forms(write: HandlerContext<'Attendance.notifyAbsence'>, read: HandlerContext<'Attendance.records'>) {
  const valid: boolean = write.form.valid;
  // @ts-expect-error no form is declared for Attendance.records
  const none: boolean = read.form.valid;
  return [valid, none];
}

// The client's call arguments are typed the same way.
export async function client(api: ApiClient) {
  await api.call('Customer.program', { query: { appName: 'brightpath' } });
  // @ts-expect-error Customer.program requires appName
  await api.call('Customer.program', { query: {} });
  // @ts-expect-error Customer.program takes no body
  await api.call('Customer.program', { query: { appName: 'brightpath' }, body: { appName: 'brightpath' } });
  // @ts-expect-error the path parameter adultID is a number
  await api.call('Demographics.adultDetails', { params: { adultID: 'me' } });
  // @ts-expect-error Demographics.adultDetails cannot be called without its adultID
  await api.call('Demographics.adultDetails');
  const v = await api.call('Customer.version', { query: { sourceApp: 'parentportal' } });
  // @ts-expect-error the answer is typed: releaseVersion is a string
  const n: number = v.releaseVersion;
  return n;
}
