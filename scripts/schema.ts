// QA CLI for form schemas: validate a JSON file the way the portal and the server do.
//   npm run schema -- validate <schema $id> --data <file.json> [--provider appName] [--context <file.json>]
// The data file is the form values; --context gives the rule context (session, provider, data, query, flow).
import { readFileSync } from 'node:fs';
import { createFormEngine } from '../src/engine/index';
import { ROOT, buildFor, formatError, parseArgs, providerCountry } from './lib/declarations';

const { positional, flags } = parseArgs(process.argv.slice(2));
const [command, schemaId] = positional;
if (command !== 'validate' || !schemaId || !flags.data) {
  console.error('usage: npm run schema -- validate <schema $id> --data <file.json> [--provider appName] [--context <file.json>]');
  process.exit(2);
}
const built = buildFor(flags.provider);
if (!built.ok) {
  console.error(built.errors.map(formatError).join('\n'));
  process.exit(1);
}
if (!built.set.schemas[schemaId]) {
  console.error(`unknown schema "${schemaId}"`);
  process.exit(2);
}
const country = flags.country === 'CA' || flags.country === 'US' ? flags.country : flags.provider ? providerCountry(ROOT, flags.provider) : 'US';
const values = JSON.parse(readFileSync(flags.data, 'utf8')) as unknown;
const ctx = flags.context ? (JSON.parse(readFileSync(flags.context, 'utf8')) as Record<string, unknown>) : {};
const engine = createFormEngine(built.set, { country });
const result = engine.validate(schemaId, values, ctx);
console.log(JSON.stringify({ schema: schemaId, provider: flags.provider ?? null, country, valid: result.valid, errors: result.errors, data: result.data }, null, 2));
process.exit(result.valid ? 0 : 1);
