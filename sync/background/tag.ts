// The Background Sync tag the page registers and the service worker answers.
export const OUTBOX_SYNC_TAG = 'poradna-outbox';

/** The lock the engine's leader holds for a user's database (sync/session/leader.ts via engine.ts). */
export const leaderLockName = (dbName: string): string => `${dbName}:leader`;

/** The window event announcing a restore after eviction (restore.ts). Here, in a module without
 * imports, so the page's entry can listen for it without pulling Dexie in. */
export const RESTORED_EVENT = 'poradna:restored';
