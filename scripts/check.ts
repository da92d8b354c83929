// npm run check: every declaration file against its meta-schema, cross references (schemas, rules,
// cases, screens, API operations, component kinds and their options, widgets, navigation targets,
// light forms), translation keys in en/es/pt/vi (and the server's error keys in en), the cases tables, every provider's record
// (provider.json against schemas/meta/provider.schema.json, the server's own check on start) and
// overlays, the payment gateways' return routes (each with its return screens), and the generated files
// (API client types, the provider record's type, the section part of the screen meta-schema and its
// types, the shell's map of return routes).
// Errors print as "file: /json/pointer: message"; any error exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, checkDeclarations, runCases, ruleTable, type DeclError } from '../src/engine/index';
import { readBaseDeclarations, readProviderOverlays, readTranslations } from '../src/engine/node';
import { menuIconErrors } from '../src/shell/routing/menu';
import { checkProviderFiles } from '../server/providerRecord';
import { returnRouteErrors } from '../server/gateways/plugins';
import { gatewayAdapters } from '../server/gateways/registry';
import { GATEWAY_OF_ROUTE } from '../src/shell/payments/gatewayRoutes.gen';
import { casesGaps, runAllCases } from './lib/cases';
import { serverErrorKeyErrors } from './lib/errorKeys';
import { ROOT, buildFor, formatError, listProviders } from './lib/declarations';

const errors: DeclError[] = [];
const base = readBaseDeclarations(ROOT);
const translations = readTranslations(ROOT);
for (const lang of LANGUAGES) {
  if (!translations[lang]) errors.push({ file: `locales/${lang}`, path: '', message: 'missing language folder' });
}
errors.push(...checkDeclarations(base, translations));
// a menu entry's icon must be one the shell's Icon draws
errors.push(...menuIconErrors(base.screens));

// cases tables must pass (a rule that throws fails its row)
if (!errors.length) {
  const rules = ruleTable(base.rules);
  for (const [area, f] of Object.entries(base.cases)) {
    for (const r of runCases(rules, f.json)) {
      if (!r.pass) {
        const got = r.error ? `threw ${r.error}` : `got ${JSON.stringify(r.actual)}`;
        errors.push({ file: f.file, path: `/cases/${r.index}`, message: `${r.rule}: expected ${JSON.stringify(r.expected)}, ${got}${r.note ? ` (${r.note})` : ''}` });
      }
    }
    void area;
  }
  // every rule's table shows what it answers when a value it reads is null, and when it is missing
  errors.push(...casesGaps(ROOT, rules));
}

// every gateway adapter's return route has its return screens and is in the shell's map, and every return screen has its gateway
errors.push(...returnRouteErrors(gatewayAdapters(), base.screens, GATEWAY_OF_ROUTE));

// every key the server answers an error with is a text of locales/en
errors.push(...serverErrorKeyErrors(ROOT));

// every providers/<appName>/provider.json against schemas/meta/provider.schema.json, as the server checks it on start
errors.push(...checkProviderFiles(ROOT).errors);

// every provider's effective set builds, and its cases pass
const providers = listProviders(ROOT);
for (const appName of providers) {
  const built = buildFor(appName);
  if (!built.ok) {
    errors.push(...built.errors);
    continue;
  }
  // the icons of the provider's screen overlays, named by the overlay file
  const overlays = readProviderOverlays(ROOT, appName).filter((o) => o.kind === 'screens');
  errors.push(...menuIconErrors(Object.fromEntries(overlays.filter((o) => built.set.screens[o.id]).map((o) => [o.id, { file: o.file, json: built.set.screens[o.id] }]))));
  const report = runAllCases(ROOT, built.set.rules, appName);
  errors.push(...report.gaps.filter((g) => g.file.startsWith('providers/')));
  for (const [file, r] of Object.entries(report.files)) {
    if (!file.startsWith('providers/')) continue;
    for (const row of r.failed) {
      errors.push({ file, path: `/cases/${row.index}`, message: `${row.rule}: expected ${JSON.stringify(row.expected)}, ${row.error ? `threw ${row.error}` : `got ${JSON.stringify(row.actual)}`}` });
    }
  }
  for (const [file, r] of Object.entries(report.files)) {
    if (file.startsWith('providers/')) continue;
    for (const row of r.failed) errors.push({ file, path: `/cases/${row.index}`, message: `${row.rule} with the ${appName} overlays: expected ${JSON.stringify(row.expected)}, got ${JSON.stringify(row.actual ?? row.error)}` });
  }
}

// the generated contract types (server handlers and API client) match the contract
const gen = join(ROOT, 'scripts/gen-api-types.ts');
if (existsSync(gen)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', gen, '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) errors.push({ file: 'src/engine/contract.gen.ts', path: '', message: (r.stderr || r.stdout || 'stale: run npm run gen').trim() });
}

// the shell's map of the gateways' return routes is the registry's
const genRoutes = join(ROOT, 'scripts/gen-gateway-routes.ts');
if (existsSync(genRoutes)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', genRoutes, '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) errors.push({ file: 'src/shell/payments/gatewayRoutes.gen.ts', path: '', message: (r.stderr || r.stdout || 'stale: run npm run gen').trim() });
}

// the provider record's type matches its schema
const genProvider = join(ROOT, 'scripts/gen-provider-types.ts');
if (existsSync(genProvider)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', genProvider, '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) errors.push({ file: 'server/providerRecord.gen.ts', path: '', message: (r.stderr || r.stdout || 'stale: run npm run gen').trim() });
}

// the section part of the screen meta-schema and the section types match the runtime's kinds
const genKinds = join(ROOT, 'scripts/gen-kinds.ts');
if (existsSync(genKinds)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', genKinds, '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) errors.push({ file: 'schemas/meta/section.schema.json', path: '', message: (r.stderr || r.stdout || 'stale: run npm run gen:kinds').trim() });
}

if (errors.length) {
  for (const e of errors) console.error(formatError(e));
  console.error(`check: ${errors.length} error(s)`);
  process.exit(1);
}
const count = (o: object) => Object.keys(o).length;
console.log(
  `check: ok (${count(base.schemas)} schemas, ${count(base.api)} API services, ${count(base.rules)} rule files, ${count(base.screens)} screens, ${providers.length} providers)`,
);
