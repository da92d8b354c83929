// The side menu is declared by the screens (spec 2.4): the model over the repository's screens, the
// payment-only and option rules, and a screen added with JSON and translations only
// (tests/fixtures/menu-screen) whose entry and route come with it.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDeclarations, matchRoute, type DeclFile, type ScreenDecl, type Translations } from '../../../src/engine/index';
import { isTrue } from '../../../src/engine/logic';
import { readBaseDeclarations, readTranslations } from '../../../src/engine/node';
import { menuHref, menuIconErrors, menuItemsOf, visibleMenuItems } from '../../../src/shell/routing/menu';

const root = resolve(__dirname, '../../..');
const fixture = resolve(root, 'tests/fixtures/menu-screen');
const rules = JSON.parse(readFileSync(resolve(root, 'rules/menu.rules.json'), 'utf8')).rules;
const base = readBaseDeclarations(root);
const screensOf = (files: Record<string, DeclFile<ScreenDecl>>) => Object.fromEntries(Object.entries(files).map(([id, f]) => [id, f.json]));
const SCREENS = screensOf(base.screens);

const FULL = { accessType: 'F', accountHolder: 1 };
const PAYMENT_ONLY = { accessType: 'P', accountHolder: 2 };
const GUIDE = 'https://brightpath.example.org/parents/user-guide';
const ALLOWED = { attendanceAllowed: true, programOptions: { canParentChangePin: true }, userGuideUrl: GUIDE };

function visible(screens: Record<string, ScreenDecl>, session: Record<string, unknown>, provider: Record<string, unknown>) {
  return visibleMenuItems(menuItemsOf(screens), { isTrue: (ref) => isTrue(rules, ref, { session, provider }), provider });
}
function ids(screens: Record<string, ScreenDecl>, session: Record<string, unknown>, provider: Record<string, unknown>) {
  return visible(screens, session, provider).map((i) => i.id);
}

describe('side menu entries declared by the screens', () => {
  it('a full-access login sees every declared entry in the declared order, Sign out last', () => {
    expect(ids(SCREENS, FULL, ALLOWED)).toEqual(['home', 'myAccount', 'programlist', 'changePin', 'viewPin', 'generatePin', 'calendar', 'bulletins', 'forms', 'communication', 'userGuide', 'attendance', 'signOut']);
  });

  it("the User Guide opens the provider's guide, and hides when the provider has none or the address is not https", () => {
    expect(visible(SCREENS, FULL, ALLOWED).find((i) => i.id === 'userGuide')).toMatchObject({ href: GUIDE, label: 'common.menu.userGuide', icon: 'guide' });
    expect(ids(SCREENS, FULL, { ...ALLOWED, userGuideUrl: undefined })).not.toContain('userGuide');
    // the show rule passes, but the shell opens only an https page
    const shown = (userGuideUrl: string) => ids(SCREENS, FULL, { ...ALLOWED, userGuideUrl }).includes('userGuide');
    expect(shown('javascript:alert(1)')).toBe(false);
    expect(shown('http://brightpath.example.org/guide')).toBe(false);
  });

  it('a payment-only secondary login sees only Home and Sign out', () => {
    expect(ids(SCREENS, PAYMENT_ONLY, ALLOWED)).toEqual(['home', 'signOut']);
  });

  it('changing and generating a PIN need canParentChangePin; viewing does not', () => {
    const got = ids(SCREENS, FULL, { attendanceAllowed: true, programOptions: { canParentChangePin: false } });
    expect(got).not.toContain('changePin');
    expect(got).not.toContain('generatePin');
    expect(got).toContain('viewPin');
  });

  it('attendance needs the provider to allow it', () => {
    expect(ids(SCREENS, FULL, { attendanceAllowed: false })).not.toContain('attendance');
  });

  it('an entry comes and goes with its screen', () => {
    expect(ids({ home: SCREENS.home, bulletin: SCREENS.bulletin }, FULL, { ...ALLOWED, userGuideUrl: undefined })).toEqual(['home', 'bulletins', 'signOut']);
  });

  it('view PIN opens the PIN screen in view mode', () => {
    const items = menuItemsOf(SCREENS);
    expect(menuHref(items.find((i) => i.id === 'viewPin')!)).toBe('/changepin?mode=view');
    expect(menuHref(items.find((i) => i.id === 'home')!)).toBe('/home');
  });

  it('every declared icon is one the shell draws; another name is refused with file and JSON path', () => {
    expect(menuIconErrors(base.screens)).toEqual([]);
    const home = base.screens.home;
    const bad = { file: home.file, json: { ...home.json, menu: [{ ...home.json.menu![0], icon: 'rocket' }] } };
    expect(menuIconErrors({ home: bad })).toEqual([{ file: 'screens/home.json', path: '/menu/0/icon', message: expect.stringContaining('unknown icon "rocket"') }]);
  });
});

