// The engine's commands (SyncCommands), each one of sync/commands/ bound to the engine's context and
// wrapped in the engine's rules: a write a lost connection cut runs once more (R17.4 for sends, under
// the same id; R17.6 for the others), a write that adds or retries a send goes through the writers'
// opaque gate (R1.13), a draft keeps its synchronous write-ahead copy (R16.4), and a file send asks
// for Background Sync (R12.12). engine.ts owns the lifecycle; this file only binds.
import type { SyncCommands } from './commands/api.ts';
import { archive, unarchive } from './commands/archive.ts';
import type { CommandContext } from './commands/context.ts';
import { markRead } from './commands/mark-read.ts';
import { requestSpecialist } from './commands/request-specialist.ts';
import { retryMessage } from './commands/retry-message.ts';
import { sendMessage } from './commands/send-message.ts';
import { saveDraft } from './commands/draft.ts';
import { keepDraftFiles, loadDraftFiles, removeDraftFiles, updateDraftFile } from './commands/draft-files.ts';
import { clearDraftAhead, clearSentDraftAhead, loadDraft, writeDraftAhead } from './commands/draft-ahead.ts';
import { ensureFirstConversation, startConversation } from './commands/start-conversation.ts';
import { againAfterLoss } from './commands/after-loss.ts';
import { storedSend, writeAgainAfterLoss } from './db/storage-health.ts';
import { sendWithAttachments } from './commands/send-with-attachments.ts';
import { cancelAttachments, retryAttachments } from './commands/attachment-controls.ts';
import type { ResolvedOptions } from './engine-deps.ts';

export interface CommandBinding {
  ctx: CommandContext;
  /** The write-ahead store of drafts (null: none). */
  markers: ResolvedOptions['markers'];
  /** Whether the engine has stopped (a stopped engine writes no write-ahead copy). */
  stopped: () => boolean;
  opaqueSends: <T>(write: () => Promise<T>) => Promise<T>;
  wantBackgroundSync: () => void;
  /** Ends a message's uploads in flight (nothing when no uploader runs). */
  abortUploads: (messageKey: string) => Promise<void>;
  /** After a send is stored: the conversation's typing indicator, if any, is told to the machine. */
  afterSend: (conversationId: string) => Promise<void>;
}

export function bindCommands(b: CommandBinding): SyncCommands {
  const { ctx, opaqueSends } = b;
  const { db, userId } = ctx;
  return {
    sendMessage: async (input) => {
      // R17.4: a send whose write the lost connection cut is written again, under the same id.
      const one = { ...input, correlationId: input.correlationId ?? ctx.newId() };
      const h = await writeAgainAfterLoss(db, () => sendMessage(ctx, one), () => storedSend(db, one.correlationId));
      // R16.2/R16.4: the stored send ended its draft's row; its write-ahead entry goes too (else a reload would fold it back).
      if (h && b.markers) clearSentDraftAhead(b.markers, userId, input.conversationId, input.text);
      if (h) await b.afterSend(input.conversationId);
      return h;
    },
    // R17.6: every other writing command runs once more after a lost connection (commands/after-loss.ts).
    retryMessage: (key) => opaqueSends(() => againAfterLoss(db, ctx, (c) => retryMessage(c, key))),
    archive: (id) => againAfterLoss(db, ctx, (c) => archive(c, id)),
    unarchive: (id) => againAfterLoss(db, ctx, (c) => unarchive(c, id)),
    markRead: (conversationId, messageId) => againAfterLoss(db, ctx, (c) => markRead(c, conversationId, messageId)),
    startConversation: (input) => againAfterLoss(db, ctx, (c) => startConversation(c, input)),
    ensureFirstConversation: () => againAfterLoss(db, ctx, (c) => ensureFirstConversation(c)),
    requestSpecialist: (input) => opaqueSends(() => againAfterLoss(db, ctx, (c) => requestSpecialist(c, input))),
    // R12.12: every file send asks for Background Sync, online too: should the tab close before the
    // upload ends, the service worker continues it (it waits while a tab leads, flush.ts).
    sendWithAttachments: async (input) => {
      const one = { ...input, correlationId: input.correlationId ?? ctx.newId() };
      const h = await writeAgainAfterLoss(db, () => sendWithAttachments(ctx, one), () => storedSend(db, one.correlationId));
      b.wantBackgroundSync();
      return h;
    },
    cancelAttachments: (key) => againAfterLoss(db, ctx, (c) => cancelAttachments(c, key, b.abortUploads)),
    retryAttachments: (key) => againAfterLoss(db, ctx, (c) => retryAttachments(c, key)),
    // R16.4: the write-ahead entry is written here, synchronously, before anything awaits; it goes
    // once the row with the same text and time has committed.
    saveDraft: (conversationId, text) => {
      const at = ctx.now();
      const store = b.markers;
      const entry = store && !b.stopped() ? writeDraftAhead(store, userId, conversationId, text, at) : null;
      return againAfterLoss(db, ctx, (c) => saveDraft(c, conversationId, text, at)).then(() => {
        if (store && entry) clearDraftAhead(store, userId, conversationId, entry);
      });
    },
    loadDraft: (conversationId) => loadDraft(db, b.stopped() ? null : b.markers, userId, conversationId),
    keepDraftFiles: (files) => againAfterLoss(db, ctx, (c) => keepDraftFiles(c, files)),
    updateDraftFile: (id, patch) => againAfterLoss(db, ctx, (c) => updateDraftFile(c, id, patch)),
    removeDraftFiles: (ids) => againAfterLoss(db, ctx, (c) => removeDraftFiles(c, ids)),
    loadDraftFiles: (conversationId) => loadDraftFiles(ctx, conversationId),
  };
}
