// The people domain's model: the rows, the kinds of values they hold, and the named ids and codes.
import type { AppDeps } from '../../context';
import type { DemographicsChildMedicalResponse } from '../../../src/engine/contract.gen';
import type { SessionInfo } from '../../auth';
import type { adults, childAdults, children } from '../../db/schema';

/** Who asks, for the people functions: the signed-in session, the language, the server. */
export interface Ctx {
  deps: AppDeps;
  lang: string;
  session: SessionInfo;
}

export type Gender = 'M' | 'F' | 'U';
export type UdfValue = string | boolean;
export type AdultRow = typeof adults.$inferSelect;
export type ChildRow = typeof children.$inferSelect;
export type LinkRow = typeof childAdults.$inferSelect;

/** The relationship id of 'Other' (spec 3): its text is typed by the parent. */
export const OTHER_RELATIONSHIP = 99;
/** The driver licence value keeps the state and number apart with this separator (spec 3). */
export const LICENCE_SEPARATOR = '$$';
/** The driver licence state list's 'not listed' choice (schemas/contact.json x-extraOptions). */
export const LICENCE_STATE_NOT_LISTED = 'notListed';

/** An insurance, the way the medical form gives it. */
export type Insurance = NonNullable<DemographicsChildMedicalResponse['primaryInsurance']>;
/** A medical question's answer, stored or sent. */
export type MedicalAnswer = Pick<DemographicsChildMedicalResponse['questions'][number], 'answer' | 'standardValues' | 'otherStandardValue' | 'explanation'>;

/** A child's stored medical information (children.medical): the form's fields, answers by field number. */
export type StoredMedical = Omit<DemographicsChildMedicalResponse, 'childID' | 'questions'> & { answers?: Record<string, MedicalAnswer> };
