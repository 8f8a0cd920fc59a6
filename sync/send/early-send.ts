// R1.12: a send's request starts before the commit of the transaction that stores it — at once,
// before that transaction is even created (`fast`), when the leader can decide from memory; else
// inside it, right after its first reads (`inTransaction`), instead of after its commit and the
// engine's hop to the flush (bench row 4c). What keeps the rules:
// - invariant 1 / R1.1: the command still returns (and the composer clears) only after the commit;
//   the request's outcome is written only after it, to the entry that commit stored.
// - R1.8: in the transaction, only when that same transaction saw no earlier send of the
//   conversation in the outbox; fast, only while this engine is solo (solo.ts: no other context can
//   write sends) and its view (send-watch.ts) has no send of the conversation queued or being
//   written. A later send stays queued behind this one: its entry is in the outbox (or, before the
//   commit, announced in the view) until the outcome removes it.
// - R9.10: the entry is stored already claimed by this engine, so no flush (here or in another tab)
//   pushes it again while the request is out; `busy` keeps this engine's own flush off it.
// - R9.1/R9.2/R9.8: only while this engine leads, is online, its session gate last answered `ok`
//   and nothing since went offline or changed the session, and the conversation is of the account
//   acted in. Otherwise the entry is queued as before and the flush pushes it.
// - R1.2: fast, only for a conversation the view knows as active; the transaction still refuses a
//   completed one (nothing stored, the outcome dropped, the command answers null) and the server
//   refuses it too (400), so the message exists nowhere.
// - A crash before the commit leaves nothing stored: the server has the message once or not at all
//   (as a crash before Enter's write did). A crash after it leaves a claimed entry, pushed again once
//   the claim ran out; the correlation id makes that repeat return the stored row.
import Dexie from 'dexie';
import { outboxKey, type OutboxEntry } from './outbox.ts';
import type { EarlySend, EarlyStarted, SendOp } from './optimistic-message.ts';
import { finishEarlySend, requestSend, type PushDeps } from './push.ts';
import type { SendWatch } from './send-watch.ts';
import { feedGeneration } from '../session/feed-generation.ts';
import { syncMark, type SlowReason } from '../marks.ts';

export type { EarlyCandidate, EarlySend, EarlyStarted, SendOp } from './optimistic-message.ts';

/**
 * Offered a send before its write transaction is created (the op's `accountId` is filled from the
 * view); null: it goes the in-transaction way. Must be called before the send is announced.
 */
export type FastSend = (op: SendOp) => { started: EarlyStarted; op: SendOp } | null;

export interface EarlySendDeps {
  push: () => PushDeps;
  /** Leading, online, session gate ok, and the account acted in (null when unknown). */
  ready: () => string | null;
  claimer: { id: string; holdMs: number };
  now: () => number;
  /** Outbox keys whose request this engine started early; the flush leaves them alone. */
  busy: Set<string>;
  track: <T>(p: Promise<T>) => Promise<T>;
  /** The outcome is stored (`sent`: the server took it): flush what queued behind it. */
  done: (sent: boolean) => void;
  /** The leader's in-memory view and whether it may be trusted now (solo.ts). */
  watch: SendWatch;
  solo: () => boolean;
}

function start(deps: EarlySendDeps, op: SendOp, viaChatwoot: boolean): EarlyStarted {
  const key = outboxKey(op);
  deps.busy.add(key);
  let settle!: (entry: OutboxEntry | null) => void;
  const stored = new Promise<OutboxEntry | null>((resolve) => (settle = resolve));
  const d = deps.push();
  const since = feedGeneration(d.db); // R9.18: the feed's generation when the request leaves
  // Outside the caller's transaction zone: the outcome's own transaction must not look nested in it.
  const run = Dexie.ignoreTransaction(() => finishEarlySend(d, op, requestSend(d, op, viaChatwoot), stored, since));
  void deps.track(
    run
      .catch(() => false)
      .then((sent) => {
        deps.busy.delete(key);
        deps.done(sent);
      }),
  );
  return {
    claim: { by: deps.claimer.id, until: deps.now() + deps.claimer.holdMs },
    stored: (entry) => settle(entry),
    failed: () => settle(null),
  };
}

export function createEarlySend(deps: EarlySendDeps): { inTransaction: EarlySend; fast: FastSend } {
  const inTransaction: EarlySend = ({ op, conversation, earlierSendQueued }) => {
    deps.watch.seen(conversation, op.conversationId);
    const account = deps.ready();
    // This engine's own send of the conversation announced but not yet committed counts as earlier too.
    const ownEarlier = deps.watch.announcedSend(op.conversationId, outboxKey(op));
    if (earlierSendQueued || ownEarlier || account === null || !conversation || conversation.accountId !== account) return null;
    if (deps.busy.has(outboxKey(op))) return null;
    return start(deps, op, Boolean(conversation.chatwootConversationId));
  };
  const fast: FastSend = (op) => {
    const { watch } = deps;
    // The reason a send goes the in-transaction way is marked (a page's timeline only): a journey
    // tells "another tab writes sends" from a background write or a session check at that moment.
    const decline = (reason: SlowReason) => {
      syncMark('poradna:send:slow', { correlationId: op.correlationId.toLowerCase(), reason });
      return null;
    };
    if (!deps.solo()) return decline('not-solo');
    if (!watch.clean()) return decline('view-untrusted');
    if (watch.hasSend(op.conversationId)) return decline('send-queued');
    const facts = watch.conversation(op.conversationId);
    const account = deps.ready();
    if (!facts || facts.status !== 'active') return decline('conversation-unknown');
    if (account === null || facts.accountId !== account) return decline('not-ready');
    if (deps.busy.has(outboxKey(op))) return decline('busy');
    const withAccount = { ...op, accountId: facts.accountId };
    return { started: start(deps, withAccount, Boolean(facts.chatwootConversationId)), op: withAccount };
  };
  return { inTransaction, fast };
}
