// Transport events into IndexedDB. A realtime row is merged at once (the per-row change_seq makes that
// safe in any order) and moves the feed cursor only when it is the next number; one that skips ahead
// asks for a pull (R5.3). Chatwoot events show provisional copies and ask for a pull.
import { applyRemoteChanges, readFeed, type ApplyResult } from './apply.ts';
import type { SyncDb } from '../db/schema.ts';
import { planExternalMessage } from '../merge/external.ts';
import { correlationKey, fromRemoteMessage, messageKeyOf } from '../merge/message.ts';
import { parseConversation, parseMessage, parseReadCursor } from './parse-remote.ts';
import type { LocalMessage, StoredMessages } from '../model/local-types.ts';
import type { RemoteTable } from '../model/remote-types.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import type { ExternalMessage, TransportEvent } from '../transports/transport.ts';

export interface EventOutcome {
  needPull: boolean;
  changed: boolean;
  specialistReplies: string[];
  /** Messages the event stored (committed when the outcome resolves). */
  stored?: StoredMessages;
}

const NOTHING: EventOutcome = { needPull: false, changed: false, specialistReplies: [] };
const PULL: EventOutcome = { needPull: true, changed: false, specialistReplies: [] };

function rowChanges(table: RemoteTable, record: unknown): { changes: Parameters<typeof applyRemoteChanges>[1]; changeSeq: number } {
  if (table === 'conversations') {
    const r = parseConversation(record);
    return { changes: { conversations: [r] }, changeSeq: r.change_seq };
  }
  if (table === 'messages') {
    const r = parseMessage(record);
    return { changes: { messages: [r] }, changeSeq: r.change_seq };
  }
  const r = parseReadCursor(record);
  return { changes: { readCursors: [r] }, changeSeq: r.change_seq };
}

function outcome(r: ApplyResult): EventOutcome {
  return { needPull: r.gap, changed: r.changed, specialistReplies: r.specialistReplies, stored: r.stored };
}

async function onRow(db: SyncDb, userId: string, e: Extract<TransportEvent, { kind: 'row' }>): Promise<EventOutcome> {
  if (e.op === 'DELETE') {
    const old = e.oldRecord as { id?: unknown } | null;
    if (e.table === 'read_cursors' || typeof old?.id !== 'string') return PULL;
    return outcome(await applyRemoteChanges(db, { deleted: [{ table: e.table, id: old.id }] }, userId, { kind: 'none' }, { joinedIn: e.joinedIn }));
  }
  let parsed: ReturnType<typeof rowChanges>;
  try {
    parsed = rowChanges(e.table, e.record);
  } catch {
    return PULL; // a record we cannot read: the pull brings the row
  }
  return outcome(await applyRemoteChanges(db, parsed.changes, userId, { kind: 'event', changeSeq: parsed.changeSeq }, { joinedIn: e.joinedIn }));
}

async function onExternal(db: SyncDb, ext: ExternalMessage, now: number): Promise<EventOutcome> {
  return db.transaction('rw', db.syncTables, async () => {
    const conversation = await db.conversations.where('chatwootConversationId').equals(ext.chatwootConversationId).first();
    if (!conversation) return PULL;
    const byCorrelation = ext.correlationId ? await db.messages.get(correlationKey(ext.correlationId)) : undefined;
    const byExternalId = await db.messages.where('chatwootMessageId').equals(ext.chatwootMessageId).first();
    const row = planExternalMessage(ext, conversation.id, { byCorrelation, byExternalId }, now);
    if (!row) return PULL;
    await db.messages.put(row);
    if (row.direction === 'specialist') await db.typing.delete(conversation.id);
    await refreshSummaries(db, [conversation.id]);
    return { needPull: true, changed: true, specialistReplies: row.direction === 'specialist' ? [conversation.id] : [], stored: { put: [row], removed: [] } };
  });
}

async function onTyping(db: SyncDb, chatwootConversationId: string, on: boolean, now: number): Promise<EventOutcome> {
  const conversation = await db.conversations.where('chatwootConversationId').equals(chatwootConversationId).first();
  if (!conversation) return NOTHING;
  if (on) await db.typing.put({ conversationId: conversation.id, startedAt: now });
  else await db.typing.delete(conversation.id);
  return NOTHING;
}

export async function handleTransportEvent(db: SyncDb, userId: string, e: TransportEvent, now: number): Promise<EventOutcome> {
  switch (e.kind) {
    case 'row':
      return onRow(db, userId, e);
    case 'external-message':
      return onExternal(db, e.message, now);
    case 'typing':
      return onTyping(db, e.chatwootConversationId, e.on, now);
    case 'changed':
    case 'poll':
      return PULL;
    case 'feed':
      return onFeed(db, e.accountId, e.changeSeq);
  }
}

/** R18.4: pull only for a number of the feed's own account above its cursor (a row event brought the rest). */
async function onFeed(db: SyncDb, accountId: string, changeSeq: number): Promise<EventOutcome> {
  const feed = await readFeed(db);
  return feed.accountId === accountId && changeSeq <= feed.cursor ? NOTHING : PULL;
}

/**
 * R6.6: the row a realtime message will be stored as, for painting while it is written (the way an
 * own bubble paints from its pending copy). Null where the write may store it under another key or
 * drop another copy for it, so a transient copy could show beside that one: a Chatwoot id (R3.3), an
 * own message without correlation id (R3.4); and for a row of another account (invariant 5) or one
 * that cannot be read.
 */
export function arrivingMessage(e: TransportEvent, accountId: string | null, userId: string): LocalMessage | null {
  if (e.kind !== 'row' || e.table !== 'messages' || e.op === 'DELETE' || accountId === null) return null;
  let r: ReturnType<typeof parseMessage>;
  try {
    r = parseMessage(e.record);
  } catch {
    return null;
  }
  if (r.account_id !== accountId || r.chatwoot_message_id !== null) return null;
  if (!r.client_correlation_id && r.direction === 'user' && r.sender_user_id === userId) return null;
  return fromRemoteMessage(r, messageKeyOf(r));
}
