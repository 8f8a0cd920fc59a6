// Where the files of an own message stand while it is not sent (issue 38): a progress bar per file
// while it uploads (bytes from the engine's stored offsets, finer between 6 MB chunks from its
// progress events), 'Fotka sa pripravuje' while the engine prepares a picked photo (R12.13), nothing more while the device waits for a network (the bubble's status line
// says 'Čaká na pripojenie'), and for a failed
// upload its Slovak reason with retry; cancel (which removes the message and its files) while any
// file is not yet on the server. UploadStatusView is the pure part (unit group); UploadStatus reads
// the engine (send-attachments.ts).
import { useEffect, useState } from 'react';
import { useSyncEngine } from '../../../data/sync-context.ts';
import { useSyncQuery } from '../../../data/use-sync-query.ts';
import { sk } from '../../../text/sk.ts';
import { attachmentJob, attachmentUploads, cancelAttachments, retryAttachments, subscribeUploadProgress, type AttachmentUpload } from './send-attachments.ts';

interface UploadStatusViewProps {
  uploads: readonly AttachmentUpload[];
  /** The server refused the message (R12.8): cancel gives it up and removes its files (R12.9). */
  sendRefused?: boolean;
  onRetry: () => void;
  onCancel: () => void;
}

const percent = (u: Pick<AttachmentUpload, 'sent' | 'total'>) => (u.total > 0 ? Math.min(100, Math.floor((u.sent / u.total) * 100)) : 0);

export function UploadStatusView({ uploads, sendRefused = false, onRetry, onCancel }: UploadStatusViewProps) {
  if (uploads.length === 0) return null; // the engine lists none once the server has the message
  // A thumbnail's upload is small and shown with its file: progress rows are the files' own.
  const open = uploads.filter((u) => u.role === 'file');
  const failed = uploads.find((u) => u.state === 'failed');
  const cancellable = sendRefused || uploads.some((u) => u.state !== 'uploaded');
  // 'Čaká na pripojenie' is said once, by the bubble's own status line (DeliveryStatus PendingLabel).
  const waiting = open.some((u) => u.state === 'waiting-network');
  return (
    <div data-testid="upload-status" data-waiting={waiting} className="mt-1 flex w-56 max-w-full flex-col items-end gap-1 px-1 text-right text-xs text-slate-700">
      {open.map((u) =>
        u.state === 'preparing' ? (
          <span key={u.uploadId}>{sk.attachments.preparingPhoto}</span>
        ) : u.state === 'uploading' ? (
          <div key={u.uploadId} className="flex flex-col gap-0.5">
            <span className="truncate">{sk.attachments.uploading(percent(u))}</span>
            <progress max={100} value={percent(u)} aria-label={sk.attachments.uploadLabel(u.name)} className="h-1.5 w-full accent-teal-700" />
          </div>
        ) : null,
      )}
      {failed && (
        <p role="alert" className="text-red-700">
          {failed.error ?? sk.attachments.uploadFailed}
        </p>
      )}
      <p className="flex gap-3">
        {failed && (
          <button type="button" className="link text-red-800" onClick={onRetry}>
            {sk.attachments.retry}
          </button>
        )}
        {cancellable && (
          <button type="button" className="link text-slate-700" onClick={onCancel}>
            {sk.attachments.cancel}
          </button>
        )}
      </p>
    </div>
  );
}

/** The live status of one own message's uploads (renders nothing when the engine has none). */
export function UploadStatus({ messageKey }: { messageKey: string }) {
  const engine = useSyncEngine();
  const stored = useSyncQuery((db) => attachmentUploads(db, messageKey), [messageKey])?.value;
  const refused = useSyncQuery(async (db) => (await attachmentJob(db, messageKey))?.state === 'failed', [messageKey])?.value ?? false;
  // Progress between stored chunk offsets, per attachment; a newer stored offset wins when larger.
  const [live, setLive] = useState<Record<string, number>>({});
  useEffect(() => {
    if (!engine) return;
    return subscribeUploadProgress(engine, (p) => setLive((m) => (m[p.uploadId] === p.sent ? m : { ...m, [p.uploadId]: p.sent })));
  }, [engine]);
  if (!engine || !stored || stored.length === 0) return null;
  const uploads = stored.map((u) => ({ ...u, sent: Math.max(u.sent, live[u.uploadId] ?? 0) }));
  const report = (what: string) => (err: unknown) => console.warn(what, err);
  return (
    <UploadStatusView
      uploads={uploads}
      sendRefused={refused}
      onRetry={() => void retryAttachments(engine, messageKey).catch(report('retry attachments:'))}
      onCancel={() => void cancelAttachments(engine, messageKey).catch(report('cancel attachments:'))}
    />
  );
}