describe('a new screen with a menu entry: JSON and translations only', () => {
  const file = 'tests/fixtures/menu-screen/screens/newsletter.json';
  const newsletter: DeclFile<ScreenDecl> = { file, json: JSON.parse(readFileSync(resolve(root, file), 'utf8')) };
  const fixtureTexts = readTranslations(fixture);
  const withFixture = (texts: Translations | null) => {
    const translations = readTranslations(root);
    if (texts) for (const lang of Object.keys(translations)) translations[lang].screens = { ...(translations[lang].screens as object), ...(texts[lang].screens as object) };
    return translations;
  };
  const declarations = { ...base, screens: { ...base.screens, newsletter } };

  it('passes the declaration checks with its translations in every language, and not without them', () => {
    expect(checkDeclarations(declarations, withFixture(fixtureTexts))).toEqual([]);
    expect(menuIconErrors(declarations.screens)).toEqual([]);
    const missing = checkDeclarations(declarations, withFixture(null)).map((e) => `${e.file}: ${e.path}`);
    expect(missing).toContain(`${file}: /menu/0/label`);
    expect(missing).toContain(`${file}: /title`);
  });

  it('its entry shows in the menu at its declared place, by its rule, and opens the screen at its path', () => {
    const screens = { ...SCREENS, newsletter: newsletter.json };
    const full = ids(screens, FULL, ALLOWED);
    expect(full.slice(full.indexOf('bulletins'), full.indexOf('forms') + 1)).toEqual(['bulletins', 'newsletter', 'forms']);
    expect(ids(screens, PAYMENT_ONLY, ALLOWED)).toEqual(['home', 'signOut']);
    const entry = menuItemsOf(screens).find((i) => i.id === 'newsletter')!;
    expect(entry).toMatchObject({ label: 'screens.newsletter.menu', icon: 'star' });
    expect(matchRoute({ screens }, menuHref(entry))?.screen.id).toBe('newsletter');
    expect(fixtureTexts.vi.screens).toMatchObject({ newsletter: { menu: 'Bản tin' } });
  });
});

describe('footer flags declared by the screens (spec 2.5)', () => {
  it("'Need Help? Contact Us' is hidden on the sign-in, authentication, contact and edit pages only", () => {
    const hidden = Object.values(SCREENS).filter((s) => s.footer?.contactUs === false).map((s) => s.path).sort();
    for (const p of ['/', '/forgotpassword', '/changepassword', '/contactus', '/editchild', '/editcontact', '/editothercontact', '/:appName/parent', '/sessionexpired']) expect(hidden).toContain(p);
    for (const p of ['/home', '/myaccount', '/bulletin', '/attendance', '/notfound']) expect(hidden).not.toContain(p);
  });

  it('the seal and the store badges belong to the sign-in page only', () => {
    expect(Object.values(SCREENS).filter((s) => s.footer?.securitySeal).map((s) => s.id)).toEqual(['signin']);
    expect(Object.values(SCREENS).filter((s) => s.footer?.storeBadges).map((s) => s.id)).toEqual(['signin']);
  });

  it('the pages that must work without a declaration set are drawn by the shell', () => {
    const parts = Object.fromEntries(Object.values(SCREENS).filter((s) => s.shellPart).map((s) => [s.id, s.shellPart]));
    expect(parts).toEqual({
      'provider-entry': 'providerEntry',
      postlogin: 'postLogin',
      postloginerror: 'postLoginError',
      invalidurl: 'invalidUrl',
      notfound: 'notFound',
      configurationerror: 'configurationError',
      sessionexpired: 'sessionEnded',
      error: 'genericError',
      // the parent application's entry redeems the hand-off's keyelement before any screen is drawn
      'parentapplication-entry': 'applicationEntry',
      // the gateway's return: the server checks it and the page goes on to the receipt or the reason
      bluepayresponse: 'paymentResponse',
      ezceredirection: 'paymentResponse',
      'parentapplication-bluepayresponse': 'paymentResponse',
      'parentapplication-ezceredirection': 'paymentResponse',
      stripereturn: 'paymentResponse',
      'parentapplication-stripereturn': 'paymentResponse',
      'onetimeenrollment-bluepayresponse': 'paymentResponse',
      'onetimeenrollment-entry': 'applicationEntry',
      'onetimeenrollment-ezceredirection': 'paymentResponse',
      'onetimeenrollment-stripereturn': 'paymentResponse',
      'flexcalendar-bluepayresponse': 'paymentResponse',
      'flexcalendar-entry': 'applicationEntry',
      'flexcalendar-ezceredirection': 'paymentResponse',
      'flexcalendar-stripereturn': 'paymentResponse',
      'punchpass-bluepayresponse': 'paymentResponse',
      'punchpass-entry': 'applicationEntry',
      'punchpass-ezceredirection': 'paymentResponse',
      'punchpass-stripereturn': 'paymentResponse',
    });
  });
});
