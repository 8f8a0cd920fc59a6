// A file of a rich message: its name and size ('Neznáma veľkosť' when unknown); opens in a new tab.
// Own files (issue 38) show the same way, from the device's blob or a signed URL.
// Its accessible name holds the visible name and size in the order shown, after the verb (issue 37:
// a name without the size failed axe label-content-name-mismatch, and a voice user says what they see).
import { formatFileSize } from '../../lib/file-size.ts';
import { sk } from '../../text/sk.ts';
import { fileName, type Attachment } from './message-kinds.ts';
import { useAttachmentUrls } from './attachments/use-attachment-urls.ts';

export function FileCard({ file }: { file: Attachment }) {
  const name = fileName(file);
  const size = formatFileSize(file.fileSize);
  // An own file still on the device opens from its blob; a stored one through a signed URL (issue 38).
  const [href] = useAttachmentUrls([file.dataUrl]);
  return (
    <a
      href={href ?? undefined}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={sk.chat.openFile(name, size)}
      className="focus-ring flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2 text-slate-800 hover:bg-slate-50"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="28" height="28" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" className="shrink-0 text-teal-700">
        <path d="M6 3h8l4 4v14H6zM14 3v4h4" />
      </svg>
      <span className="flex min-w-0 flex-col">
        <span className="truncate text-sm font-medium">{name}</span>
        <span className="text-xs text-slate-500">{size}</span>
      </span>
    </a>
  );
}
