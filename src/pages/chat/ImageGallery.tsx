// The images of a rich message as thumbnails; a thumbnail that fails to load falls back to the full
// image. Activating one opens the lightbox at that image.
import { useState } from 'react';
import { sk } from '../../text/sk.ts';
import { Lightbox } from './Lightbox.tsx';
import { fileName, type Attachment } from './message-kinds.ts';

export function ImageGallery({ images }: { images: Attachment[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const slides = images.map((a, i) => ({ src: a.dataUrl, alt: a.name ? fileName(a) : sk.chat.image(i + 1) }));
  return (
    <>
      <ul className={`grid gap-1 ${images.length > 1 ? 'grid-cols-2' : 'grid-cols-1'}`}>
        {images.map((a, i) => (
          <li key={a.id}>
            <button type="button" onClick={() => setOpen(i)} className="focus-ring block w-full overflow-hidden rounded-lg bg-slate-200" aria-label={slides[i]?.alt}>
              <Thumbnail attachment={a} />
            </button>
          </li>
        ))}
      </ul>
      {open !== null && <Lightbox images={slides} startIndex={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function Thumbnail({ attachment: a }: { attachment: Attachment }) {
  const [failed, setFailed] = useState(false);
  const src = !failed && a.thumbUrl ? a.thumbUrl : a.dataUrl;
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      width={a.width ?? undefined}
      height={a.height ?? undefined}
      onError={() => setFailed(true)}
      className="aspect-[4/3] h-auto w-full object-cover"
    />
  );
}
