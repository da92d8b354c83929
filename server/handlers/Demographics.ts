// Demographics service: the people resources (spec 2.9, 2.10, 3, 4, 5.3, 5.4, 5.7, 6, 7.2) — adults,
// children, medical information, photos, PINs, relations (and the account flags), master data — and
// changing the password and the year-end grade roll-up. Every id in a request is looked up within the
// signed-in provider and account (404 otherwise); every blocked action is refused with 403 by the same
// declared rules the screens use (rules/account.rules.json).
import type { ServiceHandlers } from '../context';
import type { OperationId } from '../../src/engine/contract.gen';
import { readUploadedImage, storePhoto } from '../photos';
import { adultDetails, adultDropStatus, adultList, adultSaveFacts, contactListsData, dropAdult, relationshipList, saveAdult } from '../domains/people/adults';
import { childDetails, childList, childListsData, childSaveFacts, gradeLevelList, saveChild } from '../domains/people/children';
import { childMedical, childMedicalFacts, saveChildMedical } from '../domains/people/medical';
import { adultForPhoto, adultPhoto, childForPhoto, childPhoto, setAdultPhoto, setChildPhoto } from '../domains/people/photos';
import { generatePins, holderPins, requirePinChange, saveOwnPin } from '../domains/people/pins';
import { accountFlags, adultChildRelation, adultChildren, childAdultList, childAdultsFacts, saveChildAdults, splitChildren } from '../domains/people/relations';
import { adultFieldList, childFieldList, driverLicenseStates, medicalValues, shortList, stateList, udfList } from '../domains/people/masterData';
import { changePassword } from '../domains/access/passwordFlows';
import { gradeRollupOf, saveGradeRollup } from '../domains/enrolment/gradeRollup';

type DemographicsOps = Extract<OperationId, `Demographics.${string}`>;

