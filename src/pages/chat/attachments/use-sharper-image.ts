// R12.14 (bench row 14a): the bubble of a photo being prepared paints its local preview (the EXIF
// thumbnail the camera wrote, a few kB) at once, and moves to a sharper image — the picked original,
// then the prepared thumbnail, then the stored one — only after that image's `decode()` resolved, so
// the bubble never shows an empty or half-decoded frame in between. An image that never had a preview
// (a received one, a PNG screenshot, a JPEG without an EXIF thumbnail) is shown as before: its
// address at once, no waiting.
import { useEffect, useState } from 'react';

/**
 * What the image element shows. `best`: the sharpest address known now; `preview`: the local preview's
 * address while there is one; `expectPreview`: the attachment names a preview (its address may not be
 * resolved yet, and the 12 MP original must not start decoding first).
 */
export function useSharperWhenDecoded(best: string | null, preview: string | null, expectPreview: boolean): { src: string | null; gated: boolean } {
  const [gated, setGated] = useState(expectPreview);
  if (expectPreview && !gated) setGated(true);
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
  if (!gated) return { src: best, gated };
  return { src: shown ?? preview, gated };
}
