// Spec 2.4: the side menu. Its entries are declared by the screens they open (`menu` in
// screens/<id>.json: order, icon, label key, show rule), so a screen and its entry come and go
// together; a rule hides an entry (payment-only logins see Home and Sign out only). An entry may
// instead open a provider page in a new tab (`href`: a $provider binding, e.g. the User Guide). Sign
// out is an action, not a screen: the shell adds it last.
import type { DeclError, DeclFile } from '../../engine/declarations';
import { resolveBinding } from '../../engine/screen';
import type { RuleRef, ScreenDecl } from '../../engine/types';
import { isIconName, type IconName } from '../chrome/icons';

export interface MenuItem {
  id: string;
  /** translation key */
  label: string;
  icon: IconName;
  /** route of the screen the entry opens */
  path?: string;
  query?: Record<string, string>;
  show?: RuleRef;
  /** a provider page opened in a new tab: the $provider binding, then (visibleMenuItems) its address */
  href?: string;
  /** sign out is an action, not a route */
  action?: 'signOut';
}

export const SIGN_OUT: MenuItem = { id: 'signOut', label: 'common.menu.signOut', icon: 'signOut', action: 'signOut' };

/** The declared entries of these screens by order (then id), and Sign out last. */
export function menuItemsOf(screens: Record<string, ScreenDecl>): MenuItem[] {
  const entries = Object.values(screens).flatMap((s) => (s.menu ?? []).map((m) => ({ ...m, path: s.path })));
  entries.sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
  const items: MenuItem[] = entries.map(({ id, label, icon, path, query, show, href }) => ({
    id,
    label,
    // an unknown name is refused by npm run check; a served overlay with one still draws no icon
    icon: isIconName(icon) ? icon : ('' as IconName),
    path,
    ...(query ? { query } : {}),
    ...(show !== undefined ? { show } : {}),
    ...(href ? { href } : {}),
  }));
  return [...items, SIGN_OUT];
}

export interface MenuContext {
  isTrue(rule: RuleRef | undefined): boolean;
  /** the provider record, for entries that open a provider page */
  provider?: object;
}

/** The shown entries; a provider-page entry carries its address, and hides without an https one. */
export function visibleMenuItems(items: MenuItem[], ctx: MenuContext): MenuItem[] {
  return items.flatMap((item) => {
    if (!ctx.isTrue(item.show)) return [];
    if (!item.href) return [item];
    const url = resolveBinding(item.href, { provider: (ctx.provider ?? {}) as Record<string, unknown> });
    return typeof url === 'string' && /^https:\/\//.test(url) ? [{ ...item, href: url }] : [];
  });
}

export function menuHref(item: MenuItem): string {
  if (!item.path) return '';
  const q = item.query ? new URLSearchParams(item.query).toString() : '';
  return q ? `${item.path}?${q}` : item.path;
}

/** npm run check: every menu entry names an icon of the shell's Icon table. */
export function menuIconErrors(screens: Record<string, DeclFile<ScreenDecl>>): DeclError[] {
  const errors: DeclError[] = [];
  for (const f of Object.values(screens)) {
    (f.json.menu ?? []).forEach((m, i) => {
      if (!isIconName(m.icon)) errors.push({ file: f.file, path: `/menu/${i}/icon`, message: `unknown icon "${String(m.icon)}" (the shell's icons: src/shell/chrome/icons.ts)` });
    });
  }
  return errors;
}
