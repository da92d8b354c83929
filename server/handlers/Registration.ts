// Registration service: program periods with the account's children (programs list, Home), enrolled
// activities, the View/enrol screen, the program report, the hand-off to the provider's other
// products, changes of schedule, one-time enrolment and punch passes.
import type { ServiceHandlers } from '../context';
import { childrenActivities, programPeriodList } from '../domains/enrolment/registration';
import { activitiesByWeek, enrolledDates } from '../domains/enrolment/enrollmentView';
import { programReport } from '../domains/enrolment/programReport';
import { discardOneTime, payLaterOneTime, oneTimeActivities, oneTimeChild, oneTimeDateOptions, oneTimeSummary, saveOneTime, startOneTime, submitOneTime } from '../domains/enrolment/oneTime';
import { createFeed, feedState, flexCalendar, flexPayment, icalFeed, payLaterFlex, revokeFeed, saveFlexDates } from '../domains/enrolment/flexCalendar';
import { buyPunchPass, cancelPunchPass, myPunchPasses, punchPassOffers, punchPassPurchase } from '../domains/enrolment/punchPass';
import { applicationToken, redeemApplicationToken, redirectionUrl } from '../domains/enrolment/handoff';
import { addWeeksOffered, addWeeksRequest, saveAddWeeks, submitAddWeeks } from '../domains/enrolment/addWeeks';
import { changeActivities, changeOf, changeSite, changeSubmittedActivities, emailChangeConfirmation, changeView, discardChange, saveChange, startChange, submitChange } from '../domains/enrolment/changeSchedule';

type RegistrationOps =
  | 'Registration.punchPassOffers'
  | 'Registration.punchPassBuy'
  | 'Registration.punchPassPurchase'
  | 'Registration.punchPassCancel'
  | 'Registration.punchPassMine'
  | 'Registration.programPeriods'
  | 'Registration.childrenActivities'
  | 'Registration.activitiesByWeek'
  | 'Registration.enrolledDates'
  | 'Registration.programReport'
  | 'Registration.redirectionUrl'
  | 'Registration.applicationToken'
  | 'Registration.applicationTokenRedeem'
  | 'Registration.changeStart'
  | 'Registration.change'
  | 'Registration.changeSave'
  | 'Registration.changeSubmit'
  | 'Registration.changeDiscard'
  | 'Registration.changeActivities'
  | 'Registration.changeSubmittedActivities'
  | 'Registration.changeSite'
  | 'Registration.changeConfirmationMail'
  | 'Registration.addWeeksOffered'
  | 'Registration.addWeeksSave'
  | 'Registration.addWeeksRequest'
  | 'Registration.addWeeksSubmit'
  | 'Registration.oneTimeStart'
  | 'Registration.oneTimeActivities'
  | 'Registration.oneTimeSave'
  | 'Registration.oneTimeSummary'
  | 'Registration.oneTimeSubmit'
  | 'Registration.oneTimeDiscard'
  | 'Registration.oneTimePayLater'
  | 'Registration.oneTimeChild'
  | 'Registration.oneTimeDateOptions'
  | 'Registration.flexCalendar'
  | 'Registration.flexCalendarSave'
  | 'Registration.flexCalendarPayLater'
  | 'Registration.flexCalendarPayment'
  | 'Registration.flexCalendarFeed'
  | 'Registration.flexCalendarFeedCreate'
  | 'Registration.flexCalendarFeedRevoke'
  | 'Registration.flexCalendarIcal';

