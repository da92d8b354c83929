// <ScreenView>: the renderer of declared screens, loaded as its own chunk (it brings the component
// kinds, the engine's screen model and the effect runner), so the shell's first load stays small.
import { Suspense, useEffect } from 'react';
import type { ScreenViewProps } from './ScreenRenderer';
import { SectionSkeleton } from './Section';
import { useApplicationsForClient, useLoadingCounter } from './hooks';
import { preloadKinds } from './registry';
import { lazyWhenOnline } from './whenOnline';

export type { ScreenViewProps } from './ScreenRenderer';

const ScreenRenderer = lazyWhenOnline(() => import('./ScreenRenderer'));

export function ScreenView(props: ScreenViewProps) {
  useLoadingCounter();
  useApplicationsForClient();
  const kinds = props.screen.sections.map((s) => s.kind).join(' ');
  useEffect(() => preloadKinds(kinds.split(' ')), [kinds]);
  return (
    <Suspense fallback={<SectionSkeleton />}>
      <ScreenRenderer {...props} />
    </Suspense>
  );
}

export default ScreenView;
