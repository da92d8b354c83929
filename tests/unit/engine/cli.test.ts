// The QA command lines: JSON out, non-zero exit on failure, errors as "file: /pointer: message".
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../../..');
const tmp = mkdtempSync(join(tmpdir(), 'cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function run(script: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'scripts', script), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
const file = (name: string, json: unknown) => {
  const p = join(tmp, name);
  writeFileSync(p, JSON.stringify(json));
  return p;
};

describe('npm run rules', () => {
  it('test runs every cases table', () => {
    const r = run('rules.ts', ['test']);
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.failed).toBe(0);
    expect(out.total).toBeGreaterThan(500);
    expect(Object.keys(out.files)).toContain('rules/contact.cases.json');
  });
  it('test --provider runs the provider cases instead of the base rows of rules it replaces', () => {
    const out = JSON.parse(run('rules.ts', ['test', '--provider', 'northridge']).stdout);
    expect(out.skipped.sort()).toEqual(['contact.allowNoPhone', 'medical.showQuestion']);
    expect(out.files['providers/northridge/overlays/rules/contact.cases.json']).toMatchObject({ passed: 3, failed: [] });
  });
  it('eval prints the result, or the rule error with exit 1', () => {
    const data = file('programs.json', { item: { enrollmentOption: 'W', children: [] } });
    expect(JSON.parse(run('rules.ts', ['eval', 'programs.pendingFlag', '--data', data]).stdout)).toEqual({ rule: 'programs.pendingFlag', result: 1 });
    const bad = run('rules.ts', ['eval', 'programs.nothing', '--data', data]);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).error).toBe('rule programs.nothing: unknown rule');
  });
});

describe('npm run schema', () => {
  it('validate prints {valid, errors, data} and exits by validity', () => {
    const ok = run('schema.ts', ['validate', 'signin', '--data', file('ok.json', { email: 'a@b.co', password: 'x' })]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ valid: true, errors: [], data: { email: 'a@b.co', password: 'x' } });
    const bad = run('schema.ts', ['validate', 'signin', '--data', file('bad.json', { email: 'nope' })]);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).errors.map((e: { key: string }) => e.key)).toEqual(['errors.format.email', 'errors.required']);
  });
  it('--provider uses the provider overlays and country', () => {
    const holder = { accountHolder: 1, firstName: 'A', lastName: 'B', genderCode: 'F', streetAddress: '1 Main', city: 'X', stateCode: 'AB', zip: 't2z 1a1', email: 'a@b.co', cellPhone: '4035550101' };
    const data = file('holder.json', holder);
    const ca = JSON.parse(run('schema.ts', ['validate', 'contact', '--data', data, '--provider', 'northridge']).stdout);
    expect(ca).toMatchObject({ valid: true, country: 'CA' });
    expect(ca.data.zip).toBe('T2Z1A1');
    const us = JSON.parse(run('schema.ts', ['validate', 'contact', '--data', data, '--provider', 'brightpath']).stdout);
    expect(us.errors.map((e: { path: string; key: string }) => `${e.path} ${e.key}`)).toEqual(['/zip errors.format.zip', '/employer errors.required']);
  });
});

describe('npm run check', () => {
  it('passes on the repository', () => {
    const r = run('check.ts', []);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^check: ok/);
  });
  it('fails with file: /pointer: message lines on a broken copy', () => {
    const copy = join(tmp, 'repo');
    for (const dir of ['schemas', 'rules', 'locales', 'providers', 'screens']) cpSync(join(root, dir), join(copy, dir), { recursive: true });
    const contact = JSON.parse(readFileSync(join(copy, 'schemas/contact.json'), 'utf8'));
    contact.properties.email['x-show'] = 'contact.noSuchRule';
    writeFileSync(join(copy, 'schemas/contact.json'), JSON.stringify(contact));
    const vi = JSON.parse(readFileSync(join(copy, 'locales/vi/errors.json'), 'utf8'));
    delete vi.pageLevel;
    writeFileSync(join(copy, 'locales/vi/errors.json'), JSON.stringify(vi));
    // a menu entry naming an icon the shell's Icon does not draw
    const home = JSON.parse(readFileSync(join(copy, 'screens/home.json'), 'utf8'));
    home.menu[0].icon = 'rocket';
    writeFileSync(join(copy, 'screens/home.json'), JSON.stringify(home));
    const r = run('check.ts', [], { DECLARATIONS_ROOT: copy });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('screens/home.json: /menu/0/icon: unknown icon "rocket"');
    expect(r.stderr).toContain('schemas/contact.json: /properties/email/x-show: unknown rule id "contact.noSuchRule"');
    expect(r.stderr).toContain('locales/vi/errors.json: /pageLevel: missing translation (present in en)');
  });
});

describe('compile-validators', () => {
  it('writes one module per provider', () => {
    const out = join(tmp, 'gen');
    cpSync(join(root, 'providers'), join(out, 'providers'), { recursive: true });
    for (const dir of ['schemas', 'rules']) cpSync(join(root, dir), join(out, dir), { recursive: true });
    const r = run('compile-validators.ts', [], { DECLARATIONS_ROOT: out });
    expect(r.status).toBe(0);
    const written = JSON.parse(r.stdout).written as { appName: string; country: string }[];
    expect(written.map((w) => `${w.appName}:${w.country}`)).toEqual(['brightpath:US', 'northridge:CA']);
    expect(readFileSync(join(out, 'src/generated/validators/northridge.js'), 'utf8')).toMatch(/^\/\/ version [0-9a-f]{12}\n/);
  });
});
