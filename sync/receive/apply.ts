// Applies server rows (a pull page, a realtime record, a command's reply) to IndexedDB in one
// transaction, through the pure merges, then refreshes the touched conversations' summaries.
// Rows of another account are never stored (defence in depth behind RLS, invariant 5).
import { OPTIMISTIC_KEEP_MS } from '../model/constants.ts';
import type { SyncDb } from '../db/schema.ts';
import { applyRemoteMessages } from './apply-messages.ts';
import { settleStoredSends } from '../send/outbox.ts';
import { expiredCopies } from '../merge/dedup.ts';
import type { FeedMeta, LocalConversation, LocalSpecialist, StoredMessages } from '../model/local-types.ts';
import { mergeConversation } from '../merge/conversation.ts';
import { mergeReadCursor } from '../merge/read-cursor.ts';
import { summaryOfLocal } from '../merge/specialist.ts';
import type { RemoteConversation, RemoteDeleted, RemoteMessage, RemoteReadCursor } from '../model/remote-types.ts';
import { orderKeyOf } from '../model/ordering.ts';
import { refreshSummaries } from '../db/summary-store.ts';
import { tallySummaries } from '../db/summary-tally.ts';
import { normalizeTimestamp } from '../model/timestamps.ts';
import { hopStart, pullHop } from '../pull-marks.ts';
import type { PullLedger } from './pull-ledger.ts';
import { feedGeneration } from '../session/feed-generation.ts';

export interface RemoteChanges {
  conversations?: RemoteConversation[];
  messages?: RemoteMessage[];
  readCursors?: RemoteReadCursor[];
  deleted?: RemoteDeleted[];
}

/** How the feed cursor moves with these changes (R5.1–R5.3). */
export type CursorMove = { kind: 'none' } | { kind: 'page'; cursor: number } | { kind: 'event'; changeSeq: number };

export interface ApplyResult {
  /** A realtime row skipped ahead of the cursor: rows in between are missing (R5.3). */
  gap: boolean;
  cursor: number;
  changed: boolean;
  /** Conversations that got a specialist message (clears their typing indicator, R7.5). */
  specialistReplies: string[];
  /** Messages written and deleted by the merge of `changes.messages` (not by conversation deletions). */
  stored: StoredMessages;
}

export function initialFeed(accountId: string | null): FeedMeta {
  return { key: 'feed', accountId, cursor: 0, pulledAt: null };
}

export async function readFeed(db: SyncDb): Promise<FeedMeta> {
  const row = await db.meta.get('feed');
  return row?.key === 'feed' ? row : initialFeed(null);
}

/**
 * The remote cursor's place in the message order. The server stores its message's created_at as
 * last_read_at (the (created_at, id) position it counts unread from); without it, the stored message.
 */
async function remoteCursorKey(db: SyncDb, r: RemoteReadCursor): Promise<string> {
  if (r.last_read_message_id === null) return '';
  const id = r.last_read_message_id.toLowerCase();
  const at = r.last_read_at === null ? null : normalizeTimestamp(r.last_read_at);
  if (at !== null) return orderKeyOf(at, id);
  return (await db.messages.where('serverId').equals(id).first())?.orderKey ?? '';
}

async function applyDeleted(db: SyncDb, d: RemoteDeleted, touched: Set<string>, recount: Set<string>): Promise<void> {
  if (d.table === 'conversations') {
    recount.add(d.id);
    await db.messages.where('conversationId').equals(d.id).delete();
    await db.readCursors.delete(d.id);
    await db.typing.delete(d.id);
    await db.conversations.delete(d.id);
  } else if (d.table === 'messages') {
    const rows = await db.messages.where('serverId').equals(d.id.toLowerCase()).toArray();
    for (const m of rows) {
      touched.add(m.conversationId);
      recount.add(m.conversationId);
    }
    await db.messages.bulkDelete(rows.map((m) => m.key));
  }
}

