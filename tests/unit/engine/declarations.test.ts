// Declaration sets: reading, overlays (JSON Merge Patch), versions and every check of `npm run check`.
import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import {
  applyOverlays,
  buildDeclarationSet,
  checkDeclarations,
  createFormEngine,
  mergePatch,
  type BaseDeclarations,
  type DeclError,
  type Overlay,
} from '../../../src/engine/index';
import { readBaseDeclarations, readProviderOverlays, readTranslations } from '../../../src/engine/node';

const root = resolve(__dirname, '../../..');
const fixtureRoot = resolve(root, 'tests/fixtures/engine');
const repo = readBaseDeclarations(root);
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function fixture(): BaseDeclarations {
  const base = readBaseDeclarations(fixtureRoot);
  base.meta = repo.meta;
  return base;
}
const fixtureTranslations = readTranslations(fixtureRoot);
const msgs = (errors: DeclError[]) => errors.map((e) => `${e.file}: ${e.path}: ${e.message}`);

describe('reading declarations', () => {
  it('reads every kind of file with its path', () => {
    expect(repo.schemas.contact.file).toBe('schemas/contact.json');
    expect(repo.rules.contact.file).toBe('rules/contact.rules.json');
    expect(repo.cases.contact.file).toBe('rules/contact.cases.json');
    expect(Object.keys(repo.meta).sort()).toEqual(['api', 'cases', 'fragment', 'provider', 'rules', 'screen', 'section']);
    expect(Object.keys(repo.api).length).toBeGreaterThan(0);
    const fx = fixture();
    expect(Object.keys(fx.screens).sort()).toEqual(['changeschedule-children', 'changeschedule-enrollment', 'home', 'program-entry', 'programlist', 'uploadimage', 'viewenrollment']);
  });
  it('reads provider overlays by kind and id', () => {
    expect(readProviderOverlays(root, 'brightpath')).toEqual([
      { kind: 'schemas', id: 'contact', file: 'providers/brightpath/overlays/schemas/contact.json', patch: expect.any(Object) },
    ]);
    expect(readProviderOverlays(root, 'northridge').map((o) => `${o.kind}/${o.id}`).sort()).toEqual(['rules/contact', 'rules/medical', 'schemas/child', 'schemas/contact']);
    expect(readProviderOverlays(root, 'nobody')).toEqual([]);
  });
});

