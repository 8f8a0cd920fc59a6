// R16.5: the files waiting in a composer's tray are kept in the account's database with their
// captions, as the text is (R16.1): a reload, an update, a closed app or another chat opened in
// between loses none of them. They leave the table when they are removed from the tray, or in the
// transaction that stores the message they are sent with (send-with-attachments.ts `trayIds`), so a
// send and its tray never both survive a crash.
import type { LocalDraftFile } from '../model/local-types.ts';
import type { CommandContext } from './context.ts';

type Db = Pick<CommandContext, 'db'>;

/** What may change of a kept file after it joined the tray: its caption, and its look-up's answer. */
export type DraftFilePatch = Partial<Pick<LocalDraftFile, 'caption' | 'preview' | 'width' | 'height' | 'lookedUp'>>;

/** Files added to a tray (new ids; an id already kept is replaced). */
export async function keepDraftFiles(ctx: Db, files: readonly LocalDraftFile[]): Promise<void> {
  if (files.length > 0) await ctx.db.draftFiles.bulkPut([...files]);
}

/** False when the file is no longer kept (sent or removed meanwhile): nothing is written then. */
export async function updateDraftFile(ctx: Db, id: string, patch: DraftFilePatch): Promise<boolean> {
  return (await ctx.db.draftFiles.update(id, patch)) > 0;
}

export async function removeDraftFiles(ctx: Db, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await ctx.db.draftFiles.bulkDelete([...ids]);
}

/** The tray of a conversation, in its order. */
export async function loadDraftFiles(ctx: Db, conversationId: string): Promise<LocalDraftFile[]> {
  const rows = await ctx.db.draftFiles.where('conversationId').equals(conversationId).toArray();
  return rows.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
}
