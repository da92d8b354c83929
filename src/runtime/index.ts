// The runtime's public surface for the shell. ScreenView is a lazy chunk: the shell renders
// <LazyScreenView> inside <Suspense>, so routes load the renderer only when they need it.
import { lazy } from 'react';

export const LazyScreenView = lazy(() => import('./ScreenView'));
export type { ScreenViewProps } from './ScreenView';
export { RuntimeHostContext, type RuntimeHost } from './context';
