// <ScreenView>: the renderer of declared screens, loaded as its own chunk (it brings the component
// kinds, the engine's screen model and the effect runner), so the shell's first load stays small.
import i18next from 'i18next';
import { Suspense, useEffect } from 'react';
import type { ScreenViewProps } from './ScreenRenderer';
import { SectionSkeleton } from './Section';
import { useApplicationsForClient, useLoadingCounter } from './hooks';
import { loadSections } from './registry';
import { lazyWhenOnline } from './whenOnline';

export type { ScreenViewProps } from './ScreenRenderer';

const ScreenRenderer = lazyWhenOnline(() => import('./ScreenRenderer'));

export function ScreenView(props: ScreenViewProps) {
  useLoadingCounter();
  useApplicationsForClient();
  // the sections' code loads together with the renderer's (forms: once the renderer knows which form)
  useEffect(() => void loadSections(props.screen.sections.filter((s) => s.kind !== 'form')), [props.screen.sections]);
  // so are the texts a shipped screen uses beyond the start namespaces (its `texts`, vite.config.ts)
  const texts = (props.screen as { texts?: string[] }).texts;
  useEffect(() => void (texts?.length && i18next.loadNamespaces(texts)), [texts]);
  return (
    <Suspense fallback={<SectionSkeleton />}>
      <ScreenRenderer {...props} />
    </Suspense>
  );
}

export default ScreenView;
