import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { minify, transformWithOxc, type Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { namespacesOfScreen, PRODUCT_NAMESPACES, SERVER_NAMESPACES, START_NAMESPACES } from './src/runtime/textNamespaces';
import { patchPlugins, treeshake } from './build/patches';
import { resolveFragments, type Fragments } from './src/engine/fragments';
import { isScreenOfProduct } from './src/engine/screen';

// Chakra's recipes are data the entry imports statically (through its theme module) but uses only a
// few of; they stay out of the library chunks so the rest can go to the lazy theme chunk
// (src/shell/theme/themeRecipes.ts) and the first paint's few to the entry.
const CHAKRA_RECIPES = /@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/]theme[\\/](recipes|slot-recipes)([\\/]|\.js$)/;
const library = (pattern: RegExp) => (id: string) => pattern.test(id) && !CHAKRA_RECIPES.test(id);

/**
 * `virtual:base-screens`: the screens shipped with the portal (screens/*.json) as the shell needs them
 * before the provider's declaration set arrives: route, query, layout, access and title. Sections and
 * actions are reduced to their kinds (the shell only asks whether a screen has any; the screen
 * renderer draws the declaration set's own copy), data loads and modals are left out.
 */
function baseScreens(): Plugin {
  // virtual:base-screens (every product's) and virtual:base-screens/<product> (the screens its pages draw)
  const id = 'virtual:base-screens';
  const dir = fileURLToPath(new URL('./screens/', import.meta.url));
  const schemaDir = fileURLToPath(new URL('./schemas/', import.meta.url));
  return {
    name: 'base-screens',
    resolveId: (source) => (source === id || source.startsWith(`${id}/`) ? `\0${source}` : null),
    load(loadId) {
      if (loadId !== `\0${id}` && !loadId.startsWith(`\0${id}/`)) return null;
      const ofProduct = loadId.startsWith(`\0${id}/`) ? loadId.slice(`\0${id}/`.length) : undefined;
      const schemas: Record<string, unknown> = {};
      for (const file of fs.readdirSync(schemaDir).filter((f) => f.endsWith('.json'))) {
        this.addWatchFile(schemaDir + file);
        schemas[file.slice(0, -'.json'.length)] = JSON.parse(fs.readFileSync(schemaDir + file, 'utf8'));
      }
      const lazy = namespaces().filter((ns) => !START_NAMESPACES.includes(ns));
      const ruleDir = fileURLToPath(new URL('./rules/', import.meta.url));
      const ruleNames = new Set<string>();
      for (const file of fs.readdirSync(ruleDir).filter((f) => f.endsWith('.rules.json'))) {
        this.addWatchFile(ruleDir + file);
        for (const name of Object.keys(JSON.parse(fs.readFileSync(ruleDir + file, 'utf8')).rules ?? {})) ruleNames.add(name);
      }
      // the screens' shared pieces (screens/fragments/), resolved as the engine resolves them
      const fragments: Fragments = {};
      const fragmentDir = `${dir}fragments/`;
      for (const file of fs.existsSync(fragmentDir) ? fs.readdirSync(fragmentDir).filter((f) => f.endsWith('.json')) : []) {
        this.addWatchFile(fragmentDir + file);
        fragments[file.slice(0, -'.json'.length)] = { file: `screens/fragments/${file}`, json: JSON.parse(fs.readFileSync(fragmentDir + file, 'utf8')) };
      }
      const screens: Record<string, unknown> = {};
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
        this.addWatchFile(dir + file);
        const resolved = resolveFragments(JSON.parse(fs.readFileSync(dir + file, 'utf8')), fragments, `screens/${file}`);
        if (resolved.errors.length) throw new Error(resolved.errors.map((e) => `${e.file}: ${e.path}: ${e.message}`).join('\n'));
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a screen file as written (the engine checks it)
        const decl = resolved.value as any;
        // a flow's steps (the progress bar) are drawn with the sections, from the declaration set
        const { $schema: _, data: _data, modals: _modals, description: _description, flow: _flow, sections, actions, ...route } = decl;
        if (!route.id || !route.path) continue;
        if (ofProduct && !isScreenOfProduct(route, ofProduct)) continue;
        // the lazily fetched namespaces the screen uses, fetched as it opens (src/runtime/ScreenView.tsx)
        // (not its own product's, fetched at start: src/runtime/textNamespaces.ts PRODUCT_NAMESPACES)
        const product = route.product ?? 'parentportal';
        const texts = namespacesOfScreen(
          lazy.filter((ns) => !(PRODUCT_NAMESPACES[ns] ?? []).some((p) => p === product)),
          decl,
          schemas,
          (name) => ruleNames.has(name),
        );
        screens[route.id] = {
          ...route,
          // each kind once: the shell asks whether a screen has sections and preloads their kinds' code
          // (with a form's renderer: the light one is a chunk of its own, warmed with the page)
          sections: [...new Set<string>((sections ?? []).map((s: { kind: string; renderer?: string }) => JSON.stringify(s.renderer ? { kind: s.kind, renderer: s.renderer } : { kind: s.kind })))].map(
            (s) => JSON.parse(s) as { kind: string },
          ),
          ...(actions ? { actions: actions.map(() => ({})) } : {}),
          ...(texts.length ? { texts } : {}),
        };
      }
      return `export default ${JSON.stringify(screens)};`;
    },
  };
}