export interface ApplyOptions {
  /**
   * R19.6: a backlog page's summaries: 'now' refreshes the touched conversations and every one
   * earlier pages left pending; 'defer' adds the touched ones to the pending (`move` must be a page:
   * they are stored with its cursor). Without it, the touched ones now (R2.7).
   */
  summaries?: 'now' | 'defer';
  /** R19.5: the pull this transaction belongs to, and its proof of which keys may be stored. */
  ledger?: PullLedger;
  /**
   * R9.18/R9.20: a realtime row's channel joined in this feed generation. Under another one (the feed
   * changed identity since) nothing is stored and a pull is asked for (`gap`): judged after the
   * transaction's first read, when it runs (session/feed-generation.ts).
   */
  joinedIn?: number | undefined;
}

export async function applyRemoteChanges(db: SyncDb, changes: RemoteChanges, userId: string, move: CursorMove = { kind: 'none' }, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const began = hopStart();
  return db.transaction('rw', db.syncTables, async () => {
    pullHop('tx-open', began);
    const inside = hopStart();
    const feed = await readFeed(db);
    pullHop('tx-start', inside);
    if (opts.joinedIn !== undefined && feedGeneration(db) !== opts.joinedIn) return { gap: true, cursor: feed.cursor, changed: false, specialistReplies: [], stored: { put: [], removed: [] } };
    const proof = opts.ledger ? { ledger: opts.ledger, proven: await opts.ledger.check(db, feed) } : undefined;
    const mine = (accountId: string | null) => feed.accountId === null || accountId === null || accountId === feed.accountId;
    const touched = new Set<string>();
    /** R19.10: conversations recounted whatever their messages did (new here, cursor or deletion). */
    const recount = new Set<string>();
    const specialistReplies: string[] = [];
    let changed = false;
    // R2.3: a realtime record names its specialist only by id; one the local list does not know (the
    // assistant of the auto-created first conversation is in no plan, so get_active_specialists never
    // returns it) would stay 'Neznámy špecialista' for good once the cursor moved past the row. Such
    // an event does not move the cursor, so the pull brings the row again with its embedded specialist.
    let specialistUnknown = false;
    // Conversations: the stored rows and the known specialists in one bulkGet each, one bulkPut.
    const remoteConversations = (changes.conversations ?? []).filter((r) => mine(r.account_id));
    if (remoteConversations.length) {
      const locals = new Map<string, LocalConversation>();
      for (const c of await db.conversations.bulkGet(remoteConversations.map((r) => r.id))) if (c) locals.set(c.id, c);
      const specialistIds = [...new Set(remoteConversations.map((r) => r.specialist_id).filter((x): x is string => !!x))];
      const known = new Map<string, LocalSpecialist>();
      for (const s of specialistIds.length ? await db.specialists.bulkGet(specialistIds) : []) if (s) known.set(s.id, s);
      const puts = new Map<string, LocalConversation>();
      // In feed order: a later version of the same conversation in this batch merges onto the earlier.
      for (const r of remoteConversations) {
        const sp = r.specialist_id ? known.get(r.specialist_id) : undefined;
        const merged = mergeConversation(r, locals.get(r.id), sp ? summaryOfLocal(sp) : null);
        if (!merged) continue;
        if (merged.specialistId && !merged.specialist) specialistUnknown = true;
        // A stored row's summary (last message, unread count) stays as it was and mergeConversation
        // recomputes its sortAt, so only a conversation new here needs reading its messages: they may
        // have arrived before it (each realtime send brings the conversation's last_message_at too,
        // and re-reading the summary for it cost the receiver a third of its write, issue 19).
        if (!locals.has(r.id)) {
          touched.add(r.id);
          recount.add(r.id);
        }
        locals.set(r.id, merged);
        puts.set(r.id, merged);
        changed = true;
      }
      if (puts.size) await db.conversations.bulkPut([...puts.values()]);
    }
    const ours = (changes.messages ?? []).filter((r) => mine(r.account_id));
    const applied = await applyRemoteMessages(db, ours, userId, proof);
    // R19.5: every transaction that stores a row under a server key counts itself in the feed row.
    const wroteServerRow = applied.stored.put.some((m) => m.key.startsWith('s:'));
    const serverWrites = (feed.serverWrites ?? 0) + (wroteServerRow ? 1 : 0);
    opts.ledger?.stored(
      applied.stored.put.map((m) => m.key),
      applied.stored.removed,
      serverWrites,
    );
    // R9.15: this user's sends whose rows arrived are stored; their outbox entries go now (send/outbox.ts).
    await settleStoredSends(db, ours.flatMap((r) => (r.sender_user_id === userId && r.client_correlation_id ? [r.client_correlation_id] : [])));
    for (const id of applied.touched) touched.add(id);
    specialistReplies.push(...applied.specialistReplies);
    changed ||= applied.touched.size > 0;
    for (const r of changes.readCursors ?? []) {
      if (r.user_id !== userId || !mine(r.account_id)) continue;
      const local = await db.readCursors.get(r.conversation_id);
      const merged = mergeReadCursor(r, local, await remoteCursorKey(db, r));
      if (!merged) continue;
      await db.readCursors.put(merged);
      touched.add(r.conversation_id);
      recount.add(r.conversation_id);
      changed = true;
    }
    for (const d of changes.deleted ?? []) {
      await applyDeleted(db, d, touched, recount);
      changed = true;
    }
    // One request for them all (awaited one by one, an initial sync's pages spent seconds here).
    const typingDone = hopStart();
    if (specialistReplies.length) await db.typing.bulkDelete([...new Set(specialistReplies)]);
    pullHop('typing', typingDone, { rows: specialistReplies.length });
    const held = feed.summariesPending ?? [];
    // R19.10: a pull page's conversations that only gained rows new here, whose summaries are exact
    // (not pending, stored before this transaction, read cursor untouched), add them by tally.
    if (move.kind === 'page' && applied.added.size) {
      const tallying = hopStart();
      const pending = new Set(held);
      const tally = new Map([...applied.added].filter(([id]) => !pending.has(id) && !recount.has(id)));
      for (const id of await tallySummaries(db, tally)) touched.delete(id);
      pullHop('tally', tallying, { rows: tally.size });
    }
    const summarizing = hopStart();
    let pending: string[] | null = null; // the pending list to store, when it changed
    if (opts.summaries === 'defer' && move.kind === 'page') {
      const merged = [...new Set([...held, ...touched])];
      if (merged.length > held.length) pending = merged;
    } else {
      const now = opts.summaries === 'now' ? new Set([...held, ...touched]) : touched;
      await refreshSummaries(db, now);
      if (opts.summaries === 'now' && held.length) pending = [];
      pullHop('summaries', summarizing, { rows: now.size });
    }
    let cursor = feed.cursor;
    let gap = false;
    if (move.kind === 'page') cursor = Math.max(cursor, move.cursor);
    else if (move.kind === 'event') {
      if (specialistUnknown) gap = true;
      else if (move.changeSeq === cursor + 1) cursor = move.changeSeq;
      else if (move.changeSeq > cursor + 1) gap = true;
    }
    if (cursor !== feed.cursor || move.kind === 'page' || pending || wroteServerRow) {
      await db.meta.put({ ...feed, cursor, ...(pending ? { summariesPending: pending } : {}), ...(wroteServerRow ? { serverWrites } : {}) });
    }
    pullHop('tx-body', inside);
    return { gap, cursor, changed, specialistReplies, stored: applied.stored };
  });
}

/** R3.5: drops confirmed copies the server row never matched within the keep time. */
export async function sweepExpiredCopies(db: SyncDb, now: number): Promise<number> {
  return db.transaction('rw', db.syncTables, async () => {
    // Only copies waiting for their server row have confirmedAt (IndexedDB leaves null out of the index).
    const candidates = await db.messages.where('confirmedAt').below(now - OPTIMISTIC_KEEP_MS).toArray();
    const keys = expiredCopies(candidates, now);
    if (keys.length === 0) return 0;
    const conversations = new Set(candidates.filter((m) => keys.includes(m.key)).map((m) => m.conversationId));
    await db.messages.bulkDelete(keys);
    await refreshSummaries(db, conversations);
    return keys.length;
  });
}
