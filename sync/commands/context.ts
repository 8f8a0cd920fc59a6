// What every command needs. Commands only touch IndexedDB; `notify` tells whoever pushes (this tab's
// engine or, through the tab channel, the leader tab) that the outbox changed.
import type { SyncDb } from '../db/schema.ts';
import type { EarlySend } from '../send/early-send.ts';
import type { IdSource } from '../model/ids.ts';

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
}
