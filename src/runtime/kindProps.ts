import type { KindName } from '../engine/types';
import type { ActionModel, SectionModel, SectionModelOf } from '../engine/screen';

/** An action with its show/enable rules evaluated (the engine's ActionModel). */
export type RenderAction = ActionModel;
/** A section of kind K with its rules evaluated (the engine's SectionModel). */
export type RenderSectionOf<K extends KindName> = SectionModelOf<K>;
/** A section of any kind with its rules evaluated, discriminated by `kind`. */
export type RenderSection = SectionModel;

/** What a component kind gets: its section (rules evaluated) and the section's data. */
export interface KindProps<K extends KindName> {
  section: SectionModelOf<K>;
  /** the `source` data of the section (undefined when it has none) */
  data: unknown;
}
