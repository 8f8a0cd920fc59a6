// The engine's public shape: what createSyncEngine (engine.ts) returns. Kept apart so engine.ts only
// composes; engine.ts re-exports it (import it from there).
import type { SyncCommands } from './commands/api.ts';
import type { SyncDb } from './db/schema.ts';
import type { StoredMessages } from './model/local-types.ts';
import type { Arriving } from './receive/published.ts';
import type { SyncStatus } from './status.ts';
import type { UploadProgress } from './attachments/uploader.ts';

export interface SyncEngine {
  readonly userId: string;
  /** Read-only for the UI (queries.ts with useLiveQuery); writes go through `commands`. */
  readonly db: SyncDb;
  readonly commands: SyncCommands;
  accountId(): string | null;
  /**
   * R9.11: the server's clock minus this device's (ms), learnt from replies (0 until known), and the
   * current time on the server's clock. The UI's relative times use it (serverNow in server-time.ts).
   */
  serverOffsetMs(): number;
  serverNow(): number;
  status(): SyncStatus;
  subscribeStatus(fn: (s: SyncStatus) => void): () => void;
  readonly status$: { subscribe(fn: (s: SyncStatus) => void): { unsubscribe(): void } };
  start(): Promise<void>;
  /** `abrupt` closes at once, as a killed tab would (tests). */
  stop(opts?: { abrupt?: boolean }): Promise<void>;
  /** Stops and deletes the user's database (R1.11). */
  signOut(): Promise<void>;
  /** Pull and push now (the retry button, visibility). */
  syncNow(): void;
  /** Tests: resolves once no pull, push or event work is running in this engine. */
  settled(): Promise<void>;
  /**
   * R6.5: messages a realtime or Chatwoot event stored, published right after the write committed
   * (in the syncing tab), so an open chat can show them without waiting for its live query's re-read.
   * `generation` counts the publications; see storedGeneration.
   */
  subscribeStored(fn: (stored: StoredMessages, generation: number) => void): () => void;
  /**
   * Publications so far (and R6.6 settlings of a copy whose row was stored already): a read started
   * when this was n reflects every publication up to n.
   */
  storedGeneration(): number;
  /**
   * R6.6: a message a realtime event brings, handed over before its write (`row`, not yet stored:
   * paint it as a pending copy), then `settled` with its key once that write ended — after the
   * stored row's publication (subscribeStored) when it was stored, so the copy is replaced, never
   * shown beside it. R6.8: another device of the user relaying its send is handed over the same way
   * (`row` in state `sending`, never stored), settled after RELAY_HOLD_MS unless its stored row came.
   */
  subscribeArriving(fn: (a: Arriving) => void): () => void;
  /** R12.4: bytes of each attachment upload on the wire, as they go (the stored offset: attachments/queries.ts). */
  subscribeUploadProgress(fn: (p: UploadProgress) => void): () => void;
}
