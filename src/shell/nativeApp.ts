// Spec 1 and 2.5: native mobile apps exist for country US; the login footer links to the stores and
// shows a QR code. The store addresses are deployment settings; without them the stores' own search
// for the program is used, which always leads to a real page.

function env(name: string): string | undefined {
  const v = (import.meta.env as Record<string, string | undefined>)[name];
  return v && v.trim() ? v.trim() : undefined;
}

export function storeLinks(programName: string): { android: string; ios: string; qr: string } {
  const q = encodeURIComponent(programName || 'parent portal');
  const android = env('VITE_ANDROID_APP_URL') ?? `https://play.google.com/store/search?q=${q}&c=apps`;
  const ios = env('VITE_IOS_APP_URL') ?? `https://apps.apple.com/us/search?term=${q}`;
  return { android, ios, qr: env('VITE_NATIVE_APP_URL') ?? android };
}

/** What a native wrapper reports about itself (injected as window.nativeAppInfo). */
export interface NativeAppInfo {
  os?: string;
  version?: string;
  requiredVersion?: string;
}

export function nativeAppInfo(win: Window = window): NativeAppInfo | undefined {
  const w = win as unknown as { ReactNativeWebView?: unknown; nativeAppInfo?: NativeAppInfo };
  return w.ReactNativeWebView ? (w.nativeAppInfo ?? {}) : undefined;
}

/** Compares dotted versions numerically: "1.10.0" > "1.9.3". */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Spec 2.1 /postlogin: the update notice shows when the wrapper's version is below the required one. */
export function needsNativeUpdate(info: NativeAppInfo | undefined): boolean {
  if (!info?.version || !info.requiredVersion) return false;
  return compareVersions(info.version, info.requiredVersion) < 0;
}