export const registrationHandlers = {
  'Registration.addWeeksOffered': { handler: async ({ deps, session, query, lang }) => addWeeksOffered(deps, session, query, lang) },
  'Registration.addWeeksSave': { handler: async ({ deps, session, body, lang }) => saveAddWeeks(deps, session, body, lang) },
  'Registration.addWeeksRequest': { handler: async ({ deps, session, query, lang }) => addWeeksRequest(deps, session, query.key, lang) },
  'Registration.addWeeksSubmit': { handler: async ({ deps, session, query, lang }) => submitAddWeeks(deps, session, query.key, lang) },
  'Registration.oneTimeStart': { handler: async ({ deps, session, body, lang }) => startOneTime(deps, session, body.programPeriodID, lang) },
  'Registration.oneTimeActivities': { handler: async ({ deps, session, query, lang }) => oneTimeActivities(deps, session, query.key, query.childID, lang) },
  'Registration.oneTimeSave': { handler: async ({ deps, session, query, body, lang }) => saveOneTime(deps, session, query.key, body, lang) },
  'Registration.oneTimeSummary': { handler: async ({ deps, session, query, lang }) => oneTimeSummary(deps, session, query.key, lang) },
  'Registration.oneTimeSubmit': { handler: async ({ deps, session, query, lang }) => submitOneTime(deps, session, query.key, lang) },
  'Registration.oneTimeChild': { handler: async ({ deps, session, query, lang }) => oneTimeChild(deps, session, query.key, query.childID, lang) },
  'Registration.oneTimeDateOptions': { handler: async ({ deps, session, query, lang }) => oneTimeDateOptions(deps, session, query.key, query.childID, lang) },
  'Registration.oneTimePayLater': { handler: async ({ deps, session, query, lang }) => payLaterOneTime(deps, session, query.key, lang) },
  'Registration.flexCalendar': { handler: async ({ deps, session, query, lang }) => flexCalendar(deps, session, query, lang) },
  'Registration.flexCalendarSave': { handler: async ({ deps, session, body, lang }) => saveFlexDates(deps, session, body, lang) },
  'Registration.flexCalendarPayLater': { handler: async ({ deps, session, query, lang }) => payLaterFlex(deps, session, query.key, lang) },
  'Registration.flexCalendarPayment': { handler: async ({ deps, session, query, lang }) => flexPayment(deps, session, query.key, lang) },
  'Registration.flexCalendarFeed': { handler: async ({ deps, session }) => feedState(deps, session) },
  'Registration.flexCalendarFeedCreate': { handler: async ({ deps, session }) => createFeed(deps, session) },
  'Registration.flexCalendarFeedRevoke': { handler: async ({ deps, session }) => revokeFeed(deps, session) },
  // the feed's address is its credential: a calendar application reads it with no session
  'Registration.flexCalendarIcal': { handler: async ({ deps, params, lang }) => icalFeed(deps, params.token, lang) },
  'Registration.punchPassOffers': { handler: async ({ deps, session, lang }) => punchPassOffers(deps, session, lang) },
  'Registration.punchPassBuy': { handler: async ({ deps, session, body, lang }) => buyPunchPass(deps, session, body, lang) },
  'Registration.punchPassPurchase': { handler: async ({ deps, session, query, lang }) => punchPassPurchase(deps, session, query.key, lang) },
  'Registration.punchPassCancel': { handler: async ({ deps, session, query, lang }) => cancelPunchPass(deps, session, query.key, lang) },
  'Registration.punchPassMine': { handler: async ({ deps, session, lang }) => myPunchPasses(deps, session, lang) },
  'Registration.oneTimeDiscard': { handler: async ({ deps, session, query, lang }) => discardOneTime(deps, session, query.key, lang) },
  'Registration.changeStart': {
    handler: async ({ deps, session, body, lang }) => changeView(deps, session, await startChange(deps, session, body.programPeriodID, lang), lang),
  },
  'Registration.change': {
    handler: async ({ deps, session, query, lang }) => changeView(deps, session, await changeOf(deps, session, query.key, lang), lang),
  },
  'Registration.changeSave': {
    handler: async ({ deps, session, query, body, lang }) => changeView(deps, session, await saveChange(deps, session, query.key, body, lang), lang),
  },
  'Registration.changeSubmit': {
    handler: async ({ deps, session, query, lang }) => changeView(deps, session, await submitChange(deps, session, query.key, lang), lang),
  },
  'Registration.changeActivities': {
    handler: async ({ deps, session, query, lang }) => changeActivities(deps, session, query.key, query.prChildID, lang),
  },
  'Registration.changeSubmittedActivities': {
    handler: async ({ deps, session, query, lang }) => changeSubmittedActivities(deps, session, query.key, lang),
  },
  'Registration.changeSite': {
    handler: async ({ deps, session, query, body, lang }) => changeView(deps, session, await changeSite(deps, session, query.key, body.prChildID, body.siteID, lang), lang),
  },
  'Registration.changeConfirmationMail': {
    handler: async ({ deps, session, query, lang }) => emailChangeConfirmation(deps, session, query.key, lang),
  },
  'Registration.changeDiscard': {
    handler: async ({ deps, session, query, lang }) => {
      await discardChange(deps, session, query.key, lang);
      return { discarded: true };
    },
  },
  'Registration.programPeriods': {
    handler: async ({ deps, session, query, lang }) => programPeriodList(deps, session, lang, query),
  },
  'Registration.childrenActivities': {
    handler: async ({ deps, session, query, lang }) => childrenActivities(deps, session, lang, query),
  },
  'Registration.activitiesByWeek': {
    handler: async ({ deps, session, query, lang }) => activitiesByWeek(deps, session, lang, query),
  },
  'Registration.enrolledDates': {
    handler: async ({ deps, session, query, lang }) => enrolledDates(deps, session, lang, query),
  },
  'Registration.programReport': {
    handler: async ({ deps, session, query, lang }) => programReport(deps, session, lang, query),
  },
  'Registration.redirectionUrl': {
    handler: async ({ deps, session, form, lang }) => redirectionUrl(deps, session, lang, form.data),
  },
  'Registration.applicationToken': {
    handler: async ({ deps, session, form, lang }) => applicationToken(deps, session, lang, form.data),
  },
  'Registration.applicationTokenRedeem': {
    // the session the request carries, if any: the one that asked for the keyelement must redeem it
    handler: async ({ deps, session, body, lang }) => redeemApplicationToken(deps, session, lang, body),
  },
} satisfies ServiceHandlers<RegistrationOps>;
