// Applies a batch of server messages (a pull page, a realtime record, a send's reply) through the
// de-duplication plan of dedup.ts. A server row is always stored under its own key (R3.1), so the
// candidates of a whole batch come from one bulkGet (plus Chatwoot ids when there are any), not
// from queries per message: an initial sync brings thousands. Inside the caller's transaction.
import type { SyncDb } from '../db/schema.ts';
import { planRemoteMessage } from '../merge/dedup.ts';
import type { LocalMessage, StoredMessages } from '../model/local-types.ts';
import { messageKeyOf } from '../merge/message.ts';
import type { RemoteMessage } from '../model/remote-types.ts';
import { hopStart, pullHop } from '../pull-marks.ts';
import type { PullLedger } from './pull-ledger.ts';

export interface MessagesApplied {
  /** Conversations whose stored messages changed. */
  touched: Set<string>;
  /** Conversations that got a specialist message. */
  specialistReplies: string[];
  /** The rows written and the keys deleted (what the engine publishes once the transaction commits). */
  stored: StoredMessages;
  /**
   * R19.10: per conversation, the rows written that were not stored before, for the conversations
   * whose rows in this batch were all such (none replaced, matched or removed): their summaries may
   * be kept by tally (db/summary-tally.ts).
   */
  added: Map<string, LocalMessage[]>;
}

function byExternalId(rows: LocalMessage[]): Map<string, LocalMessage[]> {
  const map = new Map<string, LocalMessage[]>();
  for (const m of rows) {
    const v = m.chatwootMessageId;
    if (v === null) continue;
    map.set(v, [...(map.get(v) ?? []), m]);
  }
  return map;
}

/** R19.5: a pull's proof of which keys may be stored, and whether it holds in this transaction. */
export interface LedgerInTx {
  ledger: PullLedger;
  proven: boolean;
}

export async function applyRemoteMessages(db: SyncDb, remote: RemoteMessage[], userId: string, known?: LedgerInTx): Promise<MessagesApplied> {
  const touched = new Set<string>();
  const specialistReplies: string[] = [];
  if (remote.length === 0) return { touched, specialistReplies, stored: { put: [], removed: [] }, added: new Map() };
  const keys = remote.map(messageKeyOf);
  const stored = new Map<string, LocalMessage>();
  const removed = new Set<string>();
  const puts = new Map<string, LocalMessage>();
  const reading = hopStart();
  const candidates = known ? known.ledger.mayBeStored(keys, known.proven) : keys;
  if (candidates.length) for (const m of await db.messages.bulkGet(candidates)) if (m) stored.set(m.key, m);
  const extIds = remote.map((r) => r.chatwoot_message_id).filter((x): x is string => x !== null);
  const external = byExternalId(extIds.length ? await db.messages.where('chatwootMessageId').anyOf(extIds).toArray() : []);
  pullHop('read', reading, { rows: remote.length });
  const merging = hopStart();

  // R3.4 candidates, read once per conversation and batch (a page may hold many such rows of one chat).
  const copies = new Map<string, LocalMessage[]>();
  const copiesIn = async (conversationId: string): Promise<LocalMessage[]> => {
    let list = copies.get(conversationId);
    if (!list) {
      list = await db.messages.where('conversationId').equals(conversationId).filter((m) => m.origin === 'optimistic' && m.state === 'sent').toArray();
      copies.set(conversationId, list);
    }
    return list;
  };

  /** R19.10: conversations where a row was replaced, matched or removed (their summary is recounted). */
  const replaced = new Set<string>();
  for (const [i, r] of remote.entries()) {
    const key = keys[i]!;
    const byKey = stored.get(key);
    const byExternalId = r.chatwoot_message_id ? (external.get(r.chatwoot_message_id) ?? []).filter((m) => m.key !== key && !removed.has(m.key)) : [];
    // Copies that could match by text (R3.4) exist only for our own messages without correlation id.
    const lookForCopies = !byKey && !r.client_correlation_id && r.direction === 'user' && r.sender_user_id === userId;
    const confirmedCopies = lookForCopies ? (await copiesIn(r.conversation_id)).filter((m) => !removed.has(m.key)) : [];
    const plan = planRemoteMessage(r, { byKey, byExternalId, confirmedCopies }, userId);
    if (byKey || byExternalId.length || confirmedCopies.length || plan.remove.length) {
      replaced.add(r.conversation_id);
      for (const m of [byKey, ...byExternalId, ...confirmedCopies]) if (m) replaced.add(m.conversationId);
      if (plan.put) replaced.add(plan.put.conversationId);
    }
    for (const k of plan.remove) {
      stored.delete(k);
      puts.delete(k);
      removed.add(k);
    }
    if (plan.put) {
      stored.set(plan.put.key, plan.put);
      puts.set(plan.put.key, plan.put);
      removed.delete(plan.put.key);
    }
    if (plan.put === null && plan.remove.length === 0) continue;
    touched.add(r.conversation_id);
    // R7.5: a reply new to this device clears typing, once per conversation (a page of an initial sync
    // holds hundreds of one chat's replies). A later version of a stored one does not: a streamed
    // answer's next write (R13.1), its final one or an edit can land after the user's next question,
    // whose typing it must leave on (byKey: the stored copy this version replaces).
    if (r.direction === 'specialist' && !byKey && !specialistReplies.includes(r.conversation_id)) specialistReplies.push(r.conversation_id);
  }
  // One bulk write each: the plan above already saw every earlier row of the batch.
  const written: StoredMessages = { put: [...puts.values()], removed: [...removed] };
  const added = new Map<string, LocalMessage[]>();
  for (const m of written.put) {
    if (replaced.has(m.conversationId)) continue;
    const list = added.get(m.conversationId);
    if (list) list.push(m);
    else added.set(m.conversationId, [m]);
  }
  pullHop('merge', merging, { rows: remote.length });
  const writing = hopStart();
  if (written.removed.length) await db.messages.bulkDelete(written.removed);
  if (written.put.length) await db.messages.bulkPut(written.put);
  pullHop('write', writing, { rows: written.put.length });
  return { touched, specialistReplies, stored: written, added };
}
