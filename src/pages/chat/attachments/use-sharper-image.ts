// R12.14/R12.15 (bench row 14a): the bubble of a photo being prepared paints its local preview (the
// EXIF thumbnail the camera wrote, a few kB) at once, and moves to a sharper image — the prepared
// thumbnail, then the stored one — only after that image's `decode()` resolved, so the bubble never
// shows an empty or half-decoded frame in between. The picked 12 MP original is never decoded for a
// bubble shown at thumbnail width (R12.15): the caller passes no sharper address while the preview is
// the message's thumbnail. An image that never had a preview (a received one, a PNG screenshot, a JPEG
// without an EXIF thumbnail) is shown as before: its address at once, no waiting. Either way, once the
// bubble showed an image it never goes back to none: while the next address is not known yet (the
// send settled and the stored thumbnail is being signed) the last one stays, so no empty frame
// shows between the device's blob and the stored object.
import { useEffect, useRef, useState } from 'react';

/**
 * What the image element shows. `best`: the sharpest address known now (null: none worth decoding yet);
 * `preview`: the local preview's address while there is one; `expectPreview`: the attachment names a
 * preview (its address may not be resolved yet). Once gated, the last preview shown stays until a
 * sharper image has decoded, also after the preview itself is gone (R12.13's preparation deletes it
 * in the transaction that names the prepared thumbnail; its object URL lives on for a while,
 * use-attachment-urls.ts).
 */
export function useSharperWhenDecoded(best: string | null, preview: string | null, expectPreview: boolean): { src: string | null; gated: boolean } {
  const [gated, setGated] = useState(expectPreview);
  if (expectPreview && !gated) setGated(true);
  const lastPreview = useRef<string | null>(null);
  if (preview) lastPreview.current = preview;
  // The sharpest address that has decoded; until one has, the preview.
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (!gated || !best || best === shown) return;
    let live = true;
    const probe = new Image();
    probe.src = best;
    // A browser without decode() (old engines, jsdom) swaps at once, as it did before R12.14.
    const decoded = typeof probe.decode === 'function' ? probe.decode() : Promise.resolve();
    // A sharper image that cannot be decoded here leaves what is shown in place.
    decoded.then(
      () => live && setShown(best),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [best, gated, shown]);
  const src = gated ? (shown ?? preview ?? lastPreview.current) : best;
  const lastShown = useRef<string | null>(null);
  if (src) lastShown.current = src;
  return { src: src ?? lastShown.current, gated };
}
