// The portal's Chakra system. The accessibility theme (spec 2.3) is a high-contrast scheme: it is
// Chakra's "dark" condition with every colour pushed to maximum contrast (white and yellow on black),
// so every Chakra component, the shell's and the screens', switches with one class on <html>.
//
// The first load carries only the recipes (component styles) the first paint of sign-in and Home
// uses; Chakra's other recipes are a chunk of their own (`themeRecipes.ts`), loaded when a component
// first asks for one of them (that component suspends until then) or on the parent's first input.
import { createSystem, defaultBaseConfig, defineConfig, type SystemConfig, type SystemContext } from '@chakra-ui/react';
import { firstPaintThemeConfig } from './chakraTheme';
import type { FontSize } from '../../state/session';
import { onFirstInput } from '../../runtime/firstInput';

const hc = {
  bg: '#000000',
  panel: '#000000',
  fg: '#ffffff',
  accent: '#ffd500',
  accentSoft: '#3d3300',
  border: '#ffffff',
  danger: '#ff8080',
  success: '#7dff9b',
};

/** A colour palette whose high-contrast variant is yellow on black. */
function palette(light: Record<'contrast' | 'fg' | 'subtle' | 'muted' | 'emphasized' | 'solid' | 'focusRing' | 'border', string>, dark?: Partial<typeof light>) {
  const d = {
    contrast: '#000000',
    fg: hc.accent,
    subtle: hc.accentSoft,
    muted: hc.accentSoft,
    emphasized: '#665500',
    solid: hc.accent,
    focusRing: hc.accent,
    border: hc.accent,
    ...dark,
  };
  return Object.fromEntries(Object.entries(light).map(([k, v]) => [k, { value: { _light: v, _dark: d[k as keyof typeof d] } }]));
}

const brand = palette({
  contrast: '#ffffff',
  fg: '#17427a',
  subtle: '#e8f0fa',
  muted: '#cfe0f5',
  emphasized: '#a9c6ea',
  solid: '#1d4f91',
  focusRing: '#1d4f91',
  border: '#1d4f91',
});

