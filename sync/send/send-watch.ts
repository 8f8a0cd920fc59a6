// R1.12's in-memory view: what a send needs to decide, without IndexedDB, whether its request may
// start at once (early-send.ts `fast`). Every engine keeps one for its own connection (fed by
// db/write-watch.ts); only the leader that is sure no other context writes sends (solo.ts) trusts it.
// Invariants:
// - `hasSend(c)` over-approximates "a send of c is in the outbox, or is being written by this
//   engine": a key is added when a send is announced (before its transaction is even created) or
//   when a write of it is issued, and removed only once its removal committed (or its own write
//   failed). Too much only sends a message the in-transaction way (safe).
// - A send queued by this engine's code that nobody announced (a future writer) makes the view
//   `surprised` until the next reload: the fast path stops rather than guess.
// - Conversation facts (account, Chatwoot id, status) come from committed rows only: a write to a
//   conversation drops its facts when issued and puts the new ones when it committed; a row read
//   inside a transaction may be given (`seen`), since no later write can have been issued yet.
import type { DBCoreMutateRequest, DBCoreMutateResponse } from 'dexie';
import type { SyncDb } from '../db/schema.ts';
import type { WatchedTable, WriteListener } from '../db/write-watch.ts';
import type { LocalConversation } from '../model/local-types.ts';
import type { OutboxEntry } from './outbox.ts';

export interface ConversationFacts {
  accountId: string;
  chatwootConversationId: string | null;
  status: string;
}

interface Mark {
  conversationId: string;
  /** Announced and its write not finished: a reload keeps it whatever it finds. */
  pending: boolean;
}

export interface Announced {
  /** Its write ended; `stored`: it committed the entry (else nothing of it was stored). */
  settle(stored: boolean): void;
}

function factsOf(c: Pick<LocalConversation, 'accountId' | 'chatwootConversationId' | 'status'>): ConversationFacts {
  return { accountId: c.accountId, chatwootConversationId: c.chatwootConversationId, status: c.status };
}

function isSend(v: unknown): v is OutboxEntry & { op: { kind: 'send' } } {
  return typeof v === 'object' && v !== null && (v as OutboxEntry).op?.kind === 'send';
}

export class SendWatch implements WriteListener {
  private readonly sends = new Map<string, Mark>();
  private readonly keyBySeq = new Map<number, string>();
  private readonly facts = new Map<string, ConversationFacts>();
  private opaqueWrites = 0;
  private surprised = false;
  /** An outbox write it cannot follow (a range delete): the view is stale until reloaded. */
  private stale = false;
  /** Told when the view needs a reload to be trusted again (a range delete, a send nobody announced). */
  onStale: () => void = () => undefined;

  /** True while the view may be trusted for a fast decision. */
  clean(): boolean {
    return this.opaqueWrites === 0 && !this.surprised && !this.stale;
  }

  /** A send of the conversation is queued, or being written by this engine. */
  hasSend(conversationId: string): boolean {
    for (const m of this.sends.values()) if (m.conversationId === conversationId) return true;
    return false;
  }

  /** This engine announced a send of the conversation (other than `except`) whose write has not ended. */
  announcedSend(conversationId: string, except: string): boolean {
    for (const [key, m] of this.sends) if (m.pending && m.conversationId === conversationId && key !== except) return true;
    return false;
  }

  conversation(conversationId: string): ConversationFacts | undefined {
    return this.facts.get(conversationId);
  }

  /** A conversation row read inside a transaction (committed state at that point). */
  seen(c: LocalConversation | undefined, id: string): void {
    if (c) this.facts.set(id, factsOf(c));
    else this.facts.delete(id);
  }

  /** Called before the transaction that will queue send `key` of the conversation is created. */
  announce(conversationId: string, key: string): Announced {
    // A key already known (its entry is queued) stays whatever this write does.
    const mark: Mark | null = this.sends.has(key) ? null : { conversationId, pending: true };
    if (mark) this.sends.set(key, mark);
    return {
      settle: (stored) => {
        if (!mark || this.sends.get(key) !== mark) return;
        if (stored) mark.pending = false;
        else this.sends.delete(key);
      },
    };
  }

  /** Runs a write that may queue sends of conversations not known beforehand (retry, a start's message): no fast decision meanwhile. */
  async opaque<T>(write: () => Promise<T>): Promise<T> {
    this.opaqueWrites++;
    try {
      return await write();
    } finally {
      this.opaqueWrites--;
    }
  }

  issued(table: WatchedTable, req: DBCoreMutateRequest, trans: IDBTransaction): ((res: DBCoreMutateResponse) => void) | void {
    const committed = (fn: () => void) => trans.addEventListener('complete', fn);
    if (table === 'conversations') {
      if (req.type === 'deleteRange') this.facts.clear();
      else if (req.type === 'delete') for (const k of req.keys) this.facts.delete(String(k));
      else {
        const rows = (req.values ?? []) as LocalConversation[];
        for (const r of rows) this.facts.delete(r.id);
        committed(() => {
          for (const r of rows) this.facts.set(r.id, factsOf(r));
        });
      }
      return;
    }
    if (req.type === 'deleteRange') {
      committed(() => {
        this.stale = true;
        this.onStale();
      });
      return;
    }
    if (req.type === 'delete') {
      const seqs = req.keys as number[];
      committed(() => {
        for (const seq of seqs) {
          const key = this.keyBySeq.get(seq);
          if (key === undefined) continue; // not a send this view knows: nothing to remove
          this.keyBySeq.delete(seq);
          this.sends.delete(key);
        }
      });
      return;
    }
    const values = (req.values ?? []) as unknown[];
    for (const v of values) {
      if (!isSend(v)) continue;
      if (!this.sends.has(v.key)) {
        if (this.opaqueWrites === 0) {
          this.surprised = true;
          committed(() => this.onStale());
        }
        this.sends.set(v.key, { conversationId: v.op.conversationId, pending: false });
      }
      if (typeof v.seq === 'number') this.keyBySeq.set(v.seq, v.key);
    }
    return (res) => {
      const keys = res.results ?? (values.length === 1 ? [res.lastResult] : []);
      values.forEach((v, i) => {
        const seq: unknown = keys[i];
        if (isSend(v) && typeof seq === 'number') this.keyBySeq.set(seq, v.key);
      });
    };
  }

  /**
   * Loads the outbox's sends and the conversations' facts, in one read-write transaction: it starts
   * only after every read-write transaction created before it ended (IndexedDB's order, across
   * connections), so it sees every send any context committed until then; the view is rebuilt inside
   * it, before any later transaction can issue a write.
   */
  async reload(db: SyncDb): Promise<void> {
    await db.transaction('rw', db.outbox, db.conversations, async () => {
      const [entries, conversations] = await Promise.all([db.outbox.toArray(), db.conversations.toArray()]);
      for (const [key, m] of this.sends) if (!m.pending) this.sends.delete(key);
      this.keyBySeq.clear();
      for (const e of entries) {
        if (!isSend(e)) continue;
        if (!this.sends.has(e.key)) this.sends.set(e.key, { conversationId: e.op.conversationId, pending: false });
        if (e.seq !== undefined) this.keyBySeq.set(e.seq, e.key);
      }
      this.facts.clear();
      for (const c of conversations) this.facts.set(c.id, factsOf(c));
      this.surprised = false;
      this.stale = false;
    });
  }
}
