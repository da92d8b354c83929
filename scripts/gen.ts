// npm run gen: writes every generated file (the contract's types, the provider record's type, Chakra's start-up CSS,
// the shell's map of the gateways' return routes);
// `npm run gen -- --check` exits 1 when one of them is stale.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

for (const script of ['gen-api-types.ts', 'gen-provider-types.ts', 'gen-chakra-css.ts', 'gen-gateway-routes.ts']) {
  try {
    execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...process.argv.slice(2)], { stdio: 'inherit' });
  } catch {
    process.exitCode = 1;
  }
}
