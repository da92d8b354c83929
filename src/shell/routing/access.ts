// Spec 2.2 and 4 "Session": where a screen's access rule sends the visitor instead, if anywhere.
import type { ScreenDecl, ShellPartName } from '../../engine/types';

/** Shell parts that work without a chosen provider (every other screen needs one and goes to /invalidurl). */
export const PROVIDER_FREE = new Set<ShellPartName>(['providerEntry', 'applicationEntry', 'invalidUrl', 'genericError', 'notFound', 'configurationError', 'sessionEnded']);

export interface AccessState {
  /** a token is present */
  token: boolean;
  /** a provider has been chosen (session.appName) */
  provider: boolean;
  sessionExpired: boolean;
}

export function accessRedirect(screen: Pick<ScreenDecl, 'access' | 'shellPart'>, state: AccessState): string | null {
  if (!state.provider && !(screen.shellPart && PROVIDER_FREE.has(screen.shellPart))) return '/invalidurl';
  const signedIn = state.token && !state.sessionExpired;
  if (screen.access === 'private' && !signedIn) return state.sessionExpired ? '/sessionexpired' : '/';
  if (screen.access === 'public' && signedIn) return '/home';
  return null;
}

/**
 * A payment-only login (access type P) may open public pages and the private screens declared
 * `paymentOnly` (whose calls the contract allows it); any other private screen is 'not available
 * for your login' instead of a page of refused sections.
 */
export function refusedForLogin(screen: Pick<ScreenDecl, 'access' | 'paymentOnly'>, accessType: string | undefined, signedIn: boolean): boolean {
  return signedIn && accessType === 'P' && screen.access === 'private' && screen.paymentOnly !== true;
}
