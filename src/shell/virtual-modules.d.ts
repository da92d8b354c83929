// Modules the build generates (vite.config.ts).
declare module 'virtual:base-screens' {
  import type { ScreenDecl } from '../engine/types';
  const screens: Record<string, ScreenDecl>;
  export default screens;
}
