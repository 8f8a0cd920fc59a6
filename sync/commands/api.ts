// The command API the UI calls (bound to one engine in engine.ts).
import type { SendMessageInput, SentHandle } from './send-message.ts';
import type { PendingStart, StartInput } from './start-conversation.ts';
import type { PendingRequest, RequestSpecialistInput } from './request-specialist.ts';
import type { SendWithAttachmentsInput } from './send-with-attachments.ts';
import type { LocalDraftFile } from '../model/local-types.ts';
import type { DraftFilePatch } from './draft-files.ts';

export interface SyncCommands {
  /** Stores the message (sending) and queues it; null when ignored (blank text, completed conversation). */
  sendMessage(input: SendMessageInput): Promise<SentHandle | null>;
  /** Removes a failed message and sends its text again; false when `key` is not a failed message. */
  retryMessage(key: string): Promise<boolean>;
  archive(conversationId: string): Promise<boolean>;
  unarchive(conversationId: string): Promise<boolean>;
  /** Moves this user's read cursor to `messageId` (a server id) if that is forward. */
  markRead(conversationId: string, messageId: string): Promise<boolean>;
  startConversation(input: StartInput): Promise<PendingStart>;
  ensureFirstConversation(): Promise<PendingStart>;
  requestSpecialist(input: RequestSpecialistInput): Promise<PendingRequest>;
  /** R12.2/R12.3: stores the message and its files at once (AttachmentRefusedError before anything is stored). */
  sendWithAttachments(input: SendWithAttachmentsInput): Promise<SentHandle>;
  /** R12.7: drops a message whose attachments are still uploading; false once its send is queued. */
  cancelAttachments(messageKey: string): Promise<boolean>;
  /** R12.7: tries refused uploads again; false when none was refused. */
  retryAttachments(messageKey: string): Promise<boolean>;
  /** R16.1: keeps the composer's text of a conversation ('' removes it); R16.4: first, synchronously, in the write-ahead copy. */
  saveDraft(conversationId: string, text: string): Promise<void>;
  /** R16.4: the composer's text when the chat opens: the newer of the stored draft and the write-ahead copy ('' for none). */
  loadDraft(conversationId: string): Promise<string>;
  /** R16.5: files added to a composer's tray are kept with their captions. */
  keepDraftFiles(files: readonly LocalDraftFile[]): Promise<void>;
  /** R16.5: a kept file's caption or look-up answer; false when it is no longer kept. */
  updateDraftFile(id: string, patch: DraftFilePatch): Promise<boolean>;
  /** R16.5: files removed from the tray. */
  removeDraftFiles(ids: readonly string[]): Promise<void>;
  /** R16.5: a conversation's tray when its chat opens, in order. */
  loadDraftFiles(conversationId: string): Promise<LocalDraftFile[]>;
}
