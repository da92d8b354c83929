// QA CLI for rules.
//   npm run rules -- test [--provider appName]          run every cases table (exit 1 on a failing row, or
//                                                      a rule without a null row and a missing row)
//   npm run rules -- eval <rule id> --data <file.json> [--provider appName]
import { readFileSync } from 'node:fs';
import { evaluateRule } from '../src/engine/index';
import { runAllCases } from './lib/cases';
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
  const report = runAllCases(ROOT, rules, provider);
  console.log(JSON.stringify({ provider: provider ?? null, version: built.set.version, ...report }, null, 2));
  process.exit(report.failed || report.gaps.length ? 1 : 0);
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
