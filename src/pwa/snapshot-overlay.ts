// Removal of the chat list's painted snapshot (sw/list-snapshot.ts). Kept apart from the saving code
// so the entry chunk, which removes it on any address but the list, carries only these few lines.
import { LIST_SNAPSHOT_PATH, SNAPSHOT_HOST_ID } from '../../sw/config.ts';

/** Removes the painted snapshot, if the worker painted one (idempotent). */
export function removeListSnapshotOverlay(): void {
  document.getElementById(SNAPSHOT_HOST_ID)?.remove();
}

/** The snapshot belongs to the list's address only; anywhere else it goes at once. */
export function removeListSnapshotOffList(pathname: string): void {
  if (pathname !== LIST_SNAPSHOT_PATH) removeListSnapshotOverlay();
}
