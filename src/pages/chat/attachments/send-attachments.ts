// The one place the chat UI meets the sync engine's attachment outbox (issue 38), wired to the engine
// (sync/commands/send-with-attachments.ts, sync/attachments/queries.ts); a build whose engine lacks the
// commands (the online-only comparison build) says so in Slovak.
import type { SyncEngine } from '../../../../sync/engine-api.ts';
import type { SendWithAttachmentsInput } from '../../../../sync/commands/send-with-attachments.ts';
import type { UploadProgress } from '../../../../sync/attachments/uploader.ts';

export type { AttachmentFileInput, SendWithAttachmentsInput } from '../../../../sync/commands/send-with-attachments.ts';
export type { AttachmentUpload } from '../../../../sync/attachments/queries.ts';
export type { UploadProgress } from '../../../../sync/attachments/uploader.ts';
export { attachmentBlob, attachmentJob, attachmentPreview, attachmentThumb, attachmentUploads } from '../../../../sync/attachments/queries.ts';

type AttachmentCommands = Pick<SyncEngine['commands'], 'sendWithAttachments' | 'cancelAttachments' | 'retryAttachments'>;

/** This build's engine has no attachment outbox (the online-only comparison build). */
export class AttachmentsUnavailableError extends Error {
  constructor() {
    super('the sync engine has no attachment commands');
    this.name = 'AttachmentsUnavailableError';
  }
}

function commandsOf(engine: SyncEngine): Partial<AttachmentCommands> {
  return engine.commands;
}

/** Whether this build's engine can send attachments. */
export function canSendAttachments(engine: SyncEngine | null): boolean {
  return engine !== null && typeof commandsOf(engine).sendWithAttachments === 'function';
}

/** Stores the message and its files in one transaction and queues their upload; the key of the local message. */
export async function sendAttachments(engine: SyncEngine, input: SendWithAttachmentsInput): Promise<string> {
  const commands = commandsOf(engine);
  if (!commands.sendWithAttachments) throw new AttachmentsUnavailableError();
  const { key } = await commands.sendWithAttachments(input);
  // Bench row 14a splits Enter → bubble painted here: the store (R12.2's estimate, R12.3's one
  // transaction with the picked bytes) before it, the live query and the image's decode after.
  performance.mark('poradna:attachment-stored');
  return key;
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

export function subscribeUploadProgress(engine: SyncEngine, fn: (p: UploadProgress) => void): () => void {
  return engine.subscribeUploadProgress(fn);
}
