// Turns attachment addresses into URLs the page can use (issue 38): web addresses as they are, an
// own attachment still on the device (`local-attachment:`) into an object URL of its blob from
// IndexedDB (shown at once, offline too; revoked when no longer shown), and a stored object
// (`storage:`) into a signed URL made with the viewer's session (an hour; kept per path until five
// minutes before it expires). Null while a URL is not (yet) known. When it cannot be signed (offline),
// the object's bare address, which only the service worker's cache answers (sw/attachment-cache.ts):
// an image shown before opens offline after a reload too.
import { useEffect, useMemo, useRef, useState } from 'react';
import { unsignedObjectUrl } from '../../../../sw/attachment-cache.ts';
import { useSyncQuery } from '../../../data/use-sync-query.ts';
import { parseAttachmentRef, type AttachmentRef } from './attachment-ref.ts';
import { createSignedObjectUrl } from './sign-url.ts';
import { attachmentBlob, attachmentPreview, attachmentThumb } from './send-attachments.ts';
import { adoptSentPreview, sentPreviewUrl } from './sent-previews.ts';

const SIGNED_TTL_S = 3600;
const SIGNED_MARGIN_MS = 5 * 60_000;
const signed = new Map<string, { url: string; until: number }>();
/** How long a replaced object URL lives on: the image shown from it has switched to the new one by then. */
const REVOKE_AFTER_MS = 10_000;

function revokeLater(urls: string[]): void {
  if (urls.length > 0) setTimeout(() => urls.forEach((u) => URL.revokeObjectURL(u)), REVOKE_AFTER_MS);
}

async function signedUrl(ref: Extract<AttachmentRef, { kind: 'storage' }>): Promise<string | null> {
  const key = `${ref.bucket}/${ref.path}`;
  const hit = signed.get(key);
  if (hit && hit.until > Date.now()) return hit.url;
  const url = await createSignedObjectUrl(ref.bucket, ref.path, SIGNED_TTL_S).catch(() => null);
  if (!url) {
    const { appEnv } = await import('../../../supabase.ts');
    return unsignedObjectUrl(appEnv.supabaseUrl, ref.bucket, ref.path);
  }
  signed.set(key, { url, until: Date.now() + SIGNED_TTL_S * 1000 - SIGNED_MARGIN_MS });
  return url;
}

export function useAttachmentUrls(addresses: readonly (string | null)[]): (string | null)[] {
  const joined = addresses.join('\n');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by content: callers build new arrays each render
  const refs = useMemo(() => addresses.map((a) => (a === null ? null : parseAttachmentRef(a))), [joined]);
  const hasLocal = refs.some((r) => r?.kind === 'local');
  const blobs = useSyncQuery(
    (db) => Promise.all(refs.map((r) => (r?.kind !== 'local' ? Promise.resolve(null) : r.preview ? attachmentPreview(db, r.id) : r.thumb ? attachmentThumb(db, r.id) : attachmentBlob(db, r.id)))),
    [refs, hasLocal],
  )?.value;
  const [objectUrls, setObjectUrls] = useState<(string | null)[]>([]);
  // One object URL per local attachment while its bytes stay the same. The query answers new Blob
  // objects whenever the tables it read change (an upload's progress, the send's state), and a new
  // URL each time made a 12 MP photo decode again and again; a URL revoked while its image was still
  // decoding showed the broken-image frame in the sending bubble (R12.13's screenshots). A URL that
  // is replaced (the prepared photo after the original) is revoked once the new one is on screen.
  const made = useRef(new Map<string, { url: string; size: number; type: string }>());
  useEffect(() => {
    if (!blobs) return;
    const next = new Map<string, { url: string; size: number; type: string }>();
    const urls = blobs.map((b, i) => {
      const r = refs[i];
      if (!b || r?.kind !== 'local') return null;
      const key = `${r.id}${r.preview ? '#preview' : r.thumb ? '#thumb' : ''}`;
      const had = made.current.get(key) ?? next.get(key);
      // R12.16: the preview the page held for this bubble, when it is these bytes, is this URL.
      const adopted = r.preview && !had ? adoptSentPreview(r.id, b) : null;
      const entry = had && had.size === b.size && had.type === b.type ? had : (adopted ?? { url: URL.createObjectURL(b), size: b.size, type: b.type });
      next.set(key, entry);
      return entry.url;
    });
    const kept = new Set([...next.values()].map((e) => e.url));
    revokeLater([...made.current.values()].map((e) => e.url).filter((u) => !kept.has(u)));
    made.current = next;
    setObjectUrls(urls);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- refs are what blobs were read for
  }, [blobs]);
  useEffect(
    () => () => {
      revokeLater([...made.current.values()].map((e) => e.url));
      made.current = new Map();
    },
    [],
  );
  const [signedUrls, setSignedUrls] = useState<(string | null)[]>([]);
  useEffect(() => {
    if (!refs.some((r) => r?.kind === 'storage')) return;
    let live = true;
    void Promise.all(refs.map((r) => (r?.kind === 'storage' ? signedUrl(r).catch(() => null) : Promise.resolve(null)))).then((urls) => live && setSignedUrls(urls));
    return () => {
      live = false;
    };
  }, [refs]);
  return addresses.map((a, i) => {
    const r = refs[i];
    if (a === null) return null;
    if (!r) return a;
    // R12.16: until the device's database answered, a just-sent photo's preview held in memory.
    if (r.kind === 'local') return objectUrls[i] ?? (r.preview ? sentPreviewUrl(r.id) : null);
    return signedUrls[i] ?? null;
  });
}
