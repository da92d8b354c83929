// Writes src/shell/theme/chakraGlobal.gen.css: the start-up CSS of the portal's Chakra system
// (scripts/lib/chakraGlobalCss.ts says what and why). The theme is loaded through Vite, which knows
// its aliases. `npm run gen -- --check` exits 1 when the committed file is stale.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'vite';
import { CSS_FILE } from './lib/chakraGlobalCss';

const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom', logLevel: 'silent' });
try {
  const { createSystem } = await vite.ssrLoadModule('@chakra-ui/react');
  const { PORTAL_SYSTEM_CONFIGS } = await vite.ssrLoadModule('/src/shell/theme/theme.ts');
  const { STARTUP_CSS_CONFIGS } = await vite.ssrLoadModule('/src/shell/theme/startupCss.ts');
  const { chakraGlobalCss } = await vite.ssrLoadModule('/scripts/lib/chakraGlobalCss.ts');
  const text: string = chakraGlobalCss(createSystem(...PORTAL_SYSTEM_CONFIGS, ...STARTUP_CSS_CONFIGS));
  if (process.argv.includes('--check')) {
    if ((existsSync(CSS_FILE) ? readFileSync(CSS_FILE, 'utf8') : '') !== text) {
      console.error('src/shell/theme/chakraGlobal.gen.css is stale: run `npm run gen`');
      process.exitCode = 1;
    } else console.log('src/shell/theme/chakraGlobal.gen.css is up to date');
  } else {
    writeFileSync(CSS_FILE, text);
    console.log(`wrote ${CSS_FILE}`);
  }
} finally {
  await vite.close();
}