describe('JSON Merge Patch (RFC 7396)', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j + %j = %j', (target, patch, out) => expect(mergePatch(target, patch)).toEqual(out));
  it('does not modify the base', () => {
    const base = { a: { b: 1 } };
    mergePatch(base, { a: { b: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
  });
});

describe('buildDeclarationSet', () => {
  it('builds the repository set with a short content version', () => {
    const r = buildDeclarationSet(repo, []);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.set.version).toMatch(/^[0-9a-f]{12}$/);
    const again = buildDeclarationSet(readBaseDeclarations(root), []);
    expect(again.ok && again.set.version).toBe(r.set.version);
    expect(r.set.rules['contact.isAccountHolder']).toBeDefined();
    expect(r.set.api?.Demographics).toBeDefined();
  });

  it('Bright Path overlay makes the employer required', () => {
    const r = buildDeclarationSet(repo, readProviderOverlays(root, 'brightpath'), { appName: 'brightpath' });
    const plain = buildDeclarationSet(repo, []);
    if (!r.ok || !plain.ok) throw new Error('build failed');
    expect(r.set.version).not.toBe(plain.set.version);
    const holder = { accountHolder: 1, firstName: 'A', lastName: 'B', genderCode: 'F', streetAddress: '1 Main', city: 'X', stateCode: 'IL', zip: '62701', email: 'a@b.co', cellPhone: '2175550101' };
    expect(createFormEngine(plain.set, { country: 'US' }).validate('contact', holder, {}).valid).toBe(true);
    const errors = createFormEngine(r.set, { country: 'US' }).validate('contact', holder, {}).errors;
    expect(errors.map((e) => `${e.path} ${e.key}`)).toEqual(['/employer errors.required']);
    // still only for holders: employer is hidden for other contacts, and hidden is never required
    expect(createFormEngine(r.set, { country: 'US' }).fieldStates('contact', { form: { accountHolder: 4 } })['/employer']).toMatchObject({ shown: false, required: false });
  });

  it('Northridge overlays hide the school and change a rule', () => {
    const r = buildDeclarationSet(repo, readProviderOverlays(root, 'northridge'), { appName: 'northridge' });
    if (!r.ok) throw new Error(msgs(r.errors).join('\n'));
    const engine = createFormEngine(r.set, { country: 'CA' });
    expect(engine.fieldStates('child', { form: {} })['/school'].shown).toBe(false);
    expect(engine.validate('child', { firstName: 'Leo', lastName: 'L', genderCode: 'M', dateofBirth: '05/04/2019', school: 'X' }, { today: '03/01/2026' }).data).not.toHaveProperty('school');
    expect(engine.fieldStates('contact', { form: {} })['/noHomePhone'].shown).toBe(true);
    expect(r.set.rules['contact.allowNoPhone'].description).toMatch(/Northridge/);
  });

  const bad = (overlay: Partial<Overlay>) =>
    buildDeclarationSet(repo, [{ kind: 'schemas', id: 'contact', file: 'providers/x/overlays/schemas/contact.json', patch: {}, ...overlay }]);
  const errorsOf = (r: ReturnType<typeof buildDeclarationSet>) => (r.ok ? [] : msgs(r.errors));

  it('an overlay that is not an object', () => {
    expect(errorsOf(bad({ patch: ['x'] }))).toEqual(['providers/x/overlays/schemas/contact.json: : an overlay must be a JSON object (a JSON Merge Patch)']);
  });
  it('an overlay for a declaration that does not exist', () => {
    expect(errorsOf(bad({ id: 'nothing', file: 'providers/x/overlays/schemas/nothing.json' }))).toEqual([
      'providers/x/overlays/schemas/nothing.json: : no base declarations schemas/nothing to patch'.replace('declarations', 'declaration'),
    ]);
  });
  it('an overlay that names an unknown rule', () => {
    expect(errorsOf(bad({ patch: { properties: { employer: { 'x-required': 'contact.nope' } } } }))).toEqual([
      'providers/x/overlays/schemas/contact.json: /properties/employer/x-required: unknown rule id "contact.nope"',
    ]);
  });
  it('an overlay with a wrongly typed annotation', () => {
    expect(errorsOf(bad({ patch: { properties: { employer: { 'x-show': 5 } } } }))[0]).toBe(
      'providers/x/overlays/schemas/contact.json: /properties/employer/x-show: x-show must be a rule id or a boolean',
    );
  });
  it('an overlay with an unknown format or keyword (schema compilation)', () => {
    const e = errorsOf(bad({ patch: { properties: { employer: { format: 'shoe-size' } } } }));
    expect(e.length).toBeGreaterThan(0);
    expect(e[0]).toMatch(/^providers\/x\/overlays\/schemas\/contact\.json: .*shoe-size/);
  });
  it('an overlay that breaks JSON Schema itself names its file and the keyword path', () => {
    const e = errorsOf(bad({ patch: { properties: { employer: { type: 12 } } } }));
    expect(e.length).toBeGreaterThan(0);
    expect(e[0]).toMatch(/^providers\/x\/overlays\/schemas\/contact\.json: \/properties\/employer\/type: not a valid JSON Schema/);
  });
  it('an overlay cannot change the $id', () => {
    expect(errorsOf(bad({ patch: { $id: 'other' } }))).toEqual(['providers/x/overlays/schemas/contact.json: /$id: an overlay cannot change $id']);
  });
  it('a rules overlay: wrong area, unknown operator, missing logic', () => {
    const file = 'providers/x/overlays/rules/contact.json';
    const rules = (patch: unknown) => buildDeclarationSet(repo, [{ kind: 'rules', id: 'contact', file, patch }]);
    expect(errorsOf(rules({ rules: { 'payment.x': { logic: true } } }))).toEqual([`${file}: /rules/payment.x: rule id must start with "contact."`]);
    expect(errorsOf(rules({ rules: { 'contact.allowNoPhone': { logic: { frob: [1] } } } }))).toEqual([
      `${file}: /rules/contact.allowNoPhone/logic/frob: unknown operator "frob"`,
    ]);
    expect(errorsOf(rules({ rules: { 'contact.newRule': { description: 'no logic' } } }))).toEqual([
      `${file}: /rules/contact.newRule: must have required property 'logic'`,
    ]);
    expect(errorsOf(rules({ rules: { 'contact.allowNoPhone': { logic: { '<': [{ var: 'x' }, 1] } } } }))).toEqual([
      `${file}: /rules/contact.allowNoPhone/logic/</0: var "x" is an operand of "<": give it a default ({"var": [path, default]})`,
    ]);
  });
  it('a screens overlay is checked against the screen meta-schema', () => {
    const base = fixture();
    const file = 'providers/x/overlays/screens/home.json';
    const r = buildDeclarationSet(base, [{ kind: 'screens', id: 'home', file, patch: { layout: 'fancy' } }]);
    expect(errorsOf(r)).toEqual([`${file}: /layout: must be equal to one of the allowed values (default, application-flow, bare)`]);
  });
  it('applyOverlays keeps base files untouched', () => {
    const before = JSON.stringify(repo.schemas.contact.json);
    applyOverlays(repo, readProviderOverlays(root, 'brightpath'));
    expect(JSON.stringify(repo.schemas.contact.json)).toBe(before);
  });
});

describe('checkDeclarations', () => {
  it('the fixture set is clean', () => {
    expect(checkDeclarations(fixture(), fixtureTranslations)).toEqual([]);
  });
  it('the repository is clean', () => {
    expect(msgs(checkDeclarations(repo, readTranslations(root)))).toEqual([]);
  });

  const withChange = (change: (d: BaseDeclarations) => void, translations = fixtureTranslations) => {
    const d = fixture();
    change(d);
    return msgs(checkDeclarations(d, translations));
  };

  it('unknown rule ids in schemas, screens and cases', () => {
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as any).siteID['x-show'] = 'fixture.nope'))).toEqual([
      'schemas/changeSite.json: /properties/siteID/x-show: unknown rule id "fixture.nope"',
    ]);
    expect(withChange((d) => (d.screens.home.json.sections = [{ id: 's', kind: 'html', show: 'fixture.nope' }]))).toEqual([
      'screens/home.json: /sections/0/show: unknown rule id "fixture.nope"',
    ]);
    expect(withChange((d) => d.cases.fixture.json.cases.push({ rule: 'fixture.nope', data: {}, expected: true }))).toEqual([
      'rules/fixture.cases.json: /cases/14/rule: unknown rule id "fixture.nope"',
    ]);
  });
  it('unknown $ref', () => {
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as any).prChildID = { $ref: 'common#/$defs/id', title: 'fields.changeSite.child' }))[0]).toBe(
      'schemas/changeSite.json: /properties/prChildID/$ref: unknown schema "common" in $ref',
    );
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as any).prChildID = { $ref: '#/$defs/nothing', title: 'fields.changeSite.child' }))[0]).toBe(
      'schemas/changeSite.json: /properties/prChildID/$ref: $ref "#/$defs/nothing" points at nothing',
    );
  });
  it('unknown API operations in screens (loads and effects) and in x-options', () => {
    expect(withChange((d) => (d.screens.programlist.json.data!.programs.op = 'Fixture.nope'))).toEqual([
      'screens/programlist.json: /data/programs/op: unknown API operation "Fixture.nope"',
    ]);
    expect(withChange((d) => ((d.screens.uploadimage.json.actions![0].effect as { op: string }).op = 'Fixture.nope'))).toEqual([
      'screens/uploadimage.json: /actions/0/effect/op: unknown API operation "Fixture.nope"',
    ]);
    expect(withChange((d) => (((d.screens.programlist.json.sections[0] as any).card.actions[2].effect.op = 'Fixture.nope')))).toEqual([
      'screens/programlist.json: /sections/0/card/actions/2/effect/op: unknown API operation "Fixture.nope"',
    ]);
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as any).siteID['x-options'].op = 'Fixture.nope'))).toEqual([
      'schemas/changeSite.json: /properties/siteID/x-options/op: unknown API operation "Fixture.nope"',
    ]);
  });
  it('unknown modal, form schema and data load', () => {
    expect(withChange((d) => ((d.screens['changeschedule-children'].json.actions![0].effect as { modal: string }).modal = 'nope'))).toEqual([
      'screens/changeschedule-children.json: /actions/0/effect/modal: unknown modal "nope"',
    ]);
    expect(withChange((d) => ((d.screens['changeschedule-enrollment'].json.sections[1] as any).schema = 'nope'))).toEqual([
      'screens/changeschedule-enrollment.json: /sections/1/schema: unknown form schema "nope"',
    ]);
    expect(withChange((d) => (d.screens['changeschedule-children'].json.sections[1].source = 'nope'))).toEqual([
      'screens/changeschedule-children.json: /sections/1/source: unknown data load "nope"',
    ]);
  });
  it('component kinds are checked only when the runtime lists them', () => {
    expect(withChange((d) => (d.kinds = ['progress', 'childList', 'form', 'cardList', 'photo']))).toEqual([]);
    expect(withChange((d) => (d.kinds = ['progress', 'form', 'cardList', 'photo']))).toEqual([
      'screens/changeschedule-children.json: /sections/1/kind: unknown component kind "childList"',
    ]);
  });
  it('meta-schema errors in screens', () => {
    expect(withChange((d) => ((d.screens.home.json as any).access = 'everyone'))).toEqual([
      'screens/home.json: /access: must be equal to one of the allowed values (public, private, any)',
    ]);
    expect(withChange((d) => ((d.screens.home.json.actions = [{ id: 'a', label: 'screens.home.title', effect: { type: 'navigate' } as any }])))).toEqual([
      "screens/home.json: /actions/0/effect: must have required property 'to'",
    ]);
  });
  it('translation keys: used keys in every language, and every en key everywhere', () => {
    const t = clone(fixtureTranslations);
    delete (t.vi.screens as any).flow.fee;
    delete (t.es.fields as any).changeSite.site;
    (t.pt.screens as any).extra = 'x';
    expect(withChange(() => undefined, t).sort()).toEqual(
      [
        'schemas/changeSite.json: /properties/siteID/title: translation key "fields.changeSite.site" missing in es',
        'screens/changeschedule-children.json: /flow/variants/1/label: translation key "screens.flow.fee" missing in vi',
        'screens/changeschedule-enrollment.json: /flow/variants/1/label: translation key "screens.flow.fee" missing in vi',
        'locales/vi/screens.json: /flow/fee: missing translation (present in en)',
        'locales/es/fields.json: /changeSite/site: missing translation (present in en)',
        'locales/pt/screens.json: /extra: key not in en',
      ].sort(),
    );
  });
  it('plural forms may differ by language, but each language has the other form', () => {
    const t = clone(fixtureTranslations);
    (t.en.screens as any).items_one = 'one item';
    (t.en.screens as any).items_other = '{{count}} items';
    (t.es.screens as any).items_one = 'un elemento';
    (t.es.screens as any).items_many = '{{count}} elementos';
    (t.es.screens as any).items_other = '{{count}} elementos';
    (t.pt.screens as any).items_other = '{{count}} itens';
    (t.vi.screens as any).items_other = '{{count}} mục';
    expect(withChange(() => undefined, t)).toEqual([]);
    delete (t.vi.screens as any).items_other;
    (t.vi.screens as any).items_one = 'x';
    expect(withChange(() => undefined, t)).toEqual(['locales/vi/screens.json: /items: missing translation (present in en)']);
  });
  it('titles must be translation keys', () => {
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as any).siteID.title = 'Site'))).toEqual([
      'schemas/changeSite.json: /properties/siteID/title: "Site" is not a translation key (namespace.path)',
    ]);
  });
  it('required is not used in form schemas', () => {
    expect(withChange((d) => (d.schemas.changeSite.json.required = ['siteID']))).toEqual([
      'schemas/changeSite.json: /required: use "x-required" (a rule) instead of "required"',
    ]);
  });
  it('every rules file needs a cases table', () => {
    expect(withChange((d) => delete d.cases.fixture)).toEqual(['rules/fixture.rules.json: : missing cases table rules/fixture.cases.json']);
  });
});
