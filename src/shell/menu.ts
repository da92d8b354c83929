// Spec 2.4: the side menu. An entry shows only when its screen is declared (so the menu grows as
// screens are added) and its rule allows it (payment-only logins see Home and Sign out only).
import type { RuleRef } from '../engine/types';

export type MenuIcon =
  | 'home'
  | 'account'
  | 'pin'
  | 'viewPin'
  | 'generatePin'
  | 'calendar'
  | 'bulletin'
  | 'forms'
  | 'communication'
  | 'guide'
  | 'attendance'
  | 'signOut';

export interface MenuItem {
  id: string;
  /** translation key in the common namespace */
  label: string;
  icon: MenuIcon;
  /** route of the screen the entry opens; the entry exists only while that screen is declared */
  path?: string;
  query?: Record<string, string>;
  show?: RuleRef;
  /** sign out is an action, not a route */
  action?: 'signOut';
}

export const MENU_ITEMS: MenuItem[] = [
  { id: 'home', label: 'menu.home', icon: 'home', path: '/home' },
  { id: 'myAccount', label: 'menu.myAccount', icon: 'account', path: '/myaccount', show: 'menu.fullMenu' },
  { id: 'changePin', label: 'menu.changePin', icon: 'pin', path: '/changepin', show: 'menu.changePin' },
  { id: 'viewPin', label: 'menu.viewPin', icon: 'viewPin', path: '/changepin', query: { mode: 'view' }, show: 'menu.fullMenu' },
  { id: 'generatePin', label: 'menu.generatePin', icon: 'generatePin', path: '/generatepin', show: 'menu.changePin' },
  { id: 'calendar', label: 'menu.calendar', icon: 'calendar', path: '/calendar', show: 'menu.fullMenu' },
  { id: 'bulletins', label: 'menu.bulletins', icon: 'bulletin', path: '/bulletin', show: 'menu.fullMenu' },
  { id: 'forms', label: 'menu.forms', icon: 'forms', path: '/form', show: 'menu.fullMenu' },
  { id: 'communication', label: 'menu.communication', icon: 'communication', path: '/communication', show: 'menu.fullMenu' },
  { id: 'userGuide', label: 'menu.userGuide', icon: 'guide', path: '/userguide', show: 'menu.fullMenu' },
  { id: 'attendance', label: 'menu.attendance', icon: 'attendance', path: '/attendance', show: 'menu.attendance' },
  { id: 'signOut', label: 'menu.signOut', icon: 'signOut', action: 'signOut' },
];

export interface MenuContext {
  hasScreen(path: string): boolean;
  isTrue(rule: RuleRef | undefined): boolean;
}

export function visibleMenuItems(items: MenuItem[], ctx: MenuContext): MenuItem[] {
  return items.filter((item) => (item.action || (item.path && ctx.hasScreen(item.path))) && ctx.isTrue(item.show));
}

export function menuHref(item: MenuItem): string {
  if (!item.path) return '';
  const q = item.query ? new URLSearchParams(item.query).toString() : '';
  return q ? `${item.path}?${q}` : item.path;
}
