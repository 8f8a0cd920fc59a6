// The images of a rich message as thumbnails; a thumbnail that fails to load falls back to the full
// image. Activating one opens the lightbox at that image. Own images (issue 38) come from the
// device's blobs while it holds them (offline too), else through signed URLs (useAttachmentUrls).
import { useState } from 'react';
import { sk } from '../../text/sk.ts';
import { Lightbox } from './Lightbox.tsx';
import { fileName, type Attachment } from './message-kinds.ts';
import { useAttachmentUrls } from './attachments/use-attachment-urls.ts';
import { parseAttachmentRef } from './attachments/attachment-ref.ts';
import { useSharperWhenDecoded } from './attachments/use-sharper-image.ts';
import { fitWithin, THUMB_EDGE_PX } from './attachments/image-size.ts';

export function ImageGallery({ images }: { images: Attachment[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const full = useAttachmentUrls(images.map((a) => a.dataUrl));
  const thumbs = useAttachmentUrls(images.map((a) => a.thumbUrl));
  const slides = images.map((a, i) => ({ src: full[i] ?? thumbs[i] ?? '', alt: a.name ? fileName(a) : sk.chat.image(i + 1) }));
  return (
    <>
      <ul className={`grid gap-1 ${images.length > 1 ? 'grid-cols-2' : 'grid-cols-1'}`}>
        {images.map((a, i) => (
          <li key={a.id}>
            <button type="button" onClick={() => setOpen(i)} className="focus-ring block w-full overflow-hidden rounded-lg bg-slate-200" aria-label={slides[i]?.alt}>
              <Thumbnail attachment={a} thumbSrc={thumbs[i] ?? null} src={full[i] ?? null} />
            </button>
          </li>
        ))}
      </ul>
      {open !== null && <Lightbox images={slides} startIndex={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function Thumbnail({ attachment: a, thumbSrc, src: fullSrc }: { attachment: Attachment; thumbSrc: string | null; src: string | null }) {
  const [failed, setFailed] = useState(false);
  // R12.14: a photo being prepared names its EXIF preview as its thumbnail: painted first, then the
  // sharper image once decoded (use-sharper-image.ts). R12.15: that sharper image is the prepared
  // thumbnail, never the picked 12 MP original (fullSrc): its decode, on a phone, took the image
  // decoder from the preview's own (bench row 14a), for a picture shown 320 px wide.
  const ref = a.thumbUrl === null ? null : parseAttachmentRef(a.thumbUrl);
  const isPreview = ref?.kind === 'local' && ref.preview === true;
  // A message that names a thumbnail shows that thumbnail: while its URL is not known yet (a stored
  // object still being signed, a local blob still being read) nothing sharper is asked, the last
  // image stays (use-sharper-image.ts). The full image stands in only for a message without one
  // (a photo not yet prepared, R12.13) or a thumbnail that failed to load. Before, a pending
  // thumbnail URL fell through to the full one: at the send's settle both addresses turn `storage:`
  // at once and are signed side by side, and when the full image's signature answered first the
  // bubble fetched and showed the 2,048 px stored image (and after R12.13's preparation the
  // prepared one) until the thumbnail's arrived (e2e/attachments.e2e.ts read it under load).
  const best = isPreview ? null : a.thumbUrl !== null && !failed ? thumbSrc : fullSrc;
  const { src, gated } = useSharperWhenDecoded(best, isPreview ? thumbSrc : null, isPreview);
  // While images of different sizes follow one another (the 160 px preview, the 12 MP original, the
  // 320 px prepared thumbnail), the picture keeps the width the prepared thumbnail will have, so the
  // bubble, sized by its content, does not jump.
  const steady = gated && a.width && a.height ? { width: `${fitWithin({ width: a.width, height: a.height }, THUMB_EDGE_PX).width}px`, maxWidth: '100%' } : undefined;
  return (
    <img
      src={src ?? undefined}
      style={steady}
      data-preview={isPreview && src !== null && src === thumbSrc ? 'exif' : undefined}
      alt=""
      loading="lazy"
      width={a.width ?? undefined}
      height={a.height ?? undefined}
      onError={() => setFailed(true)}
      className="aspect-[4/3] h-auto w-full object-cover"
    />
  );
}
