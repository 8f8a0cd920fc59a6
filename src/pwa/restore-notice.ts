// Tells the user when the browser had evicted the local database and the engine restored it from the
// server (sync/background/restore.ts): what was re-queued and what could not be rebuilt.
import type { RestoreReport } from '../../sync/background/restore.ts';
import { RESTORED_EVENT } from '../../sync/background/tag.ts';
import { toastSuccess } from '../lib/notify.ts';
import { pwaText } from '../text/pwa.ts';

export function restoreNoticeText(r: RestoreReport): { title: string; description: string | null } {
  const parts = [r.requeued > 0 ? pwaText.requeued(r.requeued) : null, r.lost > 0 ? pwaText.lost(r.lost) : null].filter((p): p is string => p !== null);
  return { title: pwaText.restored, description: parts.length ? parts.join(' ') : null };
}

let listening = false;

/** Idempotent: one listener per page. */
export function announceRestores(): void {
  if (listening || typeof window === 'undefined') return;
  listening = true;
  window.addEventListener(RESTORED_EVENT, (e) => {
    const r = (e as CustomEvent<RestoreReport>).detail;
    const { title, description } = restoreNoticeText(r);
    toastSuccess(title, { description, duration: 12_000 });
  });
}
