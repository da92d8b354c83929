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
}

export function nativeAppInfo(win: Window = window): NativeAppInfo | undefined {
  const w = win as unknown as { ReactNativeWebView?: unknown; nativeAppInfo?: NativeAppInfo };
  return w.ReactNativeWebView ? (w.nativeAppInfo ?? {}) : undefined;
}

/** The store platform of the wrapper's OS; undefined when it cannot be told (spec 2.13 error view). */
export function nativePlatform(info: NativeAppInfo | undefined): 'android' | 'ios' | undefined {
  const os = (info?.os ?? '').trim().toLowerCase();
  return os === 'android' || os === 'ios' ? os : undefined;
}
