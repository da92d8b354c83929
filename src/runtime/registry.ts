// Component kinds by name: every kind of kindOptions.ts (its option schema) has its component here.
// The form kind is its
// own lazy chunk (RJSF, Chakra form parts and the date picker) so screens without forms load less;
// a form section with `"renderer": "light"` (flat text, e-mail, password, checkbox and select fields)
// is drawn without it.
import { createElement, lazy, type ComponentType } from 'react';
import type { KindProps, RenderSection } from './kindProps';
import type { KindName } from '../engine/types';
import TextKind from './kinds/TextKind';
import AlertKind from './kinds/AlertKind';
import HtmlKind from './kinds/HtmlKind';
import LinksKind from './kinds/LinksKind';
import UnknownKind from './kinds/UnknownKind';
import { lazyWhenOnline, whenOnline } from './whenOnline';

const FullForm = lazyWhenOnline(() => import('./form/FormKind'));
// the light form (sign-in) is a chunk of its own too, so pages without a form do not load it
const LightForm = lazyWhenOnline(() => import('./form/LightForm'));
// kinds that the sign-in page does not show load with the first screen that has one (SectionView
// draws every kind inside a Suspense boundary); `preloadKinds` starts them with the screen
const lazyKinds = {
  cardList: whenOnline(() => import('./kinds/CardListKind')),
  summary: whenOnline(() => import('./kinds/SummaryKind')),
  table: whenOnline(() => import('./kinds/TableKind')),
  progress: whenOnline(() => import('./kinds/ProgressKind')),
  groupedCards: whenOnline(() => import('./kinds/GroupedCardsKind')),
  calendar: whenOnline(() => import('./kinds/CalendarKind')),
  countdown: whenOnline(() => import('./kinds/CountdownKind')),
} satisfies Partial<Record<KindName, () => Promise<unknown>>>;
const CardListKind = lazy(lazyKinds.cardList);
const SummaryKind = lazy(lazyKinds.summary);
const TableKind = lazy(lazyKinds.table);
const ProgressKind = lazy(lazyKinds.progress);
const GroupedCardsKind = lazy(lazyKinds.groupedCards);
const CalendarKind = lazy(lazyKinds.calendar);
const CountdownKind = lazy(lazyKinds.countdown);

/** Starts loading the lazy kinds of a screen's sections, together with the screen's renderer. */
export function preloadKinds(kinds: readonly string[]): void {
  for (const kind of new Set(kinds)) {
    if (Object.prototype.hasOwnProperty.call(lazyKinds, kind)) void lazyKinds[kind as keyof typeof lazyKinds]().catch(() => undefined);
  }
}

/** Whether a section is a form drawn by the light renderer (it draws its own actions, inside the form). */
export function isLightForm(section: { kind: string; renderer?: unknown }): boolean {
  return section.kind === 'form' && section.renderer === 'light';
}

function FormKind(props: KindProps<'form'>) {
  return createElement(isLightForm(props.section) ? LightForm : FullForm, props);
}

/** Each kind's component gets sections of its own kind. */
export const registry: { [K in KindName]: ComponentType<KindProps<K>> } = {
  form: FormKind,
  cardList: CardListKind,
  groupedCards: GroupedCardsKind,
  calendar: CalendarKind,
  summary: SummaryKind,
  html: HtmlKind,
  links: LinksKind,
  table: TableKind,
  progress: ProgressKind,
  alert: AlertKind,
  notice: AlertKind,
  text: TextKind,
  countdown: CountdownKind,
};

const isKind = (kind: string): kind is KindName => Object.prototype.hasOwnProperty.call(registry, kind);

/** The component of the section's own kind (the registry pairs each kind with its component). */
function OwnKind<K extends KindName>({ kind, section, data }: KindProps<K> & { kind: K }) {
  const Kind: ComponentType<KindProps<K>> = registry[kind];
  return createElement(Kind, { section, data });
}

/** A section drawn by its kind's component; a kind the registry does not know draws UnknownKind. */
export function KindView({ section, data }: { section: RenderSection; data: unknown }) {
  return isKind(section.kind) ? createElement(OwnKind, { kind: section.kind, section, data }) : createElement(UnknownKind, { section });
}
