// Each provider's effective declaration set (base + providers/<appName>/overlays), built with the
// engine at start and, in development, again whenever a declaration file changes. A set that fails
// the checks is refused with a log naming file and JSON path; the last good set stays in force.
import { watch, existsSync, readdirSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { errorMessage } from './json';
import { readBaseDeclarations, readProviderOverlays } from '../src/engine/node';
import { buildDeclarationSet, createFormEngine, compileStandaloneModule, type FormEngine, type DeclarationSet } from '../src/engine/index';

type Country = 'US' | 'CA';

export interface ProviderDeclarations {
  set: DeclarationSet;
  engine: FormEngine;
  country: Country;
}

interface Logger {
  info(o: unknown, m?: string): void;
  error(o: unknown, m?: string): void;
}

export class DeclarationStore {
  private current = new Map<string, ProviderDeclarations>();
  private validators = new Map<string, string>();
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private root: string,
    private countries: () => Promise<Record<string, Country>>,
    private log: Logger,
  ) {}

  /** appNames with a providers/<appName>/ folder */
  providerDirs(): string[] {
    const dir = join(this.root, 'providers');
    if (!existsSync(dir)) return [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
  }

  /** (Re)build every provider's set; answers the appNames that were refused. */
  async reload(): Promise<string[]> {
    const countries = await this.countries();
    let base;
    try {
      base = readBaseDeclarations(this.root);
    } catch (err) {
      this.log.error({ err }, `declarations: cannot read the base declarations; keeping the last good sets`);
      return Object.keys(countries);
    }
    const refused: string[] = [];
    for (const appName of Object.keys(countries)) {
      try {
        const overlays = readProviderOverlays(this.root, appName);
        const result = buildDeclarationSet(base, overlays, { appName });
        if (!result.ok) {
          refused.push(appName);
          for (const e of result.errors) {
            this.log.error({ appName, file: e.file, path: e.path }, `declarations refused for ${appName}: ${e.file} ${e.path || '/'}: ${e.message}`);
          }
          continue;
        }
        const prev = this.current.get(appName);
        if (prev?.set.version === result.set.version && prev.country === countries[appName]) continue;
        const country = countries[appName];
        this.current.set(appName, { set: result.set, engine: createFormEngine(result.set, { country }), country });
        this.log.info({ appName, version: result.set.version }, `declarations loaded for ${appName}`);
      } catch (err) {
        refused.push(appName);
        this.log.error({ err, appName }, `declarations refused for ${appName}: ${errorMessage(err)}`);
      }
    }
    return refused;
  }

  get(appName: string): ProviderDeclarations | undefined {
    return this.current.get(appName);
  }

  /** the standalone validator module of a provider at a version (compiled once per version) */
  validatorModule(appName: string, version: string): string | undefined {
    const p = this.current.get(appName);
    if (!p || p.set.version !== version) return undefined;
    const key = `${appName}@${version}`;
    let code = this.validators.get(key);
    if (!code) {
      code = compileStandaloneModule(p.set, p.country);
      this.validators.set(key, code);
    }
    return code;
  }

  /** development: rebuild (debounced) when declarations or provider overlays change */
  watch(): void {
    for (const dir of ['schemas', 'rules', 'screens', 'providers']) {
      const path = join(this.root, dir);
      if (!existsSync(path)) continue;
      const w = watch(path, { recursive: true }, () => {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => void this.reload(), 200);
      });
      this.watchers.push(w);
    }
  }

  close(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }
}

/** What the browser is sent of a declaration set (Customer.declarations and the boot data). */
export interface ServedDeclarations {
  version: string;
  schemas: DeclarationSet['schemas'];
  rules: DeclarationSet['rules'];
  screens: DeclarationSet['screens'];
}

const served = new WeakMap<DeclarationSet, ServedDeclarations>();

/**
 * The set as the browser needs it: without the rules' and screens' descriptions and `$schema` links,
 * which document the files for implementers and QA and which nothing in the browser reads (about an
 * eighth of the set, on every first load). Kept once per set.
 */
export function servedDeclarations(set: DeclarationSet): ServedDeclarations {
  const known = served.get(set);
  if (known) return known;
  const rules = Object.fromEntries(Object.entries(set.rules).map(([id, { logic }]) => [id, { logic }])) as DeclarationSet['rules'];
  const screens = Object.fromEntries(
    Object.entries(set.screens).map(([id, screen]) => {
      const { $schema: _schema, description: _description, ...rest } = screen as typeof screen & { description?: string };
      return [id, rest];
    }),
  ) as DeclarationSet['screens'];
  const out = { version: set.version, schemas: set.schemas, rules, screens };
  served.set(set, out);
  return out;
}
