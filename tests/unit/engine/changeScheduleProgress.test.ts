// The progress bar of a change of schedule (spec 2.11, application type 4) on the portal's own
// declarations: child, the plural enrol label, payment; never the 'fee' wording of the parent
// application's payment option N, which a change does not have. The parent application keeps the
// singular label and its fee wording. Each label is a real text in the four languages.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet, screenModel, type DeclarationSet } from '../../../src/engine/index';
import { readBaseDeclarations, readTranslations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const built = buildDeclarationSet(readBaseDeclarations(root), [], {});
if (!built.ok) throw new Error(built.errors.map((e) => e.message).join('\n'));
const set: DeclarationSet = built.set;
const translations = readTranslations(root);
const textOf = (lang: string, key: string): unknown => {
  const [ns, ...path] = key.split('.');
  return path.reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), translations[lang]?.[ns]);
};

const CHANGE_STEPS = ['changeschedule', 'changeschedule-children', 'changeschedule-enrollment', 'changeschedule-submit', 'changeschedule-payerinformation'];
const change = { applicationTypeID: 4, status: 'open' };

describe('the progress bar of a change of schedule', () => {
  it.each(CHANGE_STEPS)('%s: child, the plural enrol label, payment', (id) => {
    // a change has no payment option (the application's N is what says 'fee'): no fee wording
    const m = screenModel(set, id, { query: { key: 'a'.repeat(32), method: 'CCD' }, data: { change } as never });
    expect(m.progress?.steps.map((s) => s.label)).toEqual(['application.flow.child', 'application.flow.enrolPlural', 'application.flow.payment']);
    expect(m.progress?.name).toBe('changeSchedule');
  });

  it('before the change is in, the singular label; the parent application keeps its fee wording for option N', () => {
    expect(screenModel(set, 'changeschedule-children', { query: { key: 'a'.repeat(32) } }).progress?.steps[1].label).toBe('application.flow.enrol');
    const app = screenModel(set, 'parentapplication-children', { query: { key: 'a'.repeat(32) }, data: { app: { paymentOption: 'N' } } as never });
    expect(app.progress?.steps.map((s) => s.label)).toEqual(['application.flow.child', 'application.flow.enrol', 'application.flow.fee']);
  });

  it('the labels are texts in the four languages, the plural not the singular', () => {
    for (const lang of ['en', 'es', 'pt', 'vi']) {
      const plural = textOf(lang, 'application.flow.enrolPlural');
      expect(typeof plural, lang).toBe('string');
      expect(plural).not.toBe(textOf(lang, 'application.flow.enrol'));
      if (lang !== 'en') expect(plural).not.toBe(textOf('en', 'application.flow.enrolPlural'));
    }
  });
});
