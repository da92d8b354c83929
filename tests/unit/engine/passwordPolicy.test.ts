// A provider switches to the length-only password policy (15+ characters, no composition rules)
// with overlays only: tests/fixtures/length-only-policy/providers/lengthonly/overlays.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { buildDeclarationSet, createFormEngine, runCases } from '../../../src/engine/index';
import { readBaseDeclarations, readProviderCases, readProviderOverlays } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const fixture = resolve(root, 'tests/fixtures/length-only-policy');

function engineFor(overlays: ReturnType<typeof readProviderOverlays>) {
  const built = buildDeclarationSet(readBaseDeclarations(root), overlays, { appName: 'lengthonly' });
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return { set: built.set, engine: createFormEngine(built.set, { country: 'US' }) };
}

const base = engineFor([]);
const lengthOnly = engineFor(readProviderOverlays(fixture, 'lengthonly'));
const reset = (pw: string) => ({ mode: 'reset', newPassword: pw, retypePassword: pw });
const keys = (r: { errors: { path: string; key: string }[] }) => r.errors.map((e) => `${e.path} ${e.key}`);

describe('length-only password policy by overlay', () => {
  it('the base policy asks for composition, the overlay only for 15 characters', () => {
    const passphrase = 'correct horse battery staple';
    expect(keys(base.engine.validate('password', reset(passphrase), {}))).toEqual(['/newPassword errors.password.rules']);
    expect(lengthOnly.engine.validate('password', reset(passphrase), {}).valid).toBe(true);

    expect(base.engine.validate('password', reset('Sunshine#2026'), {}).valid).toBe(true);
    expect(keys(lengthOnly.engine.validate('password', reset('Sunshine#2026'), {}))).toEqual(['/newPassword errors.password.rules']);
    // the rules that are not about composition still hold
    expect(keys(lengthOnly.engine.validate('password', { ...reset(passphrase), retypePassword: 'correct horse battery' }, {}))).toEqual([
      '/retypePassword errors.password.mismatch',
    ]);
  });

  it('the password-rules box says so', () => {
    const help = (set: typeof base.set) => (set.schemas.password as { properties: Record<string, { 'x-help'?: string }> }).properties.newPassword['x-help'];
    expect(help(base.set)).toBe('fields.password.rulesHelp');
    expect(help(lengthOnly.set)).toBe('auth.lengthOnlyHelp');
  });

  it("the provider's cases table for the changed rule passes", () => {
    const [cases] = readProviderCases(fixture, 'lengthonly');
    const results = runCases(lengthOnly.set.rules, cases.json);
    expect(results.length).toBeGreaterThanOrEqual(6);
    expect(results.filter((r) => !r.pass)).toEqual([]);
    // and the same table fails against the base rule (the overlay is what changes the policy)
    expect(runCases(base.set.rules, cases.json).some((r) => !r.pass)).toBe(true);
  });
});
