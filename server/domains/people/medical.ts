// Medical information of a child (spec 2.9, 3, 5.7, 7.2): the doctor, insurance and the provider's
// medical questions with the parent's answers.
import { and, asc, eq } from 'drizzle-orm';
import type { DemographicsChildMedicalResponse, DemographicsChildMedicalSaveBody, DemographicsChildMedicalSaveResponse } from '../../../src/engine/contract.gen';
import { children, medicalFieldDefs } from '../../db/schema';
import { inLanguage } from '../../providerTexts';
import type { Ctx, MedicalAnswer, StoredMedical } from './model';
import { childItem, childOf, phone, requireRule } from './shared';

async function medicalDefs(c: Ctx) {
  const rows = await c.deps.db.select().from(medicalFieldDefs).where(eq(medicalFieldDefs.providerId, c.session.providerId)).orderBy(asc(medicalFieldDefs.fieldNo));
  // questions, messages and standard values in the request's language
  return inLanguage(rows, c.lang);
}

type MedicalQuestion = DemographicsChildMedicalResponse['questions'][number];

function medicalQuestions(defs: Awaited<ReturnType<typeof medicalDefs>>, answers: StoredMedical['answers'] = {}, sent?: Map<number, MedicalAnswer>): MedicalQuestion[] {
  return defs.map((d) => {
    const a: MedicalAnswer = sent ? (sent.get(d.fieldNo) ?? {}) : (answers[String(d.fieldNo)] ?? {});
    const row: MedicalQuestion = {
      fieldID: d.fieldNo,
      fieldCaption: d.fieldCaption,
      displayMessage: d.displayMessage,
      isMandatory: d.isMandatory,
      hasStandardValues: d.hasStandardValues,
      isOtherStandardEnabled: d.isOtherStandardEnabled,
      explanationType: d.explanationType,
      values: d.values,
    };
    if (typeof a.answer === 'boolean') row.answer = a.answer;
    if (Array.isArray(a.standardValues)) row.standardValues = a.standardValues;
    if (typeof a.otherStandardValue === 'string' && a.otherStandardValue !== '') row.otherStandardValue = a.otherStandardValue;
    if (typeof a.explanation === 'string' && a.explanation !== '') row.explanation = a.explanation;
    return row;
  });
}

/** A child's medical information with the provider's questions, when the account may edit it. */
export async function childMedical(c: Ctx, childID: number): Promise<DemographicsChildMedicalResponse> {
  const ch = await childOf(c, childID);
  await requireRule(c, 'account.canEditMedical', childItem(ch));
  const m = ch.medical as StoredMedical;
  const { answers, ...rest } = m;
  return { childID: ch.id, ...rest, questions: medicalQuestions(await medicalDefs(c), answers) };
}

/** The medical form's facts: the questions are the provider's definitions; only the answers come from the request. */
export async function childMedicalFacts(c: Ctx, childID: number, body: DemographicsChildMedicalSaveBody): Promise<Record<string, unknown>> {
  const ch = await childOf(c, childID);
  await requireRule(c, 'account.canEditMedical', childItem(ch));
  const sent = new Map<number, MedicalAnswer>();
  for (const q of body.questions ?? []) sent.set(Number(q.fieldID), q);
  return { questions: medicalQuestions(await medicalDefs(c), undefined, sent) };
}

/** Saves a child's medical information and answers. */
export async function saveChildMedical(c: Ctx, childID: number, v: DemographicsChildMedicalSaveBody): Promise<DemographicsChildMedicalSaveResponse> {
  const s = c.session;
  const ch = await childOf(c, childID);
  const answers: NonNullable<StoredMedical['answers']> = {};
  for (const q of v.questions ?? []) {
    answers[String(q.fieldID)] = {
      ...(typeof q.answer === 'boolean' ? { answer: q.answer } : {}),
      ...(Array.isArray(q.standardValues) ? { standardValues: q.standardValues } : {}),
      ...(typeof q.otherStandardValue === 'string' ? { otherStandardValue: q.otherStandardValue.trim() } : {}),
      ...(typeof q.explanation === 'string' ? { explanation: q.explanation } : {}),
    };
  }
  const pick = (k: keyof typeof v) => {
    const x = v[k];
    return typeof x === 'string' ? x.trim() : '';
  };
  const medical: StoredMedical = {
    doctorName: pick('doctorName'),
    doctorPhone: phone(v.doctorPhone),
    doctorAddress: pick('doctorAddress'),
    suite: pick('suite'),
    city: pick('city'),
    stateCode: pick('stateCode'),
    zip: pick('zip'),
    preferredHospital: pick('preferredHospital'),
    primaryInsurance: v.primaryInsurance ?? {},
    secondaryInsurance: v.secondaryInsurance ?? {},
    answers,
  };
  await c.deps.db
    .update(children)
    .set({ medical })
    .where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
  return { childID: ch.id };
}
