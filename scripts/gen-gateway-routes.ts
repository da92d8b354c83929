// Writes src/shell/payments/gatewayRoutes.gen.ts from server/gateways/registry.ts: the gateway code
// each return route stands for, so the shell and the server's adapters cannot disagree.
// `npm run gen -- --check` exits 1 when the committed file is stale.
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SHELL_MAP_FILE, shellMapModule } from '../server/gateways/plugins';
import { gatewayAdapters } from '../server/gateways/registry';
import { writeOrCheck } from './lib/generated';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeOrCheck(join(root, SHELL_MAP_FILE), SHELL_MAP_FILE, shellMapModule(gatewayAdapters()));
}
