// The component kinds and the JSON Schema of each kind's options (no React: scripts/gen-kinds.ts
// generates the screen meta-schema's section part and the engine's section types from this list).
// The registry (registry.ts) gives each of these kinds its component.
import { alertOptions } from './kinds/alert.options';
import { calendarOptions } from './kinds/calendar.options';
import { cardListOptions } from './kinds/cardList.options';
import { groupedCardsOptions } from './kinds/groupedCards.options';
import { htmlOptions } from './kinds/html.options';
import { linksOptions } from './kinds/links.options';
import { progressOptions } from './kinds/progress.options';
import { summaryOptions } from './kinds/summary.options';
import { tableOptions } from './kinds/table.options';
import { textOptions } from './kinds/text.options';
import { countdownOptions } from './kinds/countdown.options';
import { formOptions } from './form/form.options';

export const KIND_OPTIONS = {
  form: formOptions,
  cardList: cardListOptions,
  groupedCards: groupedCardsOptions,
  calendar: calendarOptions,
  summary: summaryOptions,
  html: htmlOptions,
  links: linksOptions,
  table: tableOptions,
  progress: progressOptions,
  alert: alertOptions,
  notice: alertOptions,
  text: textOptions,
  countdown: countdownOptions,
} as const;
