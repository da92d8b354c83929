// QA CLI for rules.
//   npm run rules -- test [--provider appName]          run every cases table (exit 1 on a failing row)
//   npm run rules -- eval <rule id> --data <file.json> [--provider appName]
import { readFileSync } from 'node:fs';
import { evaluateRule, runCases, type CaseResult } from '../src/engine/index';
import { readBaseDeclarations } from '../src/engine/node';
import { ROOT, buildFor, formatError, parseArgs } from './lib/declarations';

const { positional, flags } = parseArgs(process.argv.slice(2));
const [command, ruleId] = positional;
const provider = flags.provider;

const built = buildFor(provider);
if (!built.ok) {
  console.error(built.errors.map(formatError).join('\n'));
  process.exit(1);
}
const rules = built.set.rules;

if (command === 'test') {
  const base = readBaseDeclarations(ROOT);
  const areas: Record<string, { passed: number; failed: CaseResult[] }> = {};
  let failed = 0;
  let total = 0;
  for (const [area, file] of Object.entries(base.cases)) {
    const results = runCases(rules, file.json);
    const bad = results.filter((r) => !r.pass);
    areas[area] = { passed: results.length - bad.length, failed: bad };
    failed += bad.length;
    total += results.length;
  }
  console.log(JSON.stringify({ provider: provider ?? null, version: built.set.version, total, failed, areas }, null, 2));
  process.exit(failed ? 1 : 0);
} else if (command === 'eval' && ruleId) {
  if (!flags.data) {
    console.error('usage: npm run rules -- eval <rule id> --data <file.json> [--provider appName]');
    process.exit(2);
  }
  const data = JSON.parse(readFileSync(flags.data, 'utf8')) as unknown;
  try {
    console.log(JSON.stringify({ rule: ruleId, result: evaluateRule(rules, ruleId, data) }, null, 2));
  } catch (e) {
    console.log(JSON.stringify({ rule: ruleId, error: (e as Error).message }, null, 2));
    process.exit(1);
  }
} else {
  console.error('usage: npm run rules -- test [--provider appName] | eval <rule id> --data <file.json> [--provider appName]');
  process.exit(2);
}