const config = defineConfig({
  // spec 9 breakpoints: 320, 640, 768, 1024, 1280, 1536
  theme: {
    breakpoints: { xs: '320px', sm: '640px', md: '768px', lg: '1024px', xl: '1280px', '2xl': '1536px' },
    tokens: {
      fonts: {
        heading: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif' },
        body: { value: 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Arial, sans-serif' },
      },
    },
    semanticTokens: {
      colors: {
        brand,
        blue: brand,
        bg: {
          DEFAULT: { value: { _light: '#ffffff', _dark: hc.bg } },
          subtle: { value: { _light: '#f5f7fa', _dark: hc.bg } },
          muted: { value: { _light: '#eef1f5', _dark: '#111111' } },
          emphasized: { value: { _light: '#e2e6ec', _dark: '#222222' } },
          panel: { value: { _light: '#ffffff', _dark: hc.panel } },
          error: { value: { _light: '#fdecec', _dark: hc.bg } },
          success: { value: { _light: '#eaf7ee', _dark: hc.bg } },
          info: { value: { _light: '#e8f0fa', _dark: hc.bg } },
          warning: { value: { _light: '#fff6e0', _dark: hc.bg } },
        },
        fg: {
          DEFAULT: { value: { _light: '#1a1f26', _dark: hc.fg } },
          muted: { value: { _light: '#4a5462', _dark: hc.fg } },
          subtle: { value: { _light: '#5d6775', _dark: hc.fg } },
          error: { value: { _light: '#b42318', _dark: hc.danger } },
          success: { value: { _light: '#1e6b34', _dark: hc.success } },
          info: { value: { _light: '#17427a', _dark: hc.accent } },
          warning: { value: { _light: '#8a4b00', _dark: hc.accent } },
        },
        border: {
          DEFAULT: { value: { _light: '#d5dbe3', _dark: hc.border } },
          muted: { value: { _light: '#e2e6ec', _dark: hc.border } },
          subtle: { value: { _light: '#eef1f5', _dark: hc.border } },
          emphasized: { value: { _light: '#8792a2', _dark: hc.border } },
          error: { value: { _light: '#b42318', _dark: hc.danger } },
          success: { value: { _light: '#1e6b34', _dark: hc.success } },
          info: { value: { _light: '#1d4f91', _dark: hc.accent } },
        },
        gray: palette(
          {
            contrast: '#ffffff',
            fg: '#2b323c',
            subtle: '#eef1f5',
            muted: '#e2e6ec',
            emphasized: '#cdd3dc',
            solid: '#2b323c',
            focusRing: '#1d4f91',
            border: '#8792a2',
          },
          { contrast: '#000000', fg: hc.fg, subtle: '#111111', muted: '#222222', emphasized: '#333333', solid: hc.fg, border: hc.border },
        ),
        red: palette(
          {
            contrast: '#ffffff',
            fg: '#b42318',
            subtle: '#fdecec',
            muted: '#f9d0cd',
            emphasized: '#f2a9a3',
            solid: '#b42318',
            focusRing: '#b42318',
            border: '#b42318',
          },
          { fg: hc.danger, solid: hc.danger, border: hc.danger, focusRing: hc.danger, subtle: '#220000', muted: '#330000' },
        ),
        green: palette(
          {
            contrast: '#ffffff',
            fg: '#1e6b34',
            subtle: '#eaf7ee',
            muted: '#c8ead2',
            emphasized: '#9fd8af',
            solid: '#1e6b34',
            focusRing: '#1e6b34',
            border: '#1e6b34',
          },
          { fg: hc.success, solid: hc.success, border: hc.success, focusRing: hc.success, subtle: '#002208', muted: '#003310' },
        ),
      },
    },
  },

});

/**
 * The configs the portal's system is made of. Its start-up CSS (preflight, global styles, every token
 * as a CSS variable) is built ahead from the same configs and what only that CSS uses
 * (startupCss.ts) into src/shell/theme/chakraGlobal.gen.css, which the page links; the built portal's
 * Chakra builds none (vite.config.ts, chakraGlobalAhead()).
 */
export const PORTAL_SYSTEM_CONFIGS: SystemConfig[] = [defaultBaseConfig, firstPaintThemeConfig, config];

let system: SystemContext | null = null;

/**
 * The portal's Chakra system: Chakra's default theme (its `defaultConfig`) with only the first
 * paint's recipes. Built on first use; building it turns every token into a CSS variable, a long task
 * on a cheap phone, so main.tsx builds it in a task of its own while the first texts load.
 */
export function getPortalSystem(): SystemContext {
  if (!system) {
    system = createSystem(...PORTAL_SYSTEM_CONFIGS);
    suspendLaterRecipes(system);
  }
  return system;
}
/** Chakra's recipes that are not in the first load (checked against Chakra's theme by a unit test). */
export const LATER_RECIPES = ['code', 'container', 'inputAddon', 'kbd', 'mark', 'textarea', 'icon', 'checkmark', 'radiomark', 'colorSwatch'];
export const LATER_SLOT_RECIPES = [
  'accordion', 'actionBar', 'avatar', 'blockquote', 'breadcrumb', 'carousel', 'checkbox', 'checkboxCard', 'codeBlock',
  'collapsible', 'dataList', 'dateInput', 'datePicker', 'dialog', 'drawer', 'editable', 'emptyState', 'fieldset',
  'fileUpload', 'hoverCard', 'listbox', 'menu', 'numberInput', 'pinInput', 'popover', 'progress', 'progressCircle',
  'radioCard', 'radioGroup', 'ratingGroup', 'scrollArea', 'segmentGroup', 'select', 'combobox', 'slider', 'splitter',
  'stat', 'steps', 'switch', 'table', 'tabs', 'tag', 'tagsInput', 'toast', 'tooltip', 'status', 'timeline',
  'colorPicker', 'qrCode', 'treeView', 'marquee', 'floatingPanel',
];

let restOfTheme: Promise<void> | null = null;
let themeComplete = false;

/** Loads Chakra's remaining recipes into the portal's system (once). */
export function loadRestOfTheme(): Promise<void> {
  restOfTheme ??= import('./themeRecipes').then(({ recipes, slotRecipes }) => {
    const theme = getPortalSystem()._config.theme!;
    theme.recipes = Object.assign(theme.recipes ?? {}, { ...recipes, ...theme.recipes });
    theme.slotRecipes = Object.assign(theme.slotRecipes ?? {}, { ...slotRecipes, ...theme.slotRecipes });
    themeComplete = true;
  });
  return restOfTheme;
}

// A component whose recipe is not in the first load suspends (throws the loading promise to the
// nearest Suspense boundary) until the rest of the theme is in; a recipe function is cached on first
// use, so none is ever built from a missing recipe.
function suspendLaterRecipes(sys: SystemContext): void {
  const recipeFn = sys.getRecipeFn;
  const slotRecipeFn = sys.getSlotRecipeFn;
  const later = new Set(LATER_RECIPES);
  const laterSlot = new Set(LATER_SLOT_RECIPES);
  sys.getRecipeFn = (key, fallback) => {
    if (!themeComplete && later.has(key)) throw loadRestOfTheme();
    return recipeFn(key, fallback);
  };
  sys.getSlotRecipeFn = (key, fallback) => {
    if (!themeComplete && laterSlot.has(key)) throw loadRestOfTheme();
    return slotRecipeFn(key, fallback);
  };
}

/** The rest of the theme loads on the parent's first input, before a dialog or menu asks for it. */
export function warmThemeOnFirstInput(target: Window): void {
  onFirstInput(target, () => void loadRestOfTheme());
}

/** Root font size per spec 9 font option; every size in the portal is in rem. */
export const FONT_SCALE: Record<FontSize, string> = {
  small: '87.5%',
  default: '100%',
  medium: '112.5%',
  large: '125%',
};

/** Applies the accessibility theme and font size to <html> (and the colour scheme the browser uses). */
export function applyDisplayPreferences(doc: Document, accessibilityTheme: boolean, fontSize: FontSize): void {
  const html = doc.documentElement;
  html.classList.toggle('dark', accessibilityTheme);
  html.classList.toggle('light', !accessibilityTheme);
  html.dataset.theme = accessibilityTheme ? 'accessibility' : 'default';
  html.style.colorScheme = accessibilityTheme ? 'dark' : 'light';
  html.style.fontSize = FONT_SCALE[fontSize] ?? FONT_SCALE.default;
}
