// The screen a page load will show, whose code and texts start loading with the page (src/shell/boot/warm.ts).
import { describe, expect, it } from 'vitest';
import { firstScreen } from '../../../src/shell/boot/warm';
import { entryContinuesTo } from '../../../src/shell/pages/ProviderEntry';
import { BASE_SCREENS } from '../../../src/shell/routing/screens';

describe('the first screen of a page load', () => {
  it('is the route itself, or for a provider entry link the page the entry continues to', () => {
    const path = (p: string, search: string, session: { token?: string; appName?: string }) => firstScreen(p, search, session)?.path;
    expect(path('/home', '', {})).toBe('/home');
    expect(path('/brightpath/parent', '', {})).toBe('/');
    expect(path('/brightpath/parent', '', { token: 't', appName: 'brightpath' })).toBe('/home');
    // signed in to another provider: the entry signs out first, then sign-in
    expect(path('/BrightPath/parent', '', { token: 't', appName: 'northridge' })).toBe('/');
    expect(path('/brightpath/parent', '?next=/resetpassword&token=x', {})).toBe('/resetpassword');
    expect(entryContinuesTo('brightpath', '?next=/resetpassword&token=x', {})).toBe('/resetpassword?token=x');
  });
  it("knows a base screen's form renderer, so sign-in warms the light form", () => {
    expect(BASE_SCREENS.signin.sections).toContainEqual({ kind: 'form', renderer: 'light' });
  });
});
