// A signed-in portal page's screen, drawn on the server for the page's first paint: the same React
// components and declarations as in the browser, rendered to HTML with the first answers of its loads
// (server/firstLoads.ts). `vite build --ssr` builds this module into dist-server/ (npm run build);
// the early script puts the HTML into the page before the scripts arrive and the portal takes over
// once its own screen is drawn (src/shell/boot/firstPaint.ts). Nothing here reaches the browser.
//
// It draws what those answers and the provider's form engine (the server's own, for a screen with a
// full form) can draw: a screen that would show only its skeleton is not drawn (null).
import { renderToString } from 'react-dom/server';
import { createStore, Provider } from 'jotai';
import { queryClientAtom } from 'jotai-tanstack-query';
import { QueryClient } from '@tanstack/query-core';
import { ChakraProvider } from '@chakra-ui/react';
import { Router } from 'wouter';
import type { ScreenDecl } from '../../engine/types';
import type { ScreenPaintInput } from '../../engine/screenPaint';
import { dataLoadQueryKey, defaultSession, givenFormEngineAtom, programQueryKey, sessionAtom, type SessionState } from '../../state';
import type { FormEngine } from '../../engine/form';
import { engineIn } from '../../runtime/ScreenRenderer';
import { ScreenView } from '../../runtime/ScreenView';
import { RuntimeHostContext } from '../../runtime/context';
import { loadSections } from '../../runtime/registry';
import { addTexts, hasLoadedNamespace, startLanguage } from '../../runtime/texts';
import { getPortalSystem } from '../theme/theme';
import { setFixedToday } from '../../engine/today';
import { pruneDeclarationSet } from '../routing/prune';

const isFullForm = (s: { kind: string; renderer?: unknown }) => s.kind === 'form' && s.renderer !== 'light';
const textsIn = new Set<string>();

/** Whether the server draws this screen ahead: its sections, a full form only with the provider's engine. */
export function drawsAhead(screen: ScreenDecl, engine?: FormEngine): boolean {
  return !screen.shellPart && screen.sections.length > 0 && (Boolean(engine) || !screen.sections.some(isFullForm));
}

/** The screen's content as HTML (its styles inline), or null when it is not drawn ahead. */
export async function drawScreen(input: ScreenPaintInput): Promise<string | null> {
  if (!drawsAhead(input.screen, input.engine)) return null;
  if (!textsIn.has(input.lang)) {
    for (const [ns, tree] of Object.entries(input.texts)) addTexts(input.lang, ns, tree);
    textsIn.add(input.lang);
  }
  // the screen as the shell sees it: links to routes the provider does not declare left out
  const screen = pruneDeclarationSet(input.declarations).screens[input.screen.id] ?? input.screen;
  await loadSections(screen.sections);
  const session = { ...defaultSession, ...input.session, locale: input.lang } as SessionState;
  const queryClient = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false, enabled: false } } });
  queryClient.setQueryDefaults(['Customer.declarations'], { select: pruneDeclarationSet as (d: unknown) => unknown });
  queryClient.setQueryData(['Customer.declarations', { appName: session.appName }, session.releaseVersion], input.declarations);
  queryClient.setQueryData(programQueryKey(session.appName, input.lang), input.provider);
  for (const l of input.loads) queryClient.setQueryData(dataLoadQueryKey(l.op, l.params, session.accountID, input.lang, session.releaseVersion), l.answer);
  const store = createStore();
  store.set(queryClientAtom, queryClient);
  store.set(sessionAtom, session);
  if (input.engine && screen.sections.some(isFullForm)) {
    store.set(givenFormEngineAtom, input.engine);
    await engineIn(store);
  }
  // one render at a time: the texts' language is the module's (a render is synchronous)
  startLanguage(input.lang);
  setFixedToday(input.today);
  const host = { signOut: () => undefined };
  const html = renderToString(
    <Provider store={store}>
      <ChakraProvider value={getPortalSystem()}>
        <Router base={input.base} ssrPath={input.path}>
          <RuntimeHostContext.Provider value={host}>
            <ScreenView screen={screen} query={input.query} />
          </RuntimeHostContext.Provider>
        </Router>
      </ChakraProvider>
    </Provider>,
  );
  // the screen still waiting as a whole (its skeleton, no section drawn) or its texts not in: the
  // browser draws it; a section whose load the server could not answer shows its skeleton, as in
  // the browser until that answer comes
  if (!html.includes('data-section=') || !hasLoadedNamespace('common', input.lang)) return null;
  return html;
}
