// R2.9: where a chat opens while a backlog arrives. The chat screen fixes its first unread message
// when it opens (src/pages/chat/use-first-unread.ts); a backlog's summaries lag its stored messages
// (R19.6), so the message must come from the read cursor and the list shown, not from the count.
// Each test takes the device's state mid-backlog, in one read transaction as the screen could see it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SyncDb } from '../../../sync/db/schema.ts';
import { pullFeed } from '../../../sync/receive/pull.ts';
import { conversationMessages } from '../../../sync/db/summary-store.ts';
import { firstUnreadKey, readPosition } from '../../../sync/queries.ts';
import type { LocalConversation, LocalMessage } from '../../../sync/model/local-types.ts';
import type { RemoteMessage } from '../../../sync/model/remote-types.ts';
import type { ServerApi } from '../../../sync/server/api.ts';
import type { FakeServer } from './helpers/fake-server.ts';
import { scopedDb } from './helpers/scoped-db.ts';

let db: SyncDb;
let server: FakeServer;
const now = () => 1000;
/** A clock that does not move: R19.6's interval never passes, so pages after the first defer. */
const still = () => 0;

beforeEach(async () => {
  ({ db, server } = await scopedDb());
});
afterEach(() => db.close());

interface Opening {
  list: LocalMessage[];
  conversation: LocalConversation | undefined;
  position: string;
}

/**
 * Pulls the backlog and holds the answer of page `storedPages + 1` until the pages before it are
 * stored, then reads what a chat opening would see: the list, the summary, the cursor's place.
 */
async function openMidBacklog(conversationId: string, storedPages: number): Promise<Opening> {
  const api = server.api();
  let calls = 0;
  let stored = 0;
  let wake = () => undefined as void;
  let seen: Opening | null = null;
  const held: ServerApi = {
    ...api,
    pull: async (since, limit) => {
      const page = await api.pull(since, limit);
      if (++calls === storedPages + 1 && page.has_more) {
        while (stored < storedPages) await new Promise<void>((resolve) => (wake = resolve));
        seen = await db.transaction('r', db.messages, db.conversations, db.readCursors, async () => ({
          list: await conversationMessages(db, conversationId),
          conversation: await db.conversations.get(conversationId),
          position: await readPosition(db, conversationId),
        }));
      }
      return page;
    },
  };
  await pullFeed(db, held, 'user-1', now, 4, server.accountId, {
    monotonic: still,
    onPage: () => {
      stored++;
      wake();
    },
  });
  expect(seen).not.toBeNull();
  return seen!;
}

/**
 * A backlog of 40 messages whose summaries lag (R19.6): between each two of them the user edits one
 * of their own messages (stored before the backlog, dated after it) on another device, so every
 * page replaces a stored row and is recounted at R19.6's rate (a backlog that only adds rows keeps
 * its summaries exact by tally, R19.10).
 */
async function laggingBacklog(conversationId: string, text: (i: number) => string): Promise<void> {
  const later = (i: number) => new Date(server.clock + 3_600_000 + i * 1000).toISOString();
  const own: RemoteMessage[] = [];
  for (let i = 1; i <= 40; i++) own.push(server.addMessage(conversationId, { text: 'moja', direction: 'user', source: 'app', sender_user_id: 'user-1', created_at: later(i) }));
  await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
  for (let i = 1; i <= 40; i++) {
    server.addMessage(conversationId, { text: text(i) });
    server.messages.set(own[i - 1]!.id, { ...own[i - 1]!, text: `moja ${i}`, change_seq: ++server.seq });
  }
}

const unreadIn = (list: LocalMessage[], position: string) => list.filter((m) => m.direction === 'specialist' && m.orderKey > position).length;

describe('R2.9 a chat opened while a backlog arrives', () => {
  it('R2.9 R19.6 R17.5 with nothing read it opens at its newest message, not where the lagging unread count points', async () => {
    const c = server.addConversation();
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    await laggingBacklog(c.id, (i) => `Správa číslo ${i}`);
    const { list, conversation, position } = await openMidBacklog(c.id, 3);
    // The state that misled the screen: the summary counts fewer unread messages than the list holds.
    expect(list.length).toBeGreaterThan(8);
    expect(conversation!.unreadCount).toBeLessThan(unreadIn(list, position));
    // Every message is unread: the first one is the list's first, and the chat opens at its newest
    // (MessageList opens at the first unread only when it is not the list's first row).
    expect(firstUnreadKey(list, position)).toBe(list[0]!.key);
  });

  it('R2.9 R19.6 with a read message it opens just after it, whatever the lagging count says', async () => {
    const c = server.addConversation();
    const read = server.addMessage(c.id, { text: 'Prečítaná' });
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    const stored = (await db.messages.get(`s:${read.id}`))!;
    await db.readCursors.put({ conversationId: c.id, messageId: read.id, orderKey: stored.orderKey, lastReadAt: null, changeSeq: 0, pending: 0, serverMessageId: read.id, serverOrderKey: stored.orderKey });
    await laggingBacklog(c.id, (i) => `Nová ${i}`);
    const { list, conversation, position } = await openMidBacklog(c.id, 3);
    expect(position).toBe(stored.orderKey);
    expect(conversation!.unreadCount).toBeLessThan(unreadIn(list, position));
    expect(list.find((m) => m.key === firstUnreadKey(list, position))?.text).toBe('Nová 1');
  });

  it('R2.9 R2.7 a cursor that arrived before its message counts from that message once it is stored', async () => {
    const c = server.addConversation();
    const first = server.addMessage(c.id, { text: 'Prvá' });
    server.addMessage(c.id, { text: 'Druhá' });
    await db.readCursors.put({ conversationId: c.id, messageId: first.id, orderKey: '', lastReadAt: null, changeSeq: 0, pending: 0, serverMessageId: first.id, serverOrderKey: '' });
    expect(await readPosition(db, c.id)).toBe('');
    await pullFeed(db, server.api(), 'user-1', now, 100, server.accountId);
    const list = await conversationMessages(db, c.id);
    const position = await readPosition(db, c.id);
    expect(position).toBe(list[0]!.orderKey);
    expect(list.find((m) => m.key === firstUnreadKey(list, position))?.text).toBe('Druhá');
    expect(firstUnreadKey(list, list[1]!.orderKey)).toBeNull();
  });
});
