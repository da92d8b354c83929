// ParentApplication service: the parent application's draft, its steps, its submit and its
// confirmation, and the status of the account's applications (enrolment domain).
import type { ServiceHandlers } from '../context';
import type { OperationId } from '../../src/engine/contract.gen';
import {
  activitiesOfDraft,
  childrenOfDraft,
  confirmationOf,
  discardDraft,
  draftWithFacts,
  enrollmentFacts,
  feeFactsOfDraft,
  feesOfDraft,
  financialAssistance,
  payLaterDraft,
  saveEnrollment,
  saveFee,
  setChildren,
  startApplication,
  submitDraft,
} from '../domains/enrolment/application';
import { applicationStatuses } from '../domains/enrolment/parentApplication';

type ParentApplicationOp = Extract<OperationId, `ParentApplication.${string}`>;

export const parentApplicationHandlers = {
  'ParentApplication.status': {
    handler: ({ deps, session, query, lang }) => applicationStatuses(deps, session, query.programPeriodID, lang),
  },
  'ParentApplication.start': {
    handler: ({ deps, session, body, lang }) => startApplication(deps, session, body.programPeriodID, lang),
  },
  'ParentApplication.draft': {
    handler: ({ deps, session, query, lang }) => draftWithFacts(deps, session, query.key, lang),
  },
  'ParentApplication.discard': {
    handler: ({ deps, session, query, lang }) => discardDraft(deps, session, query.key, lang),
  },
  'ParentApplication.setChildren': {
    handler: ({ deps, session, query, form, lang }) => setChildren(deps, session, query.key, form.data.childIDs, lang),
  },
  'ParentApplication.saveEnrollment': {
    facts: ({ deps, session, query, body, lang }) => enrollmentFacts(deps, session, query.key, body, lang),
    handler: ({ deps, session, query, form, lang }) => saveEnrollment(deps, session, query.key, form.data, lang),
  },
  'ParentApplication.saveFee': {
    facts: ({ deps, session, query, lang }) => feeFactsOfDraft(deps, session, query.key, lang),
    handler: ({ deps, session, query, form, lang }) => saveFee(deps, session, query.key, form.data, lang),
  },
  'ParentApplication.children': {
    handler: ({ deps, session, query, lang }) => childrenOfDraft(deps, session, query.key, lang),
  },
  'ParentApplication.activities': {
    handler: ({ deps, session, params, query, lang }) => activitiesOfDraft(deps, session, query.key, params.prChildID, lang),
  },
  'ParentApplication.fees': {
    handler: ({ deps, session, query, lang }) => feesOfDraft(deps, session, query, lang),
  },
  'ParentApplication.financialAssistance': {
    handler: ({ deps, session, params, lang }) => financialAssistance(deps, session, params.programPeriodID, lang),
  },
  'ParentApplication.submit': {
    handler: ({ deps, session, query, lang }) => submitDraft(deps, session, query.key, lang),
  },
  'ParentApplication.payLater': {
    handler: ({ deps, session, query, lang }) => payLaterDraft(deps, session, query.key, lang),
  },
  'ParentApplication.confirmation': {
    handler: ({ deps, session, query, lang }) => confirmationOf(deps, session, query.key, lang),
  },
} satisfies ServiceHandlers<ParentApplicationOp>;
