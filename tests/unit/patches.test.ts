// The library patches of build/patches/: each stops the build, naming itself, when its library is not
// the version it was written for, when the code it replaces is gone, or when a build ends without it
// having changed what it expects to change.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Plugin, ResolvedConfig } from 'vite';
import { PATCHES } from '../../build/patches';
import { expectVersion, installedVersion } from '../../build/patches/guard';
import { chakraGlobalAhead } from '../../build/patches/chakraGlobalAhead';
import { rjsfDecimalSeparator } from '../../build/patches/rjsfCosts';
import { rjsfLazyMarkdown } from '../../build/patches/rjsfLazyMarkdown';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const config = (root: string) => ({ root, command: 'build', build: { watch: null } }) as unknown as ResolvedConfig;
// the hooks as plain functions (the patches declare them so)
type Hook = (this: unknown, ...args: unknown[]) => unknown;
const hook = (p: Plugin, name: keyof Plugin) => p[name] as unknown as Hook;

describe('library patches', () => {
  it('each is written for the installed version of its library', () => {
    for (const p of PATCHES) expect(installedVersion(p.library), `${p.name}: ${p.library}`).toBe(p.version);
  });

  it('the README table has a row for each', () => {
    const table = fs.readFileSync(path.join(ROOT, 'build/patches/README.md'), 'utf8');
    for (const name of new Set(PATCHES.map((p) => p.name))) expect(table, name).toContain(`[${name}](${name}.ts)`);
  });

  it('a library of another version stops the build, naming the patch', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'patches-'));
    try {
      fs.mkdirSync(path.join(root, 'node_modules/@chakra-ui/react'), { recursive: true });
      fs.writeFileSync(path.join(root, 'node_modules/@chakra-ui/react/package.json'), JSON.stringify({ version: '3.38.0' }));
      expect(() => expectVersion('chakraGlobalAhead', '@chakra-ui/react', '3.37.0', root)).toThrow(/build\/patches\/chakraGlobalAhead\.ts: written for @chakra-ui\/react@3\.37\.0, found 3\.38\.0/);
      const plugin = PATCHES.find((p) => p.name === 'chakraGlobalAhead')!.plugin();
      expect(() => hook(plugin, 'configResolved').call({}, config(root))).toThrow(/chakraGlobalAhead/);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('a library whose code no longer holds what the patch replaces stops the build', () => {
    const system = chakraGlobalAhead.plugin();
    hook(system, 'configResolved').call({}, config(ROOT));
    const id = path.join(ROOT, 'node_modules/@chakra-ui/react/dist/esm/styled-system/system.js');
    const changed = fs.readFileSync(id, 'utf8').replace('getPreflightCss(), getGlobalCss(), getTokenCss()', 'getGlobalCss(), getTokenCss()');
    expect(() => hook(system, 'transform').call({}, changed, id)).toThrow(/build\/patches\/chakraGlobalAhead\.ts: system\.js no longer holds the code it replaces/);
    // the library as installed is patched
    expect(String((hook(system, 'transform').call({}, fs.readFileSync(id, 'utf8'), id) as { code: string }).code)).toContain('const _global = [];');

    const separator = rjsfDecimalSeparator.plugin();
    const sepId = path.join(ROOT, 'node_modules/@rjsf/utils/lib/getDecimalSeparator.js');
    expect(() => hook(separator, 'transform').call({}, 'export function getDecimalSeparator() {}', sepId)).toThrow(/rjsfCosts/);
  });

  it('rjsfLazyMarkdown takes @rjsf/core\'s Markdown import only, and counts each importing module once', () => {
    const plugin = rjsfLazyMarkdown.plugin();
    hook(plugin, 'configResolved').call({}, config(ROOT));
    hook(plugin, 'buildStart').call({}, {});
    const resolve = (source: string, importer: string) => hook(plugin, 'resolveId').call({}, source, importer) as string | null;
    const core = (file: string) => path.join(ROOT, 'node_modules/@rjsf/core/lib/components', file);
    expect(resolve('markdown-to-jsx/react', path.join(ROOT, 'src/runtime/form/lazyMarkdown.tsx'))).toBeNull();
    expect(resolve('react', core('RichDescription.js'))).toBeNull();
    const files = ['RichDescription.js', 'RichHelp.js', 'fields/ObjectField.js', 'templates/UnsupportedField.js'];
    for (const file of files) expect(resolve('markdown-to-jsx/react', core(file))).toMatch(/src[\\/]runtime[\\/]form[\\/]lazyMarkdown\.tsx$/);
    resolve('markdown-to-jsx/react', core('RichHelp.js'));
    // four of the five importers: the build stops (a sixth is fine, one fewer means the library changed)
    expect(() => hook(plugin, 'buildEnd').call({})).toThrow(/rjsfLazyMarkdown\.ts: changed 4 place\(s\) of @rjsf\/core, expected at least 5/);
    resolve('markdown-to-jsx/react', core('widgets/FileWidget.js'));
    expect(() => hook(plugin, 'buildEnd').call({})).not.toThrow();
  });

  it('a build that ends without a patch having changed its target fails, naming it', () => {
    for (const p of PATCHES) {
      const plugin = p.plugin();
      hook(plugin, 'configResolved').call({}, config(ROOT));
      hook(plugin, 'buildStart').call({}, {});
      // emotionStatics states a fact to the bundler: it changes no code, so nothing to count
      if (p.name === 'emotionStatics') expect(() => hook(plugin, 'buildEnd').call({})).not.toThrow();
      else expect(() => hook(plugin, 'buildEnd').call({}), p.name).toThrow(new RegExp(`build/patches/${p.name}\\.ts: changed 0 place`));
    }
  });
});
