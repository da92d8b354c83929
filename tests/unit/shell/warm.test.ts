// The screen a page load will show, whose code and texts start loading with the page (src/shell/warm.ts).
import { describe, expect, it } from 'vitest';
import { firstScreenPath } from '../../../src/shell/warm';
import { BASE_SCREENS } from '../../../src/shell/screens';

describe('the first screen of a page load', () => {
  it('is the route itself, or for a provider entry link the page the entry continues to', () => {
    expect(firstScreenPath('/home', '', {})).toBe('/home');
    expect(firstScreenPath('/brightpath/parent', '', {})).toBe('/');
    expect(firstScreenPath('/brightpath/parent', '', { token: 't', appName: 'brightpath' })).toBe('/home');
    // signed in to another provider: the entry signs out first, then sign-in
    expect(firstScreenPath('/BrightPath/parent', '', { token: 't', appName: 'northridge' })).toBe('/');
    expect(firstScreenPath('/brightpath/parent', '?next=/resetpassword&token=x', {})).toBe('/resetpassword?token=x');
  });
  it("knows a base screen's form renderer, so sign-in warms the light form", () => {
    expect(BASE_SCREENS.signin.sections).toContainEqual({ kind: 'form', renderer: 'light' });
  });
});
