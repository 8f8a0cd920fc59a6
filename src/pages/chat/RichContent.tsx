import { ImageGallery } from './ImageGallery.tsx';
import { FileCard } from './FileCard.tsx';
import type { Attachment } from './message-kinds.ts';

/** The attachments of a rich message: images as a gallery, everything else as file cards. */
export function RichContent({ attachments }: { attachments: Attachment[] }) {
  const images = attachments.filter((a) => a.fileType === 'image');
  const files = attachments.filter((a) => a.fileType !== 'image');
  return (
    <div className="mt-2 flex flex-col gap-2">
      {images.length > 0 && <ImageGallery images={images} />}
      {files.map((f) => (
        <FileCard key={f.id} file={f} />
      ))}
    </div>
  );
}
