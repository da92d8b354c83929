// Communication service: program alerts, bulletins (+ attachments), forms (+ files), calendar events,
// the account's communication history, the contact-us message and the provider's custom texts.
import type { ServiceHandlers } from '../context';
import type { OperationId } from '../../src/engine/contract.gen';
import {
  accountHistory,
  activeAlerts,
  bulletinAttachment,
  bulletinOf,
  calendarEventList,
  currentBulletins,
  formFile,
  formList,
  loginAlerts,
  sendContactMail,
} from '../domains/communication/communication';
import { contactSubjects, preparedCustomText } from '../domains/communication/customTexts';

type CommunicationOps = Extract<OperationId, `Communication.${string}`>;

export const communicationHandlers = {
  'Communication.alertsLogin': {
    handler: async ({ deps, query, lang }) => loginAlerts(deps, query.appName, lang),
  },
  'Communication.alertsHome': {
    handler: async ({ deps, session, lang }) => activeAlerts(deps, session.providerId, 'H', lang),
  },
  'Communication.bulletins': {
    handler: async ({ deps, session, lang }) => currentBulletins(deps, session.providerId, lang),
  },
  'Communication.bulletin': {
    handler: async ({ deps, session, params, lang }) => bulletinOf(deps, session.providerId, params.id, lang),
  },
  'Communication.bulletinDownload': {
    handler: async ({ deps, session, params, lang }) => bulletinAttachment(deps, session.providerId, params.id, lang),
  },
  'Communication.forms': {
    handler: async ({ deps, session, lang }) => formList(deps, session.providerId, lang),
  },
  'Communication.formDownload': {
    handler: async ({ deps, session, params, lang }) => formFile(deps, session.providerId, params.id, lang),
  },
  'Communication.calendarEvents': {
    handler: async ({ deps, session, lang }) => calendarEventList(deps, session.providerId, lang),
  },
  'Communication.history': {
    handler: async ({ deps, session, query }) => accountHistory(deps, session, query),
  },
  'Communication.sendMail': {
    // the form requires both
    handler: async ({ deps, session, form, lang }) => sendContactMail(deps, session, lang, { subjectID: form.data.subjectID ?? '', message: form.data.message ?? '' }),
  },
  'Communication.subjects': { handler: async (c) => contactSubjects(c) },
  'Communication.customText': { handler: async (c) => preparedCustomText(c, c.query) },
} satisfies ServiceHandlers<CommunicationOps>;
