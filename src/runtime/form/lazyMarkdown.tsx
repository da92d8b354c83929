// markdown-to-jsx's Markdown, loaded when @rjsf/core first draws a text as Markdown (build/patches/
// rjsfLazyMarkdown.ts says where it does): no declared form asks for it on its way to the first paint.
// Until the library is in, the text shows as it is.
import { lazy, Suspense, type ComponentProps } from 'react';
import type { Markdown as LoadedMarkdown } from 'markdown-to-jsx/react';

const Loaded = lazy(() => import('markdown-to-jsx/react').then((m) => ({ default: m.Markdown })));

export function Markdown(props: ComponentProps<typeof LoadedMarkdown>) {
  return (
    <Suspense fallback={<span>{props.children}</span>}>
      <Loaded {...props} />
    </Suspense>
  );
}
