// Links the server sends into the portal (password e-mails, sign-up, social sign-in) name their page
// by screen id; the path comes from the provider's declarations (screens/<id>.json `path`, with its
// overlays), so moving a screen moves its links, and a linked screen that is not declared stops the
// start instead of sending dead links.
import type { AppDeps } from './context';
import type { DeclarationStore } from './declarations';
import { readBaseDeclarations } from '../src/engine/node';

/** Where the server listens by default (HOST): this machine only. */
export const DEFAULT_HOST = '127.0.0.1';

/** A host only this machine reaches: a server listening there may do without PUBLIC_URL. */
export function isLoopback(host: string): boolean {
  return ['localhost', '::1', '[::1]'].includes(host) || host.startsWith('127.');
}

/**
 * The portal's address without PUBLIC_URL: where it listens, http://<HOST>:<PORT>, the address the
 * server prints. Links in e-mails, the hand-off to the parent application and the payment gateway's
 * return all use it, so the browser stays on one origin (one session) throughout.
 */
export function defaultPublicUrl(host: string, port: number): string {
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

/** The provider's entry (chooses the provider, then continues to `next`) and the pages links open. */
export const ENTRY_SCREEN = 'provider-entry';
export const LINKED_SCREENS = ['resetpassword', 'createpassword', 'sociallink', 'socialsignin'] as const;
export type LinkedScreen = (typeof LINKED_SCREENS)[number];

type Screens = Record<string, { path?: string } | undefined>;

/** The paths of the entry and the linked screens; throws naming a screen that is missing or unfit. */
export function linkedScreenPaths(screens: Screens, where: string): { entry: string; pages: Record<LinkedScreen, string> } {
  const pathOf = (id: string) => {
    const path = screens[id]?.path;
    if (typeof path !== 'string') throw new Error(`${where}: links in e-mails open screen "${id}", which is not declared (screens/${id}.json)`);
    return path;
  };
  const entry = pathOf(ENTRY_SCREEN);
  if (!entry.includes(':appName')) throw new Error(`${where}: screen "${ENTRY_SCREEN}" must take the provider in its path (:appName), not "${entry}"`);
  const pages = {} as Record<LinkedScreen, string>;
  for (const id of LINKED_SCREENS) {
    const path = pathOf(id);
    if (path.includes(':')) throw new Error(`${where}: screen "${id}" is opened by links, so its path cannot take parameters ("${path}")`);
    pages[id] = path;
  }
  return { entry, pages };
}

/** Start-up check: the base screens and every provider's effective set declare the linked screens. */
export function checkLinkedScreens(root: string, declarations: DeclarationStore, appNames: string[]): void {
  const base = readBaseDeclarations(root).screens;
  linkedScreenPaths(Object.fromEntries(Object.entries(base).map(([id, f]) => [id, f.json])), 'screens');
  for (const appName of appNames) {
    const set = declarations.get(appName)?.set;
    if (set) linkedScreenPaths(set.screens, `providers/${appName}`);
  }
}

/**
 * An absolute link into the provider's portal: through its entry, continuing to the screen with the
 * query. Never built from the request's Host header (deps.linkBase).
 */
export function portalLink(deps: AppDeps, appName: string, screen: LinkedScreen, query: Record<string, string>): string {
  if (!deps.linkBase) throw new Error('PUBLIC_URL must be set in production (links in e-mails)');
  const set = deps.declarations.get(appName)?.set;
  if (!set) throw new Error(`no declaration set for ${appName}: cannot link to screen "${screen}"`);
  const { entry, pages } = linkedScreenPaths(set.screens, `providers/${appName}`);
  const q = new URLSearchParams({ next: pages[screen], ...query });
  return `${deps.linkBase}/parentportal${entry.replace(':appName', encodeURIComponent(appName))}?${q.toString()}`;
}
