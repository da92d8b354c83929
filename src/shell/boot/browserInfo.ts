// Spec 2.5: the footer shows the detected browser and operating system; the error log records them too.

export interface BrowserInfo {
  browser: string;
  version: string;
  os: string;
}

const BROWSERS: Array<[string, RegExp]> = [
  // order matters: Edge and Opera also say Chrome, Chrome also says Safari
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /(?:OPR|Opera)\/([\d.]+)/],
  ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
];

const SYSTEMS: Array<[string, RegExp]> = [
  ['iOS', /iPhone|iPad|iPod/],
  ['Android', /Android/],
  ['Chrome OS', /CrOS/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['Linux', /Linux/],
];

export function detectBrowser(userAgent: string | undefined | null): BrowserInfo {
  const ua = userAgent ?? '';
  let browser = 'Unknown';
  let version = '';
  for (const [name, pattern] of BROWSERS) {
    const m = pattern.exec(ua);
    if (m) {
      browser = name;
      version = m[1].split('.')[0];
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? 'Unknown';
  return { browser, version, os };
}

export function describeBrowser(info: BrowserInfo): string {
  return info.version ? `${info.browser} ${info.version}` : info.browser;
}
