// The files waiting in the composer (issue 38), above the text field: each with its preview (the
// prepared image's thumbnail, opening the lightbox; a file card for the rest), its name and the size
// that will be sent, an optional caption and a remove button; the 25 MB limit said under them.
import { useState } from 'react';
import { formatFileSize } from '../../../lib/file-size.ts';
import { sk } from '../../../text/sk.ts';
import { Lightbox } from '../Lightbox.tsx';
import type { DraftAttachment } from './use-attachment-draft.ts';

interface AttachmentTrayProps {
  items: readonly DraftAttachment[];
  onRemove: (id: string) => void;
  /** An image preview the browser could not decode. */
  onUnreadable: (id: string) => void;
  onCaption: (id: string, caption: string) => void;
}

export function AttachmentTray({ items, onRemove, onUnreadable, onCaption }: AttachmentTrayProps) {
  const [open, setOpen] = useState<number | null>(null);
  if (items.length === 0) return null;
  const images = items.filter((i) => i.kind === 'image' && (i.fullUrl ?? i.thumbUrl));
  return (
    <section aria-label={sk.attachments.trayLabel} data-testid="attachment-tray" className="border-t border-slate-200 bg-slate-50 px-2 pt-2">
      <ul className="flex gap-2 overflow-x-auto pb-1">
        {items.map((item) => (
          <li key={item.id} data-testid="attachment-draft" data-ready={item.file !== null} className="flex w-40 shrink-0 flex-col gap-1 rounded-lg border border-slate-200 bg-white p-1.5">
            <div className="relative">
              <Preview item={item} onOpen={() => setOpen(images.indexOf(item))} onError={() => onUnreadable(item.id)} />
              <button
                type="button"
                aria-label={sk.attachments.remove(item.name)}
                title={sk.attachments.remove(item.name)}
                onClick={() => onRemove(item.id)}
                className="focus-ring absolute right-0 top-0 inline-flex h-11 w-11 items-center justify-center rounded-full"
              >
                <span aria-hidden="true" className="inline-flex h-7 w-7 items-center justify-center rounded-full bg-slate-900/80 text-white">
                  <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round">
                    <path d="M6 6l12 12M18 6L6 18" />
                  </svg>
                </span>
              </button>
            </div>
            <p className="flex min-w-0 justify-between gap-1 text-xs text-slate-700">
              <span className="truncate">{item.name}</span>
              <span className="shrink-0 text-slate-600">{item.file ? formatFileSize(item.size) : sk.attachments.preparing}</span>
            </p>
            <input
              type="text"
              value={item.caption}
              maxLength={1000}
              onChange={(e) => onCaption(item.id, e.target.value)}
              aria-label={sk.attachments.caption(item.name)}
              placeholder={sk.attachments.captionPlaceholder}
              className="field h-9 px-2 py-1 text-xs"
            />
          </li>
        ))}
      </ul>
      <p className="pb-1 text-xs text-slate-600">{sk.attachments.limit}</p>
      {open !== null && open >= 0 && (
        <Lightbox images={images.map((i) => ({ src: (i.fullUrl ?? i.thumbUrl)!, alt: i.name }))} startIndex={open} onClose={() => setOpen(null)} />
      )}
    </section>
  );
}

function Preview({ item, onOpen, onError }: { item: DraftAttachment; onOpen: () => void; onError: () => void }) {
  if (item.kind === 'image') {
    const src = item.thumbUrl;
    return (
      <button type="button" onClick={onOpen} disabled={!src} aria-label={sk.attachments.preview(item.name)} className="focus-ring block h-24 w-full overflow-hidden rounded-md bg-slate-200">
        {src ? (
          <img src={src} alt="" data-testid="attachment-thumb" data-preview={item.file?.preview ? 'exif' : undefined} onError={onError} className="h-full w-full object-cover" />
        ) : (
          // R12.15: a JPEG's EXIF look-up has not answered yet; the item can be sent meanwhile.
          <span data-testid="attachment-thumb-pending" className="block h-full w-full animate-pulse motion-reduce:animate-none" />
        )}
      </button>
    );
  }
  const ext = /\.([a-z0-9]{1,5})$/i.exec(item.name)?.[1]?.toUpperCase() ?? '';
  return (
    <div className="flex h-24 w-full flex-col items-center justify-center gap-1 rounded-md bg-teal-50 text-teal-800">
      <svg aria-hidden="true" viewBox="0 0 24 24" width="32" height="32" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round">
        <path d="M6 3h8l4 4v14H6zM14 3v4h4" />
      </svg>
      <span aria-hidden="true" className="text-xs font-semibold">{ext}</span>
    </div>
  );
}
