// What Chakra's system uses only to build its start-up CSS: the keyframes, Chakra's global styles and
// the portal's own. That CSS is built ahead into chakraGlobal.gen.css (scripts/lib/chakraGlobalCss.ts),
// so the running portal's system is made without them and none of this is in the first load; the
// running system knows the keyframes by name only (chakraTheme.ts, KEYFRAME_NAMES).
import { defineConfig, type SystemConfig } from '@chakra-ui/react';
import { globalCss } from '@chakra-theme/global-css';
import { keyframes } from '@chakra-theme/tokens/keyframes';

/** The portal's global styles, after Chakra's. */
export const portalGlobalCss = defineConfig({
  globalCss: {
    html: { colorPalette: 'brand', scrollPaddingTop: '5rem' },
    body: { bg: 'bg', color: 'fg' },
    // visible focus for every control, in both themes (spec: accessibility)
    ':focus-visible': { outline: '3px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' },
    // fields and checkboxes as visible as the buttons: Chakra's field recipes draw a 1 px ring and its
    // checkbox draws none on the hidden input; !important because recipes sit in a later layer
    'input:focus-visible, textarea:focus-visible, select:focus-visible, input:focus-visible + [data-part=control], [data-part=control][data-focus-visible]': {
      outlineStyle: 'solid !important',
      outlineWidth: '3px !important',
      outlineOffset: '2px !important',
      outlineColor: '{colors.brand.focusRing} !important',
    },
    'a:not([data-button])': { color: 'brand.fg', textDecoration: 'underline', textUnderlineOffset: '2px' },
  },
});

/** Added to the portal's system configs (theme.ts) when the start-up CSS is built. */
export const STARTUP_CSS_CONFIGS: SystemConfig[] = [defineConfig({ globalCss, theme: { keyframes } }), portalGlobalCss];
