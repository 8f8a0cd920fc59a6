// @vitest-environment jsdom
// R12.17 (bench row 14a): the own bubble of a message with files paints from memory in the frame
// after Enter, as a text's does, before R12.2's estimate and R12.3's transaction. It can do so only
// if what it shows is what the transaction then stores under the same key: the page chooses the
// correlation id and every attachment id (R12.16) and builds the entries with the engine's own
// `attachmentEntry`. Checked here: those entries equal the stored ones for every kind of file, and
// the bubble of a message not stored yet shows the preview the page holds. Nothing is timed.
import { Blob as NodeBlob } from 'node:buffer';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/data/use-sync-query.ts', () => import('../../helpers/sync-query-reads.ts'));
const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../../../src/lib/notify.ts', () => ({ toastError: (text: string) => void toasts.push(text) }));
import { attachmentEntry, sendWithAttachments } from '../../../sync/commands/send-with-attachments.ts';
import { correlationKey } from '../../../sync/merge/message.ts';
import type { LocalMessage } from '../../../sync/model/local-types.ts';
import { MessageBubble } from '../../../src/pages/chat/MessageBubble.tsx';
import { SyncContext, SyncDbContext } from '../../../src/data/sync-context.ts';
import { AttachmentComposer } from '../../../src/pages/chat/attachments/AttachmentComposer.tsx';
import { AttachmentRefusedError, TEXT_ATTACH_QUOTA } from '../../../sync/attachments/limits.ts';
import type { SendWithAttachmentsInput } from '../../../sync/commands/send-with-attachments.ts';
import type { SyncEngine } from '../../../sync/engine-api.ts';
import { withHeldPreviews } from '../../../src/pages/chat/attachments/sent-previews.ts';
import { commandContext, conversationRow, freshDb } from '../sync/helpers/local-db.ts';
import { openSyncReads, syncReads } from '../../helpers/sync-query-reads.ts';

afterEach(cleanup);
const made = new Map<string, Blob>();
beforeEach(() => {
  syncReads.open = false;
  made.clear();
  let n = 0;
  URL.createObjectURL = (b: Blob | MediaSource) => {
    const url = `blob:test/${++n}`;
    made.set(url, b as Blob);
    return url;
  };
  URL.revokeObjectURL = () => undefined;
  HTMLImageElement.prototype.decode = () => new Promise<void>(() => undefined);
});

/** fake-indexeddb clones with Node's structuredClone, which keeps Node's Blob. */
const nodeBlob = (bytes: number[], type: string) => new NodeBlob([new Uint8Array(bytes)], { type }) as unknown as Blob;
const withPreview = () => ({ blob: nodeBlob([0xff, 0xd8, 1, 2, 3, 4], 'image/jpeg'), name: 'IMG_0007.jpg', type: 'image/jpeg', prepare: true, preview: nodeBlob([0xff, 0xd8, 9], 'image/jpeg'), width: 3000, height: 4000 });
const withoutPreview = () => ({ blob: nodeBlob([0xff, 0xd8, 5, 6], 'image/jpeg'), name: 'bez-exif.jpg', type: 'image/jpeg', prepare: true });
const pdf = () => ({ blob: nodeBlob([0x25, 0x50, 0x44, 0x46], 'application/pdf'), name: 'brief.pdf', type: 'application/pdf' });

async function conversation() {
  const { db } = await freshDb();
  await db.conversations.put(conversationRow({ id: 'conv-1', accountId: 'acc-1' }));
  return db;
}

