// R12.16 (bench row 14a): the previews (R12.14's EXIF thumbnails) of photos just handed to the engine,
// held in memory by their attachment id (chosen by the page, R12.16) so the sending bubble's first
// render paints the preview at once instead of waiting for its blob to be read back from IndexedDB
// (traced: ~130 ms of stored → painted on the mobile profile). The bubble's URL hook adopts the
// held object URL when its own read answers the same bytes (use-attachment-urls.ts) and revokes it
// as its own from then on; one never adopted (the bubble not rendered, the send refused) is
// released here after HOLD_MS.
import type { AttachmentFileInput } from './send-attachments.ts';

const HOLD_MS = 60_000;

interface Held {
  url: string;
  size: number;
  type: string;
  timer: ReturnType<typeof setTimeout>;
}
const held = new Map<string, Held>();

/** Holds an object URL of the preview of attachment `id` for its bubble. */
export function holdSentPreview(id: string, preview: Blob): void {
  releaseSentPreview(id);
  const url = URL.createObjectURL(preview);
  held.set(id, { url, size: preview.size, type: preview.type, timer: setTimeout(() => releaseSentPreview(id), HOLD_MS) });
}

/** The held preview's URL, if any (read in render: nothing changes). */
export function sentPreviewUrl(id: string): string | null {
  return held.get(id)?.url ?? null;
}

/** Hands the held URL over when it shows the same bytes as `blob`: the caller revokes it from now on. */
export function adoptSentPreview(id: string, blob: Blob): { url: string; size: number; type: string } | null {
  const h = held.get(id);
  if (!h || h.size !== blob.size || h.type !== blob.type) return null;
  clearTimeout(h.timer);
  held.delete(id);
  return { url: h.url, size: h.size, type: h.type };
}

/** Drops a held preview (never shown, or the send was refused). */
export function releaseSentPreview(id: string): void {
  const h = held.get(id);
  if (!h) return;
  clearTimeout(h.timer);
  held.delete(id);
  URL.revokeObjectURL(h.url);
}

/**
 * Sends `files` with an id of the page's own for each (R12.16: the sending bubble, painted before the
 * store, names the same attachments), holding each photo's preview for its bubble while and after
 * the send; a refused send releases them.
 */
export async function withHeldPreviews<T>(files: readonly AttachmentFileInput[], send: (files: AttachmentFileInput[]) => Promise<T>): Promise<T> {
  const named = files.map((f) => ({ ...f, id: f.id ?? crypto.randomUUID() }));
  for (const f of named) if (f.id && f.preview) holdSentPreview(f.id, f.preview);
  try {
    return await send(named);
  } catch (err) {
    for (const f of named) if (f.preview) releaseSentPreview(f.id);
    throw err;
  }
}
