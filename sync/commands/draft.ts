// R16.1: saveDraft keeps the composer's text of one conversation in the account's database, so it
// survives closing the app; the empty text removes it. R16.2: clearSentDraft, inside a send's
// transaction, removes the draft the send took its text from, and only that one.
import type { SyncDb } from '../db/schema.ts';
import type { CommandContext } from './context.ts';

/** `at`: when it was typed (R16.4: the write-ahead entry's timestamp, so the two compare). */
export async function saveDraft(ctx: Pick<CommandContext, 'db' | 'now'>, conversationId: string, text: string, at: number = ctx.now()): Promise<void> {
  if (text === '') await ctx.db.drafts.delete(conversationId);
  else await ctx.db.drafts.put({ conversationId, text, updatedAt: at });
}

/**
 * R16.2: the draft goes with the message sent from it (`sent` is the trimmed text stored). A draft
 * that differs (typed on while the send was being stored, or in another tab) stays: it is text the
 * user has not sent.
 */
export async function clearSentDraft(db: SyncDb, conversationId: string, sent: string): Promise<void> {
  const draft = await db.drafts.get(conversationId);
  if (draft && draft.text.trim() === sent) await db.drafts.delete(conversationId);
}
