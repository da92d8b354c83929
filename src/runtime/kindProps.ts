import type { ActionDecl, RuleRef } from '../engine/types';

/** An action with its show/enable rules evaluated (the engine's ActionModel). */
export type RenderAction = ActionDecl & { visible: boolean; enabled: boolean };
/** A section with its rules evaluated (the engine's SectionModel, keeping SectionDecl's typed keys). */
export interface RenderSection {
  id: string;
  kind: string;
  title?: string;
  show?: RuleRef;
  source?: string;
  visible: boolean;
  actions: RenderAction[];
  [option: string]: unknown;
}

/** What every component kind gets: its section (rules evaluated) and the section's data. */
export interface KindProps {
  section: RenderSection;
  /** the `source` data of the section (undefined when it has none) */
  data: unknown;
}
