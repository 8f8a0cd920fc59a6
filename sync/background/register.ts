// The page side of Background Sync: asks the browser to wake the service worker when the network is
// back, so a queued outbox is delivered even if every tab is closed by then. Feature-detected:
// without SyncManager (Firefox, Safari) or without a registered worker this does nothing and the
// outbox flushes on the next open.
import { OUTBOX_SYNC_TAG } from './tag.ts';

interface SyncRegistration {
  sync?: { register(tag: string): Promise<void> };
}

interface ServiceWorkerContainerLike {
  getRegistration(scope?: string): Promise<SyncRegistration | undefined>;
}

export type BackgroundSyncRequest = () => void;

export function defaultBackgroundSync(): BackgroundSyncRequest | null {
  const sw = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerContainerLike } }).navigator?.serviceWorker;
  if (!sw || typeof (globalThis as { window?: unknown }).window === 'undefined') return null;
  return () => {
    sw.getRegistration('/')
      .then((reg) => reg?.sync?.register(OUTBOX_SYNC_TAG))
      .catch(() => undefined); // refused (permission, no worker): the next open flushes
  };
}
