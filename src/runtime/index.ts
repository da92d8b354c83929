// The runtime's public surface for the shell.
export { ScreenView, type ScreenViewProps } from './ScreenView';
export { RuntimeHostContext, type RuntimeHost } from './context';
export { useLoadingCounter } from './hooks';
