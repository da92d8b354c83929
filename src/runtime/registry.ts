// Component kinds by name (kinds.json lists them for the declaration checks). The form kind is its
// own lazy chunk (RJSF, Chakra form parts and the date picker) so screens without forms load less;
// a form section with `"renderer": "light"` (flat text, e-mail, password, checkbox and select fields)
// is drawn without it.
import { createElement, lazy, type ComponentType } from 'react';
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
import LightForm from './form/LightForm';
import type { RenderSection } from './kindProps';

const FullForm = lazy(() => import('./form/FormKind'));

/** Whether a section is a form drawn by the light renderer (it draws its own actions, inside the form). */
export function isLightForm(section: Pick<RenderSection, 'kind'> & { renderer?: unknown }): boolean {
  return section.kind === 'form' && section.renderer === 'light';
}

function FormKind(props: KindProps) {
  return createElement(isLightForm(props.section) ? LightForm : FullForm, props);
}

export const registry: Record<string, ComponentType<KindProps>> = {
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
};

export const KIND_NAMES: readonly string[] = kinds;

export function kindComponent(kind: string): ComponentType<KindProps> {
  return Object.prototype.hasOwnProperty.call(registry, kind) ? registry[kind] : UnknownKind;
}
