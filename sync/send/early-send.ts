// R1.12: a send's request starts inside the transaction that stores it, right after the transaction's
// first reads, instead of after its commit and the engine's hop to the flush (bench row 4c). What
// keeps the rules:
// - invariant 1 / R1.1: the command still returns (and the composer clears) only after the commit;
//   the request's outcome is written only after it, to the entry that commit stored.
// - R1.8: only when that same transaction saw no earlier send of the conversation in the outbox (a
//   later send stays queued behind this one: its entry is in the outbox until the outcome removes it).
// - R9.10: the entry is stored already claimed by this engine, so no flush (here or in another tab)
//   pushes it again while the request is out; `busy` keeps this engine's own flush off it.
// - R9.1/R9.2/R9.8: only while this engine leads, is online, its session gate last answered `ok`
//   and nothing since went offline or changed the session, and the conversation is of the account
//   acted in. Otherwise the entry is queued as before and the flush pushes it.
// - A crash before the commit leaves nothing stored: the server has the message once or not at all
//   (as a crash before Enter's write did). A crash after it leaves a claimed entry, pushed again once
//   the claim ran out; the correlation id makes that repeat return the stored row.
import Dexie from 'dexie';
import type { LocalConversation } from '../model/local-types.ts';
import { outboxKey, type OutboxEntry, type OutboxOp } from './outbox.ts';
import { finishEarlySend, requestSend, type PushDeps } from './push.ts';

type SendOp = Extract<OutboxOp, { kind: 'send' }>;

export interface EarlyCandidate {
  op: SendOp;
  conversation: LocalConversation | undefined;
  /** The write's own read found a send of this conversation in the outbox (R1.8). */
  earlierSendQueued: boolean;
}

export interface EarlyStarted {
  claim: { by: string; until: number };
  /** The transaction that wrote `entry` committed: the outcome may be stored. */
  stored(entry: OutboxEntry): void;
  /** The transaction failed: nothing was stored, the outcome is dropped (the command throws). */
  failed(): void;
}

/** Offered every send inside its write transaction; null: queue it for the flush as before. */
export type EarlySend = (c: EarlyCandidate) => EarlyStarted | null;

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
}

export function createEarlySend(deps: EarlySendDeps): EarlySend {
  return ({ op, conversation, earlierSendQueued }) => {
    const account = deps.ready();
    if (earlierSendQueued || account === null || !conversation || conversation.accountId !== account) return null;
    const key = outboxKey(op);
    if (deps.busy.has(key)) return null;
    deps.busy.add(key);
    let settle!: (entry: OutboxEntry | null) => void;
    const stored = new Promise<OutboxEntry | null>((resolve) => (settle = resolve));
    const d = deps.push();
    // Outside the caller's transaction zone: the outcome's own transaction must not look nested in it.
    const run = Dexie.ignoreTransaction(() => {
      const request = requestSend(d, op, Boolean(conversation.chatwootConversationId));
      return finishEarlySend(d, op, request, stored);
    });
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
  };
}
