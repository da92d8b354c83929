import { describe, expect, it } from 'vitest';
import { nativeAppInfo, nativePlatform, storeLinks } from '../../../src/shell/boot/nativeApp';

describe('native app helpers', () => {
  it('reads the wrapper only inside a native web view', () => {
    expect(nativeAppInfo({} as Window)).toBeUndefined();
    expect(nativeAppInfo({ ReactNativeWebView: {}, nativeAppInfo: { os: 'iOS', version: '1.2.0' } } as unknown as Window)).toEqual({ os: 'iOS', version: '1.2.0' });
    expect(nativeAppInfo({ ReactNativeWebView: {} } as unknown as Window)).toEqual({});
  });

  it('tells the store platform from the reported OS, whatever its case', () => {
    expect(nativePlatform(undefined)).toBeUndefined();
    expect(nativePlatform({ os: 'iOS' })).toBe('ios');
    expect(nativePlatform({ os: ' Android ' })).toBe('android');
    expect(nativePlatform({ os: 'windows' })).toBeUndefined();
    expect(nativePlatform({ version: '1.0.0' })).toBeUndefined();
  });

  it('falls back to the stores\' search for the program', () => {
    const l = storeLinks('BrightPath Kids');
    expect(l.android).toBe('https://play.google.com/store/search?q=BrightPath%20Kids&c=apps');
    expect(l.ios).toBe('https://apps.apple.com/us/search?term=BrightPath%20Kids');
  });
});
