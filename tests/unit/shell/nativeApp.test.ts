import { describe, expect, it } from 'vitest';
import { compareVersions, needsNativeUpdate, storeLinks } from '../../../src/shell/nativeApp';

describe('native app helpers', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.3')).toBe(1);
    expect(compareVersions('2.0', '2.0.0')).toBe(0);
    expect(compareVersions('1.2.3', '1.2.4')).toBe(-1);
  });

  it('asks for an update only when the wrapper reports an older version than required', () => {
    expect(needsNativeUpdate(undefined)).toBe(false);
    expect(needsNativeUpdate({ os: 'android', version: '3.1.0' })).toBe(false);
    expect(needsNativeUpdate({ os: 'android', version: '3.1.0', requiredVersion: '3.2.0' })).toBe(true);
    expect(needsNativeUpdate({ os: 'ios', version: '3.2.0', requiredVersion: '3.2.0' })).toBe(false);
  });

  it('falls back to the stores\' search for the program', () => {
    const l = storeLinks('BrightPath Kids');
    expect(l.android).toBe('https://play.google.com/store/search?q=BrightPath%20Kids&c=apps');
    expect(l.ios).toBe('https://apps.apple.com/us/search?term=BrightPath%20Kids');
  });
});
