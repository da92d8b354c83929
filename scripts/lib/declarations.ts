// Shared by the QA CLIs: read the repository's declarations and build a provider's effective set.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDeclarationSet, type BuildResult, type DeclError } from '../../src/engine/index';
import { listProviders, providerCountry, readBaseDeclarations, readProviderOverlays } from '../../src/engine/node';

/** The repository root; DECLARATIONS_ROOT points the CLIs at another tree (tests use a broken copy). */
export const ROOT = process.env.DECLARATIONS_ROOT ? resolve(process.env.DECLARATIONS_ROOT) : resolve(fileURLToPath(new URL('../..', import.meta.url)));

export function buildFor(appName?: string, root = ROOT): BuildResult {
  const base = readBaseDeclarations(root);
  const overlays = appName ? readProviderOverlays(root, appName) : [];
  return buildDeclarationSet(base, overlays, { appName });
}

export function formatError(e: DeclError): string {
  return `${e.file}: ${e.path || '/'}: ${e.message}`;
}

export { listProviders, providerCountry };

/** Minimal argv parsing: positionals and --name value pairs. */
export function parseArgs(argv: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) flags[a.slice(2)] = argv[++i];
      else flags[a.slice(2)] = 'true';
    } else positional.push(a);
  }
  return { positional, flags };
}
