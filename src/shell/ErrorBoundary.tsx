// A render error anywhere in a page shows the generic error page (bare layout) instead of a blank
// screen; a failed lazy chunk reloads the page instead (spec 8.1, at most once per 60 s).
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { claimChunkReload, isChunkLoadError } from './chunkReload';
import { BareLayout } from './layouts/BareLayout';
import { GenericError, rememberCrash } from './pages/GenericError';

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
          <GenericError />
        </BareLayout>
      );
    }
    return this.props.children;
  }
}
