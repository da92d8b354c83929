// Declared fragments (src/engine/fragments.ts): a reference is replaced by the fragment (a list spliced
// into a list, an object merged with `merge`), an unknown one or a circle is an error naming the file
// and path, and a provider overlay on a fragment changes every screen that includes it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { resolveFragments, type Fragments } from '../../../src/engine/fragments';
import { buildDeclarationSet } from '../../../src/engine/declarations';
import { readBaseDeclarations } from '../../../src/engine/node';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const frag = (id: string, content: unknown): Fragments[string] => ({ file: `screens/fragments/${id}.json`, json: { id, content } });

describe('fragments', () => {
  const fragments: Fragments = {
    bar: frag('bar', [{ id: 'exitBar', kind: 'text' }, { id: 'progress', kind: 'progress' }]),
    flow: frag('flow', { name: 'app', steps: ['a', 'b'] }),
    outer: frag('outer', [{ $fragment: 'bar' }, { id: 'after', kind: 'text' }]),
    loopA: frag('loopA', [{ $fragment: 'loopB' }]),
    loopB: frag('loopB', [{ $fragment: 'loopA' }]),
  };

  it('splices a list into a list, merges an object, and resolves fragments inside fragments', () => {
    const r = resolveFragments(
      { id: 's', flow: { $fragment: 'flow', merge: { step: 2 } }, sections: [{ $fragment: 'outer' }, { id: 'own', kind: 'text' }] },
      fragments,
      'screens/s.json',
    );
    expect(r.errors).toEqual([]);
    expect(r.value).toEqual({
      id: 's',
      flow: { name: 'app', steps: ['a', 'b'], step: 2 },
      sections: [
        { id: 'exitBar', kind: 'text' },
        { id: 'progress', kind: 'progress' },
        { id: 'after', kind: 'text' },
        { id: 'own', kind: 'text' },
      ],
    });
    // the fragment itself is not changed by a merge
    expect(fragments.flow.json.content).toEqual({ name: 'app', steps: ['a', 'b'] });
  });

  it("a list fragment's merge patches its items by id, null drops one, and an unknown id is an error", () => {
    const r = resolveFragments(
      { sections: [{ $fragment: 'bar', merge: { exitBar: { show: 'x.shown' }, progress: null } }, { $fragment: 'bar', merge: { nope: {} } }] },
      fragments,
      'screens/s.json',
    );
    expect(r.value).toEqual({ sections: [{ id: 'exitBar', kind: 'text', show: 'x.shown' }] });
    expect(r.errors).toEqual([{ file: 'screens/s.json', path: '/sections/1/merge/nope', message: 'fragment "bar" has no item with id "nope"' }]);
    // the fragment itself is not changed
    expect(fragments.bar.json.content).toEqual([{ id: 'exitBar', kind: 'text' }, { id: 'progress', kind: 'progress' }]);
  });

  it('an unknown fragment, a circle and a stray key are errors naming the file and the path', () => {
    const r = resolveFragments({ sections: [{ $fragment: 'nope' }, { $fragment: 'loopA' }, { $fragment: 'bar', extra: 1 }] }, fragments, 'screens/s.json');
    expect(r.errors).toEqual([
      { file: 'screens/s.json', path: '/sections/0/$fragment', message: 'no fragment "nope" in screens/fragments/' },
      { file: 'screens/fragments/loopB.json', path: '/0/$fragment', message: 'fragments include each other: loopA → loopB → loopA' },
      { file: 'screens/s.json', path: '/sections/2', message: 'a fragment reference takes only "$fragment" and "merge" (found extra)' },
    ]);
  });

  it("the parent application's four steps declare the exit bar, the exit dialog and the flow once", () => {
    const base = readBaseDeclarations(ROOT);
    expect(base.fragmentErrors).toEqual([]);
    for (const step of ['children', 'enrollment', 'fee', 'review']) {
      const written = base.screenSources![`parentapplication-${step}`].json as unknown as Record<string, unknown>;
      expect(JSON.stringify(written), step).toContain('"$fragment":"applicationExitBar"');
      const screen = base.screens[`parentapplication-${step}`].json;
      expect(screen.sections.slice(0, 2).map((s) => s.id)).toEqual(['exitBar', 'progress']);
      expect(screen.modals?.map((m) => m.id)).toEqual(['exit']);
      expect(screen.flow?.name).toBe('parentApplication');
    }
    expect(base.screens['parentapplication-fee'].json.flow?.step).toBe(3);
  });

  it('Pay now and the application confirmation declare the payment method tiles once, each with its own way on', () => {
    const base = readBaseDeclarations(ROOT);
    const tiles = (id: string) => base.screens[id].json.sections.find((s) => s.id === 'methods') as unknown as { kind: string; card: { fields: unknown[]; actions: Array<{ effect: { to?: string; type: string } }> } };
    for (const id of ['paynow', 'parentapplication-confirmation']) {
      expect(JSON.stringify(base.screenSources![id].json), id).toContain('"$fragment":"paymentMethodTiles"');
      expect(tiles(id).kind).toBe('cardList');
      expect(tiles(id).card.fields).toHaveLength(2);
    }
    expect(tiles('paynow').card.actions[0].effect.type).toBe('setFlow');
    expect(tiles('parentapplication-confirmation').card.actions[0].effect.to).toBe('/payerinformation');
  });

  it("the portal's and the parent application's payer pages declare their body once, each with its own show rules", () => {
    const base = readBaseDeclarations(ROOT);
    const sections = (id: string) => base.screens[id].json.sections as unknown as Array<Record<string, unknown>>;
    for (const id of ['payerinformation', 'parentapplication-payerinformation']) {
      expect(JSON.stringify(base.screenSources![id].json), id).toContain('"$fragment":"payerInformation"');
      const ids = sections(id).map((s) => s.id);
      // the autopay texts of the provider's variant right under the payer form (its checkbox and frequency), above the secure-payment note
      expect(ids.slice(ids.indexOf('payment'), ids.indexOf('payment') + 10), id).toEqual(['payment', 'bankDays', 'payer', 'weeklyDiscount', 'periodDiscount', 'datesW', 'datesT', 'datesM', 'termsLink', 'secure']);
    }
    // Pay now's payer page: the form for a new method, the payer on file for a saved one
    expect(sections('payerinformation').map((s) => [s.id, s.show])).toEqual([
      ['notStarted', 'payment.flowNotStarted'],
      ['payment', 'payment.flowStarted'],
      ['bankDays', 'payment.flowIsBank'],
      ['payer', 'payment.flowIsNew'],
      // enrolling in autopay while paying with a new method (spec 4's OTP variants): the shared autopay blocks
      ['weeklyDiscount', 'autopay.showWeeklyDiscount'],
      ['periodDiscount', 'autopay.showPeriodDiscount'],
      ['datesW', 'autopay.datesW'],
      ['datesT', 'autopay.datesT'],
      ['datesM', 'autopay.datesM'],
      ['termsLink', 'autopay.agreementShown'],
      ['secure', 'payment.flowIsNew'],
      ['bankReturnFee', 'payment.flowBankReturnFee'],
      ['payingWith', 'payment.flowIsSaved'],
      ['payerOnFile', 'payment.flowIsSaved'],
      ['onFileNote', 'payment.flowIsSaved'],
    ]);
    expect(sections('payerinformation').find((s) => s.id === 'payer')?.initial).toBe('$flow.data.payer');
    // the application's: its bank note by the method in the address, and the return fee as on Pay now's
    expect(sections('parentapplication-payerinformation').map((s) => s.show)).toEqual([
      undefined,
      'application.payMethodIsBank',
      undefined,
      ...['autopay.showWeeklyDiscount', 'autopay.showPeriodDiscount', 'autopay.datesW', 'autopay.datesT', 'autopay.datesM', 'autopay.agreementShown'],
      undefined,
      'payment.flowBankReturnFee',
    ]);
  });

  it("a provider's overlay on a fragment changes every screen that includes it, and the screen overlays apply after", () => {
    const base = readBaseDeclarations(ROOT);
    const bar = base.fragments!.applicationExitBar.json.content as Array<Record<string, unknown>>;
    const file = 'providers/brightpath/overlays/fragments/applicationExitBar.json';
    const r = buildDeclarationSet(
      base,
      [
        { kind: 'fragments', id: 'applicationExitBar', file, patch: { content: [{ ...bar[0], text: 'application.exit.action' }, bar[1]] } },
        { kind: 'screens', id: 'parentapplication-review', file: 'providers/brightpath/overlays/screens/parentapplication-review.json', patch: { title: 'application.review.title' } },
      ],
      { appName: 'brightpath' },
    );
    expect(r.ok, r.ok ? '' : JSON.stringify(r.errors)).toBe(true);
    if (!r.ok) return;
    for (const step of ['children', 'enrollment', 'fee', 'review']) {
      const exitBar = r.set.screens[`parentapplication-${step}`].sections.find((s) => s.id === 'exitBar') as unknown as Record<string, unknown>;
      expect(exitBar.text, step).toBe('application.exit.action');
    }
    expect(r.set.screens['parentapplication-review'].title).toBe('application.review.title');
    // without the overlay, the base text
    const plain = buildDeclarationSet(base, [], { appName: 'brightpath' });
    expect(plain.ok && (plain.set.screens['parentapplication-fee'].sections.find((s) => s.id === 'exitBar') as unknown as Record<string, unknown>).text).toBe('application.exit.intro');
    expect(path.basename(file)).toBe('applicationExitBar.json');
  });
});
