// R16 (issue 40): composer drafts in the account's database, cleared by the send made from them;
// a reply's reply_to rides the send's payload to the outbox unchanged. R16.5: the tray's files are
// kept there too; they leave it when removed, or in the transaction that stores the message they
// are sent with (never a sent file back in the tray after a crash, never a tray file lost to a
// refused send).
import { Blob } from 'node:buffer';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyRemoteChanges } from '../../../sync/receive/apply.ts';
import { saveDraft } from '../../../sync/commands/draft.ts';
import { keepDraftFiles, loadDraftFiles, removeDraftFiles, updateDraftFile } from '../../../sync/commands/draft-files.ts';
import { sendWithAttachments } from '../../../sync/commands/send-with-attachments.ts';
import type { LocalDraftFile } from '../../../sync/model/local-types.ts';
import { sendMessage } from '../../../sync/commands/send-message.ts';
import { deleteUserDb, openUserDb } from '../../../sync/db/open.ts';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { drafts, draftText, draftTrays, messages } from '../../../sync/queries.ts';
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

const blob = (bytes: number[], type: string) => new Blob([new Uint8Array(bytes)], { type }) as unknown as globalThis.Blob;
function row(over: Partial<LocalDraftFile> & Pick<LocalDraftFile, 'id' | 'position'>): LocalDraftFile {
  return { conversationId: convId, name: 'brief.pdf', kind: 'file', blob: blob([0x25, 0x50, 0x44, 0x46], 'application/pdf'), type: 'application/pdf', prepare: false, caption: '', preview: null, width: null, height: null, lookedUp: true, ...over };
}
const ids = async () => (await loadDraftFiles({ db }, convId)).map((r) => r.id);

describe('R16.5 the tray kept in the database', () => {
  it('R16.5 kept files come back in the tray order, bytes and captions included, across closing the database', async () => {
    const photo = row({ id: 'b', position: 2, name: 'IMG_1.jpg', kind: 'image', blob: blob([0xff, 0xd8, 1], 'image/jpeg'), type: 'image/jpeg', prepare: true, lookedUp: false });
    await keepDraftFiles({ db }, [photo, row({ id: 'a', position: 1 })]);
    await keepDraftFiles({ db }, [row({ id: 'x', position: 0, conversationId: 'other' })]);
    expect(await updateDraftFile({ db }, 'b', { caption: 'Z výletu', preview: blob([9], 'image/jpeg'), width: 3000, height: 4000, lookedUp: true })).toBe(true);
    db.close();
    db = await openUserDb('user-1', idb);
    const back = await loadDraftFiles({ db }, convId);
    expect(back.map((r) => [r.id, r.name, r.caption, r.lookedUp, r.width])).toEqual([
      ['a', 'brief.pdf', '', true, null],
      ['b', 'IMG_1.jpg', 'Z výletu', true, 3000],
    ]);
    expect(new Uint8Array(await back[1]!.blob.arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 1]));
    expect(new Uint8Array(await back[1]!.preview!.arrayBuffer())).toEqual(new Uint8Array([9]));
    await removeDraftFiles({ db }, ['a']);
    expect(await ids()).toEqual(['b']);
    // A file no longer kept takes no late update (sent or removed meanwhile).
    expect(await updateDraftFile({ db }, 'a', { caption: 'neskoro' })).toBe(false);
    expect(await db.draftFiles.get('a')).toBeUndefined();
  });

  it('R16.5 the list: per conversation its tray files counted, images told apart, the first in tray order named', async () => {
    expect(await draftTrays(db)).toEqual([]);
    await keepDraftFiles({ db }, [row({ id: 'b', position: 2, name: 'IMG_1.jpg', kind: 'image', type: 'image/jpeg' }), row({ id: 'a', position: 1 })]);
    await keepDraftFiles({ db }, [row({ id: 'x', position: 0, conversationId: 'other', name: 'IMG_2.jpg', kind: 'image', type: 'image/jpeg' })]);
    const trays = new Map((await draftTrays(db)).map((t) => [t.conversationId, t.files]));
    expect(trays.get(convId)).toEqual({ count: 2, images: 1, name: 'brief.pdf' });
    expect(trays.get('other')).toEqual({ count: 1, images: 1, name: 'IMG_2.jpg' });
    await removeDraftFiles({ db }, ['a', 'b']);
    expect((await draftTrays(db)).map((t) => t.conversationId)).toEqual(['other']);
  });

  it('R16.5 kept files are dropped with the account database (R1.11)', async () => {
    await keepDraftFiles({ db }, [row({ id: 'a', position: 1 })]);
    db.close();
    await deleteUserDb('user-1', idb);
    db = await openUserDb('user-1', idb);
    expect(await db.draftFiles.count()).toBe(0);
  });

  it('R16.5 the send stores the message and removes its tray files in one transaction; the others stay', async () => {
    const ctx = commandContext(db);
    await keepDraftFiles({ db }, [row({ id: 'a', position: 1 }), row({ id: 'b', position: 2 })]);
    const file = { blob: blob([0x25, 0x50, 0x44, 0x46], 'application/pdf'), name: 'brief.pdf', type: 'application/pdf' };
    const { key } = await sendWithAttachments(ctx, { conversationId: convId, text: '', files: [file], trayIds: ['a'] });
    expect(await db.messages.get(key)).toBeDefined();
    expect(await ids()).toEqual(['b']);
  });

  it('R16.5 a send that is not stored leaves its tray files', async () => {
    const ctx = commandContext(db);
    await keepDraftFiles({ db }, [row({ id: 'a', position: 1 })]);
    const file = { blob: blob([0x25, 0x50, 0x44, 0x46], 'application/pdf'), name: 'brief.pdf', type: 'application/pdf' };
    const put = db.attachmentJobs.put.bind(db.attachmentJobs);
    db.attachmentJobs.put = () => {
      throw new Error('disk full');
    };
    await expect(sendWithAttachments(ctx, { conversationId: convId, text: '', files: [file], trayIds: ['a'] })).rejects.toThrow('disk full');
    db.attachmentJobs.put = put;
    expect(await ids()).toEqual(['a']);
    expect(await db.messages.count()).toBe(await db.messages.filter((m) => m.serverId !== null).count());
  });
});
