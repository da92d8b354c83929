// The import rules `npm run lint` enforces (.dependency-cruiser.cjs): run on tests/fixtures/lint/, whose
// two engine files import each other (type-only) and whose engine imports the runtime, and whose sandbox
// gateway and server import each other's insides, and whose server's domains import upwards, they fail
// and name the cycle and the rule broken; the
// repository's own run leaves that folder out.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const fixture = join(root, 'tests/fixtures/lint');
const cruiser = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const config = join(root, '.dependency-cruiser.cjs');

function cruise(cwd: string, ...paths: string[]) {
  const r = spawnSync(process.execPath, [cruiser, '--config', config, '--output-type', 'err', ...paths], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('the dependency rules of npm run lint', () => {
  it('refuse an import cycle (type-only imports included) and an engine file importing the runtime, naming both', () => {
    const { status, output } = cruise(fixture, 'src');
    expect(status).not.toBe(0);
    expect(output).toMatch(/error no-circular: src\/engine\/a\.ts →\s+src\/engine\/b\.ts →\s+src\/engine\/a\.ts/);
    expect(output).toMatch(/error engine-imports-below: src\/engine\/a\.ts → src\/runtime\/view\.ts/);
    expect(output).toMatch(/2 dependency violations/);
  });

  it('refuse the sandbox gateway importing the portal, and the server importing more of the sandbox than its protocol', () => {
    const { status, output } = cruise(fixture, 'sandbox-gateway', 'server/portal.ts');
    expect(status).not.toBe(0);
    expect(output).toMatch(/error sandbox-gateway-standalone: sandbox-gateway\/app\.ts → server\/portal\.ts/);
    expect(output).toMatch(/error server-imports-sandbox-protocol-only: server\/portal\.ts → sandbox-gateway\/store\.ts/);
    // the protocol is the one file of it the server may import
    expect(output).not.toMatch(/sandbox-gateway\/protocol\.ts/);
    expect(output).toMatch(/2 dependency violations/);
  });

  it("refuse a domain importing one above it or the handlers, and the server's own modules importing a domain", () => {
    const { status, output } = cruise(fixture, 'server/domains', 'server/handlers', 'server/outbox.ts');
    expect(status).not.toBe(0);
    expect(output).toMatch(/error domain-billing-imports-below: server\/domains\/billing\/ledger\.ts → server\/domains\/payments\/receipts\.ts/);
    expect(output).toMatch(/error domain-people-imports-below: server\/domains\/people\/adults\.ts → server\/handlers\/People\.ts/);
    expect(output).toMatch(/error server-below-domains: server\/outbox\.ts → server\/domains\/payments\/receipts\.ts/);
    expect(output).toMatch(/3 dependency violations/);
  });

  it('leave the fixture out of the repository run', () => {
    const { status, output } = cruise(root, 'tests/fixtures/lint');
    expect(status).toBe(0);
    expect(output).toMatch(/no dependency violations found \(0 modules/);
  });
});
