// Component kinds by name: every kind of kindOptions.ts (its option schema) has its component here.
// The form kind is its
// own lazy chunk (RJSF, Chakra form parts and the date picker) so screens without forms load less;
// a form section with `"renderer": "light"` (flat text, e-mail, password, checkbox and select fields)
// is drawn without it.
import { createElement, lazy, type ComponentProps, type ComponentType } from 'react';
import type { KindProps, RenderSection } from './kindProps';
import type { KindName } from '../engine/types';
import TextKind from './kinds/TextKind';
import AlertKind from './kinds/AlertKind';
import HtmlKind from './kinds/HtmlKind';
import LinksKind from './kinds/LinksKind';
import UnknownKind from './kinds/UnknownKind';
import { whenOnline } from './whenOnline';

/**
 * A component in a chunk of its own. Once its chunk is in (loaded ahead with the screen), it renders
 * at once: React.lazy would suspend on its first render even then, and React shows a suspended
 * part's content no sooner than 300 ms after its fallback, a skeleton that then moves the page.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function lazyPart<C extends ComponentType<any>>(importer: () => Promise<{ default: C }>) {
  let loaded: C | undefined;
  const load = whenOnline(() => importer().then((m) => ((loaded = m.default), m)));
  const Lazy = lazy(load);
  function Part(props: ComponentProps<C>) {
    return createElement(loaded ?? Lazy, props);
  }
  return { load, Part };
}

// the full form and the light form (sign-in) are chunks of their own, so pages without a form do
// not load them; kinds that the sign-in page does not show load with the first screen that has one
// (SectionView draws every kind inside a Suspense boundary); `loadSections` starts them with the screen
const lazyParts = {
  fullForm: lazyPart(() => import('./form/FormKind')),
  lightForm: lazyPart(() => import('./form/light/LightForm')),
  cardList: lazyPart(() => import('./kinds/CardListKind')),
  summary: lazyPart(() => import('./kinds/SummaryKind')),
  table: lazyPart(() => import('./kinds/TableKind')),
  progress: lazyPart(() => import('./kinds/ProgressKind')),
  groupedCards: lazyPart(() => import('./kinds/GroupedCardsKind')),
  calendar: lazyPart(() => import('./kinds/CalendarKind')),
  countdown: lazyPart(() => import('./kinds/CountdownKind')),
};
type LazyPart = keyof typeof lazyParts;
const FullForm = lazyParts.fullForm.Part;
const LightForm = lazyParts.lightForm.Part;
const CardListKind = lazyParts.cardList.Part;
const SummaryKind = lazyParts.summary.Part;
const TableKind = lazyParts.table.Part;
const ProgressKind = lazyParts.progress.Part;
const GroupedCardsKind = lazyParts.groupedCards.Part;
const CalendarKind = lazyParts.calendar.Part;
const CountdownKind = lazyParts.countdown.Part;

const loadedParts = new Set<LazyPart>();

function lazyPartOf(section: { kind: string; renderer?: unknown }): LazyPart | undefined {
  if (section.kind === 'form') return isLightForm(section) ? 'lightForm' : 'fullForm';
  return Object.prototype.hasOwnProperty.call(lazyParts, section.kind) ? (section.kind as LazyPart) : undefined;
}

/** Whether the code of every section's kind is in (nothing would suspend). */
export function sectionsLoaded(sections: ReadonlyArray<{ kind: string; renderer?: unknown }>): boolean {
  return sections.every((s) => {
    const part = lazyPartOf(s);
    return !part || loadedParts.has(part);
  });
}

/** Loads the code of the sections' kinds; settles when all of it is in (or failed: SectionView then shows it). */
export async function loadSections(sections: ReadonlyArray<{ kind: string; renderer?: unknown }>): Promise<void> {
  const parts = new Set(sections.map(lazyPartOf).filter((p): p is LazyPart => p !== undefined));
  await Promise.all([...parts].map((p) => lazyParts[p].load().then(() => void loadedParts.add(p), () => undefined)));
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
