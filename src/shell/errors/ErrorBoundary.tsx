// A render error anywhere in a page shows the generic error page (bare layout) instead of a blank
// screen; a failed lazy chunk reloads the page instead (spec 8.1, at most once per 60 s).
import { Component, Suspense, type ErrorInfo, type ReactNode } from 'react';
import { lazyWhenOnline } from '../../runtime/whenOnline';
import { claimChunkReload, isChunkLoadError } from './chunkReload';
import { rememberCrash } from './crash';
import { BareLayout } from '../layouts/BareLayout';
import { PageLoader } from '../chrome/PageLoader';

// the error page is a chunk of its own: a page that draws without an error does not fetch it
const GenericError = lazyWhenOnline(() => import('../pages/GenericError').then((m) => ({ default: m.GenericError })));

interface Props {
  page: string;
  children: ReactNode;
}

export class ErrorBoundary extends Component<Props, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isChunkLoadError(error) && navigator.onLine) {
      try {
        if (claimChunkReload(sessionStorage)) {
          location.reload();
          return;
        }
      } catch {
        /* no storage: fall through to the error page */
      }
    }
    rememberCrash(Object.assign(Object(error), { stack: `${(error as Error)?.stack ?? ''}\n${info.componentStack ?? ''}` }), this.props.page);
  }

  componentDidUpdate(prev: Props) {
    // a new page gets a fresh chance
    if (prev.page !== this.props.page && this.state.error) this.setState({ error: null });
  }

  render() {
    if (this.state.error) {
      return (
        <BareLayout>
          <Suspense fallback={<PageLoader />}>
            <GenericError />
          </Suspense>
        </BareLayout>
      );
    }
    return this.props.children;
  }
}
