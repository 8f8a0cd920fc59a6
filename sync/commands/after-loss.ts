// R17.6: every command that writes is safe across a lost IndexedDB connection (issue 35, WebKit's
// 'Connection to Indexed Database server lost'). The loss aborts the command's transaction, so
// nothing of it committed (R1.1); the command is run once more on the reopened connection. A rerun
// has the same effect as one run: each command reads the state it changes inside its transaction
// (a retry finds the message no longer failed, a read cursor already there, a draft put again), and
// the ids a command draws (a start's request id, request-specialist's correlation id) are drawn
// again the same, so a repeat would coalesce in the outbox (R1.3) or find the same message. A
// second failure is thrown to the caller. sendMessage and sendWithAttachments also look for their
// correlation id first (storage-health.ts `writeAgainAfterLoss`, R17.4).
import type { Dexie } from 'dexie';
import { isLostConnection } from '../db/storage-health.ts';
import type { CommandContext } from './context.ts';

export async function againAfterLoss<T>(db: Dexie, ctx: CommandContext, command: (ctx: CommandContext) => Promise<T>): Promise<T> {
  const drawn: string[] = [];
  const first: CommandContext = {
    ...ctx,
    newId: () => {
      const id = ctx.newId();
      drawn.push(id);
      return id;
    },
  };
  try {
    return await command(first);
  } catch (err) {
    if (!isLostConnection(err)) throw err;
    if (!db.isOpen()) await db.open();
    let i = 0;
    return command({ ...ctx, newId: () => drawn[i++] ?? ctx.newId() });
  }
}
