// URL → screen declaration → access check → layout → content (ARCHITECTURE.md "Data flow" step 1).
// The runtime's ScreenView renders a screen's declared sections; a few screens get a shell part for
// behaviour (provider entry, sign-in form, post-login) or because they must work without a
// declaration set (invalid URL, not found, configuration error, session ended, generic error).
import { Heading } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { matchRoute, parseQuery } from '../engine/screen';
import type { ScreenDecl } from '../engine/types';
import { RuntimeHostContext, ScreenView } from '../runtime';
import { i18nKey } from '../runtime/i18n';
import { accessRedirect } from './access';
import { ErrorBoundary } from './ErrorBoundary';
import { useProvider, useScreens, useSession } from './hooks';
import { ApplicationFlowLayout } from './layouts/ApplicationFlowLayout';
import { BareLayout } from './layouts/BareLayout';
import { DefaultLayout } from './layouts/DefaultLayout';
import { MAIN_ID } from './layouts/SkipLink';
import { BookmarkNotice, useBookmarkNotice } from './pages/BookmarkNotice';
import { GenericError } from './pages/GenericError';
import { PostLogin } from './pages/PostLogin';
import { ConfigurationErrorPage, InvalidUrlPage, NotFoundPage } from './pages/ProviderFreePages';
import { ProviderEntry } from './pages/ProviderEntry';
import { SessionExpiredPage } from './pages/SessionExpired';
import { NOT_FOUND_SCREEN } from './screens';
import { useEndSession } from './SignOut';

function ShellPart({ screen, params }: { screen: ScreenDecl; params: Record<string, string> }): ReactNode {
  switch (screen.id) {
    case 'provider-entry':
      return <ProviderEntry appName={params.appName ?? ''} />;
    case 'invalidurl':
      return <InvalidUrlPage />;
    case 'sessionexpired':
      return <SessionExpiredPage type={params.type} />;
    case NOT_FOUND_SCREEN:
      return <NotFoundPage />;
    case 'configurationerror':
      return <ConfigurationErrorPage errorcode={params.errorcode} productname={params.productname} />;
    case 'postlogin':
      return <PostLogin />;
    case 'error':
      return <GenericError />;
    default:
      return null;
  }
}

function Layout({ screen, path, children }: { screen: ScreenDecl; path: string; children: ReactNode }) {
  if (screen.layout === 'bare') return <BareLayout>{children}</BareLayout>;
  if (screen.layout === 'application-flow') return <ApplicationFlowLayout path={path}>{children}</ApplicationFlowLayout>;
  return <DefaultLayout path={path}>{children}</DefaultLayout>;
}

export function ShellRoutes() {
  const { t } = useTranslation(['screens', 'common']);
  const [location, navigate] = useLocation();
  const search = useSearch();
  const screens = useScreens();
  const [session] = useSession();
  const provider = useProvider();
  const endSession = useEndSession();
  const [bookmarkPending, continueFromBookmark] = useBookmarkNotice();
  const firstRender = useRef(true);

  const match = useMemo(() => {
    const m = matchRoute({ screens }, location);
    if (m) return m;
    const notFound = screens[NOT_FOUND_SCREEN];
    return notFound ? { screen: notFound, params: {} } : null;
  }, [screens, location]);

  const screen = match?.screen;
  const query = useMemo(() => {
    if (!match) return {};
    return { ...match.params, ...parseQuery(match.screen, search).query };
  }, [match, search]);

  const signedIn = Boolean(session.token);
  const redirect = screen ? accessRedirect(screen, { token: Boolean(session.token), provider: Boolean(session.appName), sessionExpired: session.sessionExpired }) : null;

  useEffect(() => {
    if (redirect && redirect !== location) navigate(redirect, { replace: true });
  }, [redirect, location, navigate]);

  const programName = provider?.programName || session.programName;
  useEffect(() => {
    if (!screen) return;
    const title = t(i18nKey(screen.title));
    document.title = programName ? `${title} | ${programName}` : title;
  }, [screen, t, programName]);

  useEffect(() => {
    // a new page: start at the top with focus on its content (screen readers announce it)
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
    document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
  }, [location]);

  const host = useMemo(
    () => ({
      signOut: () => {
        void endSession().then(() => navigate('/', { replace: true }));
      },
    }),
    [endSession, navigate],
  );

  if (!screen || redirect) return null;

  if (screen.id === 'signin' && bookmarkPending && !signedIn) {
    return <BookmarkNotice onContinue={continueFromBookmark} />;
  }

  return (
    <ErrorBoundary page={screen.id}>
      <RuntimeHostContext.Provider value={host}>
        <Layout screen={screen} path={location}>
          {screen.layout === 'bare' ? null : (
            <Heading as="h1" size={{ base: 'xl', md: '2xl' }} mb={{ base: '4', md: '6' }} data-testid="page-title">
              {t(i18nKey(screen.title))}
            </Heading>
          )}
          <ShellPart screen={screen} params={{ ...(match?.params ?? {}), ...(query as Record<string, string>) }} />
          {screen.sections.length || screen.actions?.length ? <ScreenView key={screen.id} screen={screen} query={query} /> : null}
        </Layout>
      </RuntimeHostContext.Provider>
    </ErrorBoundary>
  );
}
