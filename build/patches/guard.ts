// What every library patch shares: the exact version of the library it was written for, checked when
// the build starts, and a count of the places it changed, checked when the build ends. A library
// upgrade, or a change inside the library that moves the patched code, stops the build with the
// patch's name instead of shipping the library unpatched or wrongly patched.
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

export interface LibraryPatch {
  /** file name in build/patches/ without .ts */
  name: string;
  library: string;
  /** the exact version the patch was written against */
  version: string;
  /** why the build cannot go without it (imports that only it resolves): the benchmark keeps it */
  required?: string;
  plugin: () => Plugin;
}

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');

/** The installed version of a package (its package.json). */
export function installedVersion(library: string, root = ROOT): string {
  return (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', library, 'package.json'), 'utf8')) as { version: string }).version;
}

export class PatchError extends Error {
  constructor(patch: string, message: string) {
    super(`build/patches/${patch}.ts: ${message}; review the patch (build/patches/README.md)`);
  }
}

/** Fails unless the installed library is the version the patch was written for. */
export function expectVersion(patch: string, library: string, version: string, root = ROOT): void {
  const found = installedVersion(library, root);
  if (found !== version) throw new PatchError(patch, `written for ${library}@${version}, found ${found}`);
}

/** `from` replaced by `to` in a library's source; fails when the source no longer holds `from`. */
export function replaceOnce(patch: string, id: string, code: string, from: string, to: string): string {
  if (!code.includes(from)) throw new PatchError(patch, `${path.basename(id)} no longer holds the code it replaces`);
  return code.replace(from, to);
}

/**
 * A patch's plugin with its guards: the version check as the configuration resolves, and, in a build,
 * a failure at its end when the patch changed fewer places than it expects (`minimum`). `hit()` counts
 * one change.
 */
export function guarded(patch: LibraryPatch | Omit<LibraryPatch, 'plugin'>, minimum: number, make: (hit: () => void) => Plugin): Plugin {
  let hits = 0;
  let building = false;
  const plugin = make(() => void hits++);
  const { configResolved, buildStart, buildEnd } = plugin;
  return {
    ...plugin,
    configResolved(config) {
      expectVersion(patch.name, patch.library, patch.version, config.root);
      building = config.command === 'build' && !config.build.watch;
      if (typeof configResolved === 'function') return configResolved.call(this, config);
    },
    buildStart(options) {
      hits = 0;
      if (typeof buildStart === 'function') return buildStart.call(this, options);
    },
    buildEnd(error) {
      if (building && !error && hits < minimum) throw new PatchError(patch.name, `changed ${hits} place(s) of ${patch.library}, expected at least ${minimum}`);
      if (typeof buildEnd === 'function') return buildEnd.call(this, error);
    },
  };
}
