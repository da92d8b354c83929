// URL → screen declaration → access check → layout → content (ARCHITECTURE.md "Data flow" step 1).
// The runtime's ScreenView renders a screen's declared sections; a screen that declares `shellPart`
// is also drawn by that shell part, for behaviour (provider entry, post-login) or because it must work
// without a declaration set (invalid URL, not found, configuration error, session ended, generic error).
import { Alert, Heading } from '@chakra-ui/react';
import { Link as RouteLink } from 'wouter';
import { Suspense, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../runtime/texts';
import { useAtomValue } from 'jotai';
import { pageTitleAtom } from '../../state';
import { useLocation, useSearch } from 'wouter';
import { matchRoute, parseQuery } from '../../engine/screen';
import type { ScreenDecl, ShellPartName } from '../../engine/types';
import { RuntimeHostContext, ScreenView } from '../../runtime';
import { i18nKey } from '../../runtime/i18n';
import { accessRedirect, refusedForLogin } from './access';
import { ErrorBoundary } from '../errors/ErrorBoundary';
import { useProvider, useScreens, useSession } from '../shellState';
import { ApplicationFlowLayout } from '../layouts/ApplicationFlowLayout';
import { BareLayout } from '../layouts/BareLayout';
import { DefaultLayout } from '../layouts/DefaultLayout';
import { MAIN_ID } from '../layouts/SkipLink';
import { useBookmarkNotice } from '../boot/bookmark';
import { PageLoader } from '../chrome/PageLoader';
import { ProviderEntry } from '../pages/ProviderEntry';
import { shellPartOf } from './shellParts';
import { CURRENT_PRODUCT, notFoundScreen } from './screens';
import { useEndSession } from '../chrome/SignOut';
import { lazyWhenOnline } from '../../runtime/whenOnline';

// pages that neither sign-in nor Home shows load when first shown (the first load stays small)
const PostLogin = lazyWhenOnline(() => import('../pages/PostLogin').then((m) => ({ default: m.PostLogin })));
const ApplicationEntry = lazyWhenOnline(() => import('../pages/ApplicationEntry').then((m) => ({ default: m.ApplicationEntry })));
const PostLoginError = lazyWhenOnline(() => import('../pages/PostLoginError').then((m) => ({ default: m.PostLoginError })));
const SessionExpiredPage = lazyWhenOnline(() => import('../pages/SessionExpired').then((m) => ({ default: m.SessionExpiredPage })));
const PaymentResponse = lazyWhenOnline(() => import('../payments/PaymentResponse').then((m) => ({ default: m.PaymentResponse })));
const GenericError = lazyWhenOnline(() => import('../pages/GenericError').then((m) => ({ default: m.GenericError })));
const BookmarkNotice = lazyWhenOnline(() => import('../pages/BookmarkNotice').then((m) => ({ default: m.BookmarkNotice })));
const providerFreePages = () => import('../pages/ProviderFreePages');
const InvalidUrlPage = lazyWhenOnline(() => providerFreePages().then((m) => ({ default: m.InvalidUrlPage })));
const NotFoundPage = lazyWhenOnline(() => providerFreePages().then((m) => ({ default: m.NotFoundPage })));
const ConfigurationErrorPage = lazyWhenOnline(() => providerFreePages().then((m) => ({ default: m.ConfigurationErrorPage })));

const SHELL_PARTS: Record<ShellPartName, (params: Record<string, string>) => ReactNode> = {
  providerEntry: (params) => <ProviderEntry appName={params.appName ?? ''} />,
  applicationEntry: (params) => <ApplicationEntry appName={params.appName} programPeriodID={params.programPeriodID} keyelement={params.keyelement} />,
  invalidUrl: () => <InvalidUrlPage />,
  sessionEnded: (params) => <SessionExpiredPage type={params.type} />,
  notFound: () => <NotFoundPage />,
  configurationError: (params) => <ConfigurationErrorPage errorcode={params.errorcode} productname={params.productname} />,
  postLogin: () => <PostLogin />,
  postLoginError: () => <PostLoginError />,
  genericError: () => <GenericError />,
  paymentResponse: () => <PaymentResponse />,
};

function ShellPart({ screen, params }: { screen: ScreenDecl; params: Record<string, string> }): ReactNode {
  // an unknown part throws 'Unknown middleware' (500), which the error boundary shows and logs
  const part = shellPartOf<(params: Record<string, string>) => ReactNode>(SHELL_PARTS, screen.shellPart);
  return part ? part(params) : null;
}

function Layout({ screen, children }: { screen: ScreenDecl; children: ReactNode }) {
  if (screen.layout === 'bare') return <BareLayout>{children}</BareLayout>;
  if (screen.layout === 'application-flow') return <ApplicationFlowLayout footer={screen.footer}>{children}</ApplicationFlowLayout>;
  return <DefaultLayout footer={screen.footer}>{children}</DefaultLayout>;
}

export function ShellRoutes() {
  // drawn again when the language changes (the start namespaces are in before the first render)
  useTranslation(['screens', 'common']);
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
    const notFound = notFoundScreen(screens);
    return notFound ? { screen: notFound, params: {} } : null;
  }, [screens, location]);

  const screen = match?.screen;
  const [query, badLink] = useMemo(() => {
    if (!match) return [{}, false];
    const parsed = parseQuery(match.screen, search);
    // a required value missing, or text where a number is expected: the link is broken, nothing is loaded for it
    return [{ ...match.params, ...parsed.query }, parsed.errors.length > 0];
  }, [match, search]);

  const signedIn = Boolean(session.token);
  const portalRedirect = screen ? accessRedirect(screen, { token: Boolean(session.token), provider: Boolean(session.appName), sessionExpired: session.sessionExpired }) : null;
  // the parent application is entered by its hand-off: without one, its entry says where to start
  const redirect = CURRENT_PRODUCT !== 'parentportal' && (portalRedirect === '/invalidurl' || portalRedirect === '/') ? (location === '/' ? null : '/') : portalRedirect;

  useEffect(() => {
    if (redirect && redirect !== location) navigate(redirect, { replace: true });
  }, [redirect, location, navigate]);

  const programName = provider?.programName || session.programName;
  // a status page is titled by its status (`titleByQuery`)
  const refused = screen ? refusedForLogin(screen, session.accessType, signedIn && !session.sessionExpired) : false;
  const titleKey = !screen ? '' : refused ? 'common.notForLogin.title' : (screen.titleByQuery?.titles[String((query as Record<string, unknown>)[screen.titleByQuery.param] ?? '')] ?? screen.title);
  // a screen titled by its data (titleFrom) shows that title once its load answered
  const pageTitle = useAtomValue(pageTitleAtom);
  const dataTitle = screen && !refused && pageTitle?.screenId === screen.id ? pageTitle.title : null;
  // the title's own namespace (auth.reset.title: auth) may be a lazy one still on its way: the
  // title waits for it and is drawn when it is in, never as its key
  const titleI18nKey = i18nKey(titleKey);
  const titleNs = titleI18nKey.includes(':') ? titleI18nKey.slice(0, titleI18nKey.indexOf(':')) : 'screens';
  const { t: tTitle, ready: titleReady } = useTranslation(titleNs, { useSuspense: false });
  const titleText = dataTitle ?? (titleReady ? tTitle(titleI18nKey) : null);
  useEffect(() => {
    if (!titleKey || titleText === null) return;
    document.title = programName ? `${titleText} | ${programName}` : titleText;
  }, [titleKey, titleText, programName]);

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
    return (
      <Suspense fallback={<PageLoader />}>
        <BookmarkNotice onContinue={continueFromBookmark} />
      </Suspense>
    );
  }

  return (
    <ErrorBoundary page={screen.id}>
      <RuntimeHostContext.Provider value={host}>
        <Layout screen={screen}>
          {screen.layout === 'bare' ? null : (
            <Heading as="h1" size={{ base: 'xl', md: '2xl' }} mb={{ base: '4', md: '6' }} data-testid="page-title">
              {titleText ?? '\u00a0'}
            </Heading>
          )}
          {refused ? (
            <NotForLogin />
          ) : badLink ? (
            <BadLink />
          ) : (
            <>
              <Suspense fallback={<PageLoader />}>
                <ShellPart screen={screen} params={{ ...(match?.params ?? {}), ...(query as Record<string, string>) }} />
              </Suspense>
              {screen.sections.length || screen.actions?.length ? <ScreenView key={screen.id} screen={screen} query={query} /> : null}
            </>
          )}
        </Layout>
      </RuntimeHostContext.Provider>
    </ErrorBoundary>
  );
}

/** A link that lacks a value its page needs, or holds one of the wrong kind: said once, with the way home. */
function BadLink() {
  const { t } = useTranslation('common');
  return (
    <Alert.Root status="warning" role="alert" data-testid="bad-link">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{t('badLink.text')}</Alert.Description>
        {CURRENT_PRODUCT !== 'parentportal' ? null : <RouteLink href="/home">{t('badLink.home')}</RouteLink>}
      </Alert.Content>
    </Alert.Root>
  );
}

/** A page a payment-only login may not use: one clear message and the way back, no refused sections. */
function NotForLogin() {
  const { t } = useTranslation('common');
  return (
    <Alert.Root status="info" data-testid="not-for-login">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Description>{t('notForLogin.text')}</Alert.Description>
        <RouteLink href="/home">{t('notForLogin.home')}</RouteLink>
      </Alert.Content>
    </Alert.Root>
  );
}
