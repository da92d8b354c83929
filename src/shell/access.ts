// Spec 2.2 and 4 "Session": where a screen's access rule sends the visitor instead, if anywhere.
import type { ScreenDecl } from '../engine/types';
import { NOT_FOUND_SCREEN } from './screens';

/** Screens that work without a chosen provider (all others need one and go to /invalidurl). */
export const PROVIDER_FREE = new Set(['provider-entry', 'invalidurl', 'error', NOT_FOUND_SCREEN, 'configurationerror', 'sessionexpired']);

export interface AccessState {
  /** a token is present */
  token: boolean;
  /** a provider has been chosen (session.appName) */
  provider: boolean;
  sessionExpired: boolean;
}

export function accessRedirect(screen: Pick<ScreenDecl, 'id' | 'access'>, state: AccessState): string | null {
  if (!state.provider && !PROVIDER_FREE.has(screen.id)) return '/invalidurl';
  const signedIn = state.token && !state.sessionExpired;
  if (screen.access === 'private' && !signedIn) return state.sessionExpired ? '/sessionexpired' : '/';
  if (screen.access === 'public' && signedIn) return '/home';
  return null;
}
