// Spec (brief): targets that later features build must not pretend to work. An action that navigates
// to a route without a declared screen is left out of the screen the runtime renders, so Home tiles,
// links and buttons appear as their screens are added — the same rule as the side menu.
import type { ActionDecl, DeclarationSet, Effect, ModalDecl, ScreenDecl, SectionDecl } from '../../engine/types';

function navigatesTo(effect: Effect | undefined): string[] {
  if (!effect) return [];
  const own = effect.type === 'navigate' ? [effect.to.split(/[?#]/)[0]] : [];
  const next = 'then' in effect && effect.then ? navigatesTo(effect.then) : [];
  return [...own, ...next];
}

function keepAction(action: ActionDecl, hasScreen: (path: string) => boolean): boolean {
  return navigatesTo(action.effect).every((to) => to.startsWith('$') || hasScreen(to));
}

function pruneActions(actions: ActionDecl[] | undefined, hasScreen: (path: string) => boolean): ActionDecl[] | undefined {
  return actions ? actions.filter((a) => keepAction(a, hasScreen)) : actions;
}

/**
 * The same rule for what a section links to: links items (`{to}` routes) and the actions of a card
 * template (cardList `card.actions`).
 */
function pruneSection(section: SectionDecl, hasScreen: (path: string) => boolean): SectionDecl {
  const actions = pruneActions(section.actions, hasScreen);
  if (section.kind === 'links') {
    const items = section.items.filter((l) => typeof l.to !== 'string' || l.to.startsWith('$') || hasScreen(l.to.split(/[?#]/)[0]));
    return { ...section, actions, items };
  }
  if (section.kind === 'cardList' && section.card.actions) {
    return { ...section, actions, card: { ...section.card, actions: pruneActions(section.card.actions, hasScreen) } };
  }
  return { ...section, actions };
}

/** A links section whose every item was left out is left out too (no empty list on the page). */
function emptied(before: SectionDecl, after: SectionDecl): boolean {
  return before.kind === 'links' && after.kind === 'links' && before.items.length > 0 && after.items.length === 0 && !after.actions?.length;
}

function pruneSections(sections: SectionDecl[], hasScreen: (path: string) => boolean): SectionDecl[] {
  return sections.flatMap((s) => {
    const out = pruneSection(s, hasScreen);
    return emptied(s, out) ? [] : [out];
  });
}

export function pruneUndeclaredTargets(screen: ScreenDecl, hasScreen: (path: string) => boolean): ScreenDecl {
  return {
    ...screen,
    sections: pruneSections(screen.sections, hasScreen),
    actions: pruneActions(screen.actions, hasScreen),
    modals: screen.modals?.map((m): ModalDecl => ({
      ...m,
      sections: m.sections ? pruneSections(m.sections, hasScreen) : m.sections,
      actions: pruneActions(m.actions, hasScreen) ?? [],
    })),
  };
}

/**
 * The whole declaration set with every screen pruned against the set's own routes. The shell installs
 * it as the `select` of the Customer.declarations query, so every reader (the runtime's ScreenView,
 * the menu, the home tiles) sees the same pruned screens.
 */
export function pruneDeclarationSet<T extends Pick<DeclarationSet, 'screens'>>(set: T): T {
  if (!set?.screens) return set;
  const paths = new Set(Object.values(set.screens).map((s) => s.path));
  const hasScreen = (path: string) => paths.has(path);
  return { ...set, screens: Object.fromEntries(Object.entries(set.screens).map(([id, s]) => [id, pruneUndeclaredTargets(s, hasScreen)])) };
}
