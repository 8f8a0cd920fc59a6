// The one place the chat UI meets the sync engine's attachment outbox (issue 38). The engine half is
// built on branch h-attach-sync; its signature (/work/notes/attach-api.md, 06:50 UTC) is copied here.
// WIRED AT MERGE: once sync/attachments/ is in this branch,
//   1. the types below become `import type {...} from '../../../../sync/commands/send-with-attachments.ts'`,
//   2. `commandsOf` goes (SyncCommands then has the three commands),
//   3. the query stubs at the end become the engine's `attachmentBlob`, `attachmentThumb` and
//      `attachmentUploads` (sync/attachments/queries.ts), and `subscribeUploadProgress` the engine's,
//   4. limits.ts takes ALLOWED_TYPES, MAX_ATTACHMENT_BYTES and MAX_ATTACHMENTS from sync/attachments/limits.ts.
// The wired version was built and its offline journey run on a trial merge (report of h-attach-ui).
// Until then a send with files says, in Slovak, that this build cannot send them, and keeps them.
import type { SyncDb } from '../../../../sync/db/schema.ts';
import type { SyncEngine } from '../../../../sync/engine-api.ts';

export interface AttachmentFileInput {
  /** Already downscaled and stripped of metadata when an image (prepare-image.ts). */
  blob: Blob;
  name: string;
  type: string;
  width?: number;
  height?: number;
  /** A small preview, kept after the upload when the full blob is released. */
  thumb?: Blob;
}

export interface SendWithAttachmentsInput {
  conversationId: string;
  text: string;
  files: AttachmentFileInput[];
  correlationId?: string;
}

export interface AttachmentUpload {
  attachmentId: string;
  /** The attachment id, or `<id>#thumb` for its thumbnail's upload. */
  uploadId: string;
  messageKey: string;
  name: string;
  role: 'file' | 'thumb';
  /** Bytes the server holds (at 6 MB chunk boundaries). */
  sent: number;
  total: number;
  state: 'waiting-network' | 'uploading' | 'uploaded' | 'failed';
  /** Slovak, when failed. */
  error: string | null;
}

export interface UploadProgress {
  attachmentId: string;
  uploadId: string;
  sent: number;
  total: number;
}

interface AttachmentCommands {
  sendWithAttachments(input: SendWithAttachmentsInput): Promise<{ key: string; correlationId: string }>;
  cancelAttachments(messageKey: string): Promise<boolean>;
  retryAttachments(messageKey: string): Promise<boolean>;
}

/** This build's engine has no attachment outbox (the engine half is not merged in). */
export class AttachmentsUnavailableError extends Error {
  constructor() {
    super('the sync engine has no attachment commands');
    this.name = 'AttachmentsUnavailableError';
  }
}

function commandsOf(engine: SyncEngine): Partial<AttachmentCommands> {
  return engine.commands as unknown as Partial<AttachmentCommands>;
}

/** Whether this build's engine can send attachments. */
export function canSendAttachments(engine: SyncEngine | null): boolean {
  return engine !== null && typeof commandsOf(engine).sendWithAttachments === 'function';
}

/** Stores the message and its files in one transaction and queues their upload; the key of the local message. */
export async function sendAttachments(engine: SyncEngine, input: SendWithAttachmentsInput): Promise<string> {
  const commands = commandsOf(engine);
  if (!commands.sendWithAttachments) throw new AttachmentsUnavailableError();
  return (await commands.sendWithAttachments(input)).key;
}

export function cancelAttachments(engine: SyncEngine, messageKey: string): Promise<boolean> {
  return commandsOf(engine).cancelAttachments?.(messageKey) ?? Promise.resolve(false);
}

export function retryAttachments(engine: SyncEngine, messageKey: string): Promise<boolean> {
  return commandsOf(engine).retryAttachments?.(messageKey) ?? Promise.resolve(false);
}

/**
 * The engine refused before storing anything (AttachmentRefusedError: quota, size, type); its
 * message is Slovak and ready to show. Null for any other failure.
 */
export function refusalMessage(err: unknown): string | null {
  if (err instanceof Error && err.name === 'AttachmentRefusedError' && err.message !== '') return err.message;
  return null;
}

// Queries (stubs until the merge: a build without the engine half holds no attachment blobs).
/** The full blob while the device holds it, else the thumbnail, else null. */
export function attachmentBlob(_db: SyncDb, _attachmentId: string): Promise<Blob | null> {
  return Promise.resolve(null);
}

export function attachmentThumb(_db: SyncDb, _attachmentId: string): Promise<Blob | null> {
  return Promise.resolve(null);
}

export function attachmentUploads(_db: SyncDb, _messageKey: string): Promise<AttachmentUpload[]> {
  return Promise.resolve([]);
}

export function subscribeUploadProgress(engine: SyncEngine, fn: (p: UploadProgress) => void): () => void {
  const e = engine as SyncEngine & { subscribeUploadProgress?: (fn: (p: UploadProgress) => void) => () => void };
  return e.subscribeUploadProgress?.(fn) ?? (() => undefined);
}
