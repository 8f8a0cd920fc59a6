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
// - Conversation facts (account, Chatwoot id, status) come from committed rows only, and are given
//   out only while every write of that conversation issued and not yet ended carries the same facts:
//   then the decision is the one the committed state will give whichever of them commit (a chat's
//   conversation row is rewritten with every message — last message, order, unread count — without
//   its facts changing, and a send typed meanwhile would otherwise lose the fast path). A write with
//   other facts hides them until it ended; its commit puts the new ones, its abort leaves the old. A
//   row read inside a transaction may be given (`seen`), since no later write can have been issued yet.
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

/** What a pending deletion carries: equal to no row's facts (an account id is never empty). */
const DELETED: ConversationFacts = { accountId: '', chatwootConversationId: null, status: '' };

const sameFacts = (a: ConversationFacts, b: ConversationFacts) =>
  a.accountId === b.accountId && a.chatwootConversationId === b.chatwootConversationId && a.status === b.status;

function isSend(v: unknown): v is OutboxEntry & { op: { kind: 'send' } } {
  return typeof v === 'object' && v !== null && (v as OutboxEntry).op?.kind === 'send';
}

export class SendWatch implements WriteListener {
  private readonly sends = new Map<string, Mark>();
  private readonly keyBySeq = new Map<number, string>();
  private readonly facts = new Map<string, ConversationFacts>();
  /** Conversation range deletions issued and not yet ended: no facts are given out meanwhile. */
  private rangeDeletes = 0;
  /** Per conversation, the facts of each write issued and not yet ended (one object per written row; a deletion's never match). */
  private readonly pendingFacts = new Map<string, Set<ConversationFacts>>();
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
    const f = this.facts.get(conversationId);
    if (!f || this.rangeDeletes > 0) return undefined;
    for (const p of this.pendingFacts.get(conversationId) ?? []) if (!sameFacts(p, f)) return undefined;
    return f;
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

  /** Marks a write of `id` carrying `f` as pending; answers its release. */
  private hold(id: string, f: ConversationFacts): () => void {
    const set = this.pendingFacts.get(id) ?? new Set<ConversationFacts>();
    this.pendingFacts.set(id, set.add(f));
    return () => {
      set.delete(f);
      if (set.size === 0 && this.pendingFacts.get(id) === set) this.pendingFacts.delete(id);
    };
  }

  issued(table: WatchedTable, req: DBCoreMutateRequest, trans: IDBTransaction): ((res: DBCoreMutateResponse) => void) | void {
    const committed = (fn: () => void) => trans.addEventListener('complete', fn);
    if (table === 'conversations') {
      // Once the write ended: `stored` when it committed, else it aborted (nothing of it stored).
      const ended = (fn: (stored: boolean) => void) => {
        let done = false;
        const end = (stored: boolean) => {
          if (done) return;
          done = true;
          fn(stored);
        };
        committed(() => end(true));
        trans.addEventListener('abort', () => end(false));
      };
      if (req.type === 'deleteRange') {
        // A range deletion hides every fact until it ended and forgets them once it committed.
        this.rangeDeletes++;
        ended((stored) => {
          this.rangeDeletes--;
          if (stored) this.facts.clear();
        });
        return;
      }
      // A deletion is a pending write whose facts match no row's (DELETED): hidden until it ended,
      // forgotten once it committed, kept when it aborted.
      const deleting = req.type === 'delete';
      const ids = deleting ? req.keys.map(String) : ((req.values ?? []) as LocalConversation[]).map((r) => r.id);
      const facts = deleting ? ids.map(() => ({ ...DELETED })) : ((req.values ?? []) as LocalConversation[]).map(factsOf);
      const held = ids.map((id, i) => this.hold(id, facts[i]!));
      ended((stored) => {
        for (const release of held) release();
        if (stored) ids.forEach((id, i) => (deleting ? this.facts.delete(id) : this.facts.set(id, facts[i]!)));
      });
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
