import { describe, expect, it } from 'vitest';
import { describeBrowser, detectBrowser } from '../../../src/shell/boot/browserInfo';

describe('detectBrowser', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86', 'Edge', '131', 'Windows'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36', 'Chrome', '140', 'Linux'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari', '17', 'iOS'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox', '128', 'macOS'],
    ['Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36', 'Samsung Internet', '25', 'Android'],
  ])('%s', (ua, browser, version, os) => {
    expect(detectBrowser(ua)).toEqual({ browser, version, os });
  });

  it('unknown agents', () => {
    expect(detectBrowser(undefined)).toEqual({ browser: 'Unknown', version: '', os: 'Unknown' });
    expect(describeBrowser({ browser: 'Unknown', version: '', os: 'Unknown' })).toBe('Unknown');
  });
});