describe('R12.17 the sending bubble of a message with files paints before its store', () => {
  it('R12.17 the entries the page paints are the ones the transaction stores, under the same key', async () => {
    const db = await conversation();
    const correlationId = crypto.randomUUID();
    let painted: unknown[] = [];
    const { key } = await withHeldPreviews([withPreview(), withoutPreview(), pdf()], (files) => {
      painted = files.map((f) => attachmentEntry(f, f.id!));
      return sendWithAttachments(commandContext(db), { conversationId: 'conv-1', text: 'Tri súbory', files, correlationId });
    });
    expect(key).toBe(correlationKey(correlationId));
    const stored = (await db.messages.get(key))!.payload!['attachments'];
    expect(stored).toEqual(painted);
    // Each kind as R12.13/R12.14 store it: the preview as the first photo's thumbnail, the second shown from its original.
    expect((painted as { thumb_url: string | null }[]).map((e) => e.thumb_url?.replace(/[0-9a-f-]{36}/, 'ID') ?? null)).toEqual(['local-attachment:ID#preview', null, null]);
  });

  it('R12.17 a bubble whose message is not stored yet shows the held preview, also once the database answered it has nothing', async () => {
    const db = await conversation();
    await withHeldPreviews([withPreview()], async (files) => {
      const message: LocalMessage = {
        key: correlationKey(crypto.randomUUID()),
        serverId: null,
        conversationId: 'conv-1',
        accountId: null,
        text: 'Z výletu',
        type: 'text',
        direction: 'user',
        source: 'app',
        chatwootMessageId: null,
        createdAt: '2026-11-29T10:00:00.000000Z',
        orderKey: '2026-11-29T10:00:00.000000Z',
        readAt: null,
        payload: { attachments: files.map((f) => attachmentEntry(f, f.id!)) },
        correlationId: null,
        senderUserId: null,
        changeSeq: 0,
        state: 'sending',
        origin: 'optimistic',
        error: null,
        confirmedAt: null,
      };
      render(
        <SyncDbContext.Provider value={db}>
          <MessageBubble message={message} onRetry={() => {}} />
        </SyncDbContext.Provider>,
      );
      const img = screen.getByRole('button', { name: 'IMG_0007.jpg' }).querySelector('img')!;
      const held = img.getAttribute('src');
      expect(made.get(held!)).toBe(files[0]!.preview);
      await act(async () => openSyncReads());
      await act(async () => undefined);
      expect(img.getAttribute('src')).toBe(held);
      expect(img.dataset['preview']).toBe('exif');
    });
  });

  it('R12.17 the composer shows the bubble as Enter is pressed, under the key and with the entries it hands the engine; a refused store drops it and keeps the tray and the text', async () => {
    toasts.length = 0;
    const asked: SendWithAttachmentsInput[] = [];
    let refuse!: (err: Error) => void;
    const engine = {
      commands: {
        sendWithAttachments: (input: SendWithAttachmentsInput) => {
          asked.push(input);
          return new Promise((_, reject) => (refuse = reject));
        },
        // R16.5's kept tray (tests/unit/ui/tray-kept.test.tsx): nothing kept before, every write taken.
        loadDraftFiles: () => Promise.resolve([]),
        keepDraftFiles: () => Promise.resolve(),
        updateDraftFile: () => Promise.resolve(true),
        removeDraftFiles: () => Promise.resolve(),
      },
    } as unknown as SyncEngine;
    const shown: { key: string; text: string; payload: unknown }[] = [];
    const forgotten: string[] = [];
    const showSending = (key: string, text: string, payload: unknown) => {
      shown.push({ key, text, payload });
      return () => void forgotten.push(key);
    };
    let value = 'Brief';
    const view = () => (
      <SyncContext.Provider value={engine}>
        <AttachmentComposer conversationId="conv-1" value={value} onChange={(v) => (value = v)} onSend={() => Promise.resolve(true)} showSending={showSending} mode="ready" dropTarget={{ current: null }} />
      </SyncContext.Provider>
    );
    const { rerender } = render(view());
    const file = new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], 'brief.pdf', { type: 'application/pdf' });
    const input = screen.getByTestId('attach-input');
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    fireEvent.change(input);
    rerender(view());
    expect(screen.getAllByTestId('attachment-draft')).toHaveLength(1);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Správa' }), { key: 'Enter' });
    // Shown in the same step as the engine was asked, before its store answered.
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    const [sent] = asked;
    expect(shown).toEqual([{ key: correlationKey(sent!.correlationId!), text: 'Brief', payload: { attachments: sent!.files.map((f) => attachmentEntry(f, f.id!)) } }]);
    expect(sent!.files[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
    // R16.5: the tray's kept file leaves the database in the send's own transaction.
    expect(sent!.trayIds).toHaveLength(1);
    expect(sent!.trayIds![0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(forgotten).toEqual([]);
    // The device is full: the bubble goes, the Slovak reason shows, the file and the text stay.
    await act(async () => refuse(new AttachmentRefusedError('quota', TEXT_ATTACH_QUOTA)));
    expect(forgotten).toEqual([shown[0]!.key]);
    expect(toasts).toEqual([TEXT_ATTACH_QUOTA]);
    expect(screen.getAllByTestId('attachment-draft')).toHaveLength(1);
    expect(value).toBe('Brief');
  });
});
