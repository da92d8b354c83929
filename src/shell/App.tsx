// The portal: providers (state, queries, theme, i18n), the router under /parentportal and the screen
// of the current route inside its layout (spec 2.1, 2.2; ARCHITECTURE.md "Data flow" step 1).
import { Box, ChakraProvider } from '@chakra-ui/react';
import { QueryClient } from '@tanstack/query-core';
import { getDefaultStore, useAtomValue, useSetAtom } from 'jotai';
import { useHydrateAtoms } from 'jotai/utils';
import { queryClientAtom } from 'jotai-tanstack-query';
import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../runtime/texts';
import { Router, useLocation } from 'wouter';
import { useLoadingCounter } from '../runtime';
import { lazyWhenOnline, whenOnline } from '../runtime/whenOnline';
import { apiAtom, apiErrorHandlerAtom, loadingAtom, sessionAtom } from '../state';
import { seedBootData } from './boot/bootData';
import { describeBrowser, detectBrowser } from './boot/browserInfo';
import type { ApiErrorLike, ErrorHandlerDeps } from './errors/errors';
import { useSession } from './shellState';
import { switchLanguage } from './language/language';
import { OfflineGate } from './chrome/OfflineGate';
import { PageLoader } from './chrome/PageLoader';
import { pruneDeclarationSet } from './routing/prune';
import { PRODUCT_BASE } from './routing/screens';
import { ShellRoutes } from './routing/ShellRoutes';
import { SignOutProvider } from './chrome/SignOut';
import { applyDisplayPreferences, getPortalSystem } from './theme/theme';
import { onFirstInput } from '../runtime/firstInput';

// the portal under /parentportal, the parent application under its own base path (src/shell/routing/screens.ts)
export const ROUTER_BASE = PRODUCT_BASE;

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } },
});
// every reader of the provider's declarations sees screens without links to undeclared routes
queryClient.setQueryDefaults(['Customer.declarations'], { select: pruneDeclarationSet as (d: unknown) => unknown });
// the provider and declarations the server put into the page, for the session's provider
seedBootData(queryClient, getDefaultStore().get(sessionAtom));

function QueryClientBridge({ children }: { children: ReactNode }) {
  // one cache for every query: jotai-tanstack-query's atoms read the client from queryClientAtom,
  // and the lazy parts that use react-query's useQuery pass it explicitly (no provider in the first
  // load); sign out clears it
  useHydrateAtoms([[queryClientAtom, queryClient]]);
  return <>{children}</>;
}

let previousUrl = typeof document === 'undefined' ? '' : document.referrer;

// The handling table of spec 8.1 (errors.ts) loads with the first failed call, or ahead of it on the
// parent's first input (a failed submit then shows its message at once): a page that loads without
// an error does not fetch it.
const loadErrors = whenOnline(() => import('./errors/errors'));
let errorsModule: typeof import('./errors/errors') | undefined;
const warmErrors = () => loadErrors().then((m) => (errorsModule = m));

/**
 * Installs the spec 8.1 error handler as the API client's onError. It is installed once: the client
 * is rebuilt whenever the handler changes, so everything the handler reads that changes over time
 * (api, location, session) is read through a ref.
 */
function ErrorHandling() {
  const { t } = useTranslation('common');
  const [session, setSession] = useSession();
  const [location, navigate] = useLocation();
  const api = useAtomValue(apiAtom);
  const setHandler = useSetAtom(apiErrorHandlerAtom);
  const setLoading = useSetAtom(loadingAtom);
  const live = useRef({ t, session, location, navigate, api, setSession, setLoading });
  live.current = { t, session, location, navigate, api, setSession, setLoading };

  useEffect(() => {
    const deps: ErrorHandlerDeps = {
      setError: (error, expired) => {
        live.current.setLoading(0);
        live.current.setSession((s) => ({
          ...s,
          ...(expired ? { sessionExpired: true } : {}),
          ...(error ? { error } : {}),
        }));
      },
      navigate: (to) => live.current.navigate(to),
      log: (record) => live.current.api.call('Customer.errorlog', { body: record, silent: true }),
      translate: (key, values) => live.current.t(key, values ?? {}),
      context: () => {
        const info = detectBrowser(navigator.userAgent);
        const s = live.current.session;
        return {
          page: live.current.location,
          url: window.location.href,
          previousUrl,
          userName: s.userName || s.email,
          device: info.os,
          browser: describeBrowser(info),
          appName: s.appName || undefined,
          temporaryPassword: Boolean(s.token) && s.isTemporaryPassword === true,
          releaseVersion: s.releaseVersion,
        };
      },
      scrollToTop: () => window.scrollTo({ top: 0, behavior: 'smooth' }),
    };
    let handler: ((err: ApiErrorLike) => unknown) | undefined;
    const handle = (err: ApiErrorLike) => {
      // once loaded, at once (in the same turn as the failed call, as before it was lazy)
      if (errorsModule) return void (handler ??= errorsModule.createErrorHandler(deps))(err);
      void warmErrors().then((m) => (handler ??= m.createErrorHandler(deps))(err));
    };
    setHandler({ handle });
    return onFirstInput(window, () => void warmErrors().catch(() => undefined));
  }, [setHandler]);
  return null;
}

const PaymentOverlay = lazyWhenOnline(() => import('./payments/PaymentOverlay'));

/** Spec 2.12: the payment loader while the parent leaves for the gateway's page (loaded only then). */
function PaymentLoading() {
  const [session] = useSession();
  if (session.loaderInfo.type !== 'payment') return null;
  return (
    <Suspense fallback={null}>
      <PaymentOverlay />
    </Suspense>
  );
}

/** Spec 4: the loading counter follows the API client's requests; a thin bar shows while it is up. */
function LoadingBar() {
  useLoadingCounter();
  const loading = useAtomValue(loadingAtom);
  if (!(loading > 0)) return null;
  // decorative: every section announces its own loading state
  return <Box aria-hidden="true" position="fixed" top="0" insetX="0" h="3px" bg="brand.solid" zIndex="max" data-testid="loading-bar" />;
}

/** Keeps <html>, i18n and the display preferences in step with the session. */
function SessionEffects() {
  const [session] = useSession();
  const { i18n } = useTranslation();
  const [location] = useLocation();
  const [, setSession] = useSession();

  useEffect(() => {
    applyDisplayPreferences(document, session.accessibilityTheme, session.fontSize);
  }, [session.accessibilityTheme, session.fontSize]);

  useEffect(() => {
    // the account's language from sign-in, or another tab's choice
    if (session.locale && session.locale !== i18n.language) void switchLanguage(session.locale);
    else document.documentElement.lang = i18n.language;
  }, [session.locale, i18n]);

  useEffect(() => {
    // a new page starts without the previous page's error
    setSession((s) => (s.error.show ? { ...s, error: { ...s.error, show: false } } : s));
    return () => {
      previousUrl = window.location.href;
    };
  }, [location, setSession]);

  return null;
}

export function App() {
  return (
    <QueryClientBridge>
      <ChakraProvider value={getPortalSystem()}>
        <Suspense fallback={<PageLoader />}>
          <Router base={ROUTER_BASE}>
            <OfflineGate>
              <ErrorHandling />
              <SessionEffects />
              <LoadingBar />
              <PaymentLoading />
              <SignOutProvider>
                <ShellRoutes />
              </SignOutProvider>
            </OfflineGate>
          </Router>
        </Suspense>
      </ChakraProvider>
    </QueryClientBridge>
  );
}
