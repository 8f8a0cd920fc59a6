// A render error below this point (most often a lazy chunk that cannot be fetched: offline before the
// service worker has stored it, or removed by an update) would make React unmount the whole tree and
// leave a blank page. Instead it says so in Slovak, says whether the device is offline, and offers to
// load the page again; drafts and queued messages live in IndexedDB and are not touched. A `fallback`
// replaces the message where the part is only decoration (the desktop's empty chat pane).
import { Component, type ReactNode } from 'react';
import { skShell as sk } from '../text/sk-shell.ts';

interface LoadErrorBoundaryProps {
  children: ReactNode;
  /** Shown instead of the message; for parts whose absence loses nothing. */
  fallback?: ReactNode;
  /** The retry: the page loaded again (tests pass their own). */
  onRetry?: () => void;
}

export class LoadErrorBoundary extends Component<LoadErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    console.error('A part of the app could not be shown', error);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    if (this.props.fallback !== undefined) return this.props.fallback;
    const retry = this.props.onRetry ?? (() => window.location.reload());
    return (
      <div role="alert" className="mx-auto flex max-w-md flex-col items-center gap-3 px-6 py-16 text-center">
        <p className="text-lg font-semibold text-slate-900">{sk.loadError.title}</p>
        <p className="text-sm text-slate-600">{navigator.onLine ? sk.loadError.online : sk.loadError.offline}</p>
        <button type="button" onClick={retry} className="focus-ring rounded-lg bg-teal-700 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-800">
          {sk.loadError.retry}
        </button>
      </div>
    );
  }
}
