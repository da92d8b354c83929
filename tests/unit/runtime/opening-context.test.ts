// The context a screen opens with is one function (screenRuleContext, src/engine/loads.ts) for the
// screen renderer and for the server's first loads of a page opened cold: a load that reads the
// screen's form (the communication history's period) is asked with the form's declared first values,
// so the screen finds it answered rather than asking again.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet } from '../../../src/engine/declarations';
import { readBaseDeclarations } from '../../../src/engine/node';
import { declaredFormValues, loadSpecsOf, mergeForms, screenRuleContext } from '../../../src/runtime/dataLoads';

const root = resolve(__dirname, '../../..');

describe('the opening context of a screen', () => {
  it('resolves a load that reads $form with the form\'s declared first values', () => {
    const r = buildDeclarationSet(readBaseDeclarations(root), [], { appName: 'test' });
    if (!r.ok) throw new Error('declarations');
    const screen = r.set.screens.communication;
    const ctx = screenRuleContext({ query: {}, notice: {}, session: { applications: {} }, provider: {}, form: mergeForms(declaredFormValues(screen)) });
    const [history] = loadSpecsOf(r.set, screen.data, ctx);
    expect(history.op).toBe('Communication.history');
    expect(history.params).toEqual({ Days: 90, ShowAutoMail: true, ShowEmailSentByAccount: true });
    // with no form values the same load is another request
    const empty = loadSpecsOf(r.set, screen.data, screenRuleContext({ query: {}, notice: {}, session: {}, provider: {}, form: {} }));
    expect(empty[0].params).not.toEqual(history.params);
  });

  it('reads the application flow of the query\'s key from the session', () => {
    const ctx = screenRuleContext({ query: { key: 'k1' }, notice: {}, session: { applications: { k1: { programPeriodID: 7 } } }, provider: {}, form: {} });
    expect(ctx.flow).toEqual({ programPeriodID: 7 });
    expect(ctx.data).toEqual({});
  });
});
