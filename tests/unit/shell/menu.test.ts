import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isTrue } from '../../../src/engine/logic';
import { MENU_ITEMS, menuHref, visibleMenuItems } from '../../../src/shell/menu';

const rules = JSON.parse(readFileSync(new URL('../../../rules/menu.rules.json', import.meta.url), 'utf8')).rules;

function ids(session: Record<string, unknown>, provider: Record<string, unknown>, screens: string[]) {
  return visibleMenuItems(MENU_ITEMS, {
    hasScreen: (p) => screens.includes(p),
    isTrue: (ref) => isTrue(rules, ref, { session, provider }),
  }).map((i) => i.id);
}

const ALL = ['/home', '/myaccount', '/changepin', '/generatepin', '/calendar', '/bulletin', '/form', '/communication', '/userguide', '/attendance'];

describe('side menu entries', () => {
  it('a full-access login with every screen declared sees every entry', () => {
    expect(ids({ accessType: 'F', accountHolder: 1 }, { attendanceAllowed: true, programOptions: { canParentChangePin: true } }, ALL)).toEqual(MENU_ITEMS.map((i) => i.id));
  });

  it('a payment-only secondary login sees only Home and Sign out', () => {
    expect(ids({ accessType: 'P', accountHolder: 2 }, { attendanceAllowed: true }, ALL)).toEqual(['home', 'signOut']);
  });

  it('changing and generating a PIN need canParentChangePin; viewing does not', () => {
    const got = ids({ accessType: 'F', accountHolder: 1 }, { attendanceAllowed: true, programOptions: { canParentChangePin: false } }, ALL);
    expect(got).not.toContain('changePin');
    expect(got).not.toContain('generatePin');
    expect(got).toContain('viewPin');
  });

  it('attendance needs the provider to allow it', () => {
    expect(ids({ accessType: 'F', accountHolder: 1 }, { attendanceAllowed: false }, ALL)).not.toContain('attendance');
  });

  it('entries whose screen is not declared are left out', () => {
    expect(ids({ accessType: 'F', accountHolder: 1 }, { attendanceAllowed: true }, ['/home', '/bulletin'])).toEqual(['home', 'bulletins', 'signOut']);
  });

  it('view PIN opens the PIN screen in view mode', () => {
    expect(menuHref(MENU_ITEMS.find((i) => i.id === 'viewPin')!)).toBe('/changepin?mode=view');
    expect(menuHref(MENU_ITEMS.find((i) => i.id === 'home')!)).toBe('/home');
  });
});
