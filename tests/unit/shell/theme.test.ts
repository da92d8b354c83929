import { defaultConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { firstPaintRecipes, firstPaintSlotRecipes, firstPaintThemeConfig, UNUSED_PALETTES } from '../../../src/shell/chakraTheme';
import { LATER_RECIPES, LATER_SLOT_RECIPES, loadRestOfTheme, getPortalSystem } from '../../../src/shell/theme';
import BASE_SCREENS from 'virtual:base-screens';

describe('the first-load theme', () => {
  it("holds Chakra's default theme apart from the recipes, which are split between the first paint and later, and the unused palettes", () => {
    const { recipes, slotRecipes, ...theme } = defaultConfig.theme!;
    const { recipes: _r, slotRecipes: _s, ...ours } = firstPaintThemeConfig.theme!;
    const drop = (t: object) => Object.fromEntries(Object.entries(t).filter(([k]) => !UNUSED_PALETTES.includes(k)));
    expect(ours).toEqual({
      ...theme,
      tokens: { ...theme.tokens, colors: drop(theme.tokens!.colors!) },
      semanticTokens: { ...theme.semanticTokens, colors: drop(theme.semanticTokens!.colors!) },
    });
    expect(Object.keys(ours.tokens!.colors!)).not.toContain('yellow');
    // no recipe of Chakra's names a palette the portal leaves out
    expect(JSON.stringify([recipes, slotRecipes])).not.toMatch(new RegExp(`\\b(${UNUSED_PALETTES.join('|')})\\.`));
    expect(firstPaintThemeConfig.globalCss).toEqual(defaultConfig.globalCss);
    expect([...Object.keys(firstPaintRecipes), ...LATER_RECIPES].sort()).toEqual(Object.keys(recipes!).sort());
    expect([...Object.keys(firstPaintSlotRecipes), ...LATER_SLOT_RECIPES].sort()).toEqual(Object.keys(slotRecipes!).sort());
  });

  it('a later recipe suspends (throws the loading promise) until the rest of the theme is in, then resolves', async () => {
    expect(getPortalSystem().getRecipeFn('button')).toBeTypeOf('function');
    let thrown: unknown;
    try {
      getPortalSystem().getSlotRecipeFn('dialog');
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(Promise);
    await loadRestOfTheme();
    const dialog = getPortalSystem().getSlotRecipeFn('dialog');
    expect(Object.keys(dialog({}))).toContain('content');
    expect(getPortalSystem().getRecipeFn('textarea')).toBeTypeOf('function');
  });
});

describe('the bundled base screens', () => {
  it('keep route, layout, access and title, and sections only by kind', () => {
    const home = BASE_SCREENS.home;
    expect(home).toMatchObject({ id: 'home', path: '/home', access: 'private' });
    expect(home.sections.length).toBeGreaterThan(0);
    for (const s of home.sections) expect(Object.keys(s)).toEqual(['kind']);
    expect(home).not.toHaveProperty('data');
  });
});
