// R16 (issue 40): composer drafts in the account's database, cleared by the send made from them;
// a reply's reply_to rides the send's payload to the outbox unchanged.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { saveDraft } from '../../../sync/commands/draft.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import { deleteUserDb, openUserDb } from '../../../sync/db/open.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { drafts, draftText, messages } from '../../../sync/queries.ts';
import { commandContext, freshDb } from './helpers/local-db.ts';
import { FakeServer } from './helpers/fake-server.ts';

let db: SyncDb;
let idb: Awaited<ReturnType<typeof freshDb>>['idb'];
let convId: string;

beforeEach(async () => {
  ({ db, idb } = await freshDb());
  const server = new FakeServer();
  convId = server.addConversation().id;
  await applyRemoteChanges(db, server.page(0, 100), 'user-1');
});
afterEach(() => db.close());

describe('R16 drafts and replies', () => {
  it('R16.1 a draft is kept per conversation across closing the database; the empty text removes it', async () => {
    const ctx = commandContext(db);
    await saveDraft(ctx, convId, 'Rozpísaný **brief**');
    await saveDraft(ctx, 'other', 'Iný koncept');
    db.close();
    db = await openUserDb('user-1', idb);
    expect(await draftText(db, convId)).toBe('Rozpísaný **brief**');
    expect((await drafts(db)).map((d) => d.conversationId).sort()).toEqual([convId, 'other'].sort());
    await saveDraft(commandContext(db), convId, '');
    expect(await draftText(db, convId)).toBe('');
  });

  it('R16.1 a draft is dropped with the account database (R1.11)', async () => {
    await saveDraft(commandContext(db), convId, 'Koncept');
    db.close();
    await deleteUserDb('user-1', idb);
    db = await openUserDb('user-1', idb);
    expect(await drafts(db)).toEqual([]);
  });

  it('R16.2 the send made from the draft removes it in the same transaction; a different draft stays', async () => {
    const ctx = commandContext(db);
    await saveDraft(ctx, convId, '  Pošli mi rozpočet \n');
    await sendMessage(ctx, { conversationId: convId, text: '  Pošli mi rozpočet \n' });
    expect(await draftText(db, convId)).toBe('');
    // Typed on while the send was being stored: not what was sent, so it stays.
    await saveDraft(ctx, convId, 'Pošli mi rozpočet aj termín');
    await sendMessage(ctx, { conversationId: convId, text: 'Pošli mi rozpočet' });
    expect(await draftText(db, convId)).toBe('Pošli mi rozpočet aj termín');
  });

  it('R16.2 a send that fails to be stored leaves the draft', async () => {
    const ctx = commandContext(db);
    await saveDraft(ctx, convId, 'Ahoj');
    const add = db.outbox.add.bind(db.outbox);
    db.outbox.add = () => {
      throw new Error('disk full');
    };
    await expect(sendMessage(ctx, { conversationId: convId, text: 'Ahoj' })).rejects.toThrow('disk full');
    db.outbox.add = add;
    expect(await draftText(db, convId)).toBe('Ahoj');
  });

  it('R16.3 a reply carries payload.reply_to to the stored message and the outbox entry', async () => {
    const ctx = commandContext(db);
    const quoted = '11111111-2222-4333-8444-555555555555';
    const h = await sendMessage(ctx, { conversationId: convId, text: 'Súhlasím', payload: { reply_to: quoted } });
    const stored = (await messages(db, convId)).find((m) => m.key === h!.key);
    expect(stored?.payload).toMatchObject({ reply_to: quoted });
    const [entry] = await db.outbox.toArray();
    expect(entry?.op).toMatchObject({ kind: 'send', payload: { reply_to: quoted } });
  });
});