export const demographicsHandlers = {
  // ----- adults
  'Demographics.adults': {
    handler: async (c) => adultList(c, c.query.AdultID, c.query.IncludeOtherContacts),
  },
  'Demographics.relationships': { handler: async (c) => relationshipList(c) },
  'Demographics.adultDetails': { handler: async (c) => adultDetails(c, c.params.adultID) },
  'Demographics.adultSave': {
    facts: (c) => adultSaveFacts(c, c.params.adultID, c.body),
    ruleData: (c) => contactListsData(c),
    handler: async (c) => saveAdult(c, c.params.adultID, c.form.data),
  },
  'Demographics.adultDropStatus': { handler: async (c) => adultDropStatus(c, c.params.adultID) },
  'Demographics.adultDelete': { handler: async (c) => dropAdult(c, c.params.adultID, c.body?.confirmCancel) },

  // ----- children
  'Demographics.children': { handler: async (c) => childList(c) },
  'Demographics.gradeLevels': { handler: async (c) => gradeLevelList(c) },
  'Demographics.childDetails': { handler: async (c) => childDetails(c, c.params.childID) },
  'Demographics.childSave': {
    facts: (c) => childSaveFacts(c, c.params.childID, c.body),
    ruleData: (c) => childListsData(c),
    handler: async (c) => saveChild(c, c.params.childID, c.form.data),
  },

  // ----- medical information
  'Demographics.childMedical': { handler: async (c) => childMedical(c, c.params.childID) },
  'Demographics.childMedicalSave': {
    facts: (c) => childMedicalFacts(c, c.params.childID, c.body),
    handler: async (c) => saveChildMedical(c, c.params.childID, c.form.data),
  },

  // ----- photos: the person is checked before the upload is read
  'Demographics.adultPhoto': { handler: async (c) => adultPhoto(c, c.params.adultID) },
  'Demographics.childPhoto': { handler: async (c) => childPhoto(c, c.params.childID) },
  'Demographics.adultPhotoUpload': {
    handler: async (c) => {
      const a = await adultForPhoto(c, c.params.adultID);
      const img = await storePhoto(await readUploadedImage(c), c);
      await setAdultPhoto(c, a.id, img.data);
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },
  'Demographics.childPhotoUpload': {
    handler: async (c) => {
      const ch = await childForPhoto(c, c.params.childID);
      const img = await storePhoto(await readUploadedImage(c), c);
      await setChildPhoto(c, ch.id, img.data);
      return { hasPhoto: true, width: img.width, height: img.height };
    },
  },

  // ----- PINs
  'Demographics.pin': { handler: async (c) => holderPins(c) },
  'Demographics.pinSave': {
    // this operation changes one's own PIN: the form is validated in that mode, so the PIN is required
    facts: async (c) => {
      await requirePinChange(c);
      return { mode: 'change' };
    },
    handler: async (c) => saveOwnPin(c, c.form.data.pin ?? ''),
  },
  'Demographics.generatePin': {
    // this operation generates PINs: the form is validated in that mode, so an adult must be chosen
    facts: async (c) => {
      await requirePinChange(c);
      return { mode: 'generate' };
    },
    handler: async (c) => generatePins(c, c.form.data.adultIDs ?? []),
  },

  // ----- relations and the account's flags
  'Demographics.accountFlags': { handler: async (c) => accountFlags(c) },
  'Demographics.adultChildren': { handler: async (c) => adultChildren(c, c.params.adultID) },
  'Demographics.adultChildRelation': { handler: async (c) => adultChildRelation(c, c.params.adultID, c.params.childID) },
  'Demographics.splitChildren': { handler: async (c) => splitChildren(c) },
  'Demographics.childAdults': { handler: async (c) => childAdultList(c, c.params.childID) },
  'Demographics.childAdultsSave': {
    facts: (c) => childAdultsFacts(c, c.params.childID, c.body),
    handler: async (c) => saveChildAdults(c, c.params.childID, c.form.data),
  },

  // ----- master data
  'Demographics.allergies': { handler: (c) => medicalValues(c, 1) },
  'Demographics.disabilities': { handler: (c) => medicalValues(c, 2) },
  'Demographics.medicalConditions': { handler: (c) => medicalValues(c, 3) },
  'Demographics.specialNeeds': { handler: (c) => medicalValues(c, 4) },
  'Demographics.medication': { handler: (c) => medicalValues(c, 5) },
  'Demographics.udfields': { handler: (c) => udfList(c, c.query.entity) },
  'Demographics.adultFields': { handler: (c) => adultFieldList(c) },
  'Demographics.childFields': { handler: (c) => childFieldList(c) },
  'Demographics.states': { handler: (c) => stateList(c) },
  'Demographics.driverLicenseStates': { handler: (c) => driverLicenseStates(c) },
  'Demographics.genders': { handler: (c) => shortList(c, 'gender') },
  'Demographics.maritalStatuses': { handler: (c) => shortList(c, 'marital-status') },
  'Demographics.primaryLanguages': { handler: (c) => shortList(c, 'primary-language') },
  'Demographics.mealEligibilities': { handler: (c) => shortList(c, 'meal-eligibility') },
  'Demographics.tshirtSizes': { handler: (c) => shortList(c, 'tshirt-size') },
  'Demographics.transportationModes': { handler: (c) => shortList(c, 'transportation-mode') },

  // ----- the password and the year-end grade roll-up
  'Demographics.changePassword': {
    handler: async ({ deps, session, form, lang }) => changePassword(deps, session, lang, { ...form.data, newPassword: form.data.newPassword ?? '' }),
  },
  'Demographics.gradeRollup': { handler: async ({ deps, session }) => gradeRollupOf(deps, session) },
  'Demographics.gradeRollupSave': {
    handler: async ({ deps, session, form, lang }) => saveGradeRollup(deps, session, lang, form.data),
  },
} satisfies ServiceHandlers<DemographicsOps>;
