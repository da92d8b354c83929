// Running the cases tables for the base rules or for a provider's effective rules. Rows of base cases
// whose rule the provider replaces are not run for that provider (they describe the base rule); the
// provider's own cases (providers/<appName>/overlays/rules/<area>.cases.json) are run instead.
import { runCases, type CaseResult, type RuleDef } from '../../src/engine/index';
import { readBaseDeclarations, readProviderCases, readProviderOverlays } from '../../src/engine/node';

export interface CasesReport {
  total: number;
  failed: number;
  skipped: string[];
  files: Record<string, { passed: number; failed: CaseResult[] }>;
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
  const report: CasesReport = { total: 0, failed: 0, skipped: [...overridden].sort(), files: {} };
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
