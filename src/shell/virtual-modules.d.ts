// Modules the build generates (vite.config.ts).
declare module 'virtual:base-screens' {
  import type { ScreenDecl } from '../engine/types';
  const screens: Record<string, ScreenDecl>;
  export default screens;
}
declare module 'virtual:base-screens/*' {
  import type { ScreenDecl } from '../engine/types';
  /** the screens one product's pages draw (its own and the shared shell pages) */
  const screens: Record<string, ScreenDecl>;
  export default screens;
}
declare module 'virtual:locale-namespaces' {
  /** the translation namespaces: the files of locales/en, sorted */
  export const NAMESPACES: readonly string[];
}