/**
 * A rules file the portal imports (the chrome's rules, src/shell/shellState.ts) carries its rules' logic
 * only: descriptions are for people and the checks, and the portal does not ship them.
 */
function rulesWithoutDescriptions(): Plugin {
  return {
    name: 'rules-without-descriptions',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]rules[\\/][^\\/]+\.rules\.json$/.test(id)) return null;
      const { rules } = JSON.parse(code) as { rules: Record<string, { logic: unknown }> };
      return { code: JSON.stringify({ rules: Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, { logic: rule.logic }])) }), map: null };
    },
  };
}

/** The translation namespaces: the files of locales/en. */
function namespaces(): string[] {
  return fs
    .readdirSync(fileURLToPath(new URL('./locales/en/', import.meta.url)))
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** `virtual:locale-namespaces`: the list of namespaces (src/runtime/namespaces.ts), without loaders. */
function localeNamespaces(): Plugin {
  const id = 'virtual:locale-namespaces';
  return {
    name: 'locale-namespaces',
    resolveId: (source) => (source === id || source.startsWith(`${id}/`) ? `\0${source}` : null),
    load(loadId) {
      if (loadId !== `\0${id}` && !loadId.startsWith(`\0${id}/`)) return null;
      this.addWatchFile(fileURLToPath(new URL('./locales/en/', import.meta.url)));
      return `export const NAMESPACES = ${JSON.stringify(namespaces())};`;
    },
  };
}

/**
 * The texts as JSON files under one version (a hash of every locale file), so the page needs no
 * table of per-file names: assets/texts-<version>/<lang>.json holds the start namespaces of a
 * language, assets/texts-<version>/<lang>/<ns>.json each other namespace (src/runtime/texts.ts). A
 * release that changes any text changes the version; the files are cached as long as it stays.
 * The server's own texts (server) stay out: the browser never reads them.
 */
function localeTexts(): Plugin {
  const dir = fileURLToPath(new URL('./locales/', import.meta.url));
  const languages = () => fs.readdirSync(dir).filter((l) => /^[a-z]{2}$/.test(l)).sort();
  const read = (lang: string, ns: string): unknown => {
    const file = path.join(dir, lang, `${ns}.json`);
    return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  };
  const version = () => {
    const hash = crypto.createHash('sha256');
    for (const lang of languages()) for (const ns of namespaces()) hash.update(`${lang}/${ns}\0${JSON.stringify(read(lang, ns))}\0`);
    return hash.digest('hex').slice(0, 10);
  };
  return {
    name: 'locale-texts',
    config: () => ({ define: { __TEXTS_VERSION__: JSON.stringify(version()) } }),
    generateBundle() {
      const base = `assets/texts-${version()}`;
      for (const lang of languages()) {
        const start = Object.fromEntries(START_NAMESPACES.map((ns) => [ns, read(lang, ns)]));
        this.emitFile({ type: 'asset', fileName: `${base}/${lang}.json`, source: JSON.stringify(start) });
        for (const ns of namespaces().filter((n) => !START_NAMESPACES.includes(n) && !SERVER_NAMESPACES.includes(n))) {
          this.emitFile({ type: 'asset', fileName: `${base}/${lang}/${ns}.json`, source: JSON.stringify(read(lang, ns)) });
        }
      }
    },
  };
}

/**
 * Brotli (.br) and gzip (.gz) copies of every text file of the build; the server sends the best one
 * the browser accepts (@fastify/static preCompressed), at the highest levels since it is done once.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = path.resolve(config.root, config.build.outDir)),
    async writeBundle() {
      const files = (fs.readdirSync(outDir, { recursive: true }) as string[]).filter((f) => /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/.test(f));
      await Promise.all(
        files.map(async (file) => {
          const full = path.join(outDir, file);
          const body = await fs.promises.readFile(full);
          if (body.length < 256) return;
          const br = zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
          await fs.promises.writeFile(`${full}.br`, br);
          await fs.promises.writeFile(`${full}.gz`, zlib.gzipSync(body, { level: 9 }));
        }),
      );
    },
  };
}

/**
 * src/shell/boot/firstPaintEarly.ts as two scripts of their own, loaded async from the page's head:
 * the entry's (it holds a press of the server-drawn sign-in form while the entry is still on its
 * way: the entry's module graph runs nothing until all of it has arrived) and a signed-in page's
 * (`__SIGNED_IN_PAGE__`: its screen's first loads and the screen drawn with them), each without the
 * other's code. The page names the entry's; the server gives another page the other one
 * (`data-page-script`, server/boot.ts). Content-hashed, like the other assets.
 */
function firstPaintEarly(): Plugin {
  const source = fileURLToPath(new URL('./src/shell/boot/firstPaintEarly.ts', import.meta.url));
  let base = '/';
  const scripts: Record<'entry' | 'page', { code: string; fileName: string }> = { entry: { code: '', fileName: '' }, page: { code: '', fileName: '' } };
  return {
    name: 'first-paint-early',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    async buildStart() {
      this.addWatchFile(source);
      const out = await transformWithOxc(fs.readFileSync(source, 'utf8'), source, { lang: 'ts' });
      for (const kind of ['entry', 'page'] as const) {
        const text = out.code.replace(/\b__SIGNED_IN_PAGE__\b/g, String(kind === 'page'));
        const code = `${(await minify('firstPaintEarly.js', `(()=>{${text}})();`, {})).code}\n`;
        // a classic script: an import or export left in it would stop it with a syntax error
        if (/\b(export\s*\{|import\s*[\s{*'"])/.test(code)) this.error(`first-paint-early: ${kind} script holds an import or export`);
        const hash = crypto.createHash('sha256').update(code).digest('base64url').slice(0, 8);
        scripts[kind] = { code, fileName: `assets/first-paint-${kind === 'page' ? 'page-' : ''}${hash}.js` };
      }
    },
    transformIndexHtml: () => [
      { tag: 'script', attrs: { async: true, src: `${base}${scripts.entry.fileName}`, 'data-page-script': `${base}${scripts.page.fileName}` }, injectTo: 'head' },
    ],
    generateBundle() {
      for (const { fileName, code } of Object.values(scripts)) this.emitFile({ type: 'asset', fileName, source: code });
    },
  };
}

// The portal is served under /parentportal/ by the API server (history mode). `vite build --ssr`
// builds the server's drawing of a signed-in page's screen (src/shell/boot/screenPaint.tsx) into
// dist-server/, with the same plugins and patches, every library inside (nothing it imports is
// resolved apart from them at run time).
export default defineConfig(({ isSsrBuild }) => ({
  base: '/parentportal/',
  // every change to a library's code is a patch of build/patches/ (its README has the table)
  plugins: [react(), ...patchPlugins(), baseScreens(), localeNamespaces(), localeTexts(), rulesWithoutDescriptions(), ...(isSsrBuild ? [] : [firstPaintEarly(), precompress()])],
  ...(isSsrBuild ? { ssr: { noExternal: true, target: 'node' as const } } : {}),
  // a JSON module is its default export only (no export per top-level key: the data stays one object)
  json: { namedExports: false },
  build: {
    outDir: isSsrBuild ? 'dist-server' : 'dist',
    copyPublicDir: !isSsrBuild,
    modulePreload: {
      // every browser the portal supports preloads modules itself (no polyfill in the entry)
      polyfill: false,
      // a lazy chunk's dependencies are preloaded with it, except the entry's own libraries and
      // runtime, which every page has loaded already (the list of them is part of the entry); a
      // chunk without other dependencies is simply imported
      resolveDependencies: (file, deps, { hostType }) => {
        // the page itself names the entry's libraries, so the browser fetches them with the entry
        if (hostType === 'html') return deps;
        const kept = deps.filter((d) => !/(^|\/)(react|chakra|vendor|rolldown-runtime|preload-helper)-[\w-]{8}\.js$/.test(d));
        return kept.length === 1 && kept[0] === file ? [] : kept;
      },
    },
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      treeshake: process.env.BUILD_WITHOUT_PATCHES?.split(',').includes('emotionStatics') ? undefined : treeshake,
      output: {
        // Libraries every first load needs get chunks of their own, so a release that changes only
        // the portal's code leaves them cached. Libraries of lazy parts (forms, dialogs, QR code)
        // stay in those parts' chunks.
        codeSplitting: isSsrBuild ? undefined : {
          groups: [
            { name: 'react', test: library(/node_modules[\\/](react|react-dom|scheduler)[\\/]/), tags: ['$initial'], priority: 3 },
            {
              name: 'chakra',
              test: library(/node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@pandacss|@floating-ui|stylis|hoist-non-react-statics|react-is)[\\/]/),
              tags: ['$initial'],
              priority: 2,
            },
            { name: 'vendor', test: library(/node_modules[\\/]/), tags: ['$initial'], priority: 1 },
            // loaded only when @rjsf draws a Markdown text (build/patches/rjsfLazyMarkdown.ts); named for
            // what it is, not after its module's file name (react.js)
            { name: 'markdown', test: library(/node_modules[\\/]markdown-to-jsx[\\/]/), includeDependenciesRecursively: false, priority: 4 },
            // the light form (sign-in) with the form host it shares with the full form, and the
            // engine's field helpers they use: one chunk, assigned by folder (a file added to or
            // moved out of these folders changes the chunk; a rename does not)
            { name: 'LightForm', test: /[\\/]src[\\/](runtime[\\/]form[\\/]light|engine[\\/]fields)[\\/]/, includeDependenciesRecursively: false, priority: 0 },
            // the portal's own code of the first load in one chunk (shared with lazy parts or not):
            // one request and one gzip dictionary instead of a handful of small chunks
            { name: 'app', test: (id) => !/node_modules[\\/]/.test(id), tags: ['$initial'], priority: 0 },
          ],
        },
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/server/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite and PostgreSQL tests share one process pool; keep memory bounded on 2 cores
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/seededTemplate.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // two files at once, each with its own server, database copy and browser: a browser test
          // mostly waits (for its pages, its server, a checkout), about a fifth of two cores busy one
          // at a time
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
}));
