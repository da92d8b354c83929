import { describe, expect, it } from 'vitest';
import type { ScreenDecl } from '../../../src/engine/types';
import { pruneDeclarationSet, pruneUndeclaredTargets } from '../../../src/shell/routing/prune';

const screen: ScreenDecl = {
  id: 'home',
  path: '/home',
  layout: 'default',
  access: 'private',
  title: 'screens.home.title',
  sections: [
    {
      id: 'payments',
      kind: 'summary',
      items: [],
      actions: [
        { id: 'pay', label: 'screens.home.payNow', effect: { type: 'navigate', to: '/paynow' } },
        { id: 'statement', label: 'screens.home.viewStatement', effect: { type: 'navigate', to: '/viewstatement', query: { tab: 'invoices' } } },
        { id: 'bound', label: 'x', effect: { type: 'navigate', to: '$item.url' } },
        { id: 'out', label: 'x', effect: { type: 'signOut' } },
        { id: 'chain', label: 'x', effect: { type: 'setFlow', values: {}, then: { type: 'navigate', to: '/changeschedule' } } },
      ],
    },
    { id: 'links', kind: 'links', items: [{ to: '/bulletin', label: 'a' }, { to: '/form?x=1', label: 'b' }, { href: 'https://example.org', label: 'c' }] },
    { id: 'list', kind: 'cardList', items: 'children', card: { title: '$item.name', actions: [{ id: 'edit', label: 'x', effect: { type: 'navigate', to: '/editchild' } }] } },
  ],
  modals: [{ id: 'm', title: 't', actions: [{ id: 'go', label: 'x', effect: { type: 'navigate', to: '/calendar' } }] }],
};

describe('pruneUndeclaredTargets', () => {
  it('drops navigation to routes without a screen, keeps the rest', () => {
    const declared = new Set(['/viewstatement', '/form']);
    const out = pruneUndeclaredTargets(screen, (p) => declared.has(p));
    expect(out.sections[0].actions!.map((a) => a.id)).toEqual(['statement', 'bound', 'out']);
    const [, links, list] = out.sections;
    if (links.kind !== 'links' || list.kind !== 'cardList') throw new Error('sections changed kind');
    expect(links.items.map((l) => l.label)).toEqual(['b', 'c']);
    expect(list.items).toBe('children');
    expect(list.card.actions).toEqual([]);
    expect(out.modals![0].actions).toEqual([]);
  });

  it('leaves out a links section whose every item was left out', () => {
    const out = pruneUndeclaredTargets(screen, () => false);
    expect(out.sections.map((s) => s.id)).toEqual(['payments', 'links', 'list']);
    const tiles: ScreenDecl = { ...screen, sections: [{ id: 'tiles', kind: 'links', items: [{ to: '/paynow', label: 'a' }] }] };
    expect(pruneUndeclaredTargets(tiles, () => false).sections).toEqual([]);
  });

  it('keeps everything when every target is declared, and does not change its input', () => {
    const before = JSON.stringify(screen);
    const out = pruneUndeclaredTargets(screen, () => true);
    expect(out.sections[0].actions).toHaveLength(5);
    expect(JSON.stringify(screen)).toBe(before);
  });
});

describe('pruneDeclarationSet', () => {
  it('prunes every screen against the routes of the set itself', () => {
    const paynow: ScreenDecl = { id: 'paynow', path: '/paynow', layout: 'default', access: 'private', title: 't', sections: [] };
    const set = { version: 'v1', schemas: {}, rules: {}, screens: { home: screen, paynow } };
    const out = pruneDeclarationSet(set);
    expect(out.version).toBe('v1');
    expect(out.screens.home.sections[0].actions!.map((a) => a.id)).toEqual(['pay', 'bound', 'out']);
    expect(out.screens.paynow).toEqual(paynow);
  });
});
