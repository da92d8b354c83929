// Medical information of a child (spec 2.9, 3, 5.7, 7.2): the doctor, insurance and the provider's
// medical questions with the parent's answers.
import { and, asc, eq } from 'drizzle-orm';
import type { Handlers } from '../../context';
import type { DemographicsChildMedicalResponse } from '../../../src/engine/contract.gen';
import { children, medicalFieldDefs } from '../../db/schema';
import { inLanguage } from '../../providerTexts';
import { childItem, childOf, phone, requireRule, type Ctx } from './shared';

async function medicalDefs(c: Ctx) {
  const rows = await c.deps.db.select().from(medicalFieldDefs).where(eq(medicalFieldDefs.providerId, c.session.providerId)).orderBy(asc(medicalFieldDefs.fieldNo));
  // questions, messages and standard values in the request's language
  return inLanguage(rows, c.lang);
}

interface StoredMedical {
  doctorName?: string;
  doctorPhone?: string;
  doctorAddress?: string;
  suite?: string;
  city?: string;
  stateCode?: string;
  zip?: string;
  preferredHospital?: string;
  primaryInsurance?: Record<string, string>;
  secondaryInsurance?: Record<string, string>;
  answers?: Record<string, { answer?: boolean; standardValues?: number[]; otherStandardValue?: string; explanation?: string }>;
}

type MedicalQuestion = DemographicsChildMedicalResponse['questions'][number];

function medicalQuestions(defs: Awaited<ReturnType<typeof medicalDefs>>, answers: StoredMedical['answers'] = {}, sent?: Map<number, Record<string, unknown>>): MedicalQuestion[] {
  return defs.map((d) => {
    const a = sent ? (sent.get(d.fieldNo) ?? {}) : (answers[String(d.fieldNo)] ?? {});
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

export const medicalHandlers = {
  'Demographics.childMedical': {
    handler: async (c) => {
      const ch = await childOf(c, c.params.childID);
      await requireRule(c, 'account.canEditMedical', childItem(ch));
      const m = ch.medical as StoredMedical;
      const { answers, ...rest } = m;
      return { childID: ch.id, ...rest, questions: medicalQuestions(await medicalDefs(c), answers) };
    },
  },

  'Demographics.childMedicalSave': {
    // the questions are the provider's definitions; only the answers come from the request
    facts: async (c) => {
      const ch = await childOf(c, c.params.childID);
      await requireRule(c, 'account.canEditMedical', childItem(ch));
      const sent = new Map<number, Record<string, unknown>>();
      for (const q of c.body.questions ?? []) sent.set(Number(q.fieldID), q as Record<string, unknown>);
      return { questions: medicalQuestions(await medicalDefs(c), undefined, sent) };
    },
    handler: async (c) => {
      const s = c.session;
      const ch = await childOf(c, c.params.childID);
      const v = c.form.data;
      const answers: NonNullable<StoredMedical['answers']> = {};
      for (const q of (v.questions ?? []) as Record<string, unknown>[]) {
        answers[String(q.fieldID)] = {
          ...(typeof q.answer === 'boolean' ? { answer: q.answer } : {}),
          ...(Array.isArray(q.standardValues) ? { standardValues: q.standardValues as number[] } : {}),
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
        primaryInsurance: (v.primaryInsurance as Record<string, string>) ?? {},
        secondaryInsurance: (v.secondaryInsurance as Record<string, string>) ?? {},
        answers,
      };
      await c.deps.db
        .update(children)
        .set({ medical: medical as Record<string, unknown> })
        .where(and(eq(children.id, ch.id), eq(children.providerId, s.providerId), eq(children.accountId, s.accountId)));
      return { childID: ch.id };
    },
  },

} satisfies Partial<Handlers>;
