// Writes src/generated/validators/<appName>.js for every provider: ajv standalone code of the
// provider's effective form schemas (country from provider.json "countryCode", default US).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileStandaloneModule } from '../src/engine/index';
import { ROOT, buildFor, formatError, listProviders, providerCountry } from './lib/declarations';

const outDir = join(ROOT, 'src/generated/validators');
mkdirSync(outDir, { recursive: true });
const written: { appName: string; country: string; version: string; file: string }[] = [];
let failed = false;
for (const appName of listProviders(ROOT)) {
  const built = buildFor(appName);
  if (!built.ok) {
    console.error(built.errors.map(formatError).join('\n'));
    failed = true;
    continue;
  }
  const country = providerCountry(ROOT, appName);
  const file = join(outDir, `${appName}.js`);
  writeFileSync(file, `// version ${built.set.version}\n${compileStandaloneModule(built.set, country)}`);
  written.push({ appName, country, version: built.set.version, file: `src/generated/validators/${appName}.js` });
}
console.log(JSON.stringify({ written }, null, 2));
process.exit(failed ? 1 : 0);
