// Chakra's default theme (@chakra-ui/react/theme) without its recipes. Chakra's own theme module
// imports every recipe, and whatever a first-load module imports statically is in the first load,
// so the pieces are imported one by one here (`@chakra-theme/*` is an alias in vite.config.ts, its
// types come from tsconfig "paths"); the other recipes are the lazy chunk themeRecipes.ts.
import { defineConfig } from '@chakra-ui/react';
import { breakpoints } from '@chakra-theme/breakpoints';
import { layerStyles } from '@chakra-theme/layer-styles';
import { animationStyles } from '@chakra-theme/motion-styles';
import { semanticColors } from '@chakra-theme/semantic-tokens/colors';
import { semanticRadii } from '@chakra-theme/semantic-tokens/radii';
import { semanticShadows } from '@chakra-theme/semantic-tokens/shadows';
import { textStyles } from '@chakra-theme/text-styles';
import { animations } from '@chakra-theme/tokens/animations';
import { aspectRatios } from '@chakra-theme/tokens/aspect-ratios';
import { blurs } from '@chakra-theme/tokens/blurs';
import { borders } from '@chakra-theme/tokens/borders';
import { colors } from '@chakra-theme/tokens/colors';
import { cursor } from '@chakra-theme/tokens/cursor';
import { durations } from '@chakra-theme/tokens/durations';
import { easings } from '@chakra-theme/tokens/easings';
import { fontSizes } from '@chakra-theme/tokens/font-sizes';
import { fontWeights } from '@chakra-theme/tokens/font-weights';
import { fonts } from '@chakra-theme/tokens/fonts';
import { letterSpacings } from '@chakra-theme/tokens/letter-spacing';
import { lineHeights } from '@chakra-theme/tokens/line-heights';
import { radii } from '@chakra-theme/tokens/radius';
import { sizes } from '@chakra-theme/tokens/sizes';
import { spacing } from '@chakra-theme/tokens/spacing';
import { zIndices } from '@chakra-theme/tokens/z-indices';
import { alertSlotRecipe } from '@chakra-theme/recipes/alert';
import { badgeRecipe } from '@chakra-theme/recipes/badge';
import { buttonRecipe } from '@chakra-theme/recipes/button';
import { cardSlotRecipe } from '@chakra-theme/recipes/card';
import { fieldSlotRecipe } from '@chakra-theme/recipes/field';
import { headingRecipe } from '@chakra-theme/recipes/heading';
import { inputRecipe } from '@chakra-theme/recipes/input';
import { linkRecipe } from '@chakra-theme/recipes/link';
import { listSlotRecipe } from '@chakra-theme/recipes/list';
import { nativeSelectSlotRecipe } from '@chakra-theme/recipes/native-select';
import { separatorRecipe } from '@chakra-theme/recipes/separator';
import { skeletonRecipe } from '@chakra-theme/recipes/skeleton';
import { skipNavLinkRecipe } from '@chakra-theme/recipes/skip-nav-link';
import { spinnerRecipe } from '@chakra-theme/recipes/spinner';

/** The recipes the first paint of sign-in and Home uses (the rest load on first need). */
export const firstPaintRecipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  heading: headingRecipe,
  input: inputRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  skipNavLink: skipNavLinkRecipe,
  spinner: spinnerRecipe,
};
export const firstPaintSlotRecipes = {
  alert: alertSlotRecipe,
  card: cardSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
};

/**
 * Chakra's colour palettes the portal never names (neither its components nor Chakra's recipes):
 * every token is a CSS variable the system builds and the page's root style carries at start.
 */
export const UNUSED_PALETTES = ['yellow', 'cyan', 'pink'];
function withoutUnusedPalettes<T extends object>(tokens: T): T {
  return Object.fromEntries(Object.entries(tokens).filter(([name]) => !UNUSED_PALETTES.includes(name))) as T;
}

/**
 * Chakra's keyframes by name: the running system only checks an animation names one of them; the
 * keyframes themselves are in the start-up CSS built ahead (startupCss.ts).
 */
export const KEYFRAME_NAMES = [
  'spin', 'pulse', 'ping', 'bounce', 'bg-position', 'position', 'circular-progress', 'expand-height', 'collapse-height',
  'expand-width', 'collapse-width', 'fade-in', 'fade-out', 'slide-from-left-full', 'slide-from-right-full',
  'slide-from-top-full', 'slide-from-bottom-full', 'slide-to-left-full', 'slide-to-right-full', 'slide-to-top-full',
  'slide-to-bottom-full', 'slide-from-top', 'slide-from-bottom', 'slide-from-left', 'slide-from-right', 'slide-to-top',
  'slide-to-bottom', 'slide-to-left', 'slide-to-right', 'scale-in', 'scale-out', 'marqueeX', 'marqueeY',
];

/**
 * Chakra's defaultThemeConfig with the first paint's recipes only, and without what only its start-up
 * CSS uses (global styles, keyframes: startupCss.ts).
 */
export const firstPaintThemeConfig = defineConfig({
  preflight: true,
  cssVarsPrefix: 'chakra',
  cssVarsRoot: ':where(html, .chakra-theme)',
  theme: {
    breakpoints,
    keyframes: Object.fromEntries(KEYFRAME_NAMES.map((name) => [name, {}])),
    tokens: {
      aspectRatios,
      animations,
      blurs,
      borders,
      colors: withoutUnusedPalettes(colors),
      durations,
      easings,
      fonts,
      fontSizes,
      fontWeights,
      letterSpacings,
      lineHeights,
      radii,
      spacing,
      sizes,
      zIndex: zIndices,
      cursor,
    },
    semanticTokens: { colors: withoutUnusedPalettes(semanticColors), shadows: semanticShadows, radii: semanticRadii },
    textStyles,
    layerStyles,
    animationStyles,
    recipes: firstPaintRecipes,
    slotRecipes: firstPaintSlotRecipes,
  },
});
