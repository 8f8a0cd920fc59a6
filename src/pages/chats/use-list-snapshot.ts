// Keeps the chat list's paint snapshot (sw/list-snapshot.ts) in step with the live list: removes the
// painted snapshot in the same commit that first shows what the live list knows (so the two are never
// in the document together once rows render), and saves a new one when the list has settled.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { getImpersonation } from '../../account/impersonation-store.ts';
import { useAuth } from '../../auth/auth-context.ts';
import { ONLINE_ONLY } from '../../data/online-only/flag.ts';
import { saveListSnapshot } from '../../pwa/list-snapshot.ts';
import { removeListSnapshotOverlay } from '../../pwa/snapshot-overlay.ts';

/** How long the list must stay unchanged before its frame is saved. */
export const SNAPSHOT_SAVE_DELAY_MS = 1500;

export function useListSnapshot({ loading, saveable, rows }: { loading: boolean; saveable: boolean; rows: unknown }): void {
  const userId = useAuth().user?.id ?? null;
  /** The rows last saved: hiding the page saves only a frame not saved yet (unload stays cheap). */
  const savedRows = useRef<unknown>(null);
  /** Counts saves; a save in slices writes only if no save started after it. */
  const saves = useRef(0);
  /** A save in slices is under way: hiding the page saves at once rather than wait for it. */
  const slicing = useRef(false);

  useLayoutEffect(() => {
    if (!loading) removeListSnapshotOverlay();
  }, [loading]);

  useEffect(() => {
    // The online-only baseline build never paints from local data, so it never saves a frame either.
    if (!saveable || !userId || ONLINE_ONLY) return;
    // The settled list's save judges the frame's rules in slices (issue 40: one task of ~15 ms at
    // start-up otherwise); a page being hidden saves at once, as it may not get another task.
    const save = (inSlices: boolean) => {
      // An impersonated account's list is never saved: it would outlive the impersonation.
      if ((savedRows.current === rows && !(slicing.current && !inSlices)) || getImpersonation() !== null) return;
      savedRows.current = rows;
      const mine = ++saves.current;
      slicing.current = inSlices;
      saveListSnapshot(userId, { inSlices, stillWanted: () => saves.current === mine })
        .catch((err: unknown) => console.warn('list snapshot:', err))
        .finally(() => {
          if (saves.current === mine) slicing.current = false;
        });
    };
    const timer = setTimeout(() => save(true), SNAPSHOT_SAVE_DELAY_MS);
    const onHidden = () => {
      if (document.visibilityState === 'hidden') save(false);
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onHidden);
    };
  }, [saveable, userId, rows]);
}
