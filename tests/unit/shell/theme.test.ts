import { readFileSync } from 'node:fs';
import { createSystem, defaultConfig } from '@chakra-ui/react';
import { describe, expect, it } from 'vitest';
import { firstPaintRecipes, firstPaintSlotRecipes, firstPaintThemeConfig, KEYFRAME_NAMES, UNUSED_PALETTES } from '../../../src/shell/theme/chakraTheme';
import { STARTUP_CSS_CONFIGS } from '../../../src/shell/theme/startupCss';
import { LATER_RECIPES, LATER_SLOT_RECIPES, loadRestOfTheme, getPortalSystem, PORTAL_SYSTEM_CONFIGS } from '../../../src/shell/theme/theme';
import { chakraGlobalCss, CSS_FILE } from '../../../scripts/lib/chakraGlobalCss';
import BASE_SCREENS from 'virtual:base-screens';

describe('the first-load theme', () => {
  it("holds Chakra's default theme apart from the recipes, which are split between the first paint and later, and the unused palettes", () => {
    const { recipes, slotRecipes, keyframes, ...theme } = defaultConfig.theme!;
    const { recipes: _r, slotRecipes: _s, keyframes: keyframeNames, ...ours } = firstPaintThemeConfig.theme!;
    const drop = (t: object) => Object.fromEntries(Object.entries(t).filter(([k]) => !UNUSED_PALETTES.includes(k)));
    expect(ours).toEqual({
      ...theme,
      tokens: { ...theme.tokens, colors: drop(theme.tokens!.colors!) },
      semanticTokens: { ...theme.semanticTokens, colors: drop(theme.semanticTokens!.colors!) },
    });
    expect(Object.keys(ours.tokens!.colors!)).not.toContain('yellow');
    // no recipe of Chakra's names a palette the portal leaves out
    expect(JSON.stringify([recipes, slotRecipes])).not.toMatch(new RegExp(`\\b(${UNUSED_PALETTES.join('|')})\\.`));
    // what only the start-up CSS uses is in the configs that build it, the keyframes by name in the running system
    expect(firstPaintThemeConfig.globalCss).toBeUndefined();
    expect(STARTUP_CSS_CONFIGS[0].globalCss).toEqual(defaultConfig.globalCss);
    expect(STARTUP_CSS_CONFIGS[0].theme?.keyframes).toEqual(keyframes);
    expect(Object.keys(keyframeNames!)).toEqual(KEYFRAME_NAMES);
    expect(KEYFRAME_NAMES).toEqual(Object.keys(keyframes!));
    expect([...Object.keys(firstPaintRecipes), ...LATER_RECIPES].sort()).toEqual(Object.keys(recipes!).sort());
    expect([...Object.keys(firstPaintSlotRecipes), ...LATER_SLOT_RECIPES].sort()).toEqual(Object.keys(slotRecipes!).sort());
  });

  it("the start-up CSS built ahead is what Chakra's provider would insert for the portal's system (run `npm run gen` after changing the theme)", () => {
    const text = chakraGlobalCss(createSystem(...PORTAL_SYSTEM_CONFIGS, ...STARTUP_CSS_CONFIGS));
    expect(readFileSync(CSS_FILE, 'utf8')).toBe(text);
    // the layer order first, then the reset, the global styles and the tokens (both colour schemes)
    expect(text).toMatch(/^\/\*[^\n]*\*\/\n@layer reset,base,tokens,recipes;\n@layer reset\{/);
    expect(text).toContain('--chakra-colors-brand-solid:#1d4f91');
    expect(text).toMatch(/\.dark[^{]*\{[^}]*--chakra-colors-brand-solid:#ffd500/);
    expect(text).toContain('@keyframes spin');
  });

  it('the running system styles as one built with the start-up-only configs does (animations by keyframe name)', () => {
    const complete = createSystem(...PORTAL_SYSTEM_CONFIGS, ...STARTUP_CSS_CONFIGS);
    const running = getPortalSystem();
    const styles = { animationName: 'spin', animation: 'pulse 2s infinite', color: 'fg.muted', _hover: { bg: 'brand.subtle' } };
    expect(running.css(styles)).toEqual(complete.css(styles));
    for (const name of ['spinner', 'skeleton', 'button'] as const) expect(running.getRecipeFn(name)({})).toEqual(complete.getRecipeFn(name)({}));
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
