import { describe, expect, it } from 'vitest';
import { accessRedirect } from '../../../src/shell/routing/access';

const home = { id: 'home', access: 'private' as const };
const signin = { id: 'signin', access: 'public' as const };
const expired = { id: 'sessionexpired', access: 'any' as const, shellPart: 'sessionEnded' as const };
const invalid = { id: 'invalidurl', access: 'any' as const, shellPart: 'invalidUrl' as const };
const postlogin = { id: 'postlogin', access: 'private' as const, shellPart: 'postLogin' as const };

describe('accessRedirect', () => {
  it('a private screen sends a visitor to sign-in, or to the session-ended page after an expiry', () => {
    expect(accessRedirect(home, { token: false, provider: true, sessionExpired: false })).toBe('/');
    expect(accessRedirect(home, { token: true, provider: true, sessionExpired: true })).toBe('/sessionexpired');
    expect(accessRedirect(home, { token: true, provider: true, sessionExpired: false })).toBeNull();
  });

  it('a public (signed-out only) screen sends a signed-in parent home', () => {
    expect(accessRedirect(signin, { token: true, provider: true, sessionExpired: false })).toBe('/home');
    expect(accessRedirect(signin, { token: false, provider: true, sessionExpired: false })).toBeNull();
    expect(accessRedirect(signin, { token: true, provider: true, sessionExpired: true })).toBeNull();
  });

  it('without a provider only provider-free pages show; the rest go to /invalidurl', () => {
    expect(accessRedirect(signin, { token: false, provider: false, sessionExpired: false })).toBe('/invalidurl');
    expect(accessRedirect(home, { token: true, provider: false, sessionExpired: false })).toBe('/invalidurl');
    expect(accessRedirect(invalid, { token: false, provider: false, sessionExpired: false })).toBeNull();
    expect(accessRedirect(expired, { token: false, provider: true, sessionExpired: true })).toBeNull();
    // drawn by the shell is not enough: post-login needs the provider
    expect(accessRedirect(postlogin, { token: true, provider: false, sessionExpired: false })).toBe('/invalidurl');
  });
});
