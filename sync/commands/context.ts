// What every command needs. Commands only touch IndexedDB; `notify` tells whoever pushes (this tab's
// engine or, through the tab channel, the leader tab) that the outbox changed.
import type { SyncDb } from '../db/schema.ts';
import type { EarlySend, FastSend } from '../send/early-send.ts';
import type { IdSource } from '../model/ids.ts';
import type { SendWatch } from '../send/send-watch.ts';
import type { StorageEstimate } from '../attachments/limits.ts';

export interface CommandContext {
  db: SyncDb;
  userId: string;
  /** The account the user acts in (own or impersonated); null while unknown. */
  accountId: () => string | null;
  now: () => number;
  newId: IdSource;
  notify: () => void;
  /** R1.12: starts a send's request inside its write (this engine leading and online); absent: the flush sends it. */
  early?: EarlySend | null;
  /** R1.12: starts a send's request before its write transaction (the leader, solo); null: not now. */
  fast?: FastSend | null;
  /** R1.12: this engine's view of the sends it queues (every send is announced before its write). */
  watch?: SendWatch | null;
  /** R1.13 (solo.ts): null when this engine may write sends now; else resolves once it may. */
  writeGate?: () => Promise<void> | null;
  /** R12.2: the device's free space (navigator.storage.estimate); absent: not checked. */
  estimate?: StorageEstimate | null;
  /** R6.8: tells the user's other devices of a send whose request has started (the leader only). */
  relay?: ((send: RelaySend) => void) | null;
}

/** The send a relay tells of (transports/relay.ts; receive/relayed.ts decides what is relayed). */
export interface RelaySend {
  conversationId: string;
  correlationId: string;
  text: string;
  payload: unknown;
}
