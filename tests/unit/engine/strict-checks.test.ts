// The declarations are checked as strictly as they are run: each kind's options against its schema,
// x-widget names, navigation targets (a screen or a planned route) and what a light form can draw,
// and the generated section part of the screen meta-schema is current.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDeclarationSet, checkDeclarations, type BaseDeclarations, type DeclError } from '../../../src/engine/index';
import { readBaseDeclarations, readProviderOverlays, readTranslations } from '../../../src/engine/node';
import { FIELD_WIDGETS, LIGHT_WIDGETS, ROW_LIST_WIDGETS, WIDGET_NAMES, fieldWidget } from '../../../src/engine/fields/widgetTable';
import { OPERATORS, PORTAL_OPERATORS, evaluateLogic, registerOperators } from '../../../src/engine/logic';
import { generated } from '../../../scripts/gen-kinds';
import { baseWidgets } from '../../../src/runtime/form/widgets';

const root = resolve(__dirname, '../../..');
const fixtureRoot = resolve(root, 'tests/fixtures/engine');
const repo = readBaseDeclarations(root);
const translations = readTranslations(fixtureRoot);
const msgs = (errors: DeclError[]) => errors.map((e) => `${e.file}: ${e.path}: ${e.message}`);

function withChange(change: (d: BaseDeclarations) => void): string[] {
  const d = readBaseDeclarations(fixtureRoot);
  d.meta = repo.meta;
  change(d);
  return msgs(checkDeclarations(d, translations));
}
/** A section of a fixture screen as plain JSON, to break it the way a hand-edited file would. */
const sectionJson = (d: BaseDeclarations, screen: string, i: number): Record<string, unknown> => JSON.parse(JSON.stringify(d.screens[screen].json.sections[i]));

describe('kind options', () => {
  it('the fixture set is clean', () => {
    expect(withChange(() => undefined)).toEqual([]);
  });
  it('an option the kind does not have is refused, naming file and path', () => {
    expect(
      withChange((d) => {
        const s = sectionJson(d, 'programlist', 0);
        s.colums = 2;
        d.screens.programlist.json.sections[0] = JSON.parse(JSON.stringify(s));
      }),
    ).toEqual(['screens/programlist.json: /sections/0: must NOT have additional properties (colums)']);
  });
  it('an option of the wrong type, a missing required option and a nested unknown key are refused', () => {
    expect(
      withChange((d) => {
        const list = sectionJson(d, 'programlist', 0);
        list.columns = 'two';
        (list.card as Record<string, unknown>).badge = [];
        d.screens.programlist.json.sections[0] = JSON.parse(JSON.stringify(list));
        d.screens['changeschedule-enrollment'].json.sections[1] = JSON.parse(JSON.stringify({ id: 'site', kind: 'form', title: 'screens.changeSchedule.changeSite' }));
      }).sort(),
    ).toEqual(
      [
        'screens/programlist.json: /sections/0/columns: must be integer',
        'screens/programlist.json: /sections/0/card: must NOT have additional properties (badge)',
        "screens/changeschedule-enrollment.json: /sections/1: must have required property 'schema'",
      ].sort(),
    );
  });
  it("a form's renderer is one of full and light", () => {
    expect(
      withChange((d) => {
        const s = sectionJson(d, 'changeschedule-enrollment', 1);
        s.renderer = 'lite';
        d.screens['changeschedule-enrollment'].json.sections[1] = JSON.parse(JSON.stringify(s));
      }),
    ).toEqual(['screens/changeschedule-enrollment.json: /sections/1/renderer: must be equal to one of the allowed values (full, light)']);
  });
});

