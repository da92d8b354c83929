// The generated client types match the contract (the same check as `npm run gen -- --check`),
// and every contract file keeps to the rules the registrar relies on.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../server/app';
import { readContract, contractOperations, SERVICES } from '../../server/contract';
import { generate } from '../../scripts/gen-api-types';

describe('API contract', () => {
  it('has one file per customer-API service', () => {
    expect(readContract(ROOT).map((s) => s.service).sort()).toEqual([...SERVICES].sort());
  });

  it('src/engine/contract.gen.ts is up to date', async () => {
    const current = readFileSync(join(ROOT, 'src', 'engine', 'contract.gen.ts'), 'utf8');
    expect(current === (await generate())).toBe(true);
  });

  it('declares auth, a response and an object schema for every input', () => {
    for (const op of contractOperations(readContract(ROOT))) {
      expect(['public', 'session', 'temporary'], op.id).toContain(op.auth);
      expect(op.response, op.id).toBeDefined();
      for (const part of ['query', 'params', 'body'] as const) {
        if (op[part]) expect((op[part] as { type?: string }).type, `${op.id} ${part}`).toBe('object');
      }
    }
  });
});
