// Running the cases tables for the base rules or for a provider's effective rules. Rows of base cases
// whose rule the provider replaces are not run for that provider (they describe the base rule); the
// provider's own cases (providers/<appName>/overlays/rules/<area>.cases.json) are run instead.
import { nullMissingGaps, runCases, type CaseResult, type CaseRow, type DeclError, type RuleDef } from '../../src/engine/index';
import { readBaseDeclarations, readProviderCases, readProviderOverlays } from '../../src/engine/node';

export interface CasesReport {
  total: number;
  failed: number;
  skipped: string[];
  files: Record<string, { passed: number; failed: CaseResult[] }>;
  /** rules whose table lacks a null row or a missing row (see casesGaps) */
  gaps: DeclError[];
}

export function runAllCases(root: string, rules: Record<string, RuleDef>, appName?: string): CasesReport {
  const base = readBaseDeclarations(root);
  const overridden = new Set<string>();
  const files = Object.values(base.cases);
  if (appName) {
    for (const o of readProviderOverlays(root, appName)) {
      if (o.kind !== 'rules') continue;
      const patchRules = (o.patch as { rules?: Record<string, unknown> }).rules ?? {};
      for (const id of Object.keys(patchRules)) overridden.add(id);
    }
    files.push(...readProviderCases(root, appName));
  }
  const report: CasesReport = { total: 0, failed: 0, skipped: [...overridden].sort(), files: {}, gaps: casesGaps(root, rules, appName) };
  for (const f of files) {
    const isProviderFile = f.file.startsWith('providers/');
    const table = isProviderFile ? f.json : { ...f.json, cases: f.json.cases.filter((r) => typeof r === 'string' || !overridden.has(r.rule)) };
    const results = runCases(rules, table);
    const bad = results.filter((r) => !r.pass);
    report.files[f.file] = { passed: results.length - bad.length, failed: bad };
    report.total += results.length;
    report.failed += bad.length;
  }
  return report;
}

/**
 * Every path a rule reads must be null in a row of the rule's table, and missing in one
 * (src/engine/cases.ts nullMissingGaps). Base rules are looked up in rules/<area>.cases.json; a rule a
 * provider replaces, in that provider's providers/<appName>/overlays/rules/<area>.cases.json.
 */
export function casesGaps(root: string, rules: Record<string, RuleDef>, appName?: string): DeclError[] {
  const base = readBaseDeclarations(root);
  const replaced = new Map<string, string>(); // rule id -> area
  if (appName) {
    for (const o of readProviderOverlays(root, appName)) {
      if (o.kind !== 'rules') continue;
      for (const id of Object.keys((o.patch as { rules?: Record<string, unknown> }).rules ?? {})) replaced.set(id, id.split('.')[0]);
    }
  }
  const providerCases = appName ? readProviderCases(root, appName) : [];
  const tables: { file: string; ids: string[]; rows: CaseRow[] }[] = [];
  for (const [area, f] of Object.entries(base.rules)) {
    const ids = Object.keys((f.json as { rules?: Record<string, unknown> }).rules ?? {}).filter((id) => !replaced.has(id));
    tables.push({ file: `rules/${area}.cases.json`, ids, rows: base.cases[area]?.json.cases ?? [] });
  }
  for (const area of new Set(replaced.values())) {
    const file = `providers/${appName}/overlays/rules/${area}.cases.json`;
    const ids = [...replaced].filter(([, a]) => a === area).map(([id]) => id);
    tables.push({ file, ids, rows: providerCases.find((c) => c.file === file)?.json.cases ?? [] });
  }
  const out: DeclError[] = [];
  for (const t of tables) {
    for (const g of nullMissingGaps(rules, t.ids, t.rows)) {
      if (g.lacksNull.length) out.push({ file: t.file, path: '/cases', message: `${g.rule}: no row where ${g.lacksNull.join(', ')} is null` });
      if (g.lacksMissing.length) out.push({ file: t.file, path: '/cases', message: `${g.rule}: no row where ${g.lacksMissing.join(', ')} is missing` });
    }
  }
  return out;
}
