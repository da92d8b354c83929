// What the server gives its drawing of a screen (src/shell/boot/screenPaint.tsx, built into
// dist-server/) and what that drawing answers: the one shape both sides agree on.
import type { DeclarationSet, ScreenDecl } from './types';
import type { TextTree } from './textTree';
import type { FormEngine } from './form';
import type { Operations } from './contract.gen';

export interface ScreenPaintInput {
  /** the provider's served declaration set */
  declarations: DeclarationSet;
  /** the provider's record in the page's language (Customer.program) */
  provider: Operations['Customer.program']['response'];
  /** the session as the screen's rules see it (the browser's fields, the server's over them) */
  session: Record<string, unknown>;
  /** the product's base path (/parentportal) and the screen's path under it (/home) */
  base: string;
  path: string;
  screen: ScreenDecl;
  query: Record<string, unknown>;
  lang: string;
  /** every namespace of the language's texts */
  texts: Record<string, TextTree>;
  loads: Array<{ op: string; params: Record<string, unknown>; answer: unknown }>;
  /** the provider's form engine (the server's): a screen with a full form is drawn with it */
  engine?: FormEngine;
  /** the server's fixed 'today' (PORTAL_TODAY), as the page names it to the browser */
  today?: string;
}

export interface ScreenPainter {
  /** The screen's content as HTML (its styles inline), or null when it is not drawn ahead. */
  drawScreen(input: ScreenPaintInput): Promise<string | null>;
}
