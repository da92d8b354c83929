// Component kinds by name (kinds.json lists them for the declaration checks). The form kind is its
// own lazy chunk (RJSF, Chakra form parts and the date picker) so screens without forms load less.
import { lazy, type ComponentType } from 'react';
import kinds from './kinds.json';
import type { KindProps } from './kindProps';
import TextKind from './kinds/TextKind';
import AlertKind from './kinds/AlertKind';
import HtmlKind from './kinds/HtmlKind';
import SummaryKind from './kinds/SummaryKind';
import TableKind from './kinds/TableKind';
import LinksKind from './kinds/LinksKind';
import ProgressKind from './kinds/ProgressKind';
import CardListKind from './kinds/CardListKind';
import GroupedCardsKind from './kinds/GroupedCardsKind';
import CalendarKind from './kinds/CalendarKind';
import UnknownKind from './kinds/UnknownKind';

export const registry: Record<string, ComponentType<KindProps>> = {
  form: lazy(() => import('./form/FormKind')),
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
};

export const KIND_NAMES: readonly string[] = kinds;

export function kindComponent(kind: string): ComponentType<KindProps> {
  return Object.prototype.hasOwnProperty.call(registry, kind) ? registry[kind] : UnknownKind;
}
