// <ScreenView>: the renderer of declared screens. It is part of the first load (every screen route's
// first paint draws it); the kinds that only some screens show, the forms and the effect runner are
// chunks of their own.
import { loadNamespaces } from './texts';
import { Suspense, useEffect } from 'react';
import { ScreenRenderer, type ScreenViewProps } from './ScreenRenderer';
import { SectionSkeleton } from './Skeletons';
import { useApplicationsForClient, useLoadingCounter } from './hooks';
import { loadSections } from './registry';

export type { ScreenViewProps } from './ScreenRenderer';

export function ScreenView(props: ScreenViewProps) {
  useLoadingCounter();
  useApplicationsForClient();
  // the sections' code loads together with the renderer's (forms: once the renderer knows which form)
  useEffect(() => void loadSections(props.screen.sections.filter((s) => s.kind !== 'form')), [props.screen.sections]);
  // so are the texts a shipped screen uses beyond the start namespaces (its `texts`, vite.config.ts)
  const texts = (props.screen as { texts?: string[] }).texts;
  useEffect(() => void (texts?.length && loadNamespaces(texts)), [texts]);
  return (
    <Suspense fallback={<SectionSkeleton />}>
      <ScreenRenderer {...props} />
    </Suspense>
  );
}

export default ScreenView;