describe('widgets', () => {
  it('an unknown x-widget is an error naming file and JSON path, not a silent text field', () => {
    expect(withChange((d) => ((d.schemas.changeSite.json.properties as Record<string, Record<string, unknown>>).siteID['x-widget'] = 'sparkle'))).toEqual([
      `schemas/changeSite.json: /properties/siteID/x-widget: unknown x-widget "sparkle" (widgets: ${WIDGET_NAMES.join(', ')})`,
    ]);
  });
  it('one table gives the field widgets, row lists, light widgets and aliases; the runtime has a component for each field widget', () => {
    expect(ROW_LIST_WIDGETS).toEqual(['relationshipRows', 'udfList', 'medicalQuestions', 'fixedRows']);
    expect([...LIGHT_WIDGETS].sort()).toEqual(['checkbox', 'email', 'password', 'select', 'text']);
    expect(fieldWidget('yesNo')).toBe('yesno');
    expect(fieldWidget('udfList')).toBeUndefined();
    // the form adds 'date' (its own chunk); 'hidden' is RJSF's own widget
    for (const w of FIELD_WIDGETS) expect(w in baseWidgets || w === 'date' || w === 'hidden', w).toBe(true);
  });
  it('rule operators come from one table, and every portal operator of it is registered', () => {
    expect(OPERATORS).toContain('subsetOf');
    expect(PORTAL_OPERATORS).toContain('var');
    registerOperators();
    for (const op of PORTAL_OPERATORS) {
      let message = '';
      try {
        evaluateLogic({ [op]: op === 'rule' ? ['x.y'] : [] }, {});
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message, op).not.toMatch(/Unrecognized operation/);
    }
  });
});

describe('navigation targets', () => {
  const planned = (routes: Record<string, string>) => (d: BaseDeclarations) => (d.plannedRoutes = { file: 'screens/planned-routes.json', json: { routes } });
  it('every target is a declared screen or a planned route', () => {
    expect(withChange(planned({}))).toEqual([]);
  });
  it('a target that is neither is refused (effects, then-chains, cards and redirect return routes)', () => {
    expect(
      withChange((d) => {
        planned({ '/paynow': 'one-time payment' })(d);
        const nav = d.screens['changeschedule-enrollment'].json.actions![0].effect;
        if (nav.type !== 'submit' || nav.then?.type !== 'navigate') throw new Error('fixture changed');
        nav.then.to = '/homme';
        const list = d.screens.programlist.json.sections[0];
        if (list.kind !== 'cardList') throw new Error('fixture changed');
        const [register, view] = list.card.actions!;
        if (register.effect.type !== 'redirectOut' || view.effect.type !== 'navigate') throw new Error('fixture changed');
        register.effect.returnTo = '/programs';
        view.effect.to = '/paynow?programPeriodID=1';
      }),
    ).toEqual([
      'screens/changeschedule-enrollment.json: /actions/0/effect/then/to: navigation target "/homme" is neither a declared screen nor a planned route (screens/planned-routes.json)',
      'screens/programlist.json: /sections/0/card/actions/0/effect/returnTo: navigation target "/programs" is neither a declared screen nor a planned route (screens/planned-routes.json)',
    ]);
  });
  it('a planned route whose screen exists must leave the list', () => {
    expect(withChange(planned({ '/ProgramList': 'registration programs list' }))).toEqual([
      'screens/planned-routes.json: /routes/~1ProgramList: /ProgramList has a screen now: remove it from the planned routes',
    ]);
  });
  it("the repository's targets are all screens or planned routes, and the planned ones are not screens", () => {
    expect(repo.plannedRoutes?.file).toBe('screens/planned-routes.json');
    expect(Object.keys(repo.screens)).not.toContain('planned-routes');
    const r = buildDeclarationSet(repo, []);
    expect(r.ok).toBe(true);
  });
});

describe('light forms', () => {
  it('a provider overlay adding a field the light renderer cannot draw fails the check, naming the overlay', () => {
    const overlays = readProviderOverlays(resolve(fixtureRoot, 'light-overlay'), 'phoneco');
    const r = buildDeclarationSet(repo, overlays, { appName: 'phoneco' });
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : msgs(r.errors)).toEqual([
      'providers/phoneco/overlays/schemas/signin.json: /properties/cellPhone: the light form renderer cannot draw field "cellPhone" (phone); it draws text, password, email, select, checkbox fields (screens/signin.json /sections/0)',
    ]);
  });
});

describe('generated files', () => {
  it('schemas/meta/section.schema.json and src/engine/sections.gen.ts are what scripts/gen-kinds.ts writes (npm run check fails otherwise)', async () => {
    for (const [file, text] of Object.entries(await generated())) expect(readFileSync(resolve(root, file), 'utf8'), `${file} is stale: run npm run gen:kinds`).toBe(text);
  });
});
